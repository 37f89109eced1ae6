//! Downloads a click starts (`click_and_wait_download`) or one already going on (`download_wait`):
//! watched through `chrome.downloads` from before the click until the file is complete or interrupted,
//! and described as the protocol's `Download`.
//!
//! Must not: start, open or delete a file, or click anything but the pinned element (the click runs
//! through `run_pinned` like any other).

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use waymark_protocol::tools::DOWNLOAD_WAIT_DEFAULT_MS;
use waymark_protocol::{ActKind, Download, ErrorKind, PageTool, Pin, ToolResult, ToolStatus};

use super::pinned::run_pinned;
use crate::chrome::downloads::{self, DownloadItem};
use crate::chrome::{self, ChromeEvent};
use crate::wording;

/// How often a waiting download tool looks at the download again.
const DOWNLOAD_POLL_MS: u32 = 150;

/// Notes the downloads the browser starts while it lives (`chrome.downloads.onCreated`), from before a
/// click, so a download the click starts at once is not missed.
struct DownloadWatch {
    started: Rc<RefCell<Vec<i32>>>,
    event: ChromeEvent,
    listener: Closure<dyn FnMut(JsValue)>,
}

impl DownloadWatch {
    fn start() -> Result<Self, String> {
        let event = downloads::on_created()?;
        let started = Rc::new(RefCell::new(Vec::new()));
        let listener = {
            let started = started.clone();
            Closure::<dyn FnMut(JsValue)>::new(move |item: JsValue| {
                if let Some(id) = chrome::from_js::<DownloadItem>(item).ok().and_then(|d| d.id) {
                    started.borrow_mut().push(id);
                }
            })
        };
        event.add_listener(listener.as_ref().unchecked_ref());
        Ok(Self {
            started,
            event,
            listener,
        })
    }

    /// The first download that started since the watch began.
    fn first(&self) -> Option<i32> {
        self.started.borrow().first().copied()
    }
}

impl Drop for DownloadWatch {
    fn drop(&mut self) {
        self.event.remove_listener(self.listener.as_ref().unchecked_ref());
    }
}

/// Clicks number `index` (pinned to the approved element like any click) and waits for the download it
/// starts to finish.
pub(super) async fn click_and_wait_download(
    tab: i32,
    index: u32,
    timeout_ms: Option<u32>,
    pin: &Pin,
) -> ToolResult {
    let timeout = timeout_ms.unwrap_or(DOWNLOAD_WAIT_DEFAULT_MS);
    // Listening starts before the click: a download can begin before the click returns.
    let watch = match DownloadWatch::start() {
        Ok(watch) => watch,
        Err(why) => return ToolResult::error(wording::downloads_unwatched(&why)),
    };
    let began = chrome::now_ms();
    let click = PageTool::OverlayAct {
        index,
        action: ActKind::Click,
        text: None,
    };
    let clicked = Box::pin(run_pinned(tab, click, pin.clone())).await;
    if clicked.status == ToolStatus::Error {
        return clicked;
    }
    let Some(id) = first_download(&watch, began, timeout).await else {
        return ToolResult::failed(
            ErrorKind::TimedOut,
            wording::no_download_after_click(index, timeout),
        );
    };
    drop(watch);
    finish_download(id, began, timeout).await
}

/// Waits for the download in progress (the latest, if several are) or, if none is, for the next one
/// to start; then for it to finish.
pub(super) async fn download_wait(timeout_ms: Option<u32>) -> ToolResult {
    let timeout = timeout_ms.unwrap_or(DOWNLOAD_WAIT_DEFAULT_MS);
    let watch = match DownloadWatch::start() {
        Ok(watch) => watch,
        Err(why) => return ToolResult::error(wording::downloads_unwatched(&why)),
    };
    let began = chrome::now_ms();
    let running = downloads::latest_in_progress()
        .await
        .ok()
        .flatten()
        .and_then(|d| d.id);
    let id = match running {
        Some(id) => id,
        None => match first_download(&watch, began, timeout).await {
            Some(id) => id,
            None => return ToolResult::failed(ErrorKind::TimedOut, wording::no_download(timeout)),
        },
    };
    drop(watch);
    finish_download(id, began, timeout).await
}

