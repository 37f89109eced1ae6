//! Which numbered elements can be on screen: an `IntersectionObserver` on the numbering keeps the set
//! of those within reach of the viewport (the viewport and a margin around it), so a redraw reads the
//! boxes of those alone, never of every numbered element of a long page. The browser does the
//! watching; each of its reports, and each question about the set, takes a few native calls however
//! many elements it names (the browser's own array, set and map methods applied in bulk, as in
//! `detect/bulk.rs`).
//!
//! Must not: change the page, run a script (every callback is the browser's own native function), or
//! keep elements past the numbering they belong to.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::prelude::*;

/// How far around the viewport an element counts as within reach: badges appear at once when a scroll
/// brings it in, before the browser's next report. (Ignored in a cross-origin frame, whose elements
/// count once they are in view.)
const REACH: &str = "50% 25%";

/// The browser's own functions used in bulk (`crate::natives`).
struct Natives {
    map: js_sys::Function,
    filter: js_sys::Function,
    for_each: js_sys::Function,
    /// `entry => entry.target` and `entry => entry.isIntersecting`.
    target: js_sys::Function,
    intersecting: js_sys::Function,
}

impl Natives {
    fn new() -> Option<Self> {
        use crate::natives::{getter, method, prototype};
        let array = prototype("Array")?;
        let entry = prototype("IntersectionObserverEntry")?;
        Some(Self {
            map: method(&array, "map")?,
            filter: method(&array, "filter")?,
            for_each: method(&array, "forEach")?,
            target: getter(&entry, "target")?,
            intersecting: getter(&entry, "isIntersecting")?,
        })
    }
}

/// The elements within reach, kept up to date by the browser's reports.
struct Near {
    set: js_sys::Set,
    add: js_sys::Function,
    delete: js_sys::Function,
    has: js_sys::Function,
}

/// The numbering being watched, and which of it is within reach.
pub(super) struct Seen {
    natives: Natives,
    observer: web_sys::IntersectionObserver,
    observe: js_sys::Function,
    near: Rc<Near>,
    /// The numbered elements in order, and each one's place in it (`element → index`).
    elements: RefCell<js_sys::Array>,
    index: RefCell<js_sys::WeakMap>,
    _callback: Closure<dyn FnMut(js_sys::Array)>,
}

impl Seen {
    /// Starts an observer that calls `on_near` when elements come within reach.
    pub(super) fn new(on_near: Rc<dyn Fn()>) -> Option<Self> {
        let natives = Natives::new()?;
        let set = js_sys::Set::new(&JsValue::UNDEFINED);
        let near = Rc::new(Near {
            add: crate::natives::bound(&set, "add")?,
            delete: crate::natives::bound(&set, "delete")?,
            has: crate::natives::bound(&set, "has")?,
            set,
        });
        let report = {
            let near = near.clone();
            let natives = Natives::new()?;
            move |entries: js_sys::Array| {
                // Every element named leaves the set, and those that intersect come back: two passes,
                // each one native call over the report.
                let Ok(targets) = natives.map.call1(&entries, &natives.target) else {
                    return;
                };
                let _ = natives.for_each.call1(&targets, &near.delete);
                let came = natives
                    .filter
                    .call1(&entries, &natives.intersecting)
                    .and_then(|inside| natives.map.call1(&inside, &natives.target));
                if let Ok(came) = came {
                    let _ = natives.for_each.call1(&came, &near.add);
                    if came.unchecked_ref::<js_sys::Array>().length() > 0 {
                        on_near();
                    }
                }
            }
        };
        let callback = Closure::<dyn FnMut(js_sys::Array)>::new(report);
        let init = web_sys::IntersectionObserverInit::new();
        init.set_root_margin(REACH);
        let observer =
            web_sys::IntersectionObserver::new_with_options(callback.as_ref().unchecked_ref(), &init).ok()?;
        let observe = crate::natives::bound(&observer, "observe")?;
        Some(Self {
            natives,
            observer,
            observe,
            near,
            elements: RefCell::new(js_sys::Array::new()),
            index: RefCell::new(js_sys::WeakMap::new()),
            _callback: callback,
        })
    }

    /// Watches a new numbering, `elements` in order, of which those `within[i]` says are within reach
    /// now (read by the listing that made it); the browser's first report follows.
    pub(super) fn track(&self, elements: &js_sys::Array, within: &[bool]) {
        self.observer.disconnect();
        self.near.set.clear();
        let index = js_sys::WeakMap::new();
        if let Some(set) = crate::natives::bound(&index, "set") {
            // `set(element, i)`: forEach passes each element with its index.
            let _ = self.natives.for_each.call1(elements, &set);
        }
        let _ = self.natives.for_each.call1(elements, &self.observe);
        for (i, _) in within.iter().enumerate().filter(|(_, w)| **w) {
            self.near.set.add(&elements.get(i as u32));
        }
        *self.elements.borrow_mut() = elements.clone();
        *self.index.borrow_mut() = index;
    }

    /// The numbered elements within reach now, and their places in the numbering.
    pub(super) fn near(&self) -> (js_sys::Array, Vec<usize>) {
        let elements = self.elements.borrow();
        let subset = self
            .natives
            .filter
            .call1(&elements, &self.near.has)
            .ok()
            .and_then(|s| s.dyn_into::<js_sys::Array>().ok())
            .unwrap_or_default();
        let places = crate::natives::bound(&self.index.borrow(), "get")
            .and_then(|get| self.natives.map.call1(&subset, &get).ok())
            .map(|p| js_sys::Float64Array::new(&p).to_vec())
            .unwrap_or_default();
        (subset, places.into_iter().map(|p| p as usize).collect())
    }

    /// Stops watching (the numbers are hidden, or the numbering is gone).
    pub(super) fn clear(&self) {
        self.observer.disconnect();
        self.near.set.clear();
        *self.elements.borrow_mut() = js_sys::Array::new();
        *self.index.borrow_mut() = js_sys::WeakMap::new();
    }
}
