//! The fields Waymark typed into in this frame, so that the gate's preview can say what sending their
//! form would carry (`Submission::carries`): the text the agent or a client put there, which the gate
//! weighs against where the form goes. Text the page put there itself, or the user typed by hand, is
//! not Waymark's to carry.
//!
//! Must not: keep a field alive (a `WeakSet`), or report a secret field's value.

use std::cell::RefCell;

use wasm_bindgen::JsCast;
use web_sys::Element;

/// At most this many values, of at most this many characters each, are reported for one form.
const MAX_VALUES: usize = 8;
const MAX_CHARS: usize = 500;

thread_local! {
    static TYPED: RefCell<Option<js_sys::WeakSet>> = const { RefCell::new(None) };
}

/// Waymark typed into `field`.
pub fn note(field: &Element) {
    TYPED.with_borrow_mut(|typed| {
        typed.get_or_insert_with(js_sys::WeakSet::new).add(field);
    });
}

/// What the fields among `controls` that Waymark typed into hold now (secret ones left out).
pub fn carried_by(controls: &[Element]) -> Vec<String> {
    let typed = TYPED.with_borrow(Clone::clone);
    let Some(typed) = typed else {
        return Vec::new();
    };
    controls
        .iter()
        .filter(|c| typed.has(c.unchecked_ref()))
        .filter(|c| crate::detect::secret_of(c).is_none())
        .filter_map(|c| crate::secret::typed_value(c, &c.local_name()))
        .filter(|v| !v.trim().is_empty())
        .map(|v| v.chars().take(MAX_CHARS).collect())
        .take(MAX_VALUES)
        .collect()
}
