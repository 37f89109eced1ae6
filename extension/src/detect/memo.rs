//! What the last whole-page listing decided about each candidate element (listed, and how, or passed
//! over), kept so the next listing re-reads only what changed since: an element is judged again when
//! something in it, around it (an ancestor's attributes, a label naming it) or anywhere (a style sheet,
//! the window's size) changed, as `watch.rs` noted it, or when its box changed size or moved across the
//! document's edge. Everything that depends on the viewport (pointer-cursor elements, covered
//! controls) is read afresh by every listing, and so is each box.
//!
//! Must not: keep an element alive (a `WeakMap` holds the elements, and only the last listing's are
//! kept), or trust a decision whose inputs it cannot watch: an element named by others
//! (`aria-labelledby`) is always judged again.

use std::cell::RefCell;

use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Element, Node};

use super::bulk::Rect;
use super::rules::PROBABLE;
use super::Found;
use crate::dom::query_array;
use crate::watch::Changes;

/// One element's decision, with what it was made on.
struct Kept {
    width: f64,
    height: f64,
    /// Whether the box was outside the document's scrollable area (see `Reveal::outside`).
    outside: bool,
    /// Listed as this (the element itself, or the label in its place), or passed over.
    found: Option<Found>,
}

/// The decisions of the listing under way (`next`) and of the last one, cleared of what changed.
pub(super) struct Memo {
    last: Option<(js_sys::WeakMap, Vec<Kept>)>,
    next: js_sys::WeakMap,
    kept: RefCell<Vec<Kept>>,
}

thread_local! {
    /// The last whole-page listing's decisions.
    static LAST: RefCell<Option<(js_sys::WeakMap, Vec<Kept>)>> = const { RefCell::new(None) };
}

impl Memo {
    /// The last listing's decisions, without those `changes` may have made wrong.
    pub(super) fn since(changes: &Changes) -> Self {
        let last = LAST.with_borrow_mut(Option::take).filter(|_| !changes.everything);
        if let Some((map, _)) = &last {
            for root in &changes.roots {
                forget_under(map, root);
            }
        }
        Self {
            last,
            next: js_sys::WeakMap::new(),
            kept: RefCell::new(Vec::new()),
        }
    }

    /// The decision about `element` if it still holds: nothing it depends on changed, and its box has
    /// the same size and the same side of the document's edge. It is kept for the next listing too.
    pub(super) fn recall(&self, element: &Element, rect: &Rect, outside: bool) -> Option<Option<Found>> {
        let (map, kept) = self.last.as_ref()?;
        let at = map.get(element).as_f64()? as usize;
        let old = kept.get(at)?;
        if old.width != rect.width || old.height != rect.height || old.outside != outside {
            return None;
        }
        let found = old.found.clone();
        self.keep(element, rect, outside, found.clone());
        Some(found)
    }

    /// Keeps a fresh decision about `element` for the next listing, unless others name it.
    pub(super) fn keep(&self, element: &Element, rect: &Rect, outside: bool, found: Option<Found>) {
        if element.has_attribute("aria-labelledby") || element.has_attribute("aria-labeledby") {
            return;
        }
        let mut kept = self.kept.borrow_mut();
        self.next.set(element, &JsValue::from(kept.len() as f64));
        kept.push(Kept {
            width: rect.width,
            height: rect.height,
            outside,
            found,
        });
    }

    /// Makes this listing's decisions the ones the next listing starts from.
    pub(super) fn store(self) {
        LAST.with_borrow_mut(|last| *last = Some((self.next, self.kept.into_inner())));
    }
}

/// Forgets the decisions a change under `root` may have made wrong: every candidate inside it, the
/// controls around it (their names hold its words), and the fields that a label in or around it names.
fn forget_under(map: &js_sys::WeakMap, root: &Node) {
    let probable = JsValue::from_str(PROBABLE);
    for element in query_array(root, &probable).iter() {
        map.delete(element.unchecked_ref());
    }
    for label in query_array(root, &"label".into()).iter() {
        forget_control(map, &label);
    }
    let element = root
        .dyn_ref::<Element>()
        .cloned()
        .or_else(|| root.parent_element());
    let mut at = element;
    while let Some(element) = at {
        map.delete(&element);
        if element.local_name() == "label" {
            forget_control(map, &element);
        }
        at = element
            .parent_element()
            .and_then(|p| p.closest(&format!("{PROBABLE}, label")).ok().flatten());
    }
}

/// Forgets the decision about the field a label names (`label.control`).
fn forget_control(map: &js_sys::WeakMap, label: &JsValue) {
    if let Some(control) = js_sys::Reflect::get(label, &"control".into())
        .ok()
        .and_then(|c| c.dyn_into::<js_sys::Object>().ok())
    {
        map.delete(&control);
    }
}
