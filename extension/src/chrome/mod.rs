//! Hand-written, typed bindings to the few `chrome.*` extension APIs Waymark uses (web-sys has none),
//! and the conversion of protocol messages to and from JavaScript values. Here: the runtime (ports,
//! messages, the manifest), events, the side panel, closed shadow roots and the logging of panics;
//! `tabs.rs` the tabs and their frames, `scripting.rs` putting the content script into them and the
//! worker's session storage, `downloads.rs` the downloads, `net.rs` the request guard's rules and
//! request events (all four for the service worker only), `windows.rs` the windows and the keyboard
//! shortcuts, `tts.rs` the system's speech, `encoding.rs` base64 and picture sizes.
//!
//! Must not: decide anything (what to send and what an answer means belong to the callers), or reach
//! an API by a name built at run time: every call goes through a declared binding, and what the
//! browser answers is read into a typed struct ([`from_js`]).

#[cfg(feature = "extension")]
pub mod downloads;
mod encoding;
#[cfg(feature = "extension")]
pub mod net;
#[cfg(feature = "extension")]
pub mod scripting;
#[cfg(feature = "extension")]
pub mod tabs;
#[cfg(feature = "extension")]
pub mod tts;
#[cfg(feature = "extension")]
pub mod windows;

pub use encoding::decode_base64;
#[cfg(feature = "extension")]
pub use encoding::jpeg_size;

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

    /// Who opened the port (`chrome.runtime.MessageSender`: `id`, `url`, `tab`…).
    #[wasm_bindgen(method, getter)]
    pub fn sender(this: &Port) -> JsValue;

    /// A `chrome.events.Event`.
    #[derive(Debug, Clone)]
    pub type ChromeEvent;

    #[wasm_bindgen(method, js_name = addListener)]
    pub fn add_listener(this: &ChromeEvent, listener: &js_sys::Function);

    /// Undoes [`ChromeEvent::add_listener`], so a waiting tool's listener goes when it is done.
    #[wasm_bindgen(method, js_name = removeListener)]
    pub fn remove_listener(this: &ChromeEvent, listener: &js_sys::Function);

    /// Throws synchronously when the host name is malformed; a missing host is reported through
    /// `onDisconnect` instead.
    #[wasm_bindgen(catch, js_namespace = ["chrome", "runtime"], js_name = connectNative)]
    pub fn connect_native(application: &str) -> Result<Port, JsValue>;

    #[wasm_bindgen(js_namespace = ["chrome", "runtime"], js_name = connect)]
    pub fn connect(info: &JsValue) -> Port;

    #[wasm_bindgen(js_namespace = ["chrome", "runtime"], js_name = getManifest)]
    fn get_manifest() -> JsValue;

    #[wasm_bindgen(js_namespace = ["chrome", "runtime", "onMessage"], js_name = addListener)]
    pub fn on_runtime_message(listener: &js_sys::Function);

    #[wasm_bindgen(catch, js_namespace = ["chrome", "sidePanel"], js_name = setPanelBehavior)]
    fn set_panel_behavior(behavior: &JsValue) -> Result<js_sys::Promise, JsValue>;

    /// `chrome.dom.openOrClosedShadowRoot` (content scripts): an element's shadow root, open or closed.
    #[wasm_bindgen(catch, js_namespace = ["chrome", "dom"], js_name = openOrClosedShadowRoot)]
    fn open_or_closed_shadow_root(element: &web_sys::Element) -> Result<JsValue, JsValue>;
}

/// An element's shadow root, open or closed. A page cannot read a closed one, but Waymark must list
/// and mask the fields inside it as the user sees them. Closed roots are asked for only on custom
/// elements (a tag with a dash), where web components keep them: asking costs a call into the
/// browser per element, and walks meet many elements.
pub fn shadow_root(element: &web_sys::Element) -> Option<web_sys::ShadowRoot> {
    element.shadow_root().or_else(|| closed_shadow_root(element))
}

