//! The frame's whole-page listing: the last one given again while the page does not change (with the
//! contexts its described controls were given), else a fresh one that judges again only what changed
//! (`watch.rs` says what); and the first look prepared: in a new document of a tab Waymark is at work
//! in (the worker says so with `WorkerToContent::Prepare`), the whole page is listed once the browser
//! is idle after its `load`, and watched from then on, so the first listing a tool asks for is a
//! repeated one.
//!
//! Must not: prepare a document nobody asked it for, list more than once for it, or delay the page's
//! own load (it waits for `load` and then for the browser's idle time).

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use waymark_protocol::ToolResult;

use super::FRAME;
use crate::detect::{self, Entry};

/// How long the idle callback may wait for an idle moment before it runs anyway.
const IDLE_TIMEOUT_MS: u32 = 1_000;

/// The whole page's entries, each of the first `limit` controls with its context: the last listing's
/// when nothing changed since (then `true`), else a fresh listing.
pub(super) fn listing(document: &web_sys::Document, limit: u32) -> (Vec<Entry>, bool) {
    let changes = crate::watch::take_changes();
    let kept = FRAME
        .with_borrow(|f| f.listing.clone())
        .filter(|_| changes.none());
    let (mut entries, reused) = match kept {
        Some((entries, with_context)) if with_context == limit => return (entries, true),
        Some((entries, _)) => (entries, true),
        None => (detect::listing(document, &changes), false),
    };
    detect::add_context(&mut entries, limit);
    FRAME.with_borrow_mut(|f| f.listing = Some((entries.clone(), limit)));
    (entries, reused)
}

/// Lists the page when the browser is idle after its load; answers at once.
pub(super) fn prepare_when_idle() -> ToolResult {
    let Some(window) = web_sys::window() else {
        return ToolResult::ok(serde_json::json!({}));
    };
    let loaded = window.document().is_some_and(|d| d.ready_state() == "complete");
    if loaded {
        idle(&window);
    } else {
        let after_load = Closure::once_into_js(|| {
            if let Some(window) = web_sys::window() {
                idle(&window);
            }
        });
        let options = web_sys::AddEventListenerOptions::new();
        options.set_once(true);
        let _ = window.add_event_listener_with_callback_and_add_event_listener_options(
            "load",
            after_load.unchecked_ref(),
            &options,
        );
    }
    ToolResult::ok(serde_json::json!({}))
}

/// Asks for the listing at the browser's next idle time (or after [`IDLE_TIMEOUT_MS`]).
fn idle(window: &web_sys::Window) {
    let list = Closure::once_into_js(list_once);
    let options = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&options, &"timeout".into(), &IDLE_TIMEOUT_MS.into());
    // Without idle callbacks nothing is prepared: the first listing reads it all, as without this.
    if let Some(request) = js_sys::Reflect::get(window, &"requestIdleCallback".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
    {
        let _ = request.call2(window, &list, &options);
    }
}

/// Lists the whole page unless a listing already did, and watches it from now on.
fn list_once() {
    if FRAME.with_borrow(|f| f.listing.is_some()) {
        return;
    }
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    listing(&document, 0);
    crate::watch::begin();
}
