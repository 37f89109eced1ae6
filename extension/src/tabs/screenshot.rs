//! A picture of the tab as it is on screen, with the numbered badges drawn, for a model that reads
//! images: `captureVisibleTab` as JPEG, after every frame of the page has drawn its badges and covered
//! its secret fields (once the page stopped moving), at the pace the browser allows
//! (`capture_pace.rs`); afterwards every frame is asked whether its masks held (nothing moved since
//! they were placed), and a picture taken while something moved is thrown away and taken once more.
//!
//! Must not: give a picture when any frame that can hold the site's fields did not confirm its masks
//! before and after it (a password or card number could show), or keep the picture anywhere (it goes
//! back to the caller only).

use gloo_timers::future::TimeoutFuture;
use waymark_protocol::{ErrorKind, PageTool, ToolResult, ToolStatus, WorkerToContent};

use super::capture_pace;
use super::numbering::{self, DEFAULT_LIMIT};
use super::{send, unnumbered};
use crate::chrome;
use crate::chrome::tabs::{self, CaptureError};
use crate::wording;

/// Time for the page to paint freshly drawn badges before the picture is taken.
const PAINT_WAIT_MS: u32 = 120;
/// How many pictures are taken at most when masks did not hold (something moved during one).
const ATTEMPTS: u32 = 2;
/// JPEG at this quality keeps a full screen near 100 KB, still sharp enough to read the badges.
const SCREENSHOT_QUALITY: u32 = 70;

/// A picture of the tab as it is on screen, with the numbered badges drawn (numbering the page first
/// if it has no numbers yet). The browser can only picture the tab its window shows.
pub(super) async fn screenshot(tab: i32) -> ToolResult {
    if let Err(refusal) = window_showing(tab).await {
        return refusal;
    }
    // No numbers yet: number the page, which draws the badges.
    if !numbering::is_numbered(tab) {
        let _ = numbering::list(tab, DEFAULT_LIMIT, 0, false).await;
    }
    // Pictures asked together are taken one after another, each when the browser's quota allows it
    // (`capture_pace.rs`): none is refused for being asked too soon.
    let Some(turn) = capture_pace::take_turn().await else {
        return ToolResult::failed(ErrorKind::TimedOut, wording::picture_busy());
    };
    let mut refused_once = false;
    let mut attempts = 0;
    let url = loop {
        turn.wait_for_quota().await;
        // Checked again after the wait: the window may show another tab by now, whose secrets this
        // tab's frames would not cover.
        let window = match window_showing(tab).await {
            Ok(window) => window,
            Err(refusal) => return refusal,
        };
        let Some(frames) = masks_confirmed(tab).await else {
            return ToolResult::error(wording::picture_not_taken());
        };
        TimeoutFuture::new(PAINT_WAIT_MS).await;
        turn.taking();
        match tabs::capture_visible_tab(window, SCREENSHOT_QUALITY).await {
            // A picture taken while a masked field moved may show it: thrown away, and taken again.
            Ok(url) if masks_held(tab, &frames).await => break url,
            Ok(_) => {
                attempts += 1;
                if attempts >= ATTEMPTS {
                    return ToolResult::error(wording::picture_not_taken());
                }
            }
            // The browser counted a picture Waymark did not see (the worker restarted within the
            // second, say): its second is over after one more window, and the masks are drawn again.
            Err(CaptureError::OverQuota) if !refused_once => {
                refused_once = true;
                TimeoutFuture::new((capture_pace::WINDOW_MS + capture_pace::MARGIN_MS) as u32).await;
            }
            Err(e) => return ToolResult::error(wording::picture_refused(&e.to_string())),
        }
    };
    drop(turn);
    picture(&url)
}

/// The window that shows `tab`, or the refusal to say when none does.
async fn window_showing(tab: i32) -> Result<i32, ToolResult> {
    let info = match tabs::get(tab).await {
        Ok(info) => info,
        Err(e) => return Err(ToolResult::error(wording::picture_no_tab(&e))),
    };
    if !info.active {
        return Err(ToolResult::error(wording::picture_tab_behind()));
    }
    info.window_id
        .ok_or_else(|| ToolResult::error(wording::picture_no_window()))
}

/// Has every frame of the page that can hold the site's fields, numbered or not, draw its badges
/// again (the page may have moved since) and cover its secret fields once it stopped moving; the
/// frames, when all confirmed. A frame that does not confirm its masks could show a password or a
/// card number in the picture: then no picture is taken.
async fn masks_confirmed(tab: i32) -> Option<Vec<i32>> {
    let frames: Vec<i32> = match tabs::tab_frames(tab).await {
        Ok(frames) => frames
            .into_iter()
            .filter(|f| f.frame == 0 || holds_page_fields(&f.url))
            .map(|f| f.frame)
            .collect(),
        Err(_) => numbering::numbered_frames(tab),
    };
    for frame in &frames {
        let covered = send(tab, *frame, &unnumbered(PageTool::Screenshot)).await;
        if covered.status == ToolStatus::Error {
            return None;
        }
    }
    Some(frames)
}

/// Whether every frame's masks still cover its secret fields where they are, nothing having moved
/// since they were placed: asked once the picture is taken.
async fn masks_held(tab: i32, frames: &[i32]) -> bool {
    for frame in frames {
        let answer = send(tab, *frame, &WorkerToContent::MasksHeld).await;
        let held = answer
            .data
            .as_ref()
            .and_then(|d| d.get("held"))
            .and_then(serde_json::Value::as_bool);
        if held != Some(true) {
            return false;
        }
    }
    true
}

/// The tool's result for the browser's `data:` address of a JPEG: the picture with its size.
fn picture(url: &str) -> ToolResult {
    let Some((mime, base64)) = url
        .strip_prefix("data:")
        .and_then(|rest| rest.split_once(";base64,"))
    else {
        return ToolResult::error(wording::picture_unreadable());
    };
    // The frame header is near the start: decoding a few kilobytes is enough to read the size.
    let head = &base64[..base64.len().min(16 * 1024)];
    let size = chrome::decode_base64(head)
        .ok()
        .and_then(|bytes| chrome::jpeg_size(&bytes));
    let Some((width, height)) = size else {
        return ToolResult::error(wording::picture_unreadable());
    };
    let shot = waymark_protocol::Screenshot {
        mime: mime.to_owned(),
        base64: base64.to_owned(),
        width,
        height,
    };
    match serde_json::to_value(&shot) {
        Ok(data) => ToolResult::ok(data),
        Err(e) => ToolResult::error(wording::answer_not_described(&e.to_string())),
    }
}

/// Whether a frame at `url` shows a page whose fields the user types into (a web page, or one of its
/// own local documents): frames of browser and extension pages are not the site's.
fn holds_page_fields(url: &str) -> bool {
    let lower = url.to_lowercase();
    ["http:", "https:", "file:", "about:", "blob:", "data:"]
        .iter()
        .any(|scheme| lower.starts_with(scheme))
}
