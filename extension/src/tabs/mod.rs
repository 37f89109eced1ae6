//! The service worker's side of page tools: it routes each tool to the room that runs it, tab-wide.
//!
//! - `numbering.rs`: one numbering for a whole tab across all its frames (listing, paging, the badges,
//!   tab-wide numbers translated to (frame, local number));
//! - `pinned.rs`: what an action would do (`preview`, for the gate) and running a page-changing tool
//!   exactly where the gate judged it;
//! - `find.rs`: controls by their words and role;
//! - `tablist.rs`: the tabs of the window, and switching between them;
//! - `navigation.rs`: opening addresses, back, forward, reload, a new tab;
//! - `screenshot.rs`: a picture of the tab with its badges drawn and its secrets masked, taken at the
//!   pace the browser allows (`capture_pace.rs`: requests wait in line for its quota of 2 a second);
//! - `downloads.rs`: waiting for the download a click starts;
//! - `focus.rs`: moving the keyboard focus along the numbering;
//! - `banners.rs`: every frame's banners, found and pressed;
//! - `ready.rs`: waiting for a page that is loading, and saying which pages no extension may enter;
//! - `held.rs`: what the user typed into each tab's secret fields, as its frames report it, taken out
//!   (with card numbers) of every result that leaves here;
//! - `dialogs.rs`: a page's own dialogs (alert, confirm, prompt, "leave this page?"), heard while
//!   Waymark acts in its tab, said once, and the answer of every tool while one blocks the page;
//! - `in_use.rs`: which tabs Waymark works in; the content script goes into their frames only from the
//!   first use on (a tool addressed to the tab, or the panel opened on it), and whether Waymark is
//!   acting in a tab now.
//!
//! This module does not judge tools: the worker lets page-changing ones through only from the host,
//! and here they run only with the gate's pin. Nothing here is sent into a page's windows: every frame
//! is reached through its own content script.

mod banners;
mod capture_pace;
mod dialogs;
mod downloads;
mod find;
mod focus;
pub mod held;
pub mod in_use;
mod navigation;
mod numbering;
mod pinned;
mod ready;
mod screenshot;
mod tablist;

use waymark_protocol::{ErrorKind, FrameAnswer, ListScope, PageTool, Pin, ToolResult, WorkerToContent};

use crate::chrome::scripting::Frames;
use crate::{chrome, wording};
use numbering::DEFAULT_LIMIT;

/// Runs a page tool in a tab (the active tab of the focused window when `tab_id` is `None`). A
/// page-changing tool runs only with the `pin` the host's gate judged it on, and only there. What the
/// result says of the pages passes [`held::redact`] first: no secret value the user typed, and no card
/// number, leaves here.
pub async fn run(tab_id: Option<i32>, tool: PageTool, pin: Option<Pin>) -> ToolResult {
    held::redact(run_in_tab(tab_id, tool, pin).await)
}

async fn run_in_tab(tab_id: Option<i32>, tool: PageTool, pin: Option<Pin>) -> ToolResult {
    let tab = match (&pin, tab_id) {
        (Some(pin), _) => pin.tab,
        (None, Some(id)) => id,
        (None, None) => match chrome::tabs::active_tab_id().await {
            Some(id) => id,
            None => return ToolResult::failed(ErrorKind::Unreachable, wording::no_tab()),
        },
    };
    if reaches_page(&tool) {
        // A page blocked by its own dialog answers nothing until the user has answered it.
        if let Some(asked) = dialogs::still_asking(tab).await {
            return asked;
        }
        // The first tool addressed to a tab puts Waymark's script into it.
        in_use::use_tab(tab).await;
    }
    if tool.changes_page() && !matches!(tool, PageTool::PressBanners { .. }) {
        let Some(pin) = pin else {
            return unpinned();
        };
        let _acting = in_use::acting(tab);
        let _heard = dialogs::arm(tab).await;
        return dialogs::unless_asked(tab, Box::pin(pinned::run_pinned(tab, tool, pin))).await;
    }
    match tool {
        PageTool::ListInteractives { limit, offset, scope } => {
            let viewport = scope == Some(ListScope::Viewport);
            numbering::list(tab, limit.unwrap_or(DEFAULT_LIMIT), offset.unwrap_or(0), viewport).await
        }
        PageTool::OverlayShow | PageTool::OverlayHide => numbering::overlay(tab, tool).await,
        PageTool::Find {
            text,
            role,
            limit,
            offset,
        } => find::find(tab, text, role, limit, offset).await,
        tool @ (PageTool::Extract | PageTool::Wait { .. } | PageTool::Scroll { index: None, .. }) => {
            send(tab, 0, &unnumbered(tool)).await
        }
        tool @ PageTool::Scroll {
            index: Some(index), ..
        } => numbering::by_number(tab, index, tool).await,
        PageTool::ListTabs => tablist::list_tabs().await,
        PageTool::SwitchTab { index } => tablist::switch_tab(index).await,
        tool @ PageTool::Describe { index } => numbering::by_number(tab, index, tool).await,
        // With a pin: the gate's second look at a held action, on exactly the pinned element.
        PageTool::Preview { action } => match pin {
            Some(pin) => pinned::preview_pinned(tab, *action, pin).await,
            None => pinned::preview(tab, *action).await,
        },
        PageTool::Screenshot => screenshot::screenshot(tab).await,
        PageTool::DownloadWait { timeout_ms } => downloads::download_wait(timeout_ms).await,
        PageTool::FocusNext { role } => focus::move_focus(tab, role, true).await,
        PageTool::FocusPrev { role } => focus::move_focus(tab, role, false).await,
        PageTool::FindBanners => banners::find_banners(tab).await,
        PageTool::PressBanners { pins } => {
            let _acting = in_use::acting(tab);
            let _heard = dialogs::arm(tab).await;
            dialogs::unless_asked(tab, Box::pin(banners::press_banners(tab, pins))).await
        }
        // Page-changing tools went to `run_pinned` above.
        PageTool::Press { .. }
        | PageTool::Navigate { .. }
        | PageTool::Back
        | PageTool::Forward
        | PageTool::Reload
        | PageTool::OpenInNewTab { .. }
        | PageTool::OverlayAct { .. }
        | PageTool::ActByIndex { .. }
        | PageTool::Upload { .. }
        | PageTool::ClickAndWaitDownload { .. }
        | PageTool::CloseBanners { .. } => unpinned(),
    }
}

