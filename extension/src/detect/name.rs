//! Naming and describing a control the way a screen reader does: its accessible name, its value (never
//! a secret field's), its states; and asking the one secret predicate about a field.
//!
//! Must not: report what was typed into a secret field, as a value or as a name (a secret
//! contenteditable field is named only by its attributes), or change the page.

use wasm_bindgen::{JsCast, JsValue};
use waymark_protocol::text::collapse_spaces;
use waymark_protocol::SecretKind;
use web_sys::{Element, HtmlElement, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};

use super::labels::Labels;
use super::rules::role_of;
use super::MAX_TEXT;

/// A simplified accessible-name computation: labelledby, aria-label, labels, alt, text, placeholder,
/// title, in that order. Text is what a screen reader says from the content ([`visible_text`]).
///
/// `labels`, when given, is the scan's index of the tree's labels; otherwise the field's own `labels`
/// list is read (the same labels, fine for one element).
pub(super) fn accessible_name(element: &Element, tag: &str, labels: Option<&Labels<'_>>) -> String {
    if let Some(text) = labelled_by(element, true) {
        return text;
    }
    let attr = |name: &str| {
        element
            .get_attribute(name)
            .map(|v| clean(&v))
            .filter(|v| !v.is_empty())
    };
    if let Some(label) = attr("aria-label") {
        return label;
    }
    if matches!(tag, "input" | "select" | "textarea") {
        let labels = match labels {
            Some(index) => Some(index.of(element)),
            None => js_sys::Reflect::get(element, &"labels".into())
                .ok()
                .and_then(|l| l.dyn_into::<web_sys::NodeList>().ok())
                .map(|l| {
                    (0..l.length())
                        .filter_map(|i| l.item(i)?.dyn_into::<Element>().ok())
                        .collect()
                }),
        };
        if let Some(labels) = labels {
            let text: Vec<String> = labels.iter().map(|l| label_text(l, element)).collect();
            let text = clean(&text.join(" "));
            if !text.is_empty() {
                return text;
            }
        }
        let input_type = element.get_attribute("type").unwrap_or_default().to_lowercase();
        if matches!(input_type.as_str(), "submit" | "button" | "reset") {
            if let Some(v) = attr("value") {
                return v;
            }
            return if input_type == "reset" {
                "Reset".into()
            } else {
                "Submit".into()
            };
        }
        if input_type == "image" {
            if let Some(alt) = attr("alt") {
                return alt;
            }
        }
        return attr("placeholder").or_else(|| attr("title")).unwrap_or_default();
    }
    let text = clean(&visible_text(element, None));
    if !text.is_empty() {
        return text;
    }
    if let Ok(Some(img)) = element.query_selector("img[alt]") {
        if let Some(alt) = img
            .get_attribute("alt")
            .map(|a| clean(&a))
            .filter(|a| !a.is_empty())
        {
            return alt;
        }
    }
    attr("title").or_else(|| attr("placeholder")).unwrap_or_default()
}

/// The text of the elements `aria-labelledby` names. With `itself` false, the element and what is
/// inside it are left out (a secret field's own text is what was typed).
pub(super) fn labelled_by(element: &Element, itself: bool) -> Option<String> {
    let ids = element.get_attribute("aria-labelledby")?;
    let root = element.get_root_node();
    let text: Vec<String> = ids
        .split_whitespace()
        .filter_map(|id| call_element(&root, "getElementById", &id.into()))
        .filter(|e| itself || !element.contains(Some(e)))
        .filter_map(|e| e.text_content())
        .collect();
    let text = clean(&text.join(" "));
    (!text.is_empty()).then_some(text)
}

/// The name and the secret of a field, for a listing, a description or a mask. A native field is
/// named as a screen reader would name it (never by its value), then asked about; a contenteditable
/// field (or other `textbox`) is asked about by what its attributes say first, and, when secret, named
/// only by them, since its text is what was typed. Other elements hold no secret.
pub(super) fn field_name(
    element: &Element,
    tag: &str,
    role: Option<&str>,
    labels: Option<&Labels<'_>>,
) -> (String, Option<SecretKind>) {
    let role_text = role.unwrap_or_default();
    if matches!(tag, "input" | "select" | "textarea") {
        let name = accessible_name(element, tag, labels);
        let secret = crate::secret::of_field(element, tag, role_text, &name).map(|s| s.kind);
        return (name, secret);
    }
    if role_text == "textbox" {
        let attr = |name: &str| {
            element
                .get_attribute(name)
                .map(|v| clean(&v))
                .filter(|v| !v.is_empty())
        };
        let quiet = labelled_by(element, false)
            .or_else(|| attr("aria-label"))
            .or_else(|| attr("title"))
            .or_else(|| attr("aria-placeholder"))
            .unwrap_or_default();
        if let Some(secret) = crate::secret::of_field(element, tag, role_text, &quiet) {
            return (quiet, Some(secret.kind));
        }
    }
    (accessible_name(element, tag, labels), None)
}

/// The secret `element` holds, if any (for the screenshot's mask, which meets elements outside a
/// listing).
pub fn secret_of(element: &Element) -> Option<SecretKind> {
    let tag = element.local_name();
    let role = role_of(element, &tag);
    field_name(element, &tag, role.as_deref(), None).1
}

