//! Typed bindings to the browser's network APIs the request guard uses, for the service worker:
//! `chrome.declarativeNetRequest`'s session rules (which stop requests) and `chrome.webRequest`'s
//! events (which only watch them: their body, how they ended). What the browser reports of a request is
//! read into [`RequestDetails`].
//!
//! Must not: be used by the content module, or stop anything by itself (the guard decides which rules
//! exist, and for how long).

use js_sys::Promise;
use serde::Deserialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use super::{error_text, from_js, to_js, ChromeEvent};

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(catch, js_namespace = ["chrome", "declarativeNetRequest"], js_name = updateSessionRules)]
    fn dnr_update_session_rules(options: &JsValue) -> Result<Promise, JsValue>;

    #[wasm_bindgen(catch, js_namespace = ["chrome", "declarativeNetRequest"], js_name = getSessionRules)]
    fn dnr_get_session_rules() -> Result<Promise, JsValue>;

    /// `addListener(callback, filter, extraInfoSpec)` of a `webRequest` event.
    #[wasm_bindgen(method, catch, js_name = addListener)]
    fn add_filtered_listener(
        this: &ChromeEvent,
        listener: &js_sys::Function,
        filter: &JsValue,
        extra: &JsValue,
    ) -> Result<(), JsValue>;
}

/// Which `webRequest` event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RequestEvent {
    /// A request is about to start (with its body).
    Before,
    /// It was answered.
    Completed,
    /// It failed: stopped by a rule (`net::ERR_BLOCKED_BY_CLIENT`), or for another reason.
    Failed,
}

impl RequestEvent {
    /// `chrome.webRequest.<name>` (a service worker without the permission has none: then nothing is
    /// watched, and the rules still stop what they stop).
    fn event(self) -> Option<ChromeEvent> {
        let name = match self {
            RequestEvent::Before => "onBeforeRequest",
            RequestEvent::Completed => "onCompleted",
            RequestEvent::Failed => "onErrorOccurred",
        };
        let web_request = js_sys::Reflect::get(&js_sys::global(), &"chrome".into())
            .and_then(|chrome| js_sys::Reflect::get(&chrome, &"webRequest".into()))
            .ok()
            .filter(JsValue::is_object)?;
        js_sys::Reflect::get(&web_request, &name.into())
            .ok()
            .filter(JsValue::is_object)
            .map(JsCast::unchecked_into)
    }
}

/// Starts calling `listener` for `event` of every request of the resource `types` (all when empty).
/// [`RequestEvent::Before`] comes with the request's body.
pub fn listen(event: RequestEvent, listener: &js_sys::Function, types: &[&str]) {
    let filter = js_sys::Object::new();
    let urls = js_sys::Array::of1(&"<all_urls>".into());
    let _ = js_sys::Reflect::set(&filter, &"urls".into(), &urls);
    if !types.is_empty() {
        let list: js_sys::Array = types.iter().map(|t| JsValue::from_str(t)).collect();
        let _ = js_sys::Reflect::set(&filter, &"types".into(), &list);
    }
    let extra = match event {
        RequestEvent::Before => js_sys::Array::of1(&"requestBody".into()).into(),
        RequestEvent::Completed | RequestEvent::Failed => js_sys::Array::new().into(),
    };
    let Some(target) = event.event() else {
        super::log("webRequest is not available: requests are stopped but not reported");
        return;
    };
    if let Err(e) = target.add_filtered_listener(listener, &filter.into(), &extra) {
        super::log(&format!("webRequest listener refused: {}", error_text(&e)));
    }
}

/// Stops calling `listener` for `event`.
pub fn unlisten(event: RequestEvent, listener: &js_sys::Function) {
    if let Some(target) = event.event() {
        target.remove_listener(listener);
    }
}

/// What Waymark reads of a `webRequest` event's details.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct RequestDetails {
    pub request_id: String,
    pub url: String,
    pub method: String,
    pub tab_id: i32,
    pub frame_id: i32,
    /// `main_frame`, `sub_frame`, `xmlhttprequest`, `ping`, …
    #[serde(rename = "type")]
    pub kind: String,
    /// For a failed request: why, in the network stack's words (`net::ERR_BLOCKED_BY_CLIENT`).
    pub error: String,
}

