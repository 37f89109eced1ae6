//! Typed bindings to `chrome.tabs` (find, update, open, move through history, picture a tab, message
//! one frame), `chrome.webNavigation.getAllFrames` (the frames of a tab) and whether file pages may be
//! entered, for the service worker.
//! Each call returns the browser's promise; what it resolves to is read into [`Tab`] or [`TabFrame`].
//!
//! Must not: be used by the content module (a page's frame has no `chrome.tabs`), or read a field of
//! a tab that is not declared in [`Tab`].

use js_sys::Promise;
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use super::{error_text, from_js, object, to_js};

#[wasm_bindgen]
extern "C" {
    /// Rejects for a tab that is gone.
    #[wasm_bindgen(catch, js_namespace = ["chrome", "tabs"], js_name = get)]
    fn tabs_get(tab_id: i32) -> Result<Promise, JsValue>;

    /// Resolves to the tab this page runs in, or to nothing for a page without a tab (the side panel).
    #[wasm_bindgen(catch, js_namespace = ["chrome", "tabs"], js_name = getCurrent)]
    fn tabs_get_current() -> Result<Promise, JsValue>;

    #[wasm_bindgen(catch, js_namespace = ["chrome", "tabs"], js_name = query)]
    fn tabs_query(query: &JsValue) -> Result<Promise, JsValue>;

    #[wasm_bindgen(catch, js_namespace = ["chrome", "tabs"], js_name = update)]
    fn tabs_update(tab_id: i32, properties: &JsValue) -> Result<Promise, JsValue>;

    #[wasm_bindgen(catch, js_namespace = ["chrome", "tabs"], js_name = create)]
    fn tabs_create(properties: &JsValue) -> Result<Promise, JsValue>;

    #[wasm_bindgen(catch, js_namespace = ["chrome", "tabs"], js_name = goBack)]
    fn tabs_go_back(tab_id: i32) -> Result<Promise, JsValue>;

    #[wasm_bindgen(catch, js_namespace = ["chrome", "tabs"], js_name = goForward)]
    fn tabs_go_forward(tab_id: i32) -> Result<Promise, JsValue>;

    #[wasm_bindgen(catch, js_namespace = ["chrome", "tabs"], js_name = reload)]
    fn tabs_reload(tab_id: i32) -> Result<Promise, JsValue>;

    /// Resolves to a `data:` address of the picture; only the tab a window shows can be pictured.
    #[wasm_bindgen(catch, js_namespace = ["chrome", "tabs"], js_name = captureVisibleTab)]
    fn tabs_capture_visible_tab(window_id: i32, options: &JsValue) -> Result<Promise, JsValue>;

    /// Resolves to the receiver's response; rejects when no content script listens in that frame.
    #[wasm_bindgen(catch, js_namespace = ["chrome", "tabs"], js_name = sendMessage)]
    fn tabs_send_message(tab_id: i32, message: &JsValue, options: &JsValue) -> Result<Promise, JsValue>;

    /// Needs the `webNavigation` permission; rejects for a tab that is gone.
    #[wasm_bindgen(catch, js_namespace = ["chrome", "webNavigation"], js_name = getAllFrames)]
    fn web_navigation_get_all_frames(details: &JsValue) -> Result<Promise, JsValue>;

    /// Resolves to whether the user let Waymark into `file://` pages ("Allow access to file URLs").
    #[wasm_bindgen(catch, js_namespace = ["chrome", "extension"], js_name = isAllowedFileSchemeAccess)]
    fn extension_is_allowed_file_scheme_access() -> Result<Promise, JsValue>;
}

/// What Waymark reads of a `chrome.tabs.Tab`. Every field may be missing (the browser leaves out what
/// it will not say), and then reads as empty.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Tab {
    pub id: Option<i32>,
    pub window_id: Option<i32>,
    pub url: String,
    /// Where the tab is going while a navigation has not yet shown its page (empty otherwise).
    pub pending_url: String,
    pub title: String,
    /// `loading` or `complete`.
    pub status: String,
    /// Whether its window shows it.
    pub active: bool,
    pub pinned: bool,
}

impl Tab {
    /// One of the extension's own pages (the side panel, settings), which tools never treat as the
    /// user's tabs.
    pub fn is_waymark_page(&self) -> bool {
        self.url.starts_with("chrome-extension://")
    }
}

/// Which tabs [`query`] finds.
#[derive(Debug, Clone, Copy, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TabQuery {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub active: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_focused_window: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window_id: Option<i32>,
}

/// What [`update`] changes in a tab.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TabUpdate {
    /// Opens this address in the tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Brings the tab to the front of its window.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub active: Option<bool>,
}

/// A tab [`create`] opens.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NewTab {
    pub url: String,
    /// The tab it was opened from, so the browser places it next to it and returns there on close.
    pub opener_tab_id: i32,
}

/// Awaits a binding's promise, with a thrown error or a rejection as its message.
async fn settle(promise: Result<Promise, JsValue>) -> Result<JsValue, String> {
    let promise = promise.map_err(|e| error_text(&e))?;
    JsFuture::from(promise).await.map_err(|e| error_text(&e))
}

/// The tab with this id, as it is now.
pub async fn get(tab: i32) -> Result<Tab, String> {
    from_js(settle(tabs_get(tab)).await?)
}

