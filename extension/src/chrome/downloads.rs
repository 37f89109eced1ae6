//! Typed bindings to `chrome.downloads` (needs the `downloads` permission), for the service worker:
//! looking a download up, and hearing of each new one (`onCreated`). What the browser says of a
//! download is read into [`DownloadItem`].
//!
//! Must not: start, open or remove a download (Waymark only watches the ones a click started), or be
//! used by the content module.

use js_sys::Promise;
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use super::{error_text, from_js, to_js, ChromeEvent};

#[wasm_bindgen]
extern "C" {
    /// `chrome.downloads` itself: undefined when the browser withholds the permission, and then the
    /// bindings below would throw.
    #[wasm_bindgen(thread_local_v2, js_namespace = chrome, js_name = downloads)]
    static DOWNLOADS: JsValue;

    #[wasm_bindgen(catch, js_namespace = ["chrome", "downloads"], js_name = search)]
    fn downloads_search(query: &JsValue) -> Result<Promise, JsValue>;

    #[wasm_bindgen(thread_local_v2, js_namespace = ["chrome", "downloads"], js_name = onCreated)]
    static ON_CREATED: ChromeEvent;
}

/// What Waymark reads of a `chrome.downloads.DownloadItem`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct DownloadItem {
    pub id: Option<i32>,
    /// The address asked for, and the one the file came from after redirects (empty until known).
    pub url: String,
    pub final_url: String,
    /// Where the file is saved, with its folders (empty until the browser has chosen).
    pub filename: String,
    pub mime: String,
    /// The size the server announced; -1 (or missing) when it did not say.
    pub file_size: Option<f64>,
    pub bytes_received: Option<f64>,
    /// `in_progress`, `interrupted` or `complete`.
    pub state: String,
    /// Why it was interrupted, as the browser's code (`NETWORK_FAILED`, `USER_CANCELED`…).
    pub error: Option<String>,
}

/// Which downloads [`search`] finds.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
struct DownloadQuery {
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    state: Option<&'static str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    order_by: Vec<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    limit: Option<u32>,
}

/// Whether the browser lets Waymark see downloads at all.
fn available() -> Result<(), String> {
    if DOWNLOADS.with(JsValue::is_object) {
        Ok(())
    } else {
        Err("the browser does not let Waymark see downloads (the downloads permission)".into())
    }
}

async fn search(query: &DownloadQuery) -> Result<Vec<DownloadItem>, String> {
    available()?;
    let promise = downloads_search(&to_js(query)).map_err(|e| error_text(&e))?;
    let found = JsFuture::from(promise).await.map_err(|e| error_text(&e))?;
    from_js(found)
}

/// The download with this id, if the browser still knows it.
pub async fn by_id(id: i32) -> Result<Option<DownloadItem>, String> {
    let query = DownloadQuery {
        id: Some(id),
        ..DownloadQuery::default()
    };
    Ok(search(&query).await?.into_iter().next())
}

/// The download in progress that started last, if any is.
pub async fn latest_in_progress() -> Result<Option<DownloadItem>, String> {
    let query = DownloadQuery {
        state: Some("in_progress"),
        order_by: vec!["-startTime"],
        limit: Some(1),
        ..DownloadQuery::default()
    };
    Ok(search(&query).await?.into_iter().next())
}

/// `chrome.downloads.onCreated`, which hears of every download as it starts.
pub fn on_created() -> Result<ChromeEvent, String> {
    available()?;
    Ok(ON_CREATED.with(Clone::clone))
}