/// The first download noted by `watch`, waiting until `timeout` ms after `began`.
async fn first_download(watch: &DownloadWatch, began: f64, timeout: u32) -> Option<i32> {
    loop {
        if let Some(id) = watch.first() {
            return Some(id);
        }
        if chrome::now_ms() - began >= f64::from(timeout) {
            return None;
        }
        gloo_timers::future::TimeoutFuture::new(DOWNLOAD_POLL_MS).await;
    }
}

/// Follows download `id` until it completes or is interrupted (at most until `timeout` ms after
/// `began`), and says what became of it.
async fn finish_download(id: i32, began: f64, timeout: u32) -> ToolResult {
    let mut last = None;
    loop {
        if let Ok(Some(item)) = downloads::by_id(id).await {
            last = Some(download_of(item));
        }
        match &last {
            Some(download) if download.state == "complete" => {
                return match serde_json::to_value(download) {
                    Ok(data) => ToolResult::ok(data),
                    Err(e) => ToolResult::error(wording::answer_not_described(&e.to_string())),
                }
            }
            Some(download) if download.state == "interrupted" => {
                return ToolResult {
                    data: serde_json::to_value(download).ok(),
                    ..ToolResult::error(wording::download_stopped(
                        &bare_name(&download.filename, &download.url).unwrap_or_else(|| download.url.clone()),
                        download.error.as_deref(),
                    ))
                }
            }
            _ => {}
        }
        if chrome::now_ms() - began >= f64::from(timeout) {
            let name = last.as_ref().and_then(|d| bare_name(&d.filename, &d.url));
            return ToolResult::failed(
                ErrorKind::TimedOut,
                wording::download_unfinished(name.as_deref(), timeout),
            );
        }
        gloo_timers::future::TimeoutFuture::new(DOWNLOAD_POLL_MS).await;
    }
}

/// A download as the protocol's [`Download`]: the address it came from, its size (what arrived when
/// the server did not say), and why it stopped in plain words.
fn download_of(item: DownloadItem) -> Download {
    let url = if item.final_url.is_empty() {
        item.url
    } else {
        item.final_url
    };
    // `fileSize` is -1 when the server did not say; what arrived is then the size.
    let bytes = match (
        item.file_size.unwrap_or(-1.0),
        item.bytes_received.unwrap_or(-1.0),
    ) {
        (size, _) if size >= 0.0 => size,
        (_, received) => received.max(0.0),
    };
    let error = item.error.map(|reason| reason.to_lowercase().replace('_', " "));
    Download {
        filename: item.filename,
        url,
        mime: item.mime,
        bytes: bytes as u64,
        state: item.state,
        error,
    }
}

/// The file's name without its folders, or the last part of its address before it has one (none when
/// neither says one).
fn bare_name(filename: &str, url: &str) -> Option<String> {
    let from_path = filename.rsplit(['/', '\\']).next().unwrap_or_default();
    if !from_path.is_empty() {
        return Some(from_path.to_owned());
    }
    url.split(['?', '#'])
        .next()
        .and_then(|u| u.rsplit('/').next())
        .filter(|n| !n.is_empty())
        .map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_download_is_described_by_its_final_address_and_its_size() {
        let item = DownloadItem {
            url: "https://a.example/get?id=1".into(),
            final_url: "https://cdn.example/report.pdf".into(),
            filename: "/home/me/Downloads/report.pdf".into(),
            file_size: Some(-1.0),
            bytes_received: Some(2048.0),
            state: "interrupted".into(),
            error: Some("NETWORK_FAILED".into()),
            ..DownloadItem::default()
        };
        let download = download_of(item);
        assert_eq!(download.url, "https://cdn.example/report.pdf");
        assert_eq!(download.bytes, 2048);
        assert_eq!(download.error.as_deref(), Some("network failed"));
        assert_eq!(
            bare_name(&download.filename, &download.url).as_deref(),
            Some("report.pdf")
        );
        assert_eq!(
            bare_name("", "https://a.example/files/x.zip?token=1").as_deref(),
            Some("x.zip")
        );
        assert_eq!(bare_name("", "https://a.example/"), None);
        assert!(wording::no_download(30_000).ends_with("within 30 seconds."));
        assert!(wording::no_download(1_000).ends_with("within 1 second."));
        assert!(wording::no_download(1_500).ends_with("within 1.5 seconds."));
    }
}
