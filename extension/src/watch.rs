//! Noticing that the page changed under the numbering: one `MutationObserver` per frame, started by
//! the first listing (a page nobody listed is never watched). Mutations are only counted as they
//! arrive; at most every [`SETTLE_MS`] the content script's `on_change` hears how many controls were
//! added since, then redraws the badges where the elements now stand and, when numbered elements are
//! gone or many controls came, drops the numbering so the next action by number is refused as stale
//! (and answered with a fresh list) rather than aimed at a different element.
//!
//! Must stay light, as it runs on every listed page: no layout or style reads in the observer's
//! callback, and Waymark's own host elements (the overlay and the screenshot mask, known by this
//! frame's random tag) are ignored.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use web_sys::{Element, MutationObserver, MutationObserverInit, Node, NodeList};

/// How long changes gather before the numbering is checked and the badges are redrawn.
const SETTLE_MS: u32 = 150;

/// This many controls added since the listing make its numbers outdated: the list a person or model
/// holds no longer shows what the page offers.
pub const MANY_ADDED: u32 = 10;

struct Watch {
    /// Kept so the observer lives as long as the frame.
    _observer: MutationObserver,
    _callback: Closure<dyn FnMut(js_sys::Array)>,
    state: Rc<State>,
}

/// What the content script does once changes settle, given the number of controls added.
type OnChange = Box<dyn Fn(u32)>;

struct State {
    added: Cell<u32>,
    scheduled: Cell<bool>,
    on_change: RefCell<Option<OnChange>>,
}

thread_local! {
    static WATCH: RefCell<Option<Watch>> = const { RefCell::new(None) };
}

/// Watches the frame's document from now on (once; later calls only start a fresh count, since a
/// fresh listing has just been made), calling `on_change(added_controls)` after changes settle.
pub fn observe(on_change: impl Fn(u32) + 'static) {
    WATCH.with_borrow_mut(|watch| {
        if let Some(watch) = watch {
            // A check already scheduled still runs: it then judges the fresh numbering.
            watch.state.added.set(0);
            *watch.state.on_change.borrow_mut() = Some(Box::new(on_change));
            return;
        }
        let state = Rc::new(State {
            added: Cell::new(0),
            scheduled: Cell::new(false),
            on_change: RefCell::new(Some(Box::new(on_change))),
        });
        let callback = Closure::<dyn FnMut(js_sys::Array)>::new({
            let state = state.clone();
            move |records: js_sys::Array| changed(&state, &records)
        });
        let Ok(observer) = MutationObserver::new(callback.as_ref().unchecked_ref()) else {
            return;
        };
        let Some(root) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element())
        else {
            return;
        };
        let options = MutationObserverInit::new();
        options.set_child_list(true);
        options.set_subtree(true);
        // Moves by style or class changes matter for the badges, not for the numbering; `hidden`
        // and `disabled` may change what is usable.
        options.set_attributes(true);
        let filter: js_sys::Array = ["style", "class", "hidden", "disabled", "aria-disabled"]
            .iter()
            .map(|a| JsValue::from_str(a))
            .collect();
        options.set_attribute_filter(&filter);
        if observer.observe_with_options(&root, &options).is_err() {
            return;
        }
        *watch = Some(Watch {
            _observer: observer,
            _callback: callback,
            state,
        });
    });
}

/// Counts the controls among added nodes and schedules one check; nothing else happens here.
fn changed(state: &Rc<State>, records: &js_sys::Array) {
    let get = |record: &JsValue, key: &str| js_sys::Reflect::get(record, &key.into()).ok();
    let nodes = |record: &JsValue, key: &str| get(record, key).and_then(|l| l.dyn_into::<NodeList>().ok());
    let mut relevant = false;
    for record in records.iter() {
        let target = get(&record, "target").and_then(|t| t.dyn_into::<Node>().ok());
        if is_overlay(target.as_ref()) {
            continue;
        }
        let (Some(added), Some(removed)) = (nodes(&record, "addedNodes"), nodes(&record, "removedNodes"))
        else {
            continue;
        };
        let ours = |list: &NodeList| (0..list.length()).all(|i| is_overlay(list.item(i).as_ref()));
        let child_list = get(&record, "type").and_then(|t| t.as_string()).as_deref() == Some("childList");
        // Waymark moving its own overlay host to the end of the document is not a page change.
        if child_list && ours(&added) && ours(&removed) {
            continue;
        }
        relevant = true;
        for i in 0..added.length() {
            if let Some(element) = added.item(i).and_then(|n| n.dyn_into::<Element>().ok()) {
                state
                    .added
                    .set(state.added.get() + crate::detect::controls_in(&element));
            }
        }
    }
    if !relevant || state.scheduled.replace(true) {
        return;
    }
    let state = state.clone();
    // Not debounced to the last change: a page that never stops changing is still checked.
    gloo_timers::callback::Timeout::new(SETTLE_MS, move || {
        state.scheduled.set(false);
        let added = state.added.replace(0);
        if let Some(on_change) = state.on_change.borrow().as_ref() {
            on_change(added);
        }
    })
    .forget();
}

/// Whether `node` is one of Waymark's host elements (the overlay, a screenshot mask): they carry this
/// frame's random host tag (`overlay::host_tag`).
fn is_overlay(node: Option<&Node>) -> bool {
    node.and_then(|n| n.dyn_ref::<Element>())
        .is_some_and(|e| crate::overlay::is_host_tag(&e.local_name()))
}
