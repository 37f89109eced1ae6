//! Hand-written bindings to the few `chrome.*` extension APIs Waymark uses (web-sys has none), and the
//! conversion of protocol messages to and from JavaScript values.

use serde::{de::DeserializeOwned, Serialize};
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// A `chrome.runtime.Port`: to the native host, or between the panel and the service worker.
    #[derive(Debug, Clone)]
    pub type Port;

    /// Throws once the port is disconnected; hence `catch`.
    #[wasm_bindgen(method, catch, js_name = postMessage)]
    pub fn post_message(this: &Port, message: &JsValue) -> Result<(), JsValue>;

    #[wasm_bindgen(method)]
    pub fn disconnect(this: &Port);

    #[wasm_bindgen(method, getter)]
    pub fn name(this: &Port) -> String;

    #[wasm_bindgen(method, getter, js_name = onMessage)]
    pub fn on_message(this: &Port) -> ChromeEvent;

    #[wasm_bindgen(method, getter, js_name = onDisconnect)]
    pub fn on_disconnect(this: &Port) -> ChromeEvent;

    /// A `chrome.events.Event`.
    pub type ChromeEvent;

    #[wasm_bindgen(method, js_name = addListener)]
    pub fn add_listener(this: &ChromeEvent, listener: &js_sys::Function);

    /// Throws synchronously when the host name is malformed; a missing host is reported through
    /// `onDisconnect` instead.
    #[wasm_bindgen(catch, js_namespace = ["chrome", "runtime"], js_name = connectNative)]
    pub fn connect_native(application: &str) -> Result<Port, JsValue>;

    #[wasm_bindgen(js_namespace = ["chrome", "runtime"], js_name = connect)]
    pub fn connect(info: &JsValue) -> Port;

    #[wasm_bindgen(js_namespace = ["chrome", "runtime"], js_name = getManifest)]
    fn get_manifest() -> JsValue;

    #[wasm_bindgen(catch, js_namespace = ["chrome", "runtime"], js_name = sendMessage)]
    fn runtime_send_message(message: &JsValue) -> Result<js_sys::Promise, JsValue>;

    #[wasm_bindgen(js_namespace = ["chrome", "runtime", "onMessage"], js_name = addListener)]
    pub fn on_runtime_message(listener: &js_sys::Function);

    /// Resolves to the receiver's response; rejects when no content script listens in that frame.
    #[wasm_bindgen(catch, js_namespace = ["chrome", "tabs"], js_name = sendMessage)]
    pub fn tabs_send_message(
        tab_id: i32,
        message: &JsValue,
        options: &JsValue,
    ) -> Result<js_sys::Promise, JsValue>;

    #[wasm_bindgen(catch, js_namespace = ["chrome", "tabs"], js_name = query)]
    fn tabs_query(query: &JsValue) -> Result<js_sys::Promise, JsValue>;

    #[wasm_bindgen(catch, js_namespace = ["chrome", "sidePanel"], js_name = setPanelBehavior)]
    fn set_panel_behavior(behavior: &JsValue) -> Result<js_sys::Promise, JsValue>;
}

/// `chrome.runtime.lastError.message`, which is only set inside the callback that reports it.
pub fn last_error_message() -> Option<String> {
    let chrome = js_sys::Reflect::get(&js_sys::global(), &"chrome".into()).ok()?;
    let runtime = js_sys::Reflect::get(&chrome, &"runtime".into()).ok()?;
    let error = js_sys::Reflect::get(&runtime, &"lastError".into()).ok()?;
    if error.is_undefined() || error.is_null() {
        return None;
    }
    js_sys::Reflect::get(&error, &"message".into()).ok()?.as_string()
}

/// The `version` from `manifest.json`.
pub fn extension_version() -> String {
    js_sys::Reflect::get(&get_manifest(), &"version".into())
        .ok()
        .and_then(|v| v.as_string())
        .unwrap_or_else(|| "unknown".into())
}

/// The id of the active tab in the last focused window, skipping Waymark's own pages.
pub async fn active_tab_id() -> Option<i32> {
    let query = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&query, &"active".into(), &JsValue::TRUE);
    let _ = js_sys::Reflect::set(&query, &"lastFocusedWindow".into(), &JsValue::TRUE);
    let tabs = wasm_bindgen_futures::JsFuture::from(tabs_query(&query).ok()?)
        .await
        .ok()?;
    let tabs: js_sys::Array = tabs.dyn_into().ok()?;
    tabs.iter().find_map(|tab| {
        let url = js_sys::Reflect::get(&tab, &"url".into())
            .ok()
            .and_then(|u| u.as_string())
            .unwrap_or_default();
        if url.starts_with("chrome-extension://") {
            return None;
        }
        js_sys::Reflect::get(&tab, &"id".into())
            .ok()?
            .as_f64()
            .map(|id| id as i32)
    })
}

