//! This frame's half of the request guard: while a guarded action lands here, a form this frame
//! would post (by a click, Enter, `requestSubmit()` or a script's `submit()`) is kept back unless the
//! gate's allowances cover it, and remembered for the worker, so the page stays as it was and the gate
//! can ask about it — where the browser's own block would replace the page with its error page.
//!
//! How: the Navigation API's `navigate` event, which every navigation of this frame's document fires
//! (a form's with its entries in `formData`), cancelled with `preventDefault`. The listener is added
//! the first time a guarded action lands in the frame and does nothing while the frame is not armed;
//! arming ends with the worker's `disarm`, or by itself after [`ARMED_MAX_MS`].
//!
//! A page's own dialog shown meanwhile (a `confirm` before a form is posted) ends the keeping back:
//! the user answers it by their own hand, and what the page does after is theirs.
//!
//! Must not: keep back anything while not armed (what the user does by hand is theirs), keep a
//! secret value of a form (`waymark_protocol::request::fields_of_form` leaves them out), or change
//! anything a page can see while nothing is kept back.

use std::cell::RefCell;

use wasm_bindgen::prelude::*;
use waymark_protocol::request::{fields_of_form, without_fragment};
use waymark_protocol::{AllowedRequest, Disarmed, Guard, RequestKind, StoppedRequest};

use crate::chrome::now_ms;

/// A frame armed longer than this (its worker went away mid-action) disarms by itself.
const ARMED_MAX_MS: f64 = 10_000.0;
/// How many kept-back forms are remembered.
const KEPT_MAX: usize = 8;

#[derive(Default)]
struct Armed {
    since: Option<f64>,
    allow: Vec<AllowedRequest>,
    kept: Vec<StoppedRequest>,
    listening: bool,
}

thread_local! {
    static ARMED: RefCell<Armed> = RefCell::new(Armed::default());
}

/// Arms the frame with `guard`'s allowances (until [`disarm`]).
pub(super) fn arm(guard: Guard) {
    let listen = ARMED.with_borrow_mut(|armed| {
        armed.since = Some(now_ms());
        armed.allow = guard.allow;
        !std::mem::replace(&mut armed.listening, true)
    });
    if listen {
        listen_to_navigations();
    }
}

/// Disarms the frame: the forms it kept back.
pub(super) fn disarm() -> Disarmed {
    ARMED.with_borrow_mut(|armed| {
        armed.since = None;
        armed.allow.clear();
        Disarmed {
            stopped: std::mem::take(&mut armed.kept),
        }
    })
}

fn listen_to_navigations() {
    let Some(navigation) = web_sys::window()
        .and_then(|w| js_sys::Reflect::get(&w, &"navigation".into()).ok())
        .filter(JsValue::is_object)
        .and_then(|n| n.dyn_into::<web_sys::EventTarget>().ok())
    else {
        // No Navigation API: the browser's own block stops a form all the same.
        return;
    };
    let listener = Closure::<dyn FnMut(web_sys::Event)>::new(navigating);
    let _ = navigation.add_event_listener_with_callback("navigate", listener.as_ref().unchecked_ref());
    // It lives as long as the frame.
    listener.forget();
}

/// A navigation of this frame's document: a form it posts is kept back while armed and not covered.
fn navigating(event: web_sys::Event) {
    // The page showed its own dialog since the frame was armed (`extension/static/page_dialogs.js`
    // notes when, in this world): what follows the user's answer to it is theirs, never kept back.
    let asked = js_sys::Reflect::get(&js_sys::global(), &"waymarkPageDialogAt".into())
        .ok()
        .and_then(|at| at.as_f64());
    let armed = ARMED.with_borrow(|a| {
        a.since
            .is_some_and(|since| now_ms() - since < ARMED_MAX_MS && asked.is_none_or(|at| at < since))
    });
    if !armed {
        return;
    }
    let get = |key: &str| js_sys::Reflect::get(&event, &key.into()).unwrap_or(JsValue::UNDEFINED);
    let form = get("formData");
    if form.is_null() || form.is_undefined() {
        // Not a form posted: a link, a GET form, history.
        return;
    }
    let url = js_sys::Reflect::get(&get("destination"), &"url".into())
        .ok()
        .and_then(|u| u.as_string())
        .unwrap_or_default();
    let covered = ARMED.with_borrow_mut(|armed| {
        let i = armed.allow.iter().position(|a| a.covers("POST", &url))?;
        Some(armed.allow.remove(i))
    });
    if covered.is_some() || !event.cancelable() {
        // Covered; or the browser will not let it be kept back here, and its own block stops it.
        return;
    }
    event.prevent_default();
    let entries = form_entries(&form);
    let (fields, partial) = fields_of_form(entries.iter().map(|(n, v)| (n.as_str(), v.as_deref())));
    ARMED.with_borrow_mut(|armed| {
        if armed.kept.len() < KEPT_MAX {
            armed.kept.push(StoppedRequest {
                method: "POST".into(),
                url: without_fragment(&url).to_owned(),
                kind: RequestKind::Form,
                frame: 0,
                fields,
                partial,
            });
        }
    });
}

/// A `FormData`'s entries: each name with its value, or `None` for a file.
fn form_entries(form: &JsValue) -> Vec<(String, Option<String>)> {
    let Ok(entries) = js_sys::Reflect::get(form, &"entries".into())
        .and_then(|f| f.dyn_into::<js_sys::Function>())
        .and_then(|f| f.call0(form))
    else {
        return Vec::new();
    };
    let Ok(Some(iterator)) = js_sys::try_iter(&entries) else {
        return Vec::new();
    };
    iterator
        .flatten()
        .take(waymark_protocol::request::MAX_FIELDS + 1)
        .filter_map(|pair| {
            let pair = js_sys::Array::from(&pair);
            let name = pair.get(0).as_string()?;
            Some((name, pair.get(1).as_string()))
        })
        .collect()
}

/// For going back or forward: the address of the entry it would show, when it is this frame's own
/// origin (the Navigation API lists only those).
pub(super) fn history_destination(step: i32) -> Option<String> {
    let navigation = web_sys::window()
        .and_then(|w| js_sys::Reflect::get(&w, &"navigation".into()).ok())
        .filter(JsValue::is_object)?;
    let current = js_sys::Reflect::get(&navigation, &"currentEntry".into()).ok()?;
    let index = js_sys::Reflect::get(&current, &"index".into()).ok()?.as_f64()?;
    let entries = js_sys::Reflect::get(&navigation, &"entries".into())
        .ok()?
        .dyn_into::<js_sys::Function>()
        .ok()?
        .call0(&navigation)
        .ok()?;
    let wanted = index + f64::from(step);
    js_sys::Array::from(&entries).iter().find_map(|entry| {
        let at = js_sys::Reflect::get(&entry, &"index".into()).ok()?.as_f64()?;
        (at == wanted)
            .then(|| js_sys::Reflect::get(&entry, &"url".into()).ok()?.as_string())
            .flatten()
    })
}