/// A request's details; `None` when the browser said something else.
pub fn details(value: &JsValue) -> Option<RequestDetails> {
    from_js(value.clone()).ok()
}

/// The form fields the browser parsed from a request's body (`requestBody.formData`), or the raw
/// bytes it holds (`requestBody.raw`, the first `max` of them), with whether it held more (a file, more
/// bytes, a part the browser could not give).
pub fn body(details: &JsValue, max: usize) -> Body {
    let body = js_sys::Reflect::get(details, &"requestBody".into()).unwrap_or(JsValue::UNDEFINED);
    if body.is_undefined() || body.is_null() {
        return Body::None;
    }
    let form = js_sys::Reflect::get(&body, &"formData".into()).unwrap_or(JsValue::UNDEFINED);
    if form.is_object() {
        let parsed: Result<std::collections::BTreeMap<String, Vec<String>>, String> = from_js(form);
        return match parsed {
            Ok(fields) => Body::Form(fields),
            Err(_) => Body::Unreadable,
        };
    }
    let raw = js_sys::Reflect::get(&body, &"raw".into()).unwrap_or(JsValue::UNDEFINED);
    if !js_sys::Array::is_array(&raw) {
        return Body::Unreadable;
    }
    let mut bytes = Vec::new();
    let mut more = false;
    for part in js_sys::Array::from(&raw).iter() {
        let chunk = js_sys::Reflect::get(&part, &"bytes".into()).unwrap_or(JsValue::UNDEFINED);
        if !chunk.is_instance_of::<js_sys::ArrayBuffer>() {
            // A file, or a part the browser left out.
            more = true;
            continue;
        }
        let array = js_sys::Uint8Array::new(&chunk);
        let room = max.saturating_sub(bytes.len());
        let take = (array.length() as usize).min(room);
        more |= take < array.length() as usize;
        let mut piece = vec![0; take];
        array.subarray(0, take as u32).copy_to(&mut piece);
        bytes.extend(piece);
    }
    Body::Raw { bytes, more }
}

/// A request's body as the browser gives it.
pub enum Body {
    None,
    /// Fields it parsed from a form (each name with its values).
    Form(std::collections::BTreeMap<String, Vec<String>>),
    /// Bytes, and whether there were more.
    Raw {
        bytes: Vec<u8>,
        more: bool,
    },
    /// Something it could not give.
    Unreadable,
}

/// Removes the session rules `remove` and adds `add` (rules as `declarativeNetRequest` takes them), in
/// one step.
pub async fn update_session_rules(remove: &[u32], add: &JsValue) -> Result<(), String> {
    let options = js_sys::Object::new();
    let ids: js_sys::Array = remove.iter().map(|id| JsValue::from(*id)).collect();
    let _ = js_sys::Reflect::set(&options, &"removeRuleIds".into(), &ids);
    let _ = js_sys::Reflect::set(&options, &"addRules".into(), add);
    settle(dnr_update_session_rules(&options.into())).await.map(drop)
}

/// The ids of the session rules that exist now.
pub async fn session_rule_ids() -> Vec<u32> {
    #[derive(Deserialize)]
    struct Rule {
        id: u32,
    }
    match settle(dnr_get_session_rules()).await {
        Ok(rules) => from_js::<Vec<Rule>>(rules)
            .map(|rules| rules.into_iter().map(|r| r.id).collect())
            .unwrap_or_default(),
        Err(_) => Vec::new(),
    }
}

/// Rules as a JavaScript value.
pub fn rules_value<T: serde::Serialize>(rules: &T) -> JsValue {
    to_js(rules)
}

async fn settle(promise: Result<Promise, JsValue>) -> Result<JsValue, String> {
    let promise = promise.map_err(|e| error_text(&e))?;
    JsFuture::from(promise).await.map_err(|e| error_text(&e))
}
