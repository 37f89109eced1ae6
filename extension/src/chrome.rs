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

    /// Who opened the port (`chrome.runtime.MessageSender`: `id`, `url`, `tab`…).
    #[wasm_bindgen(method, getter)]
    pub fn sender(this: &Port) -> JsValue;

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

/// This extension's id.
pub fn extension_id() -> String {
    js_sys::Reflect::get(&js_sys::global(), &"chrome".into())
        .and_then(|chrome| js_sys::Reflect::get(&chrome, &"runtime".into()))
        .and_then(|runtime| js_sys::Reflect::get(&runtime, &"id".into()))
        .ok()
        .and_then(|id| id.as_string())
        .unwrap_or_default()
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

/// Milliseconds since this context started, for measuring round trips.
pub fn now_ms() -> f64 {
    js_sys::Reflect::get(&js_sys::global(), &"performance".into())
        .ok()
        .and_then(|p| p.dyn_into::<web_sys::Performance>().ok())
        .map(|p| p.now())
        .unwrap_or_else(js_sys::Date::now)
}

// The frames of a tab (`tabs.rs`: one numbering across frames, matched in `frames.rs`).

#[wasm_bindgen]
extern "C" {
    /// Needs the `webNavigation` permission; rejects for a tab that is gone.
    #[wasm_bindgen(catch, js_namespace = ["chrome", "webNavigation"], js_name = getAllFrames)]
    fn web_navigation_get_all_frames(details: &JsValue) -> Result<js_sys::Promise, JsValue>;
}

/// One frame of a tab: its id and its parent's (-1 for the top frame).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TabFrame {
    pub frame: i32,
    pub parent: i32,
    /// The frame's address, as the browser reports it.
    pub url: String,
}

/// The frames of a tab's current page, in the order the browser made them (frame ids grow as frames
/// are made). Documents kept for going back, or loaded ahead (prerendered), are left out.
pub async fn tab_frames(tab: i32) -> Result<Vec<TabFrame>, String> {
    let promise =
        web_navigation_get_all_frames(&object(&[("tabId", tab.into())])).map_err(|e| error_text(&e))?;
    let found = wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .map_err(|e| error_text(&e))?;
    if !found.is_object() {
        // Older browsers answer null for a tab they do not know.
        return Err(format!("no frames for tab {tab}"));
    }
    let get = |frame: &JsValue, key: &str| js_sys::Reflect::get(frame, &key.into()).ok();
    let mut frames: Vec<TabFrame> = js_sys::Array::from(&found)
        .iter()
        .filter(|f| {
            get(f, "documentLifecycle")
                .and_then(|l| l.as_string())
                .is_none_or(|l| l == "active")
        })
        .filter_map(|f| {
            Some(TabFrame {
                frame: get(&f, "frameId")?.as_f64()? as i32,
                parent: get(&f, "parentFrameId")?.as_f64()? as i32,
                url: get(&f, "url").and_then(|u| u.as_string()).unwrap_or_default(),
            })
        })
        .collect();
    frames.sort_by_key(|f| f.frame);
    Ok(frames)
}

// Downloads and pictures of the screen (`tabs.rs`: browser_screenshot, browser_click_and_wait_download,
// browser_download_wait) and file contents for browser_upload (`content.rs`).

#[wasm_bindgen]
extern "C" {
    /// Undoes [`ChromeEvent::add_listener`], so a waiting tool's listener goes when it is done.
    #[wasm_bindgen(method, js_name = removeListener)]
    pub fn remove_listener(this: &ChromeEvent, listener: &js_sys::Function);
}

/// Calls `chrome.downloads.<method>(...args)` and awaits the promise it returns (needs the
/// `downloads` permission).
pub async fn downloads_api(method: &str, args: &[JsValue]) -> Result<JsValue, String> {
    let downloads = downloads_namespace()?;
    let function: js_sys::Function = js_sys::Reflect::get(&downloads, &method.into())
        .map_err(|e| error_text(&e))?
        .dyn_into()
        .map_err(|_| format!("chrome.downloads.{method} is not available"))?;
    let args: js_sys::Array = args.iter().collect();
    let promise = function.apply(&downloads, &args).map_err(|e| error_text(&e))?;
    wasm_bindgen_futures::JsFuture::from(js_sys::Promise::resolve(&promise))
        .await
        .map_err(|e| error_text(&e))
}

