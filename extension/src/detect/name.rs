//! Naming and describing a control the way a screen reader does: its accessible name, its value (never
//! a secret field's), its states; and asking the one secret predicate about a field.
//!
//! Must not: report what was typed into a secret field, as a value or as a name (a secret
//! contenteditable field is named only by its attributes), or change the page.

use std::cell::OnceCell;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use waymark_protocol::text::collapse_spaces;
use waymark_protocol::SecretKind;
use web_sys::{Element, HtmlElement, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};

use super::labels::Labels;
use super::rules::role_of;
use super::text::{is_editable_host, labelled_by, visible_text};
use super::MAX_TEXT;
use crate::plain_text::cut;

/// The accessible name as Chrome computes it for a screen reader: the elements `aria-labelledby`
/// names, `aria-label`, a field's labels (or a button input's value, an image input's `alt`), the
/// content for roles named by it ([`visible_text`]), then `title`, then a placeholder. An editable
/// region and a text box are never named by their content, which is what was typed (their value).
///
/// `labels`, when given, is the scan's index of the tree's labels; otherwise the field's own `labels`
/// list is read (the same labels, fine for one element).
pub(super) fn accessible_name(element: &Element, tag: &str, labels: Option<&Labels<'_>>) -> String {
    if let Some(text) = labelled_by(element, true, might_be_secret) {
        return clean(&text);
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
        match input_type.as_str() {
            "submit" => return attr("value").unwrap_or_else(|| "Submit".into()),
            "reset" => return attr("value").unwrap_or_else(|| "Reset".into()),
            "button" => return attr("value").unwrap_or_default(),
            "image" => {
                return attr("alt")
                    .or_else(|| attr("value"))
                    .or_else(|| attr("title"))
                    .unwrap_or_else(|| "Submit".into())
            }
            _ => {}
        }
        // Chrome prefers the title to the placeholder.
        return attr("title").or_else(|| attr("placeholder")).unwrap_or_default();
    }
    let role = role_of(element, tag);
    let by_content =
        !is_editable_host(element) && !role.as_deref().is_some_and(|r| NOT_NAMED_BY_CONTENT.contains(&r));
    if by_content {
        let text = undoubled(clean(&visible_text(element, None, might_be_secret)));
        if !text.is_empty() {
            return text;
        }
    }
    attr("title")
        .or_else(|| attr("aria-placeholder"))
        .or_else(|| attr("placeholder"))
        .unwrap_or_default()
}

/// Roles whose name never comes from their content (as Chrome has it): what is inside a text box or
/// a list is its value or its options, not its name.
const NOT_NAMED_BY_CONTENT: &[&str] = &[
    "textbox",
    "searchbox",
    "combobox",
    "listbox",
    "slider",
    "spinbutton",
    "scrollbar",
    "progressbar",
    "document",
    "paragraph",
];

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
    if role_text == "textbox" || is_editable_host(element) {
        let attr = |name: &str| {
            element
                .get_attribute(name)
                .map(|v| clean(&v))
                .filter(|v| !v.is_empty())
        };
        let quiet = labelled_by(element, false, might_be_secret)
            .map(|text| clean(&text))
            .or_else(|| attr("aria-label"))
            .or_else(|| attr("title"))
            .or_else(|| attr("aria-placeholder"))
            .unwrap_or_default();
        // An editable paragraph takes text as a text box does.
        let field_role = if is_editable_host(element) {
            "textbox"
        } else {
            role_text
        };
        if let Some(secret) = crate::secret::of_field(element, tag, field_role, &quiet) {
            return (quiet, Some(secret.kind));
        }
    }
    (accessible_name(element, tag, labels), None)
}

