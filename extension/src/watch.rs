//! Noticing that the page changed under the numbering: one `MutationObserver` per frame (on the
//! document and on every open shadow root a listing entered), started by the first listing (a page
//! nobody listed is never watched), and a few event listeners for what changes without a mutation
//! (scrolling, resizing, typing, focus and hover, finished transitions, loaded images and fonts).
//!
//! Two uses. The badges and the stale check: mutations are only counted as they arrive; at most every
//! [`SETTLE_MS`] the content script's `on_change` hears how many controls were added since, then
//! redraws the badges where the elements now stand and, when numbered elements are gone or many
//! controls came, drops the numbering so the next action by number is refused as stale (and answered
//! with a fresh list) rather than aimed at a different element. And the next listing: what changed
//! since the last one ([`take_changes`]: nothing, only the view, some subtrees, or everything), so a
//! repeated listing re-reads only that (`detect::Memo`).
//!
//! Must stay light, as it runs on every listed page: no layout or style reads in the observer's
//! callback or the listeners (they only note nodes), and Waymark's own host elements (the overlay and
//! the screenshot mask, known by this frame's random tag) are ignored.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use web_sys::{Element, MutationObserver, MutationObserverInit, Node, NodeList};

/// How long changes gather before the numbering is checked and the badges are redrawn.
const SETTLE_MS: u32 = 150;

/// This many controls added since the listing make its numbers outdated: the list a person or model
/// holds no longer shows what the page offers.
pub const MANY_ADDED: u32 = 10;

/// More changed subtrees than this are not worth sorting out: the next listing reads everything.
const MAX_ROOTS: usize = 256;

/// Attributes whose change moves or hides things, so the badges are redrawn.
const MOVING: &[&str] = &["style", "class", "hidden", "disabled", "aria-disabled"];

/// Events that change what a listing finds without changing the DOM; the node noted is the target's
/// parent (a `:focus` or `:hover` rule may style the target's siblings too). Scroll and resize are
/// handled apart.
const EVENTS: &[&str] = &[
    "input",
    "change",
    "focusin",
    "focusout",
    "mouseover",
    "mouseout",
    "transitionend",
    "animationend",
    "load",
];

/// What changed since the last listing took the changes.
#[derive(Default)]
pub struct Changes {
    /// Something with effects anywhere (a style sheet, the window's size, fonts): read everything.
    pub everything: bool,
    /// The view moved (scrolling): what depends on the viewport is read again.
    pub view: bool,
    /// The nodes under which something changed (a node's own attributes or its children).
    pub roots: Vec<Node>,
}

impl Changes {
    pub fn none(&self) -> bool {
        !self.everything && !self.view && self.roots.is_empty()
    }
}

struct Watch {
    /// Kept so the observer and the listeners live as long as the frame.
    observer: MutationObserver,
    options: MutationObserverInit,
    _callback: Closure<dyn FnMut(js_sys::Array)>,
    _listeners: Vec<Closure<dyn FnMut(web_sys::Event)>>,
    state: Rc<State>,
}

/// What the content script does once changes settle, given the number of controls added.
type OnChange = Box<dyn Fn(u32)>;

/// How many controls an added element may hold: `detect`'s count, handed over by the content script
/// (what a control is is not this module's to know).
type ControlsIn = fn(&Element) -> u32;

struct State {
    added: Cell<u32>,
    /// Counts the controls in added elements, once [`observe`] said how.
    controls_in: Cell<Option<ControlsIn>>,
    scheduled: Cell<bool>,
    on_change: RefCell<Option<OnChange>>,
    changes: RefCell<Changes>,
}

thread_local! {
    static WATCH: RefCell<Option<Watch>> = const { RefCell::new(None) };
}

