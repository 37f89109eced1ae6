//! The words a screen reader says from an element's content, and from the elements its
//! `aria-labelledby` names, computed as Chrome computes an accessible name from content: text that is
//! not rendered (`display: none`, `visibility: hidden`, a closed `details`) or is `aria-hidden` is left
//! out; a part named by its own attributes (`aria-label`, `alt`, an SVG's `<title>`, a nested
//! `aria-labelledby`) says that name instead of its text; a field inside says its value; CSS
//! `::before`/`::after` text and `text-transform` count; and every part that is not plain inline text
//! (a block, an inline-block, an image, a named part) is a separate word.
//!
//! Chrome includes the private-use characters of icon fonts (WordPress's dashicons) in its names; they
//! are not words and no screen reader can say them, so they are left out here.
//!
//! Must not: change the page, or say what a secret field holds (a field inside a label or a
//! referenced element says its value only when the caller's [`MaySecret`] says it is not secret; page
//! text for a summary says no field's value at all, and no text drawn as dots or typed into an
//! editable region the caller's [`MaySecret`] finds secret). Which field is secret is not this
//! module's to know: naming (`name.rs`) asks the secret predicate, and text is what naming reads.

use wasm_bindgen::{JsCast, JsValue};
use web_sys::{
    CssStyleDeclaration, Element, HtmlElement, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement,
};

use crate::dom::call_element;
use crate::plain_text::is_private_use;

/// How many nodes one text may visit, and how deep: bounded on hostile pages.
const MAX_NODES: usize = 4_000;
const MAX_DEPTH: usize = 64;

/// Elements whose text is never words on the page.
const NO_WORDS: &[&str] = &["script", "style", "template", "noscript", "head"];

/// Elements drawn as one box of their own (replaced elements and form controls): always a separate word.
const ATOMIC: &[&str] = &[
    "img", "svg", "input", "select", "textarea", "button", "video", "audio", "canvas", "iframe", "object",
    "embed", "meter", "progress",
];

/// Whether a field met inside the text may hold a secret (then it says no value): the caller's
/// question.
pub(super) type MaySecret = fn(&Element) -> bool;

/// The words a screen reader says from `element`'s content (see the module's doc). `skip` (a field
/// inside its own label) is left out.
pub(super) fn visible_text(element: &Element, skip: Option<&Element>, secret: MaySecret) -> String {
    let mut walk = Walk::new(skip.cloned(), Some(secret));
    // A tree item or menu item is named by its own words, not by the items of the group it opens.
    walk.skip_groups = element
        .get_attribute("role")
        .is_some_and(|r| matches!(r.trim().to_lowercase().as_str(), "treeitem" | "menuitem"));
    without_private_use(&walk.content(element, None, 0))
}

/// The visible words of a part of the page, without the values of its fields, stopping after about
/// `max` characters: the text of a page's summary. An editable region `secret` finds secret is left
/// out whole (what is typed there is its text).
pub fn page_text(element: &Element, max: usize, secret: MaySecret) -> String {
    let mut walk = Walk::new(None, None);
    walk.regions = secret;
    walk.max_chars = max;
    without_private_use(&walk.content(element, None, 0))
}

/// The text of the elements `aria-labelledby` names, in its order with spaces between. Each is used
/// even if hidden itself; then its hidden parts count too (as Chrome does), otherwise they do not. A
/// `aria-labelledby` met inside them is not followed again. With `itself` false, the element and what
/// is inside it are left out (a secret field's own text is what was typed).
pub(super) fn labelled_by(element: &Element, itself: bool, secret: MaySecret) -> Option<String> {
    let ids = labelledby_ids(element)?;
    let root = element.get_root_node();
    let text: Vec<String> = ids
        .split_whitespace()
        .filter_map(|id| call_element(&root, "getElementById", &id.into()))
        .filter(|e| itself || !element.contains(Some(e)))
        .map(|e| referenced_text(&e, secret))
        .collect();
    let text = collapse(&text.join(" "));
    (!text.is_empty()).then_some(text)
}

