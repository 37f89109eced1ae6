//! The page side of the secret-field predicate (`waymark_protocol::secret`): reads a field's facts from
//! the element, and remembers which inputs have ever been password fields.
//!
//! A page's "show password" button switches its input from `type=password` to `type=text`; what was
//! typed is still the password. So every input seen as a password (by a listing, a description, a
//! screenshot's mask, or one `MutationObserver` that watches only the `type` attribute, started with
//! the content script) goes into a `WeakSet`, and stays secret as long as it exists.
//!
//! Must stay cheap and invisible: the observer runs on every page, so its callback only reads the
//! records it is given (no layout, no style); computed style is read only for text-like fields; the
//! page's DOM is never written, and the set holds its elements weakly (never keeping one alive) where
//! no page script can see it.

use std::cell::RefCell;

use wasm_bindgen::prelude::*;
use waymark_protocol::{secret_kind, FieldFacts, Secret};
use web_sys::{Element, HtmlInputElement, MutationObserver, MutationObserverInit};

/// The observer and its callback, kept so they live as long as the frame.
type Observer = (MutationObserver, Closure<dyn FnMut(js_sys::Array)>);

struct Watch {
    /// Inputs that have been `type=password` at some time.
    ever_password: js_sys::WeakSet,
    _observer: Option<Observer>,
}

thread_local! {
    static WATCH: RefCell<Option<Watch>> = const { RefCell::new(None) };
}

/// Starts watching the frame's document for inputs whose `type` changes away from `password`. Called
/// once, when the content script starts.
pub fn watch_password_fields() {
    let ever_password = js_sys::WeakSet::new();
    let callback = Closure::<dyn FnMut(js_sys::Array)>::new({
        let ever_password = ever_password.clone();
        move |records: js_sys::Array| {
            for record in records.iter() {
                let get = |key: &str| js_sys::Reflect::get(&record, &key.into()).ok();
                let was_password = get("oldValue")
                    .and_then(|v| v.as_string())
                    .is_some_and(|v| v.trim().eq_ignore_ascii_case("password"));
                if let Some(target) = get("target").filter(|_| was_password) {
                    if let Ok(target) = target.dyn_into::<js_sys::Object>() {
                        ever_password.add(&target);
                    }
                }
            }
        }
    });
    let observer = MutationObserver::new(callback.as_ref().unchecked_ref())
        .ok()
        .filter(|observer| {
            let Some(document) = web_sys::window().and_then(|w| w.document()) else {
                return false;
            };
            let options = MutationObserverInit::new();
            options.set_attributes(true);
            options.set_attribute_old_value(true);
            options.set_subtree(true);
            let filter: js_sys::Array = std::iter::once(JsValue::from_str("type")).collect();
            options.set_attribute_filter(&filter);
            observer.observe_with_options(&document, &options).is_ok()
        })
        .map(|observer| (observer, callback));
    WATCH.with_borrow_mut(|watch| {
        *watch = Some(Watch {
            ever_password,
            _observer: observer,
        });
    });
}

/// Whether `element` has been a password field while this content script watched, noting it if it is
/// one now.
fn ever_password(element: &Element, password_now: bool) -> bool {
    WATCH.with_borrow_mut(|watch| {
        // Without the observer (never started), the set still learns from listings and masks.
        let watch = watch.get_or_insert_with(|| Watch {
            ever_password: js_sys::WeakSet::new(),
            _observer: None,
        });
        if password_now {
            watch.ever_password.add(element);
        }
        password_now || watch.ever_password.has(element)
    })
}

/// Whether the field is secret, from everything the page shows of it. `tag` and `role` as the
/// listing found them; `label` is the accessible name (for a contenteditable field, only what its
/// attributes say, never its text, which is what was typed).
pub fn of_field(element: &Element, tag: &str, role: &str, label: &str) -> Option<Secret> {
    let attr = |name: &str| element.get_attribute(name).unwrap_or_default();
    // The property, not the attribute: a missing or unknown `type` is a text field.
    let input_type = element
        .dyn_ref::<HtmlInputElement>()
        .map(|input| input.type_().to_lowercase())
        .unwrap_or_default();
    let password_now = input_type == "password";
    let was_password = tag == "input" && ever_password(element, password_now);
    let text_like = match tag {
        "input" => matches!(
            input_type.as_str(),
            "text" | "tel" | "number" | "email" | "url" | "search" | ""
        ),
        "textarea" => true,
        "select" => false,
        // A contenteditable field.
        _ => role == "textbox",
    };
    let (autocomplete, inputmode, name, id) =
        (attr("autocomplete"), attr("inputmode"), attr("name"), attr("id"));
    let (placeholder, aria_label) = (attr("placeholder"), attr("aria-label"));
    let maxlength = element
        .get_attribute("maxlength")
        .and_then(|m| m.trim().parse::<u32>().ok());
    // A card number is known by its value in a field labelled in any language (read here, passed on
    // only as a yes or no).
    let card_value = text_like
        && typed_value(element, tag)
            .is_some_and(|value| waymark_protocol::secret::values::is_card_number(&value));
    let mut facts = FieldFacts {
        tag,
        role,
        input_type: &input_type,
        autocomplete: &autocomplete,
        inputmode: &inputmode,
        name: &name,
        id: &id,
        label,
        placeholder: &placeholder,
        aria_label: &aria_label,
        maxlength,
        text_security: false,
        was_password,
        card_value,
    };
    if let Some(secret) = secret_kind(&facts) {
        return Some(secret);
    }
    // Style last, and only where it can hide typing: reading it is the one costly fact.
    if text_like && !password_now {
        facts.text_security = drawn_as_dots(element);
        return secret_kind(&facts);
    }
    None
}

/// What was typed into a field: an input's or text area's value, an editable region's text.
pub fn typed_value(element: &Element, tag: &str) -> Option<String> {
    match tag {
        "input" => element.dyn_ref::<HtmlInputElement>().map(HtmlInputElement::value),
        "textarea" => element
            .dyn_ref::<web_sys::HtmlTextAreaElement>()
            .map(web_sys::HtmlTextAreaElement::value),
        "select" => None,
        _ => element.text_content(),
    }
}

/// Whether what is typed into `element` is drawn as dots: `-webkit-text-security`, or a font whose
/// letters all look alike (a "password font" pages use where that property is missing).
pub fn drawn_as_dots(element: &Element) -> bool {
    let Some(style) = web_sys::window().and_then(|w| w.get_computed_style(element).ok().flatten()) else {
        return false;
    };
    let property = |name: &str| style.get_property_value(name).unwrap_or_default();
    let security = property("-webkit-text-security");
    let security = security.trim();
    if !security.is_empty() && security != "none" {
        return true;
    }
    crate::dot_font::is_dot_font(&property("font"))
}