/// Watches the frame's document from now on (once; later calls only start a fresh count, since a
/// fresh listing has just been made), calling `on_change(added_controls)` after changes settle, with
/// the controls in added elements counted by `controls_in`.
pub fn observe(controls_in: ControlsIn, on_change: impl Fn(u32) + 'static) {
    start();
    WATCH.with_borrow(|watch| {
        if let Some(watch) = watch {
            // A check already scheduled still runs: it then judges the fresh numbering.
            watch.state.added.set(0);
            watch.state.controls_in.set(Some(controls_in));
            *watch.state.on_change.borrow_mut() = Some(Box::new(on_change));
        }
    });
}

/// Also watches an open shadow root a listing entered (mutations inside one do not reach the
/// document's observer).
pub fn observe_tree(root: &web_sys::ShadowRoot) {
    start();
    WATCH.with_borrow(|watch| {
        if let Some(watch) = watch {
            let _ = watch.observer.observe_with_options(root, &watch.options);
        }
    });
}

/// What changed since the last call (everything, before the watch started), taking in the mutations
/// the observer has not delivered yet.
pub fn take_changes() -> Changes {
    WATCH.with_borrow(|watch| match watch {
        Some(watch) => {
            changed(&watch.state, &watch.observer.take_records());
            watch.state.changes.take()
        }
        None => Changes {
            everything: true,
            ..Changes::default()
        },
    })
}

fn start() {
    WATCH.with_borrow_mut(|watch| {
        if watch.is_some() {
            return;
        }
        let state = Rc::new(State {
            added: Cell::new(0),
            controls_in: Cell::new(None),
            scheduled: Cell::new(false),
            on_change: RefCell::new(None),
            changes: RefCell::new(Changes::default()),
        });
        let callback = Closure::<dyn FnMut(js_sys::Array)>::new({
            let state = state.clone();
            move |records: js_sys::Array| changed(&state, &records)
        });
        let Ok(observer) = MutationObserver::new(callback.as_ref().unchecked_ref()) else {
            return;
        };
        let Some(window) = web_sys::window() else {
            return;
        };
        let Some(root) = window.document().and_then(|d| d.document_element()) else {
            return;
        };
        let options = MutationObserverInit::new();
        options.set_child_list(true);
        options.set_subtree(true);
        // Every attribute: roles, names, states and styles all live in them. Only some move badges.
        options.set_attributes(true);
        options.set_character_data(true);
        if observer.observe_with_options(&root, &options).is_err() {
            return;
        }
        let listeners = listen(&window, &state);
        *watch = Some(Watch {
            observer,
            options,
            _callback: callback,
            _listeners: listeners,
            state,
        });
    });
}

/// The listeners for what changes without a mutation. Passive and in the capture phase, so the page
/// can neither stop them nor be slowed by them.
fn listen(window: &web_sys::Window, state: &Rc<State>) -> Vec<Closure<dyn FnMut(web_sys::Event)>> {
    let options = web_sys::AddEventListenerOptions::new();
    options.set_capture(true);
    options.set_passive(true);
    let mut listeners = Vec::new();
    let mut add = |kind: &str, note: Box<dyn Fn(&web_sys::Event) -> Changes>| {
        let state = state.clone();
        let closure = Closure::<dyn FnMut(web_sys::Event)>::new(move |event: web_sys::Event| {
            merge(&state, note(&event));
        });
        let _ = window.add_event_listener_with_callback_and_add_event_listener_options(
            kind,
            closure.as_ref().unchecked_ref(),
            &options,
        );
        listeners.push(closure);
    };
    add(
        "scroll",
        Box::new(|_| Changes {
            view: true,
            ..Changes::default()
        }),
    );
    add(
        "resize",
        Box::new(|_| Changes {
            everything: true,
            ..Changes::default()
        }),
    );
    for kind in EVENTS {
        add(
            kind,
            Box::new(|event| {
                let target = event.target().and_then(|t| t.dyn_into::<Node>().ok());
                if is_overlay(target.as_ref()) {
                    return Changes::default();
                }
                // A loaded style sheet or font restyles anything.
                let sheet = target
                    .as_ref()
                    .and_then(|t| t.dyn_ref::<Element>())
                    .is_some_and(|e| matches!(e.local_name().as_str(), "link" | "style"));
                let root = target.and_then(|t| t.parent_node().or(Some(t)));
                Changes {
                    everything: sheet || root.is_none(),
                    roots: root.into_iter().collect(),
                    ..Changes::default()
                }
            }),
        );
    }
    if let Some(fonts) = window
        .document()
        .and_then(|d| js_sys::Reflect::get(&d, &"fonts".into()).ok())
        .and_then(|f| f.dyn_into::<web_sys::EventTarget>().ok())
    {
        let state = state.clone();
        let closure = Closure::<dyn FnMut(web_sys::Event)>::new(move |_| {
            merge(
                &state,
                Changes {
                    everything: true,
                    ..Changes::default()
                },
            );
        });
        let _ = fonts.add_event_listener_with_callback("loadingdone", closure.as_ref().unchecked_ref());
        listeners.push(closure);
    }
    listeners
}

