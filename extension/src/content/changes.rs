//! What an action changed, noticed in the moments after it: the page (mutations outside Waymark's own
//! hosts), the keyboard focus, the acted control's value, states or name, the address (a route
//! change), requests the page made and finished, the tab hidden (a new tab in front), or the page
//! being left for another. The answer to an action carries the list (`changed`), so nobody is told
//! "done" when nothing happened.
//!
//! Must not: change the page, or keep anything once the answer is sent (the observer, the listeners
//! and the timers live only for the action's moments).

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use web_sys::Element;

use crate::detect::Found;

/// How long an action's effects are waited for when none shows (a framework renders after the event,
/// a request answers on this machine within this).
const QUIET_MS: f64 = 400.0;
/// Once something changed, a little longer, so the rest of the same change is seen too.
const AFTER_FIRST_MS: f64 = 60.0;
const POLL_MS: u32 = 25;

/// The page as it was before an action, and what has changed since.
pub(super) struct Watch {
    url: String,
    focus: Option<Element>,
    hidden: bool,
    /// The acted control and its description before the action.
    control: RefCell<Option<(Found, String)>>,
    resources: u32,
    mutations: Rc<Cell<u32>>,
    leaving: Rc<Cell<bool>>,
    /// Who hears what changed: called once, when the moments are over or the page is being left.
    reply: Rc<RefCell<Option<Reply>>>,
    observer: Option<web_sys::MutationObserver>,
    _on_mutations: Closure<dyn FnMut(js_sys::Array)>,
    on_leave: Closure<dyn FnMut()>,
}

/// What is done with the list of changes: the answer sent.
pub(super) type Reply = Box<dyn FnOnce(Vec<&'static str>)>;

thread_local! {
    /// The watch of the action being answered, so the code that finds the control can name it.
    static CURRENT: RefCell<Option<Rc<Watch>>> = const { RefCell::new(None) };
}

fn document() -> Option<web_sys::Document> {
    web_sys::window().and_then(|w| w.document())
}

fn resources() -> u32 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.get_entries_by_type("resource").length())
        .unwrap_or(0)
}

/// A record that is about the page, not about Waymark's own host elements (the overlay, the mask).
fn about_page(record: &JsValue) -> bool {
    let node = |v: JsValue| v.dyn_into::<Element>().ok();
    let own = |e: &Element| crate::dom::is_host_tag(&e.local_name());
    if js_sys::Reflect::get(record, &"target".into())
        .ok()
        .and_then(node)
        .is_some_and(|t| own(&t))
    {
        return false;
    }
    let nodes = |key: &str| {
        js_sys::Reflect::get(record, &key.into())
            .ok()
            .map(|l| js_sys::Array::from(&l))
            .unwrap_or_default()
    };
    let (added, removed) = (nodes("addedNodes"), nodes("removedNodes"));
    let all_own = added
        .iter()
        .chain(removed.iter())
        .all(|n| node(n).is_some_and(|e| own(&e)));
    added.length() + removed.length() == 0 || !all_own
}

impl Watch {
    /// Starts watching, as the current action's watch.
    pub(super) fn start() -> Rc<Watch> {
        let document = document();
        let mutations = Rc::new(Cell::new(0));
        let on_mutations = {
            let mutations = mutations.clone();
            Closure::<dyn FnMut(js_sys::Array)>::new(move |records: js_sys::Array| {
                let about = records.iter().filter(about_page).count() as u32;
                mutations.set(mutations.get() + about);
            })
        };
        let observer = web_sys::MutationObserver::new(on_mutations.as_ref().unchecked_ref()).ok();
        if let (Some(o), Some(root)) = (&observer, document.as_ref().and_then(|d| d.document_element())) {
            crate::dom::observe_everything(o, &root);
        }
        let leaving = Rc::new(Cell::new(false));
        let reply: Rc<RefCell<Option<Reply>>> = Rc::new(RefCell::new(None));
        let on_leave = {
            let (leaving, reply) = (leaving.clone(), reply.clone());
            // The page may be gone before the next timer: the answer goes now, while it can.
            Closure::<dyn FnMut()>::new(move || {
                leaving.set(true);
                if let Some(reply) = reply.borrow_mut().take() {
                    reply(vec!["leaving"]);
                }
            })
        };
        if let Some(window) = web_sys::window() {
            for kind in ["beforeunload", "pagehide"] {
                let _ = window.add_event_listener_with_callback(kind, on_leave.as_ref().unchecked_ref());
            }
        }
        let watch = Rc::new(Watch {
            url: document.as_ref().and_then(|d| d.url().ok()).unwrap_or_default(),
            focus: document.as_ref().and_then(crate::act::deep_active_element),
            hidden: document.as_ref().is_some_and(|d| d.hidden()),
            control: RefCell::new(None),
            resources: resources(),
            mutations,
            leaving,
            reply,
            observer,
            _on_mutations: on_mutations,
            on_leave,
        });
        CURRENT.with_borrow_mut(|c| *c = Some(watch.clone()));
        watch
    }

