//! What an element shows, as words: its rendered text (text hidden with CSS or `aria-hidden` left out,
//! a space between side-by-side elements), with or without the words of the controls inside it. The
//! gate's descriptions (`effect.rs`, `around.rs`) read page words only through here.
//!
//! Reads only, bounded on hostile pages (nodes visited, depth); never reads what a field holds. It
//! imports only the leaf `plain_text`.

use crate::plain_text::cut;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement, HtmlInputElement};

/// What the element shows: its rendered text (`innerText`, so text hidden with CSS is left out).
pub(crate) fn visible_text(element: &Element, max: usize) -> Option<String> {
    element.dyn_ref::<HtmlElement>()?;
    let mut words = String::new();
    let mut seen = 0;
    collect_visible(element.as_ref(), &mut words, max + 1, &mut seen, 0, None);
    Some(cut(&words, max))
}

/// The rendered words of `element`, at most `max` characters, without the words of what `skip`
/// matches ([`CONTROLS`]: what a container says besides what can be pressed; [`BUTTONS`]: its words
/// and links, such as a mail's subject in its row).
pub(crate) fn words_of(element: &Element, max: usize, skip: Option<&str>) -> String {
    let mut words = String::new();
    let mut seen = 0;
    collect_visible(element.as_ref(), &mut words, max + 1, &mut seen, 0, skip);
    cut(&words, max)
}

/// Buttons and fields, whose words are not the words of the item they are in.
pub(crate) const BUTTONS: &str = "button, input, select, textarea, [role=button], [role=menuitem], \
    [role=checkbox], [role=radio], [role=switch], [role=tab], [role=textbox], [role=combobox], \
    [role=slider], [contenteditable=true], [contenteditable='']";
/// Every control, links too: a question's words are what is not pressed.
pub(crate) const CONTROLS: &str = "button, input, select, textarea, [role=button], [role=menuitem], \
    [role=checkbox], [role=radio], [role=switch], [role=tab], [role=textbox], [role=combobox], \
    [role=slider], [contenteditable=true], [contenteditable=''], a[href], [role=link], [role=option]";

/// Elements whose text is not words on the page (scripts, styles), or is what a field holds.
const NO_WORDS: &[&str] = &[
    "script", "style", "template", "noscript", "textarea", "select", "option",
];
/// How many nodes one description may visit, and how deep: bounded on hostile pages.
const MAX_NODES: usize = 4_000;
pub(crate) const MAX_DEPTH: usize = 64;

/// The text of `node`'s rendered text nodes, a space between each (`innerText` runs the words of
/// side-by-side elements together: "Switch to draftPreviewUpdate"), until `max` characters.
fn collect_visible(
    node: &web_sys::Node,
    out: &mut String,
    max: usize,
    seen: &mut usize,
    depth: usize,
    skip: Option<&str>,
) {
    let children = node.child_nodes();
    for i in 0..children.length() {
        if out.len() > max * 4 || *seen >= MAX_NODES || depth > MAX_DEPTH {
            return;
        }
        let Some(child) = children.item(i) else { continue };
        *seen += 1;
        match child.node_type() {
            web_sys::Node::TEXT_NODE => {
                let text = child.text_content().unwrap_or_default();
                if !text.trim().is_empty() {
                    out.push(' ');
                    out.push_str(&text);
                }
            }
            web_sys::Node::ELEMENT_NODE => {
                let Some(element) = child.dyn_ref::<Element>() else {
                    continue;
                };
                if NO_WORDS.contains(&element.local_name().as_str())
                    || skip.is_some_and(|skip| element.matches(skip).unwrap_or(false))
                    || !rendered(element)
                {
                    continue;
                }
                // A button-like input shows its value; other fields hold content, never said here.
                if let Some(input) = element.dyn_ref::<HtmlInputElement>() {
                    if matches!(
                        input.type_().to_lowercase().as_str(),
                        "submit" | "button" | "reset"
                    ) {
                        out.push(' ');
                        out.push_str(&input.value());
                    }
                    continue;
                }
                collect_visible(&child, out, max, seen, depth + 1, skip);
                out.push(' ');
            }
            _ => {}
        }
    }
}

/// Whether an element is drawn (not `display: none` itself or through an ancestor, not hidden).
pub(crate) fn rendered(element: &Element) -> bool {
    if element.get_attribute("aria-hidden").as_deref() == Some("true") || element.has_attribute("hidden") {
        return false;
    }
    crate::dom::check_visibility(element, false).unwrap_or_else(|| element.get_client_rects().length() > 0)
}