/// One of `chrome.downloads`' events, such as `onCreated`.
pub fn downloads_event(name: &str) -> Result<ChromeEvent, String> {
    js_sys::Reflect::get(&downloads_namespace()?, &name.into())
        .ok()
        .filter(|e| e.is_object())
        .map(|e| e.unchecked_into())
        .ok_or_else(|| format!("chrome.downloads.{name} is not available"))
}

fn downloads_namespace() -> Result<JsValue, String> {
    js_sys::Reflect::get(&js_sys::global(), &"chrome".into())
        .and_then(|c| js_sys::Reflect::get(&c, &"downloads".into()))
        .ok()
        .filter(|d| d.is_object())
        .ok_or_else(|| "the browser does not let Waymark see downloads (the downloads permission)".into())
}

/// Decodes standard base64 (with or without padding; whitespace is not expected). Done in Rust because
/// the text is already here, and a file of several megabytes would cost millions of calls through
/// `atob`'s binary string.
pub fn decode_base64(text: &str) -> Result<Vec<u8>, String> {
    fn value(c: u8) -> Option<u32> {
        match c {
            b'A'..=b'Z' => Some(u32::from(c - b'A')),
            b'a'..=b'z' => Some(u32::from(c - b'a') + 26),
            b'0'..=b'9' => Some(u32::from(c - b'0') + 52),
            b'+' => Some(62),
            b'/' => Some(63),
            _ => None,
        }
    }
    let text = text.trim_end_matches('=').as_bytes();
    let mut out = Vec::with_capacity(text.len() / 4 * 3 + 3);
    for chunk in text.chunks(4) {
        let mut n = 0u32;
        for (i, c) in chunk.iter().enumerate() {
            let v = value(*c).ok_or("the file's contents were damaged on the way (not base64)")?;
            n |= v << (18 - 6 * i);
        }
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        match chunk.len() {
            4 => out.extend_from_slice(&bytes),
            3 => out.extend_from_slice(&bytes[..2]),
            2 => out.push(bytes[0]),
            _ => return Err("the file's contents were damaged on the way (cut short)".into()),
        }
    }
    Ok(out)
}

/// The width and height of a JPEG image, from its frame header (the first SOFn segment).
pub fn jpeg_size(bytes: &[u8]) -> Option<(u32, u32)> {
    if bytes.get(..2)? != [0xff, 0xd8] {
        return None;
    }
    let mut at = 2;
    while at + 4 <= bytes.len() {
        if bytes[at] != 0xff {
            return None;
        }
        let marker = bytes[at + 1];
        let length = usize::from(u16::from_be_bytes([bytes[at + 2], bytes[at + 3]]));
        // SOF0..SOF15, except DHT (c4), JPG (c8) and DAC (cc), carry the frame's size.
        if (0xc0..=0xcf).contains(&marker) && ![0xc4, 0xc8, 0xcc].contains(&marker) {
            let height = u16::from_be_bytes([*bytes.get(at + 5)?, *bytes.get(at + 6)?]);
            let width = u16::from_be_bytes([*bytes.get(at + 7)?, *bytes.get(at + 8)?]);
            return Some((u32::from(width), u32::from(height)));
        }
        at += 2 + length;
    }
    None
}

#[cfg(test)]
mod transfer_tests {
    use super::*;

    #[test]
    fn base64_decodes_with_and_without_padding() {
        assert_eq!(decode_base64("aGVsbG8=").unwrap(), b"hello");
        assert_eq!(decode_base64("aGVsbG8").unwrap(), b"hello");
        assert_eq!(decode_base64("aGk=").unwrap(), b"hi");
        assert_eq!(decode_base64("").unwrap(), b"");
        assert_eq!(decode_base64("//79").unwrap(), [0xff, 0xfe, 0xfd]);
        assert!(decode_base64("a$==").is_err());
    }

    #[test]
    fn a_jpeg_says_its_size_in_its_frame_header() {
        // SOI, an APP0 segment of 16 bytes, then SOF0: 8-bit, height 600, width 1200.
        let mut jpeg = vec![0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10];
        jpeg.extend_from_slice(&[0; 14]);
        jpeg.extend_from_slice(&[0xff, 0xc0, 0x00, 0x11, 0x08, 0x02, 0x58, 0x04, 0xb0]);
        assert_eq!(jpeg_size(&jpeg), Some((1200, 600)));
        assert_eq!(jpeg_size(b"\x89PNG"), None);
        assert_eq!(jpeg_size(&jpeg[..10]), None);
    }
}