/// Adds `more` to what changed since the last listing.
fn merge(state: &State, more: Changes) {
    let mut changes = state.changes.borrow_mut();
    changes.everything |= more.everything;
    changes.view |= more.view;
    if changes.everything {
        changes.roots.clear();
        return;
    }
    for root in more.roots {
        if !changes.roots.contains(&root) {
            changes.roots.push(root);
        }
    }
    if changes.roots.len() > MAX_ROOTS {
        changes.everything = true;
        changes.roots.clear();
    }
}

/// Notes the changed nodes and counts the controls among added nodes, and schedules one check;
/// nothing else happens here.
fn changed(state: &Rc<State>, records: &js_sys::Array) {
    let get = |record: &JsValue, key: &str| js_sys::Reflect::get(record, &key.into()).ok();
    let nodes = |record: &JsValue, key: &str| get(record, key).and_then(|l| l.dyn_into::<NodeList>().ok());
    let mut relevant = false;
    let mut noted = Changes::default();
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
        let kind = get(&record, "type")
            .and_then(|t| t.as_string())
            .unwrap_or_default();
        // Waymark moving its own overlay host to the end of the document is not a page change.
        if kind == "childList" && ours(&added) && ours(&removed) {
            continue;
        }
        let Some(target) = target else { continue };
        match kind.as_str() {
            "attributes" => {
                let name = get(&record, "attributeName").and_then(|n| n.as_string());
                relevant |= name.is_some_and(|n| MOVING.contains(&n.as_str()));
                noted.everything |= is_sheet(&target);
                noted.roots.push(target);
            }
            // Text changed: its element's name may have.
            "characterData" => {
                noted.everything |= target.parent_element().is_some_and(|p| is_sheet(&p));
                noted.roots.extend(target.parent_node());
            }
            _ => {
                relevant = true;
                let sheets =
                    |list: &NodeList| (0..list.length()).any(|i| list.item(i).is_some_and(|n| is_sheet(&n)));
                noted.everything |= is_sheet(&target) || sheets(&added) || sheets(&removed);
                noted.roots.push(target);
            }
        }
        let controls_in = state.controls_in.get();
        for i in 0..added.length() {
            if let Some(element) = added.item(i).and_then(|n| n.dyn_into::<Element>().ok()) {
                let controls = controls_in.map_or(0, |count| count(&element));
                state.added.set(state.added.get() + controls);
            }
        }
    }
    merge(state, noted);
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

/// Whether `node` is a style sheet (`style`, `link`), whose change restyles anything on the page.
fn is_sheet(node: &Node) -> bool {
    node.dyn_ref::<Element>()
        .is_some_and(|e| matches!(e.local_name().as_str(), "style" | "link"))
}

/// Whether `node` is one of Waymark's host elements (the overlay, a screenshot mask): they carry this
/// frame's random host tag (`dom::host_tag`).
fn is_overlay(node: Option<&Node>) -> bool {
    node.and_then(|n| n.dyn_ref::<Element>())
        .is_some_and(|e| crate::dom::is_host_tag(&e.local_name()))
}
