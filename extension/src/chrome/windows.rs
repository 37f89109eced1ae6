//! Typed bindings to `chrome.windows` (find the user's last browser window, focus a window, open
//! Waymark's own popup window), `chrome.commands` (the keyboard shortcuts as the browser has them) and
//! `chrome.runtime.getPlatformInfo` (which system the browser runs on), for the service worker and the
//! panel.
//!
//! Must not: be used by the content module (a page's frame has neither API), or read a field of a
//! window that is not declared in [`Window`].

use js_sys::Promise;
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use super::{error_text, from_js, to_js};

#[wasm_bindgen]
extern "C" {
    /// Rejects for a window that is gone.
    #[wasm_bindgen(catch, js_namespace = ["chrome", "windows"], js_name = get)]
    fn windows_get(window_id: i32) -> Result<Promise, JsValue>;

    /// Rejects when no window of the wanted types exists.
    #[wasm_bindgen(catch, js_namespace = ["chrome", "windows"], js_name = getLastFocused)]
    fn windows_get_last_focused(options: &JsValue) -> Result<Promise, JsValue>;

    #[wasm_bindgen(catch, js_namespace = ["chrome", "windows"], js_name = update)]
    fn windows_update(window_id: i32, properties: &JsValue) -> Result<Promise, JsValue>;

    #[wasm_bindgen(catch, js_namespace = ["chrome", "windows"], js_name = create)]
    fn windows_create(properties: &JsValue) -> Result<Promise, JsValue>;

    #[wasm_bindgen(catch, js_namespace = ["chrome", "commands"], js_name = getAll)]
    fn commands_get_all() -> Result<Promise, JsValue>;

    #[wasm_bindgen(catch, js_namespace = ["chrome", "runtime"], js_name = getPlatformInfo)]
    fn runtime_get_platform_info() -> Result<Promise, JsValue>;
}

/// What Waymark reads of `chrome.runtime.PlatformInfo`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Platform {
    /// `linux`, `win`, `mac`, `cros`, …
    pub os: String,
}

/// What Waymark reads of a `chrome.windows.Window`; a missing field reads as empty.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Window {
    pub id: Option<i32>,
    pub focused: bool,
}

/// What [`get_last_focused`] may find: `normal` for the user's browser windows (not Waymark's popup).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
struct WindowTypes {
    window_types: Vec<&'static str>,
}

/// What [`focus`] changes.
#[derive(Debug, Clone, Serialize)]
struct Focus {
    focused: bool,
}

/// The popup window [`create_popup`] opens.
#[derive(Debug, Clone, Serialize)]
struct NewPopup<'a> {
    url: &'a str,
    #[serde(rename = "type")]
    kind: &'static str,
    width: u32,
    height: u32,
    focused: bool,
}

/// One keyboard shortcut of the extension, as `chrome.commands.getAll()` has it.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Command {
    pub name: String,
    /// Empty when the browser left it unset.
    pub shortcut: String,
}

/// Awaits a binding's promise, with a thrown error or a rejection as its message.
async fn settle(promise: Result<Promise, JsValue>) -> Result<JsValue, String> {
    let promise = promise.map_err(|e| error_text(&e))?;
    JsFuture::from(promise).await.map_err(|e| error_text(&e))
}

/// The window with this id, as it is now.
pub async fn get(window: i32) -> Result<Window, String> {
    from_js(settle(windows_get(window)).await?)
}

/// The browser window (not a popup such as Waymark's) the user last worked in.
pub async fn last_focused_browser_window() -> Result<Window, String> {
    let types = WindowTypes {
        window_types: vec!["normal"],
    };
    from_js(settle(windows_get_last_focused(&to_js(&types))).await?)
}

/// Makes a window the focused one, in front of the others.
pub async fn focus(window: i32) -> Result<(), String> {
    settle(windows_update(window, &to_js(&Focus { focused: true })))
        .await
        .map(drop)
}

/// Opens `url` (an extension page) in a focused popup window of `width` × `height`.
pub async fn create_popup(url: &str, width: u32, height: u32) -> Result<(), String> {
    let popup = NewPopup {
        url,
        kind: "popup",
        width,
        height,
        focused: true,
    };
    settle(windows_create(&to_js(&popup))).await.map(drop)
}

/// The extension's keyboard shortcuts: each command's name and its key, empty when the browser left it
/// unset (it never assigns a suggested key that is one of its own, nor more than four).
pub async fn shortcuts() -> Result<Vec<Command>, String> {
    from_js(settle(commands_get_all()).await?)
}

/// The system the browser runs on.
pub async fn platform() -> Result<Platform, String> {
    from_js(settle(runtime_get_platform_info()).await?)
}
