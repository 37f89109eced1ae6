//! What the user typed into this frame's secret fields, remembered so that the service worker can take
//! it out of everything it relays (`tabs/held.rs`): a page that echoes a password in its text, its
//! title or an address gives Waymark nothing to pass on.
//!
//! Fields are learnt three ways: a sweep of the frame's fields when the script starts (values typed
//! before Waymark came), every listing (a secret field found, in open or closed shadow roots too), and
//! the `input` and `change` events of the frame (typing from then on), read in this script's own
//! world. Each answer to the worker carries the values (`FrameAnswer::secrets`), read afresh.
//!
//! Must not: put the values anywhere but in this frame's answers to the worker (never into the page,
//! a log, a result or a message to anyone else), keep a field alive for long (a few are kept, the
//! oldest dropped), or cost typing anything on pages where nothing is secret (an event reads its
//! target's tag first).

use std::cell::RefCell;

use wasm_bindgen::prelude::*;
use web_sys::Element;

/// How many fields and how many values are remembered (the newest kept).
const MAX_FIELDS: usize = 16;
const MAX_VALUES: usize = 32;

/// The fields and elements that may hold typed text.
const FIELDS: &str = "input, textarea, [contenteditable]";

#[derive(Default)]
struct Held {
    fields: Vec<Element>,
    /// Values seen in them before (a value typed, then changed, may still be echoed).
    values: Vec<String>,
}

thread_local! {
    static HELD: RefCell<Held> = RefCell::new(Held::default());
}

/// Remembers what the frame's secret fields hold now, and from now on what is typed into them. Called
/// once, when the content script starts.
pub fn watch() {
    let Some(window) = web_sys::window() else { return };
    let listener = Closure::<dyn FnMut(web_sys::Event)>::new(|event: web_sys::Event| {
        let Some(target) = event.target().and_then(|t| t.dyn_into::<Element>().ok()) else {
            return;
        };
        // Typing inside a shadow root reaches this listener retargeted to the root's host: the focused
        // element inside is the field typed into.
        let field = match crate::chrome::shadow_root(&target) {
            Some(_) => window_document().and_then(|d| crate::act::deep_active_element(&d)),
            None => Some(target),
        };
        if let Some(field) = field {
            note(&field);
        }
    });
    let options = web_sys::AddEventListenerOptions::new();
    options.set_capture(true);
    options.set_passive(true);
    for kind in ["input", "change"] {
        let _ = window.add_event_listener_with_callback_and_add_event_listener_options(
            kind,
            listener.as_ref().unchecked_ref(),
            &options,
        );
    }
    // It lives as long as the frame.
    listener.forget();
    if let Some(document) = window_document() {
        sweep(&document);
    }
}

fn window_document() -> Option<web_sys::Document> {
    web_sys::window().and_then(|w| w.document())
}

/// Every field of the document that holds something is asked whether it is secret.
fn sweep(document: &web_sys::Document) {
    let Ok(list) = document.query_selector_all(FIELDS) else {
        return;
    };
    for i in 0..list.length() {
        if let Some(field) = list.item(i).and_then(|n| n.dyn_into::<Element>().ok()) {
            note(&field);
        }
    }
}

/// Remembers `field` and what it holds, if it is a secret field holding something.
pub fn note(field: &Element) {
    let tag = field.local_name();
    let editable = field
        .dyn_ref::<web_sys::HtmlElement>()
        .is_some_and(|h| h.is_content_editable());
    if !matches!(tag.as_str(), "input" | "textarea") && !editable {
        return;
    }
    let Some(value) = crate::secret::typed_value(field, &tag).filter(|v| !v.trim().is_empty()) else {
        return;
    };
    if crate::detect::secret_of(field).is_none() {
        return;
    }
    remember(field, value);
}

/// Remembers a field the listing found secret, with what it holds.
fn note_secret(field: &Element) {
    let tag = field.local_name();
    if let Some(value) = crate::secret::typed_value(field, &tag).filter(|v| !v.trim().is_empty()) {
        remember(field, value);
    }
}

fn remember(field: &Element, value: String) {
    HELD.with_borrow_mut(|held| {
        if !held.fields.iter().any(|f| f == field) {
            held.fields.push(field.clone());
            if held.fields.len() > MAX_FIELDS {
                held.fields.remove(0);
            }
        }
        keep(&mut held.values, value);
    });
}

fn keep(values: &mut Vec<String>, value: String) {
    if let Some(at) = values.iter().position(|v| *v == value) {
        values.remove(at);
    }
    values.push(value);
    if values.len() > MAX_VALUES {
        values.remove(0);
    }
}

/// What the remembered secret fields hold now, and held before: for the worker only.
pub fn values() -> Vec<String> {
    for field in crate::detect::take_found_secrets() {
        note_secret(&field);
    }
    HELD.with_borrow_mut(|held| {
        let now: Vec<String> = held
            .fields
            .iter()
            .filter_map(|field| crate::secret::typed_value(field, &field.local_name()))
            .filter(|v| !v.trim().is_empty())
            .collect();
        for value in now {
            keep(&mut held.values, value);
        }
        held.values.clone()
    })
}
