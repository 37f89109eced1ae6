//! Boxes and shadow hosts of many elements read in a few native calls ([`Bulk`]), and the box of one
//! element ([`Rect`]), for the scan and the badges.
//!
//! Must not: run a script (the callbacks are the browser's own native functions), or change the page.

use wasm_bindgen::{JsCast, JsValue};
use web_sys::Element;

/// An element's border box in viewport coordinates, as `getBoundingClientRect` gives it.
#[derive(Clone, Copy, Default, serde::Deserialize)]
pub struct Rect {
    pub left: f64,
    pub top: f64,
    pub right: f64,
    pub bottom: f64,
    pub width: f64,
    pub height: f64,
}

impl Rect {
    pub fn of(element: &Element) -> Self {
        Self::of_dom(&element.get_bounding_client_rect())
    }

    /// A box as the browser gives one (an element's, a range's).
    pub fn of_dom(r: &web_sys::DomRect) -> Self {
        Self {
            left: r.left(),
            top: r.top(),
            right: r.right(),
            bottom: r.bottom(),
            width: r.width(),
            height: r.height(),
        }
    }

    /// Whether the box overlaps a viewport of this size (touching an edge is not enough).
    pub fn intersects(&self, (width, height): (f64, f64)) -> bool {
        self.bottom > 0.0 && self.right > 0.0 && self.top < height && self.left < width
    }

    /// Whether the box is within half a screen of a viewport of this size: a scroll of less than that
    /// cannot bring one further away into view.
    pub fn intersects_reach(&self, (width, height): (f64, f64)) -> bool {
        self.bottom > -height / 2.0
            && self.right > -width / 2.0
            && self.top < height * 1.5
            && self.left < width * 1.5
    }
}

/// The browser's own array methods applied to many elements in one call, so wasm is not entered once
/// per element: `Array.prototype.map` with `getBoundingClientRect` and then with each side's getter
/// (read back as typed arrays), `Array.prototype.filter` with the `shadowRoot` getter. The callbacks
/// are the browser's native functions bound with `Function.prototype.call`, so no script is evaluated
/// (the extension's CSP forbids that anyway).
pub struct Bulk {
    map: js_sys::Function,
    filter: js_sys::Function,
    every: js_sys::Function,
    index_of: js_sys::Function,
    rect: js_sys::Function,
    /// The getters of `left`, `top`, `right`, `bottom`, in that order.
    sides: [js_sys::Function; 4],
    shadow: js_sys::Function,
    control: js_sys::Function,
    connected: js_sys::Function,
    local_name: js_sys::Function,
}

impl Bulk {
    pub fn new() -> Option<Self> {
        use crate::natives::{getter, method, on_each, prototype};
        let array = prototype("Array")?;
        let element = prototype("Element")?;
        let rect = prototype("DOMRectReadOnly")?;
        let label = prototype("HTMLLabelElement")?;
        let node = prototype("Node")?;
        Some(Self {
            map: method(&array, "map")?,
            filter: method(&array, "filter")?,
            every: method(&array, "every")?,
            index_of: method(&array, "indexOf")?,
            rect: on_each(&method(&element, "getBoundingClientRect")?)?,
            sides: [
                getter(&rect, "left")?,
                getter(&rect, "top")?,
                getter(&rect, "right")?,
                getter(&rect, "bottom")?,
            ],
            shadow: getter(&element, "shadowRoot")?,
            control: getter(&label, "control")?,
            connected: getter(&node, "isConnected")?,
            local_name: getter(&element, "localName")?,
        })
    }

    /// The boxes of all `elements`, in order, read in a dozen calls however many there are.
    pub fn rects(&self, elements: &js_sys::Array) -> Vec<Rect> {
        let n = elements.length() as usize;
        let read = || -> Option<Vec<Rect>> {
            let rects = self.map.call1(elements, &self.rect).ok()?;
            let mut sides = Vec::with_capacity(4);
            for getter in &self.sides {
                let values = self.map.call1(&rects, getter).ok()?;
                let values = js_sys::Float64Array::new(&values).to_vec();
                if values.len() != n {
                    return None;
                }
                sides.push(values);
            }
            Some(
                (0..n)
                    .map(|i| {
                        let (left, top, right, bottom) = (sides[0][i], sides[1][i], sides[2][i], sides[3][i]);
                        Rect {
                            left,
                            top,
                            right,
                            bottom,
                            width: right - left,
                            height: bottom - top,
                        }
                    })
                    .collect(),
            )
        };
        read().unwrap_or_else(|| {
            // Should not happen; element by element gives the same answer, only slower.
            elements
                .iter()
                .map(|e| e.dyn_ref::<Element>().map(Rect::of).unwrap_or_default())
                .collect()
        })
    }

    /// Whether every node of `nodes` is still in its document, in one call.
    pub fn all_connected(&self, nodes: &js_sys::Array) -> bool {
        self.every
            .call1(nodes, &self.connected)
            .is_ok_and(|all| all.is_truthy())
    }

    /// What each label of `labels` is the label of (`label.control`), as an array.
    pub(super) fn controls_of(&self, labels: &js_sys::Array) -> Option<JsValue> {
        self.map.call1(labels, &self.control).ok()
    }

    /// Where `item` first stands in `array` at or after `from`, if it does.
    pub(super) fn index_of(&self, array: &JsValue, item: &JsValue, from: f64) -> Option<f64> {
        self.index_of
            .call2(array, item, &from.into())
            .ok()
            .and_then(|i| i.as_f64())
            .filter(|i| *i >= 0.0)
    }

    /// The custom elements (a tag with a dash) among `elements` (as for [`Bulk::shadow_hosts`]), in
    /// order: their names read in one
    /// call and joined into one string, so only the few custom elements cost a call each later.
    pub(super) fn custom_elements(&self, elements: &JsValue) -> Vec<Element> {
        let Some(names) = self
            .map
            .call1(elements, &self.local_name)
            .ok()
            .and_then(|names| names.dyn_into::<js_sys::Array>().ok())
        else {
            return Vec::new();
        };
        let joined = String::from(names.join(" "));
        joined
            .split(' ')
            .enumerate()
            .filter(|(_, name)| name.contains('-'))
            .filter_map(|(i, _)| {
                js_sys::Reflect::get_u32(elements, i as u32)
                    .ok()?
                    .dyn_into::<Element>()
                    .ok()
            })
            .collect()
    }

    /// The elements of `elements` (an array, or a list such as an `HTMLCollection`) that host an open
    /// shadow root.
    pub(super) fn shadow_hosts(&self, elements: &JsValue) -> Vec<Element> {
        self.filter
            .call1(elements, &self.shadow)
            .ok()
            .and_then(|hosts| hosts.dyn_into::<js_sys::Array>().ok())
            .map(|hosts| {
                hosts
                    .iter()
                    .filter_map(|h| h.dyn_into::<Element>().ok())
                    .collect()
            })
            .unwrap_or_default()
    }
}
