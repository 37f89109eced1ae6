//! A picture of the tab as it is on screen, with the numbered badges drawn, for a model that reads
//! images: `captureVisibleTab` as JPEG, after every frame of the page has drawn its badges and covered
//! its secret fields.
//!
//! Must not: take the picture when any frame that can hold the site's fields did not confirm its
//! masks (a password or card number could show), or keep the picture anywhere (it goes back to the
//! caller only).

use waymark_protocol::{PageTool, ToolResult, ToolStatus};

use super::numbering::{self, DEFAULT_LIMIT};
use super::{send, unnumbered};
use crate::chrome::{self, tabs};
use crate::wording;

/// Time for the page to paint freshly drawn badges before the picture is taken.
const PAINT_WAIT_MS: u32 = 120;
/// JPEG at this quality keeps a full screen near 100 KB, still sharp enough to read the badges.
const SCREENSHOT_QUALITY: u32 = 70;

/// A picture of the tab as it is on screen, with the numbered badges drawn (numbering the page first
/// if it has no numbers yet). The browser can only picture the tab its window shows.
pub(super) async fn screenshot(tab: i32) -> ToolResult {
    let info = match tabs::get(tab).await {
        Ok(info) => info,
        Err(e) => return ToolResult::error(format!("Could not find the tab to take a picture of: {e}")),
    };
    if !info.active {
        return ToolResult::error(
            "This tab is not the one its window shows, so the browser cannot take a picture of it: \
             bring it to the front first (browser_switch_tab), then ask again.",
        );
    }
    let Some(window) = info.window_id else {
        return ToolResult::error("Could not tell which window shows the tab.");
    };
    // No numbers yet: number the page, which draws the badges.
    if !numbering::is_numbered(tab) {
        let _ = numbering::list(tab, DEFAULT_LIMIT, 0, false).await;
    }
    // Every frame of the page that can hold the site's fields, numbered or not, draws its badges again
    // (the page may have moved since) and covers its secret fields. A frame that does not confirm its
    // masks could show a password or a card number in the picture: then no picture is taken.
    let frames = match tabs::tab_frames(tab).await {
        Ok(frames) => frames
            .into_iter()
            .filter(|f| f.frame == 0 || holds_page_fields(&f.url))
            .map(|f| f.frame)
            .collect(),
        Err(_) => numbering::numbered_frames(tab),
    };
    for frame in frames {
        let covered = send(tab, frame, &unnumbered(PageTool::Screenshot)).await;
        if covered.status == ToolStatus::Error {
            return ToolResult::error(wording::picture_not_taken());
        }
    }
    gloo_timers::future::TimeoutFuture::new(PAINT_WAIT_MS).await;
    let url = match tabs::capture_visible_tab(window, SCREENSHOT_QUALITY).await {
        Ok(url) => url,
        Err(e) => return ToolResult::error(format!("The browser did not take the picture: {e}")),
    };
    let Some((mime, base64)) = url
        .strip_prefix("data:")
        .and_then(|rest| rest.split_once(";base64,"))
    else {
        return ToolResult::error("The browser's picture came in a form Waymark cannot read.");
    };
    // The frame header is near the start: decoding a few kilobytes is enough to read the size.
    let head = &base64[..base64.len().min(16 * 1024)];
    let size = chrome::decode_base64(head)
        .ok()
        .and_then(|bytes| chrome::jpeg_size(&bytes));
    let Some((width, height)) = size else {
        return ToolResult::error("The browser's picture came in a form Waymark cannot read.");
    };
    let shot = waymark_protocol::Screenshot {
        mime: mime.to_owned(),
        base64: base64.to_owned(),
        width,
        height,
    };
    match serde_json::to_value(&shot) {
        Ok(data) => ToolResult::ok(data),
        Err(e) => ToolResult::error(format!("could not pass the picture on: {e}")),
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
