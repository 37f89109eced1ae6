//! The labels of a tree's fields, found without each field's own `labels` list (which walks the whole
//! document for every field).
//!
//! Must not: change the page, or name a field by anything but its labels (naming is `name.rs`'s).

use wasm_bindgen::{JsCast, JsValue};
use web_sys::Element;

use super::bulk::Bulk;
use crate::dom::query_array;

/// The labels of one tree's fields. A field's own `labels` list would do, but the browser walks the
/// whole document for each field to build it, which costs seconds on a large page. A whole-tree scan
/// reads every label and its control (`label.control`) with two native calls when the first field
/// asks; a viewport scan, which meets few fields, looks for each field's labels where they can be:
/// around it, and (for a field with an id) by their `for`.
pub(super) struct Labels<'a> {
    root: JsValue,
    bulk: Option<&'a Bulk>,
    per_field: bool,
    index: std::cell::OnceCell<Option<(js_sys::Array, JsValue)>>,
}

impl<'a> Labels<'a> {
    pub(super) fn new(root: &JsValue, bulk: Option<&'a Bulk>) -> Self {
        Self {
            root: root.clone(),
            bulk,
            per_field: false,
            index: std::cell::OnceCell::new(),
        }
    }

    pub(super) fn per_field(root: &JsValue) -> Self {
        Self {
            per_field: true,
            ..Self::new(root, None)
        }
    }

    /// The labels of `control`, in document order.
    pub(super) fn of(&self, control: &Element) -> Vec<Element> {
        if self.per_field {
            return self.around(control);
        }
        let Some(bulk) = self.bulk else {
            return own_labels(control);
        };
        let index = self.index.get_or_init(|| {
            let labels = query_array(&self.root, &"label".into());
            let controls = bulk.controls_of(&labels)?;
            Some((labels, controls))
        });
        let Some((labels, controls)) = index else {
            return own_labels(control);
        };
        let mut found = Vec::new();
        let mut from = 0.0;
        while let Some(i) = bulk.index_of(controls, control, from) {
            if let Ok(label) = labels.get(i as u32).dyn_into::<Element>() {
                found.push(label);
            }
            from = i + 1.0;
        }
        found
    }
}

impl Labels<'_> {
    /// The labels whose control is `control`: enclosing ones, and those naming its id in `for`.
    pub(super) fn around(&self, control: &Element) -> Vec<Element> {
        let is_control = |label: &Element| {
            js_sys::Reflect::get(label, &"control".into()).is_ok_and(|c| c == JsValue::from(control))
        };
        let mut found: Vec<Element> = Vec::new();
        let mut at = control.parent_element();
        while let Some(label) = at.and_then(|p| p.closest("label").ok().flatten()) {
            if is_control(&label) {
                found.push(label.clone());
            }
            at = label.parent_element();
        }
        found.reverse();
        let id = control.id();
        if !id.is_empty() {
            let escaped = js_sys::Reflect::get(&js_sys::global(), &"CSS".into())
                .ok()
                .and_then(|css| {
                    let escape = js_sys::Reflect::get(&css, &"escape".into()).ok()?;
                    escape
                        .dyn_into::<js_sys::Function>()
                        .ok()?
                        .call1(&css, &id.into())
                        .ok()
                })
                .and_then(|e| e.as_string());
            if let Some(escaped) = escaped {
                let selector = JsValue::from_str(&format!("label[for=\"{escaped}\"]"));
                for label in query_array(&self.root, &selector).iter() {
                    let Ok(label) = label.dyn_into::<Element>() else {
                        continue;
                    };
                    if !found.contains(&label) && is_control(&label) {
                        found.push(label);
                    }
                }
                // Document order, as the field's own list has them.
                found.sort_by(document_order);
            }
        }
        found
    }
}

/// A field's `labels` list (fine for one field, slow for thousands: see [`Labels`]).
pub(super) fn own_labels(control: &Element) -> Vec<Element> {
    js_sys::Reflect::get(control, &"labels".into())
        .ok()
        .and_then(|l| l.dyn_into::<web_sys::NodeList>().ok())
        .map(|l| {
            (0..l.length())
                .filter_map(|i| l.item(i)?.dyn_into::<Element>().ok())
                .collect()
        })
        .unwrap_or_default()
}

/// Whether a label has a control (`label.control`: the field it names and acts on).
pub(super) fn has_control(label: &Element) -> bool {
    js_sys::Reflect::get(label, &"control".into()).is_ok_and(|c| !c.is_null() && !c.is_undefined())
}

/// Whether `other` comes after `node` in document order (its descendants included).
pub(super) fn follows(node: &Element, other: &Element) -> bool {
    const DOCUMENT_POSITION_FOLLOWING: u16 = 4;
    node.compare_document_position(other) & DOCUMENT_POSITION_FOLLOWING != 0
}

/// Two elements in document order, for sorting.
pub(super) fn document_order(a: &Element, b: &Element) -> std::cmp::Ordering {
    if a == b {
        std::cmp::Ordering::Equal
    } else if follows(a, b) {
        std::cmp::Ordering::Less
    } else {
        std::cmp::Ordering::Greater
    }
}
