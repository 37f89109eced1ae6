//! Controls drawn so that nobody can see them (see-through, clipped to a pixel, placed where no
//! scrolling reaches), and whether focus or hover brings one on screen (a skip link, a list row's
//! actions): then it is kept, since a keyboard or pointer user meets it.
//!
//! Must not: change the page (focus is never moved to find out; the page's `:focus` and `:hover`
//! rules are read instead), or read the style sheets more than once per tree and scan.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::{JsCast, JsValue};
use web_sys::Element;

use super::bulk::Rect;

/// Smaller than this in either direction, a box shows nothing a person can see or click: the
/// screen-reader-only pattern clips a control to one pixel.
const SPECK: f64 = 2.0;

/// Properties whose change under `:focus` can bring an unseen control into view.
const REVEALING: &[&str] = &[
    "position",
    "left",
    "right",
    "top",
    "bottom",
    "inset",
    "clip",
    "clip-path",
    "width",
    "height",
    "transform",
    "translate",
    "opacity",
    "margin",
    "overflow",
];

/// The page's geometry as of the scan, and the `:focus` rules of each tree, read once when first needed.
pub(super) struct Reveal {
    /// Scroll offsets: a box is off-canvas when no scrolling brings it into the document.
    scroll: (f64, f64),
    /// The document's scrollable width.
    width: f64,
    /// Per tree (document or shadow root): the selectors of its `:focus` rules that change how an
    /// element is placed or clipped, with the `:focus` parts taken out.
    rules: RefCell<Vec<(JsValue, Rc<Vec<String>>)>>,
}

impl Reveal {
    pub(super) fn new() -> Self {
        let window = web_sys::window();
        let scroll = window
            .as_ref()
            .map(|w| (w.scroll_x().unwrap_or(0.0), w.scroll_y().unwrap_or(0.0)))
            .unwrap_or_default();
        let width = window
            .and_then(|w| w.document())
            .and_then(|d| d.document_element())
            .map(|e| f64::from(e.scroll_width()))
            .unwrap_or(f64::INFINITY);
        Self {
            scroll,
            width,
            rules: RefCell::new(Vec::new()),
        }
    }

    /// Whether a rendered control drawn at `rect` is nonetheless invisible (`opaque`: not
    /// see-through) and stays so when focused.
    pub(super) fn unseen(&self, element: &Element, rect: &Rect, opaque: bool) -> bool {
        let invisible = !opaque || self.clipped(rect) || self.off_canvas(element, rect);
        invisible && !(focusable(element) && self.revealed_by_focus(element))
    }

    pub(super) fn clipped(&self, rect: &Rect) -> bool {
        rect.width < SPECK || rect.height < SPECK
    }

    /// Left of or above the document's origin, or right of its scrollable width, and not inside a
    /// scrolling container (a pane scrolled down, a wide table scrolled sideways), which would bring it
    /// into view.
    pub(super) fn off_canvas(&self, element: &Element, rect: &Rect) -> bool {
        self.outside(rect) && !in_scroller(element)
    }

    /// Whether a box lies wholly left of or above the document's origin, or right of its scrollable
    /// width (wherever scrolling puts the view).
    pub(super) fn outside(&self, rect: &Rect) -> bool {
        let (x, y) = self.scroll;
        rect.right + x <= 0.0 || rect.bottom + y <= 0.0 || rect.left + x >= self.width
    }

    /// Whether one of the tree's `:focus` rules that moves, sizes or unclips would apply to `element`
    /// or to a box around it: `.row-actions:focus-within { position: static }` brings a row's links on
    /// screen when one of them has the focus, by moving their container.
    fn revealed_by_focus(&self, element: &Element) -> bool {
        let root: JsValue = element.get_root_node().into();
        let known = self
            .rules
            .borrow()
            .iter()
            .find(|(r, _)| js_sys::Object::is(r, &root))
            .map(|(_, s)| s.clone());
        let selectors = known.unwrap_or_else(|| {
            let read = Rc::new(focus_selectors(&root));
            self.rules.borrow_mut().push((root, read.clone()));
            read
        });
        selectors
            .iter()
            .any(|s| element.closest(s).ok().flatten().is_some())
    }
}

/// Whether an ancestor (across shadow roots) scrolls its content: then where the element is drawn
/// depends on that scrolling, not on the page.
fn in_scroller(element: &Element) -> bool {
    let Some(window) = web_sys::window() else {
        return true;
    };
    let mut at = parent(element);
    for _ in 0..MAX_ANCESTORS {
        let Some(ancestor) = at else { return false };
        if ancestor.scroll_height() > ancestor.client_height()
            || ancestor.scroll_width() > ancestor.client_width()
        {
            let scrolls = window
                .get_computed_style(&ancestor)
                .ok()
                .flatten()
                .is_some_and(|style| {
                    ["overflow-x", "overflow-y"].iter().any(|p| {
                        style
                            .get_property_value(p)
                            .is_ok_and(|v| matches!(v.as_str(), "auto" | "scroll" | "overlay"))
                    })
                });
            if scrolls {
                return true;
            }
        }
        at = parent(&ancestor);
    }
    true
}