/// The tab the calling page runs in; `None` for a page without one (the side panel).
pub async fn current() -> Result<Option<Tab>, String> {
    let tab = settle(tabs_get_current()).await?;
    if tab.is_undefined() || tab.is_null() {
        return Ok(None);
    }
    from_js(tab).map(Some)
}

/// The tabs `query` describes, in the browser's order.
pub async fn query(query: TabQuery) -> Result<Vec<Tab>, String> {
    from_js(settle(tabs_query(&to_js(&query))).await?)
}

pub async fn update(tab: i32, change: &TabUpdate) -> Result<(), String> {
    settle(tabs_update(tab, &to_js(change))).await.map(drop)
}

/// Opens a tab; the tab as the browser made it.
pub async fn create(tab: &NewTab) -> Result<Tab, String> {
    from_js(settle(tabs_create(&to_js(tab))).await?)
}

pub async fn go_back(tab: i32) -> Result<(), String> {
    settle(tabs_go_back(tab)).await.map(drop)
}

pub async fn go_forward(tab: i32) -> Result<(), String> {
    settle(tabs_go_forward(tab)).await.map(drop)
}

pub async fn reload(tab: i32) -> Result<(), String> {
    settle(tabs_reload(tab)).await.map(drop)
}

/// Why [`capture_visible_tab`] brought no picture.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CaptureError {
    /// The browser's quota on pictures (`MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND`) was used up: the
    /// same call succeeds once its second has passed.
    OverQuota,
    /// Anything else, in the browser's words.
    Other(String),
}

impl std::fmt::Display for CaptureError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::OverQuota => f.write_str("the browser takes at most 2 pictures a second"),
            Self::Other(why) => f.write_str(why),
        }
    }
}

/// A JPEG picture of what `window` shows, at `quality` (0–100), as a `data:` address.
pub async fn capture_visible_tab(window: i32, quality: u32) -> Result<String, CaptureError> {
    let options = object(&[("format", "jpeg".into()), ("quality", quality.into())]);
    match settle(tabs_capture_visible_tab(window, &options)).await {
        Ok(url) => Ok(url.as_string().unwrap_or_default()),
        // The browser says this only in words; the quota's name in them is its stable part.
        Err(why) if why.contains("MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND") => Err(CaptureError::OverQuota),
        Err(why) => Err(CaptureError::Other(why)),
    }
}

/// Sends `message` to one frame of a tab (0 is the top frame) and waits for its answer.
pub async fn send_to_frame(tab: i32, frame: i32, message: &JsValue) -> Result<JsValue, String> {
    let options = object(&[("frameId", frame.into())]);
    settle(tabs_send_message(tab, message, &options)).await
}

/// The id of the active tab in the browser window the user last worked in, skipping Waymark's own
/// pages. Waymark's own window (a popup, see `panel_window`) is never that window, so a panel there
/// works on the page behind it.
pub async fn active_tab_id() -> Option<i32> {
    let window = super::windows::last_focused_browser_window()
        .await
        .ok()
        .and_then(|w| w.id);
    let wanted = TabQuery {
        active: Some(true),
        last_focused_window: window.is_none().then_some(true),
        window_id: window,
    };
    let tabs = query(wanted).await.ok()?;
    tabs.into_iter()
        .filter(|tab| !tab.is_waymark_page())
        .find_map(|tab| tab.id)
}

/// Whether the user let Waymark into `file://` pages; `false` when the browser will not say.
pub async fn file_pages_allowed() -> bool {
    settle(extension_is_allowed_file_scheme_access())
        .await
        .ok()
        .and_then(|allowed| allowed.as_bool())
        .unwrap_or(false)
}

/// One frame of a tab: its id and its parent's (-1 for the top frame).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TabFrame {
    pub frame: i32,
    pub parent: i32,
    /// The frame's address, as the browser reports it.
    pub url: String,
}

/// What Waymark reads of a `webNavigation.getAllFrames` entry; an entry without its ids is passed over.
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct FrameDetails {
    frame_id: Option<i32>,
    parent_frame_id: Option<i32>,
    url: String,
    /// `active`, `cached` (kept for going back) or `prerender`; older browsers leave it out.
    document_lifecycle: Option<String>,
}

/// The frames of a tab's current page, in the order the browser made them (frame ids grow as frames
/// are made). Documents kept for going back, or loaded ahead (prerendered), are left out.
pub async fn tab_frames(tab: i32) -> Result<Vec<TabFrame>, String> {
    let found = settle(web_navigation_get_all_frames(&object(&[("tabId", tab.into())]))).await?;
    if !found.is_object() {
        // Older browsers answer null for a tab they do not know.
        return Err(format!("no frames for tab {tab}"));
    }
    let mut frames: Vec<TabFrame> = from_js::<Vec<FrameDetails>>(found)?
        .into_iter()
        .filter(|f| f.document_lifecycle.as_deref().is_none_or(|l| l == "active"))
        .filter_map(|f| {
            Some(TabFrame {
                frame: f.frame_id?,
                parent: f.parent_frame_id?,
                url: f.url,
            })
        })
        .collect();
    frames.sort_by_key(|f| f.frame);
    Ok(frames)
}