/// Calls `chrome.tabs.<method>(...args)` and awaits the promise it returns.
pub async fn tabs_api(method: &str, args: &[JsValue]) -> Result<JsValue, String> {
    let tabs = js_sys::Reflect::get(&js_sys::global(), &"chrome".into())
        .and_then(|c| js_sys::Reflect::get(&c, &"tabs".into()))
        .map_err(|e| error_text(&e))?;
    let function: js_sys::Function = js_sys::Reflect::get(&tabs, &method.into())
        .map_err(|e| error_text(&e))?
        .dyn_into()
        .map_err(|_| format!("chrome.tabs.{method} is not available"))?;
    let args: js_sys::Array = args.iter().collect();
    let promise = function.apply(&tabs, &args).map_err(|e| error_text(&e))?;
    wasm_bindgen_futures::JsFuture::from(js_sys::Promise::resolve(&promise))
        .await
        .map_err(|e| error_text(&e))
}

/// Opens the extension's options page (the settings page) in a tab, or focuses it if open.
pub fn open_options_page() {
    let open = js_sys::Reflect::get(&js_sys::global(), &"chrome".into())
        .and_then(|c| js_sys::Reflect::get(&c, &"runtime".into()))
        .and_then(|r| js_sys::Reflect::get(&r, &"openOptionsPage".into()).map(|f| (r, f)));
    if let Ok((runtime, function)) = open {
        if let Some(function) = function.dyn_ref::<js_sys::Function>() {
            let _ = function.call0(&runtime);
        }
    }
}

/// A plain object from key/value pairs.
pub fn object(pairs: &[(&str, JsValue)]) -> JsValue {
    let object = js_sys::Object::new();
    for (key, value) in pairs {
        let _ = js_sys::Reflect::set(&object, &(*key).into(), value);
    }
    object.into()
}

/// Sends a one-off message to the service worker, without waiting for an answer.
pub fn send_to_worker(message: &JsValue) {
    if let Ok(promise) = runtime_send_message(message) {
        // Awaited only so a rejection (the worker restarting) is handled rather than logged as uncaught.
        wasm_bindgen_futures::spawn_local(async move {
            let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
        });
    }
}

/// Sends `message` to one frame of a tab (0 is the top frame) and waits for its answer.
pub async fn send_to_frame(tab_id: i32, frame_id: i32, message: &JsValue) -> Result<JsValue, String> {
    let options = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&options, &"frameId".into(), &frame_id.into());
    let promise = tabs_send_message(tab_id, message, &options).map_err(|e| error_text(&e))?;
    wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .map_err(|e| error_text(&e))
}

/// The message of a thrown JavaScript error, or its debug form.
pub fn error_text(error: &JsValue) -> String {
    js_sys::Reflect::get(error, &"message".into())
        .ok()
        .and_then(|m| m.as_string())
        .unwrap_or_else(|| format!("{error:?}"))
}

/// Makes the toolbar button (and its shortcut) open the side panel.
pub fn open_panel_on_action_click() {
    let behavior = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&behavior, &"openPanelOnActionClick".into(), &true.into());
    if let Err(e) = set_panel_behavior(&behavior) {
        log(&format!("sidePanel.setPanelBehavior failed: {e:?}"));
    }
}

/// Serializes a message as a plain JSON-like object (maps as objects, not `Map`s), as ports expect.
pub fn to_js<T: Serialize>(value: &T) -> JsValue {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap_or(JsValue::NULL)
}

pub fn from_js<T: DeserializeOwned>(value: JsValue) -> Result<T, String> {
    serde_wasm_bindgen::from_value(value).map_err(|e| e.to_string())
}

/// Logs to the context's console (the service worker's or the panel's DevTools).
pub fn log(message: &str) {
    web_sys::console::log_1(&format!("waymark: {message}").into());
}

/// Milliseconds since this context started, for measuring round trips.
pub fn now_ms() -> f64 {
    js_sys::Reflect::get(&js_sys::global(), &"performance".into())
        .ok()
        .and_then(|p| p.dyn_into::<web_sys::Performance>().ok())
        .map(|p| p.now())
        .unwrap_or_else(js_sys::Date::now)
}