/// How far up [`in_scroller`] looks.
const MAX_ANCESTORS: usize = 256;

/// The parent element, or the host of the shadow root the element is the child of.
fn parent(element: &Element) -> Option<Element> {
    element.parent_element().or_else(|| {
        element
            .parent_node()
            .and_then(|n| n.dyn_into::<web_sys::ShadowRoot>().ok())
            .map(|s| s.host())
    })
}

/// Reachable with the Tab key.
fn focusable(element: &Element) -> bool {
    element
        .dyn_ref::<web_sys::HtmlElement>()
        .is_some_and(|e| e.tab_index() >= 0)
}

/// The selectors of a tree's `:focus` (and `:hover`) rules that change placement or clipping, without
/// those states.
/// Style sheets of another origin cannot be read and are passed over.
fn focus_selectors(root: &JsValue) -> Vec<String> {
    let mut out = Vec::new();
    let sheets = get(root, "styleSheets")
        .map(|s| js_sys::Array::from(&s))
        .unwrap_or_default();
    for sheet in sheets.iter() {
        rules_of(&sheet, &mut out, 0);
    }
    out
}

fn rules_of(holder: &JsValue, out: &mut Vec<String>, depth: usize) {
    // Reading `cssRules` of another origin's sheet throws: Reflect gives an error, and it is skipped.
    let Some(rules) = get(holder, "cssRules").filter(|r| !r.is_null() && !r.is_undefined()) else {
        return;
    };
    for rule in js_sys::Array::from(&rules).iter() {
        let selector = get(&rule, "selectorText").and_then(|s| s.as_string());
        match selector {
            Some(selector) if is_revealing_state(&selector) && reveals(&rule) => {
                out.extend(
                    selector
                        .split(',')
                        .filter(|part| is_revealing_state(part))
                        .map(without_focus)
                        .filter(|part| !part.is_empty()),
                );
            }
            Some(_) => {}
            // Grouping rules (`@media`, `@supports`, `@layer`) hold rules of their own.
            None if depth < 8 => rules_of(&rule, out, depth + 1),
            None => {}
        }
    }
}

/// Whether a selector holds in a state a keyboard or pointer user brings about: focus, or hover.
/// Hover counts because a page that shows its controls on hover usually shows them to the keyboard
/// too, by a script that CSS does not show (WordPress's row actions get a class on focus).
fn is_revealing_state(selector: &str) -> bool {
    selector.contains(":focus") || selector.contains(":hover")
}

/// Whether a rule's declarations include one that can bring an element into view.
fn reveals(rule: &JsValue) -> bool {
    let Some(style) = get(rule, "style").and_then(|s| s.dyn_into::<web_sys::CssStyleDeclaration>().ok())
    else {
        return false;
    };
    (0..style.length()).any(|i| {
        let name = style.item(i);
        REVEALING
            .iter()
            .any(|p| name == *p || name.strip_prefix(p).is_some_and(|rest| rest.starts_with('-')))
    })
}

/// `a.skip:focus` → `a.skip`; `.skip:focus-visible`, `.bar:focus-within .skip` likewise (the last
/// asks whether the element would show when something around it has focus, close enough). A rule
/// that holds only while an element is not focused (`.hidden-focusable:not(:focus)`) changes it when
/// focused just the same: its `:not(…)` is taken out too. `:hover` is taken out like `:focus`
/// (`tr:hover .row-actions` → `tr .row-actions`).
fn without_focus(selector: &str) -> String {
    let mut text = selector.to_string();
    for pseudo in [
        ":not(:hover)",
        ":hover",
        ":not(:focus-visible)",
        ":not(:focus-within)",
        ":not(:focus)",
        ":focus-visible",
        ":focus-within",
        ":focus",
    ] {
        text = text.replace(pseudo, "");
    }
    let text = text.trim_start();
    // A compound left empty (`:focus` alone, `nav :focus`) matches any element there.
    if text.trim_end().is_empty() || text.ends_with([' ', '>', '+', '~']) {
        format!("{text}*").trim().to_string()
    } else {
        text.trim_end().to_string()
    }
}

fn get(target: &JsValue, key: &str) -> Option<JsValue> {
    js_sys::Reflect::get(target, &key.into()).ok()
}

#[cfg(test)]
mod tests {
    use super::without_focus;

    #[test]
    fn focus_is_taken_out_of_selectors() {
        assert_eq!(without_focus(" .skip-link:focus"), ".skip-link");
        assert_eq!(without_focus("a.shortcut:focus-visible"), "a.shortcut");
        assert_eq!(without_focus("#nav:focus-within .item"), "#nav .item");
        assert_eq!(without_focus(":focus"), "*");
        assert_eq!(without_focus("tr:hover .row-actions"), "tr .row-actions");
        assert_eq!(without_focus("nav :focus"), "nav *");
        assert_eq!(
            without_focus(".hidden-focusable:not(:focus):not(:focus-within)"),
            ".hidden-focusable"
        );
    }
}