/// The ids `aria-labelledby` names, or `aria-labeledby` (the misspelling Chrome honours too) when the
/// right spelling is not there.
pub(super) fn labelledby_ids(element: &Element) -> Option<String> {
    element
        .get_attribute("aria-labelledby")
        .or_else(|| element.get_attribute("aria-labeledby"))
}

/// One element named by `aria-labelledby`: its own name if it has one (a field's value, its
/// `aria-label`, an image's `alt`), else its content, else its `title`.
fn referenced_text(element: &Element, secret: MaySecret) -> String {
    let hidden = !super::rules::Visibility::new().check(element)
        || element.closest("[aria-hidden=true i]").ok().flatten().is_some();
    let mut walk = Walk::new(None, Some(secret));
    walk.in_labelled_by = true;
    walk.include_hidden = hidden;
    let text = match walk.own_name(element) {
        Some(text) => text,
        None => walk.content(element, None, 0),
    };
    let text = without_private_use(&text);
    if collapse(&text).is_empty() {
        return element.get_attribute("title").unwrap_or_default();
    }
    text
}

/// White space collapsed to single spaces, the ends trimmed.
fn collapse(text: &str) -> String {
    waymark_protocol::text::collapse_spaces(text)
}

/// One walk through an element's content.
struct Walk {
    window: Option<web_sys::Window>,
    skip: Option<Element>,
    /// Leave out nested groups of items (a tree item's children, a menu item's submenu).
    skip_groups: bool,
    /// Whether fields inside say their values (not in a page summary), unless this says they may be
    /// secret.
    values: Option<MaySecret>,
    /// Whether an editable region met may be secret: then its text is left out.
    regions: MaySecret,
    /// Inside an `aria-labelledby` traversal: a nested one is not followed.
    in_labelled_by: bool,
    /// The element named by `aria-labelledby` was hidden itself: then all of it counts.
    include_hidden: bool,
    nodes: usize,
    /// Stop after this many characters (`usize::MAX`: no limit).
    max_chars: usize,
    length: usize,
}

impl Walk {
    fn new(skip: Option<Element>, values: Option<MaySecret>) -> Self {
        Self {
            window: web_sys::window(),
            skip,
            skip_groups: false,
            values,
            regions: values.unwrap_or(|_| true),
            in_labelled_by: false,
            include_hidden: false,
            nodes: 0,
            max_chars: usize::MAX,
            length: 0,
        }
    }

    fn style(&self, element: &Element) -> Option<CssStyleDeclaration> {
        self.window.as_ref()?.get_computed_style(element).ok().flatten()
    }

    fn full(&self) -> bool {
        self.nodes >= MAX_NODES || self.length >= self.max_chars
    }

    /// The words of `element`'s content: its `::before`, its children (in the flat tree: an open
    /// shadow root's, a slot's assigned nodes), its `::after`. `style` is its computed style, when
    /// the caller has it.
    fn content(&mut self, element: &Element, style: Option<CssStyleDeclaration>, depth: usize) -> String {
        let Some(window) = self.window.clone() else {
            return element.text_content().unwrap_or_default();
        };
        let (before, after) = super::css_text::around(&window, element);
        // Text alone: no walk and no style, unless a rule may transform it. (The element itself is
        // shown: a control, a label, or a part whose style its parent's walk has read.)
        let alone = style.is_none()
            && element.first_element_child().is_none()
            && crate::chrome::shadow_root(element).is_none();
        if alone {
            let text = element.text_content().unwrap_or_default();
            let text = match super::css_text::transform(&window, element) {
                Some(transform) => transformed(&text, &transform),
                None => text,
            };
            self.length += text.len();
            return format!("{before}{text}{after}");
        }
        let style = style.or_else(|| self.style(element));
        let value = |name: &str| {
            style
                .as_ref()
                .and_then(|s| s.get_property_value(name).ok())
                .unwrap_or_default()
        };
        let shown = self.include_hidden || style.is_none() || value("visibility") == "visible";
        let transform = value("text-transform");
        let mut out = String::new();
        if shown {
            out.push_str(&before);
        }
        for child in flat_children(element) {
            if self.full() {
                break;
            }
            self.nodes += 1;
            if child.node_type() == web_sys::Node::TEXT_NODE {
                if shown {
                    let text = transformed(&child.text_content().unwrap_or_default(), &transform);
                    self.length += text.len();
                    out.push_str(&text);
                }
                continue;
            }
            let Ok(child) = child.dyn_into::<Element>() else {
                continue;
            };
            if depth < MAX_DEPTH {
                if let Some((text, separate)) = self.child(&child, depth + 1) {
                    if separate {
                        out.push(' ');
                        out.push_str(&text);
                        out.push(' ');
                    } else {
                        out.push_str(&text);
                    }
                }
            }
        }
        if shown {
            out.push_str(&after);
        }
        out
    }

