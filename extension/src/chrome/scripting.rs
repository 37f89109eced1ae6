//! Typed bindings to `chrome.scripting.executeScript` (putting Waymark's content script into the frames
//! of a tab) and `chrome.storage.session` (what the service worker must remember across its own
//! restarts, never across the browser's), for the service worker.
//!
//! Must not: be used by the content module, inject anything but the extension's own files and loader
//! glue's functions (`page_dialogs.js`), or keep
//! anything in `storage.session` that a restarted browser should still know (it is memory only).

use js_sys::Promise;
use serde::{de::DeserializeOwned, Serialize};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use super::{error_text, from_js, object, to_js};

#[wasm_bindgen]
extern "C" {
    /// Resolves to one result per frame the script ran in; rejects when the tab or the frames asked for
    /// cannot be entered (a browser page, an error page, a file page without the user's leave).
    #[wasm_bindgen(catch, js_namespace = ["chrome", "scripting"], js_name = executeScript)]
    fn scripting_execute_script(injection: &JsValue) -> Result<Promise, JsValue>;

    #[wasm_bindgen(catch, js_namespace = ["chrome", "storage", "session"], js_name = get)]
    fn storage_session_get(keys: &JsValue) -> Result<Promise, JsValue>;

    #[wasm_bindgen(catch, js_namespace = ["chrome", "storage", "session"], js_name = set)]
    fn storage_session_set(items: &JsValue) -> Result<Promise, JsValue>;
}

/// Which frames of a tab a script goes into.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Frames {
    /// Every frame the tab has now.
    All,
    /// These frames, by the browser's frame id (0 is the top frame).
    Ids(Vec<i32>),
    /// Exactly this document (`webNavigation`'s `documentId`): never the one it replaced or the one
    /// that replaces it.
    Document(String),
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Target<'a> {
    tab_id: i32,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    all_frames: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    frame_ids: Option<&'a [i32]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    document_ids: Option<[&'a str; 1]>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Injection<'a> {
    target: Target<'a>,
    files: [&'a str; 1],
    /// At once, not at the document's idle time: a document still loading gets the script while it
    /// loads, so its wasm is fetched and compiled meanwhile.
    inject_immediately: bool,
}

/// What an injection did: the top frame's outcome as the script's last value said it (`content.js`:
/// `started`, `wasm-refused`, `failed`), if it ran there.
#[derive(Debug, Default)]
pub struct Injected {
    pub top: Option<String>,
}

impl Injected {
    /// The top frame's own security policy forbids the WebAssembly the content module is built from.
    pub fn top_refused_wasm(&self) -> bool {
        self.top.as_deref() == Some("wasm-refused")
    }
}

/// Runs the extension's script `file` in `frames` of `tab`, and waits until it has run in each (and
/// the promise that is the script's last value has settled: see `content.js`), for at most
/// `deadline_ms`. `Err` in the browser's words, or the deadline.
pub async fn execute_file(
    tab: i32,
    frames: &Frames,
    file: &str,
    deadline_ms: u32,
) -> Result<Injected, String> {
    let injection = Injection {
        target: target(tab, frames),
        files: [file],
        inject_immediately: true,
    };
    execute(to_js(&injection), deadline_ms).await
}

/// Runs the extension's own function `func` (from its loader glue) with `arg` in `frames` of `tab`,
/// in the page's own world (`main`) or the content script's, within `deadline_ms`: as
/// [`execute_file`].
pub async fn execute_func(
    tab: i32,
    frames: &Frames,
    func: &JsValue,
    arg: &str,
    main: bool,
    deadline_ms: u32,
) -> Result<Injected, String> {
    // Put together by hand: no serializer of its own for one more shape in the module.
    let injection = object(&[
        ("target", to_js(&target(tab, frames))),
        ("func", func.clone()),
        ("args", js_sys::Array::of1(&arg.into()).into()),
        ("world", (if main { "MAIN" } else { "ISOLATED" }).into()),
        ("injectImmediately", true.into()),
    ]);
    execute(injection, deadline_ms).await
}

fn target<'a>(tab: i32, frames: &'a Frames) -> Target<'a> {
    match frames {
        Frames::All => Target {
            tab_id: tab,
            all_frames: true,
            frame_ids: None,
            document_ids: None,
        },
        Frames::Ids(ids) => Target {
            tab_id: tab,
            all_frames: false,
            frame_ids: Some(ids),
            document_ids: None,
        },
        Frames::Document(id) => Target {
            tab_id: tab,
            all_frames: false,
            frame_ids: None,
            document_ids: Some([id]),
        },
    }
}

async fn execute(injection: JsValue, deadline_ms: u32) -> Result<Injected, String> {
    let promise = scripting_execute_script(&injection).map_err(|e| error_text(&e))?;
    let late = Promise::new(&mut |resolve, _reject| {
        gloo_timers::callback::Timeout::new(deadline_ms, move || {
            let _ = resolve.call1(&JsValue::NULL, &JsValue::from_str(TOO_LATE));
        })
        .forget();
    });
    let first = Promise::race(&js_sys::Array::of2(&promise, &late));
    let results = JsFuture::from(first).await.map_err(|e| error_text(&e))?;
    if results.as_string().as_deref() == Some(TOO_LATE) {
        return Err(format!("not done within {deadline_ms} ms"));
    }
    let Some(found) = results.dyn_ref::<js_sys::Array>() else {
        return Ok(Injected::default());
    };
    let field = |item: &JsValue, key: &str| js_sys::Reflect::get(item, &key.into()).ok();
    let top = found
        .iter()
        .find(|item| field(item, "frameId").and_then(|id| id.as_f64()) == Some(0.0))
        .and_then(|item| field(&item, "result"))
        .and_then(|result| result.as_string());
    Ok(Injected { top })
}

/// What the deadline's promise resolves to (an injection resolves to an array).
const TOO_LATE: &str = "deadline";

/// The value kept in `storage.session` under `key`, if there is one and it reads as a `T`.
pub async fn session_get<T: DeserializeOwned>(key: &str) -> Result<Option<T>, String> {
    let promise = storage_session_get(&JsValue::from_str(key)).map_err(|e| error_text(&e))?;
    let items = JsFuture::from(promise).await.map_err(|e| error_text(&e))?;
    let value = js_sys::Reflect::get(&items, &key.into()).map_err(|e| error_text(&e))?;
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    from_js(value).map(Some)
}

/// Keeps `value` in `storage.session` under `key`.
pub async fn session_set<T: Serialize>(key: &str, value: &T) -> Result<(), String> {
    let items = object(&[(key, to_js(value))]);
    let promise = storage_session_set(&items).map_err(|e| error_text(&e))?;
    JsFuture::from(promise)
        .await
        .map(drop)
        .map_err(|e| error_text(&e))
}