/// The value a listing reports: typed text or the chosen option, never for a secret field.
pub(super) fn value_of(element: &Element, tag: &str, secret: Option<SecretKind>) -> Option<String> {
    if secret.is_some() {
        return None;
    }
    let value = match tag {
        "input" => {
            let input = element.dyn_ref::<HtmlInputElement>()?;
            let kind = input.type_().to_lowercase();
            // Their value is a label or a path, not something to read out as typed text (and a
            // password input is secret, see above).
            if matches!(
                kind.as_str(),
                "password" | "checkbox" | "radio" | "submit" | "button" | "reset" | "image" | "file"
            ) {
                return None;
            }
            input.value()
        }
        "textarea" => element.dyn_ref::<HtmlTextAreaElement>()?.value(),
        "select" => {
            let select = element.dyn_ref::<HtmlSelectElement>()?;
            let options = select.selected_options();
            let text: Vec<String> = (0..options.length())
                .filter_map(|i| options.item(i)?.text_content())
                .collect();
            text.join(", ")
        }
        _ => return None,
    };
    let value = clean(&value);
    (!value.is_empty()).then_some(value)
}

pub(super) fn states_of(element: &Element) -> Vec<String> {
    let mut states = Vec::new();
    let aria = |name: &str| element.get_attribute(name).map(|v| v.to_lowercase());
    let checked = element
        .dyn_ref::<HtmlInputElement>()
        .is_some_and(|i| matches!(i.type_().to_lowercase().as_str(), "checkbox" | "radio") && i.checked());
    if checked || aria("aria-checked").as_deref() == Some("true") {
        states.push("checked".into());
    }
    match aria("aria-expanded").as_deref() {
        Some("true") => states.push("expanded".into()),
        Some("false") => states.push("collapsed".into()),
        _ => {}
    }
    if aria("aria-pressed").as_deref() == Some("true") {
        states.push("pressed".into());
    }
    if aria("aria-selected").as_deref() == Some("true") {
        states.push("selected".into());
    }
    if element.has_attribute("required") || aria("aria-required").as_deref() == Some("true") {
        states.push("required".into());
    }
    states
}

/// A label's words without those of the control it wraps: a list inside its own label is named
/// "Bulk actions", not "Bulk actions Mark as read Delete…", as a screen reader says it.
pub(super) fn label_text(label: &Element, control: &Element) -> String {
    let inside = label.contains(Some(control)) && label != control;
    visible_text(label, inside.then_some(control))
}

/// The words a screen reader says from an element's content, as Chrome computes a name from content:
/// text that is not rendered (`display: none`, `visibility: hidden`) or is `aria-hidden` is left out,
/// and the words of separate blocks are separated. `skip` (a field inside a label) is left out too.
///
/// The browser's `innerText` does it in one call for content without `aria-hidden` parts; otherwise
/// the content is walked, reading the style of each element met.
pub(super) fn visible_text(element: &Element, skip: Option<&Element>) -> String {
    if element.first_element_child().is_none() {
        return element.text_content().unwrap_or_default();
    }
    let aria_hidden = matches!(element.query_selector("[aria-hidden=true i]"), Ok(Some(_)));
    if !aria_hidden && skip.is_none() {
        if let Some(html) = element.dyn_ref::<HtmlElement>() {
            return html.inner_text();
        }
    }
    let mut out = String::new();
    if let Some(window) = web_sys::window() {
        walk_text(&window, element, skip, &mut out, 0);
    }
    out
}

/// Deepest nesting [`visible_text`] walks into.
const MAX_TEXT_DEPTH: usize = 64;

fn walk_text(
    window: &web_sys::Window,
    node: &Element,
    skip: Option<&Element>,
    out: &mut String,
    depth: usize,
) {
    let children = node.child_nodes();
    for i in 0..children.length() {
        let Some(child) = children.item(i) else { continue };
        if child.node_type() == web_sys::Node::TEXT_NODE {
            out.push_str(&child.text_content().unwrap_or_default());
            continue;
        }
        let Ok(element) = child.dyn_into::<Element>() else {
            continue;
        };
        if Some(&element) == skip
            || element
                .get_attribute("aria-hidden")
                .is_some_and(|h| h.trim().eq_ignore_ascii_case("true"))
        {
            continue;
        }
        let tag = element.local_name();
        if tag == "br" {
            out.push(' ');
            continue;
        }
        let style = window.get_computed_style(&element).ok().flatten();
        let value = |name: &str| {
            style
                .as_ref()
                .and_then(|s| s.get_property_value(name).ok())
                .unwrap_or_default()
        };
        let display = value("display");
        if display == "none" || matches!(value("visibility").as_str(), "hidden" | "collapse") {
            continue;
        }
        let block = !display.is_empty() && !display.starts_with("inline") && display != "contents";
        if block {
            out.push(' ');
        }
        if tag == "img" {
            out.push_str(&element.get_attribute("alt").unwrap_or_default());
        } else if depth < MAX_TEXT_DEPTH {
            walk_text(window, &element, skip, out, depth + 1);
        }
        if block {
            out.push(' ');
        }
    }
}

/// Collapses white space and cuts to [`MAX_TEXT`] characters.
pub(super) fn clean(text: &str) -> String {
    let joined = collapse_spaces(text);
    if joined.chars().count() <= MAX_TEXT {
        return joined;
    }
    let cut: String = joined.chars().take(MAX_TEXT - 1).collect();
    format!("{}…", cut.trim_end())
}

pub(super) fn call_element(target: &JsValue, method: &str, arg: &JsValue) -> Option<Element> {
    let f = js_sys::Reflect::get(target, &method.into())
        .ok()?
        .dyn_into::<js_sys::Function>()
        .ok()?;
    f.call1(target, arg).ok()?.dyn_into::<Element>().ok()
}