    /// A child element's words, and whether they are a separate word (not plain inline text).
    fn child(&mut self, element: &Element, depth: usize) -> Option<(String, bool)> {
        let tag = element.local_name();
        if self.skip.as_ref() == Some(element) || NO_WORDS.contains(&tag.as_str()) {
            return None;
        }
        if tag == "br" || tag == "wbr" {
            return Some((String::new(), true));
        }
        if self.skip_groups
            && element.get_attribute("role").is_some_and(|r| {
                matches!(
                    r.trim().to_lowercase().as_str(),
                    "group" | "tree" | "menu" | "listbox"
                )
            })
        {
            return None;
        }
        if !self.include_hidden && is_aria_hidden(element) {
            return None;
        }
        let style = self.style(element);
        let display = style
            .as_ref()
            .and_then(|s| s.get_property_value("display").ok())
            .unwrap_or_default();
        if display == "none" && !self.include_hidden {
            return None;
        }
        if hides_what_it_holds(element, style.as_ref(), self.regions) {
            return None;
        }
        if let Some(name) = self.own_name(element) {
            return Some((name, true));
        }
        let separate = display != "inline" || ATOMIC.contains(&tag.as_str());
        Some((self.content(element, style, depth), separate))
    }

    /// What a part says instead of its content: the text a nested `aria-labelledby` names, a field's
    /// value, an `aria-label`, an image's `alt`, an SVG's `<title>`, a button input's value.
    fn own_name(&mut self, element: &Element) -> Option<String> {
        // A page's text reads what parts show (a region's `aria-label` names it, it does not replace
        // what is in it); only parts that show no text say their own name.
        let page_text = self.values.is_none();
        if let Some(secret) = self.values.filter(|_| !self.in_labelled_by) {
            if labelledby_ids(element).is_some() {
                if let Some(text) = labelled_by(element, true, secret) {
                    return Some(text);
                }
            }
        }
        let tag = element.local_name();
        if let Some(value) = self.field_value(element, &tag) {
            return Some(value);
        }
        if let Some(value) = self.widget_value(element) {
            return Some(value);
        }
        let attr = |name: &str| element.get_attribute(name).filter(|v| !v.trim().is_empty());
        let shows_nothing = || element.first_child().is_none();
        if let Some(label) = attr("aria-label").filter(|_| !page_text || shows_nothing()) {
            return Some(label);
        }
        match tag.as_str() {
            "img" | "area" => Some(attr("alt").unwrap_or_default()),
            "svg" => Some(
                element
                    .query_selector(":scope > title")
                    .ok()
                    .flatten()
                    .and_then(|t| t.text_content())
                    .unwrap_or_default(),
            ),
            "input" => {
                let kind = element.get_attribute("type").unwrap_or_default().to_lowercase();
                Some(match kind.as_str() {
                    "submit" => attr("value").unwrap_or_else(|| "Submit".into()),
                    "reset" => attr("value").unwrap_or_else(|| "Reset".into()),
                    "image" => attr("alt")
                        .or_else(|| attr("value"))
                        .or_else(|| attr("title"))
                        .unwrap_or_else(|| "Submit".into()),
                    "button" => attr("value").unwrap_or_default(),
                    _ => String::new(),
                })
            }
            _ => None,
        }
    }