/// The name and the secret of a control a listing found: a field is named at once, since its name is
/// part of asking whether it is secret; anything else when the listing describes it ([`super::Found::name`]:
/// most of a large page's controls never are).
pub(super) fn listed_name(
    element: &Element,
    tag: &str,
    role: Option<&str>,
    labels: &Labels<'_>,
) -> (Rc<OnceCell<String>>, Option<SecretKind>) {
    let field = matches!(tag, "input" | "select" | "textarea")
        || role == Some("textbox")
        || is_editable_host(element);
    if !field {
        return (Rc::new(OnceCell::new()), None);
    }
    let (name, secret) = field_name(element, tag, role, Some(labels));
    (Rc::new(OnceCell::from(name)), secret)
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
        // An editable region holds what was typed, as drawn (not a placeholder CSS adds).
        _ if is_editable_host(element) => element.dyn_ref::<HtmlElement>()?.inner_text(),
        // A custom slider, spin button or rating says its value as a screen reader does: its text,
        // else its number.
        _ if element.has_attribute("aria-valuenow") || element.has_attribute("aria-valuetext") => element
            .get_attribute("aria-valuetext")
            .filter(|t| !t.trim().is_empty())
            .or_else(|| element.get_attribute("aria-valuenow"))?,
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
    // An editable region whose role does not say it takes text ("paragraph", "document") says so as
    // a screen reader does: "editable".
    if is_editable_host(element) {
        let role = role_of(element, &element.local_name());
        if !role.as_deref().is_some_and(|r| TEXT_ROLES.contains(&r)) {
            states.push("editable".into());
        }
    }
    states
}

/// Roles that say by themselves that an element takes text.
const TEXT_ROLES: &[&str] = &["textbox", "searchbox", "combobox"];

/// A label's words without those of the control it wraps: a list inside its own label is named
/// "Bulk actions", not "Bulk actions Mark as read Delete…", as a screen reader says it.
pub(super) fn label_text(label: &Element, control: &Element) -> String {
    let inside = label.contains(Some(control)) && label != control;
    visible_text(label, inside.then_some(control), might_be_secret)
}

/// A name said twice over ("Delete Delete": an icon's hidden label beside the same visible word)
/// said once. Only the whole name repeated, so "Bora Bora" is a name of two words, and so is "Go go".
pub(super) fn undoubled(text: String) -> String {
    let words: Vec<&str> = text.split(' ').collect();
    let half = words.len() / 2;
    if words.len() >= 2
        && words.len().is_multiple_of(2)
        && words[..half] == words[half..]
        && (half > 1 || words[0].chars().count() > 4)
    {
        return words[..half].join(" ");
    }
    text
}

/// Collapses white space and cuts to [`MAX_TEXT`] characters.
pub(super) fn clean(text: &str) -> String {
    cut(text, MAX_TEXT)
}

/// What a screen reader reads for a heading: the text `aria-labelledby` names, its `aria-label`, or
/// its content (also when it is editable: a heading being written is still read as one).
pub fn heading_text(element: &Element) -> String {
    if let Some(text) = labelled_by(element, true, might_be_secret) {
        return text;
    }
    match element
        .get_attribute("aria-label")
        .filter(|l| !l.trim().is_empty())
    {
        Some(label) => collapse_spaces(&label),
        None => collapse_spaces(&visible_text(element, None, might_be_secret)),
    }
}

thread_local! {
    /// Set while a field met inside a name is asked whether it is secret.
    static ASKING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether a field met inside a name (in its label, or an element its `aria-labelledby` names) may
/// hold a secret, so the name leaves its value out. Asking needs the field's own name, whose labels
/// may hold other fields: a field met while one is being asked about counts as secret, which ends any
/// loop between fields that label each other and errs on the safe side.
pub(super) fn might_be_secret(element: &Element) -> bool {
    if ASKING.get() {
        return true;
    }
    ASKING.set(true);
    let secret = secret_of(element).is_some();
    ASKING.set(false);
    secret
}

#[cfg(test)]
mod tests {
    use super::undoubled;

    #[test]
    fn a_name_said_twice_is_said_once() {
        assert_eq!(undoubled("Delete Delete".into()), "Delete");
        assert_eq!(undoubled("Add row Add row".into()), "Add row");
        assert_eq!(undoubled("Bora Bora".into()), "Bora Bora");
        assert_eq!(undoubled("Go go".into()), "Go go");
        assert_eq!(undoubled("Save".into()), "Save");
    }
}
