//! What a scan keeps or drops once it has found its candidates: wrappers listed for their `tabindex`
//! or handler that hold listed controls (a menu, a toolbar, a row, an unnamed box, a box that says what
//! its one control says) give way to what is inside them, and an editor's input under the lines it
//! draws is kept though it is covered.
//!
//! Must not: change the page, or drop a native control or anything a person reaches only through it.

use web_sys::Element;

use super::bulk::Rect;
use super::rules::is_container;
use super::Entry;

/// Whether an element's explicit role groups controls (a menu, a toolbar, a row).
pub(super) fn holds_controls(element: &Element) -> bool {
    element
        .get_attribute("role")
        .and_then(|r| r.split_whitespace().next().map(str::to_lowercase))
        .is_some_and(|r| is_container(&r))
}

/// Drops the wrappers that were listed for their `tabindex` or handler but hold listed controls: a
/// menu, toolbar, row or other group (its items are what people use), and an unnamed element with no
/// role of its own, or one named as the control inside it. Their contents follow them in document
/// order, so the next entry tells.
pub(super) fn drop_wrappers(out: &mut Vec<Entry>) {
    let mut i = 0;
    while i + 1 < out.len() {
        let (Entry::Control(found), next) = (&out[i], &out[i + 1]) else {
            i += 1;
            continue;
        };
        let inner = match next {
            Entry::Control(f) => &f.element,
            Entry::Frame(e) => e,
        };
        let element = &found.element;
        let native = matches!(
            element.local_name().as_str(),
            "a" | "button" | "input" | "select" | "textarea" | "summary"
        );
        // A box with no role of its own that says nothing, or only what the control inside it says
        // (a toolkit's toolbar item around its button, both titled "Save"): one item, the control.
        // Names are read only here, for such boxes (a listing names lazily).
        let says_nothing_more =
            || found.name().is_empty() || matches!(next, Entry::Control(f) if f.name() == found.name());
        let wrapper = !native
            && (found.role() == "separator"
                || is_container(found.role())
                || (found.role() == "generic" && says_nothing_more()));
        if wrapper && element != inner && crate::dom::composed_contains(element, inner) {
            out.remove(i);
        } else {
            i += 1;
        }
    }
}

/// How far up from a text field the element drawn over it may start and still be the field's own
/// drawing.
const OWN_DRAWING_LEVELS: usize = 4;

/// Whether a covered text field is the input of an editor that draws its text over it (CodeMirror 5
/// keeps its input in a focusable textarea under the lines it renders): what covers it comes from
/// the field's own component, a few levels up, not from a dialog or banner elsewhere on the page.
/// Such a field is where typing goes, and Chrome exposes it.
pub(super) fn under_its_own_drawing(field: &Element, rect: &Rect, viewport: (f64, f64)) -> bool {
    if !matches!(field.local_name().as_str(), "textarea" | "input") {
        return false;
    }
    let x = ((rect.left.max(0.0) + rect.right.min(viewport.0)) / 2.0).max(0.0);
    let y = ((rect.top.max(0.0) + rect.bottom.min(viewport.1)) / 2.0).max(0.0);
    let Some(cover) = super::rules::hit(field, x, y) else {
        return false;
    };
    let mut ancestor = field.parent_element();
    for _ in 0..OWN_DRAWING_LEVELS {
        let Some(a) = ancestor else { return false };
        if a.contains(Some(&cover)) {
            // Not the whole page: the component is smaller than the document.
            return !matches!(a.local_name().as_str(), "body" | "html");
        }
        ancestor = a.parent_element();
    }
    false
}