    /// What an ARIA widget inside a name says, as Chrome has it: a slider's, spin button's or other
    /// range's value text (else its number), a list box's chosen options, a combo box's value (its
    /// field's, else its chosen option's, else its text), a custom text box's text (never a secret
    /// one's). `None` for elements that are no such widget, and outside names (a page's text).
    fn widget_value(&mut self, element: &Element) -> Option<String> {
        let secret = self.values?;
        let role = element
            .get_attribute("role")?
            .split_whitespace()
            .next()?
            .to_lowercase();
        let attr = |name: &str| element.get_attribute(name).filter(|v| !v.trim().is_empty());
        let chosen = |root: &Element| {
            let selected = root
                .query_selector_all("[role=option][aria-selected=true i], option:checked")
                .ok()?;
            let words: Vec<String> = (0..selected.length())
                .filter_map(|i| selected.item(i)?.text_content())
                .map(|t| collapse(&t))
                .collect();
            (!words.is_empty()).then(|| words.join(" "))
        };
        match role.as_str() {
            "slider" | "spinbutton" | "scrollbar" | "progressbar" | "meter" => Some(
                attr("aria-valuetext")
                    .or_else(|| attr("aria-valuenow"))
                    .or_else(|| element.dyn_ref::<HtmlInputElement>().map(|i| i.value()))
                    .unwrap_or_default(),
            ),
            "listbox" => Some(chosen(element).unwrap_or_default()),
            "combobox" => {
                if let Some(field) = element.query_selector("input, textarea").ok().flatten() {
                    return Some(self.field_value(&field, &field.local_name()).unwrap_or_default());
                }
                let owned = attr("aria-controls")
                    .or_else(|| attr("aria-owns"))
                    .and_then(|id| call_element(&element.get_root_node(), "getElementById", &id.into()));
                Some(
                    owned
                        .and_then(|list| chosen(&list))
                        .unwrap_or_else(|| collapse(&self.content(element, None, 0))),
                )
            }
            "textbox" | "searchbox" if !matches!(element.local_name().as_str(), "input" | "textarea") => {
                if secret(element) {
                    return Some(String::new());
                }
                Some(self.content(element, None, 0))
            }
            _ => None,
        }
    }

    /// What a text field or list inside says: its value (a text field's, never a secret one's) or
    /// chosen options. `None` for other elements.
    fn field_value(&self, element: &Element, tag: &str) -> Option<String> {
        let value = match tag {
            "input" => {
                let input = element.dyn_ref::<HtmlInputElement>()?;
                let kind = input.type_().to_lowercase();
                if matches!(
                    kind.as_str(),
                    "checkbox" | "radio" | "submit" | "reset" | "button" | "image" | "file" | "hidden"
                ) {
                    return None;
                }
                input.value()
            }
            "textarea" => element.dyn_ref::<HtmlTextAreaElement>()?.value(),
            "select" => {
                let options = element.dyn_ref::<HtmlSelectElement>()?.selected_options();
                let text: Vec<String> = (0..options.length())
                    .filter_map(|i| options.item(i)?.text_content())
                    .collect();
                return Some(if self.values.is_some() {
                    text.join(" ")
                } else {
                    String::new()
                });
            }
            _ => return None,
        };
        match self.values {
            Some(secret) if !secret(element) => Some(value),
            _ => Some(String::new()),
        }
    }
}