/// Whether `tool` reaches into the tab's page (all but the tab list, switching tabs and waiting for a
/// download, which the worker does with the browser alone).
fn reaches_page(tool: &PageTool) -> bool {
    !matches!(
        tool,
        PageTool::ListTabs | PageTool::SwitchTab { .. } | PageTool::DownloadWait { .. }
    )
}

/// The refusal of a page-changing tool that came without the gate's pin.
fn unpinned() -> ToolResult {
    ToolResult::failed(ErrorKind::NotAllowed, wording::not_through_gate())
}

/// Sends one message to one frame's content script and returns its answer. When the top frame has
/// nobody to answer (its page is loading, or has just been replaced), waits for its script
/// (`ready.rs`) and sends again; a child frame without the script (one whose document the browser
/// made without a navigation Waymark heard of) gets it and is asked once more. A pinned tool is not
/// sent again, since the page it was judged on is gone.
async fn send(tab: i32, frame: i32, message: &WorkerToContent) -> ToolResult {
    let why = match deliver(tab, frame, message).await {
        Delivery::Answered(result) => return result,
        Delivery::Unanswered(why) => why,
    };
    chrome::log(&format!("tab {tab} frame {frame} did not answer: {why}"));
    let pinned = matches!(message, WorkerToContent::Tool { pin: Some(_), .. });
    if frame != 0 {
        if !pinned && in_use::inject(tab, Frames::Ids(vec![frame])).await.is_ok() {
            if let Delivery::Answered(result) = deliver(tab, frame, message).await {
                return result;
            }
        }
        // A child frame that is loading has no controls to act on yet; the listing passes it over.
        return ToolResult::failed(ErrorKind::Unreachable, wording::frame_did_not_answer(&why));
    }
    if pinned {
        return ToolResult::failed(ErrorKind::PageChanged, wording::pinned_page_changed());
    }
    if let Err(refusal) = ready::top_frame(tab, ready::READY_WAIT_MS).await {
        return refusal;
    }
    match deliver(tab, frame, message).await {
        Delivery::Answered(result) => result,
        // The page's script is there (it has just answered): it failed on this message, or the page
        // went away in between. Either way not a page closed to extensions, so not said as one.
        Delivery::Unanswered(why) => {
            chrome::log(&format!("tab {tab} answered, then did not: {why}"));
            ToolResult::failed(ErrorKind::Failed, wording::page_did_not_answer(&why))
        }
    }
}

/// What became of one message to one frame.
enum Delivery {
    /// The frame's content script answered.
    Answered(ToolResult),
    /// Nobody answered (no content script there yet or at all, the frame or tab went away): why, in
    /// the browser's words, for the log only.
    Unanswered(String),
}

/// Sends one message to one frame's content script, once.
async fn deliver(tab: i32, frame: i32, message: &WorkerToContent) -> Delivery {
    match chrome::tabs::send_to_frame(tab, frame, &chrome::to_js(message)).await {
        Ok(answer) if answer.is_undefined() => Delivery::Unanswered("no answer".into()),
        Ok(answer) => Delivery::Answered(chrome::from_js::<FrameAnswer>(answer).map_or_else(
            |e| {
                chrome::log(&format!("the page answered something unreadable: {e}"));
                ToolResult::error(wording::unreadable_answer())
            },
            |answer| {
                // Kept here, never passed on: only the result travels further.
                held::note(tab, answer.secrets);
                said(answer.result)
            },
        )),
        Err(e) => Delivery::Unanswered(e),
    }
}

/// A frame's answer with its reason (the content script has no words) said in the user's language,
/// once, here where it arrives: whoever reads the result — the panel, the host, the model, an MCP
/// client — reads these words, and code still has the typed reason.
fn said(mut result: ToolResult) -> ToolResult {
    if let (None, Some(reason)) = (&result.error, &result.reason) {
        result.error = Some(wording::page_reason(reason));
    }
    result
}

/// A tool for a frame that names no number (the frame answers for itself, or for where its focus is).
fn unnumbered(tool: PageTool) -> WorkerToContent {
    WorkerToContent::Tool {
        tool,
        number: None,
        pin: None,
        guard: None,
    }
}

/// Whether a frame refused a tool because its number or its page changed under it.
fn is_stale(result: &ToolResult) -> bool {
    result.is(ErrorKind::Stale) || result.is(ErrorKind::PageChanged)
}