    /// Whether the page is being left for another (a link followed, a form sent).
    pub(super) fn leaving(&self) -> bool {
        self.leaving.get()
    }

    /// What changed so far.
    pub(super) fn changed(&self) -> Vec<&'static str> {
        if self.leaving() {
            return vec!["leaving"];
        }
        let mut changed = Vec::new();
        let document = document();
        if self.mutations.get() > 0 {
            changed.push("page");
        }
        let focus = document.as_ref().and_then(crate::act::deep_active_element);
        // The focus the action itself gave the control (a click focuses what it clicks) is not the
        // page's answer; the focus going anywhere else is.
        let on_control = focus.as_ref().is_some_and(|f| {
            self.control.borrow().as_ref().is_some_and(|(found, _)| {
                let control = &found.element;
                crate::dom::composed_contains(control, f)
                    || js_sys::Reflect::get(control, &"control".into())
                        .is_ok_and(|c| c == JsValue::from(f.clone()))
            })
        });
        if focus != self.focus && !on_control {
            changed.push("focus");
        }
        if let Some((found, before)) = &*self.control.borrow() {
            if described(found) != *before {
                changed.push("control");
            }
        }
        let url = document.as_ref().and_then(|d| d.url().ok()).unwrap_or_default();
        if url != self.url {
            changed.push("address");
        }
        if resources() != self.resources {
            changed.push("request");
        }
        if document.as_ref().is_some_and(|d| d.hidden()) && !self.hidden {
            changed.push("tab");
        }
        changed
    }

    /// Waits a moment for the action's effects — until something changed (and a little longer), the
    /// page is being left, or [`QUIET_MS`] passed with nothing — and tells `reply` what changed, once;
    /// then stops watching.
    pub(super) async fn settle(self: Rc<Self>, reply: Reply) {
        self.reply.replace(Some(reply));
        let now = js_sys::Date::now;
        let start = now();
        let mut first: Option<f64> = None;
        loop {
            if self.leaving() {
                break;
            }
            gloo_timers::future::TimeoutFuture::new(POLL_MS).await;
            let t = now();
            if first.is_none() && !self.changed().is_empty() {
                first = Some(t);
            }
            match first {
                Some(f) if t - f >= AFTER_FIRST_MS => break,
                None if t - start >= QUIET_MS => break,
                _ => {}
            }
        }
        let changed = self.changed();
        let reply = self.reply.borrow_mut().take();
        self.stop();
        if let Some(reply) = reply {
            reply(changed);
        }
    }

    /// Stops watching (the observer and the listeners go).
    pub(super) fn stop(&self) {
        if let Some(o) = &self.observer {
            o.disconnect();
        }
        if let Some(window) = web_sys::window() {
            for kind in ["beforeunload", "pagehide"] {
                let _ =
                    window.remove_event_listener_with_callback(kind, self.on_leave.as_ref().unchecked_ref());
            }
        }
        CURRENT.with_borrow_mut(|c| {
            if c.as_ref().is_some_and(|w| std::ptr::eq(w.as_ref(), self)) {
                *c = None;
            }
        });
    }
}

/// The control's value, states and name, as a list would say them now.
fn described(found: &Found) -> String {
    let mut now = found.clone();
    now.refresh();
    let d = now.describe(0);
    format!(
        "{}\u{1f}{:?}\u{1f}{:?}\u{1f}{}",
        found.current_name(),
        d.value,
        d.states,
        d.role
    )
}

/// Notes the control the current action acts on, as it is before the action.
pub(super) fn track(found: &Found) {
    CURRENT.with_borrow(|c| {
        if let Some(watch) = c {
            watch.control.replace(Some((found.clone(), described(found))));
        }
    });
}