/// Whether the element's text is a secret the screen draws as dots: `-webkit-text-security` on any
/// element, or an editable region that `secret` finds secret (a password font, a card number, its
/// words).
fn hides_what_it_holds(element: &Element, style: Option<&CssStyleDeclaration>, secret: MaySecret) -> bool {
    let security = style
        .and_then(|s| s.get_property_value("-webkit-text-security").ok())
        .unwrap_or_default();
    let security = security.trim();
    if !security.is_empty() && security != "none" {
        return true;
    }
    is_editable_host(element) && secret(element)
}

fn is_aria_hidden(element: &Element) -> bool {
    element
        .get_attribute("aria-hidden")
        .is_some_and(|h| h.trim().eq_ignore_ascii_case("true"))
}

/// The children as they are rendered: an open shadow root's instead of the host's, a slot's assigned
/// nodes (or its own when nothing is assigned), only the summary of a closed `details`.
fn flat_children(element: &Element) -> Vec<web_sys::Node> {
    let list = |nodes: web_sys::NodeList| (0..nodes.length()).filter_map(|i| nodes.item(i)).collect();
    if let Some(shadow) = crate::chrome::shadow_root(element) {
        return list(shadow.child_nodes());
    }
    let tag = element.local_name();
    if tag == "slot" {
        let options = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&options, &"flatten".into(), &JsValue::TRUE);
        let assigned: Vec<web_sys::Node> = js_sys::Reflect::get(element, &"assignedNodes".into())
            .ok()
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
            .and_then(|f| f.call1(element, &options).ok())
            .map(|a| {
                js_sys::Array::from(&a)
                    .iter()
                    .filter_map(|n| n.dyn_into().ok())
                    .collect()
            })
            .unwrap_or_default();
        if !assigned.is_empty() {
            return assigned;
        }
    }
    let children: Vec<web_sys::Node> = list(element.child_nodes());
    if tag == "details" && !element.has_attribute("open") {
        return children
            .into_iter()
            .filter(|c| {
                c.dyn_ref::<Element>()
                    .is_some_and(|e| e.local_name() == "summary")
            })
            .take(1)
            .collect();
    }
    children
}

/// Text as `text-transform` draws it.
fn transformed(text: &str, transform: &str) -> String {
    match transform {
        "uppercase" => text.to_uppercase(),
        "lowercase" => text.to_lowercase(),
        "capitalize" => {
            let mut out = String::with_capacity(text.len());
            let mut start = true;
            for c in text.chars() {
                if start && c.is_alphanumeric() {
                    out.extend(c.to_uppercase());
                } else {
                    out.push(c);
                }
                start = c.is_whitespace();
            }
            out
        }
        _ => text.to_string(),
    }
}

/// Without the private-use characters icon fonts draw (see the module's doc).
fn without_private_use(text: &str) -> String {
    text.chars().filter(|c| !is_private_use(*c)).collect()
}

/// Whether an element is the root of an editable region (`contenteditable` set on it, not only
/// inherited): what a screen reader announces as editable.
pub(super) fn is_editable_host(element: &Element) -> bool {
    element
        .get_attribute("contenteditable")
        .is_some_and(|c| !c.eq_ignore_ascii_case("false"))
        && element
            .dyn_ref::<HtmlElement>()
            .is_some_and(|h| h.is_content_editable())
}

#[cfg(test)]
mod tests {
    use super::{transformed, without_private_use};

    #[test]
    fn text_transform_as_drawn() {
        assert_eq!(transformed("Author", "uppercase"), "AUTHOR");
        assert_eq!(transformed("LOWER Case", "lowercase"), "lower case");
        assert_eq!(transformed("cap me now", "capitalize"), "Cap Me Now");
        assert_eq!(transformed("as is", "none"), "as is");
    }

    #[test]
    fn icon_font_characters_are_not_words() {
        assert_eq!(without_private_use("\u{f102} Canary Blog"), " Canary Blog");
        assert_eq!(without_private_use("Help \u{f140}"), "Help ");
    }
}