/// A custom element's closed shadow root, if it has one (`None` for an open one: see
/// [`shadow_root`]).
pub fn closed_shadow_root(element: &web_sys::Element) -> Option<web_sys::ShadowRoot> {
    if !element.local_name().contains('-') {
        return None;
    }
    open_or_closed_shadow_root(element)
        .ok()?
        .dyn_into::<web_sys::ShadowRoot>()
        .ok()
        .filter(|root| root.mode() == web_sys::ShadowRootMode::Closed)
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

/// Which browser this is, by the brands it gives itself (`navigator.userAgentData`, in workers too);
/// Chromium when it gives none.
pub fn browser_brand() -> waymark_protocol::BrowserBrand {
    let brands = js_sys::Reflect::get(&js_sys::global(), &"navigator".into())
        .and_then(|navigator| js_sys::Reflect::get(&navigator, &"userAgentData".into()))
        .and_then(|data| js_sys::Reflect::get(&data, &"brands".into()))
        .ok()
        .filter(js_sys::Array::is_array)
        .map(|brands| js_sys::Array::from(&brands))
        .map(|brands| {
            brands
                .iter()
                .filter_map(|entry| js_sys::Reflect::get(&entry, &"brand".into()).ok()?.as_string())
                .collect::<Vec<String>>()
        })
        .unwrap_or_default();
    waymark_protocol::BrowserBrand::from_brands(brands.iter().map(String::as_str))
}

/// This extension's id.
pub fn extension_id() -> String {
    js_sys::Reflect::get(&js_sys::global(), &"chrome".into())
        .and_then(|chrome| js_sys::Reflect::get(&chrome, &"runtime".into()))
        .and_then(|runtime| js_sys::Reflect::get(&runtime, &"id".into()))
        .ok()
        .and_then(|id| id.as_string())
        .unwrap_or_default()
}

/// The address of a file in the extension's package (`chrome.runtime.getURL(path)`).
pub fn extension_url(path: &str) -> String {
    let get_url = js_sys::Reflect::get(&js_sys::global(), &"chrome".into())
        .and_then(|chrome| js_sys::Reflect::get(&chrome, &"runtime".into()))
        .and_then(|runtime| {
            let f = js_sys::Reflect::get(&runtime, &"getURL".into())?;
            Ok((runtime, f))
        });
    match get_url {
        Ok((runtime, f)) => f
            .dyn_into::<js_sys::Function>()
            .ok()
            .and_then(|f| f.call1(&runtime, &path.into()).ok())
            .and_then(|url| url.as_string())
            .unwrap_or_else(|| path.to_owned()),
        Err(_) => path.to_owned(),
    }
}

/// The browser's UI language (`chrome.i18n.getUILanguage()`, e.g. `ru` or `en-US`), if it says one.
pub fn ui_language() -> Option<String> {
    let i18n = js_sys::Reflect::get(&js_sys::global(), &"chrome".into())
        .and_then(|chrome| js_sys::Reflect::get(&chrome, &"i18n".into()))
        .ok()?;
    let get = js_sys::Reflect::get(&i18n, &"getUILanguage".into())
        .ok()?
        .dyn_into::<js_sys::Function>()
        .ok()?;
    get.call0(&i18n).ok()?.as_string().filter(|tag| !tag.is_empty())
}

/// The `version` from `manifest.json`.
pub fn extension_version() -> String {
    js_sys::Reflect::get(&get_manifest(), &"version".into())
        .ok()
        .and_then(|v| v.as_string())
        .unwrap_or_else(|| "unknown".into())
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
    // Through JSON text, not a JsValue serializer: one serde format (serde_json) in the module instead
    // of two keeps the wasm small, and the browser's JSON.parse is fast.
    serde_json::to_string(value)
        .ok()
        .and_then(|text| js_sys::JSON::parse(&text).ok())
        .unwrap_or(JsValue::NULL)
}

pub fn from_js<T: DeserializeOwned>(value: JsValue) -> Result<T, String> {
    let text = js_sys::JSON::stringify(&value)
        .map_err(|e| error_text(&e))?
        .as_string()
        .ok_or("the message is not JSON")?;
    serde_json::from_str(&text).map_err(|e| e.to_string())
}

/// Logs to the context's console (the service worker's or the panel's DevTools).
pub fn log(message: &str) {
    web_sys::console::log_1(&format!("waymark: {message}").into());
}

thread_local! {
    /// The message of the last panic, until someone reports it ([`take_panic`]).
    static LAST_PANIC: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// From now on a panic in this context is written to its console (in the wasm a panic aborts with a
/// bare "unreachable"), and kept for [`take_panic`], so whoever was waiting can be told what failed.
pub fn report_panics() {
    std::panic::set_hook(Box::new(|info| {
        let said = info.to_string();
        web_sys::console::error_1(&format!("waymark: {said}").into());
        LAST_PANIC.with_borrow_mut(|last| *last = Some(said));
    }));
}

/// The message of the panic that happened since the last call, if one did.
pub fn take_panic() -> Option<String> {
    LAST_PANIC.with_borrow_mut(Option::take)
}

/// Milliseconds since this context started, for measuring round trips.
pub fn now_ms() -> f64 {
    js_sys::Reflect::get(&js_sys::global(), &"performance".into())
        .ok()
        .and_then(|p| p.dyn_into::<web_sys::Performance>().ok())
        .map(|p| p.now())
        .unwrap_or_else(js_sys::Date::now)
}
