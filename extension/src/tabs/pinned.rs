//! The gate's two steps in the tab: `preview` says what an action would do and where (the tab, the
//! frame, its document's token, the element), and `run_pinned` runs a page-changing tool exactly there.
//! `preview_pinned` describes a held action again on its pinned element, for the gate's second look
//! at the user's yes.
//!
//! Must not: run a page-changing tool anywhere but where it was judged (another frame, a document that
//! replaced the judged one, an element that is gone or says something else: each is refused, with a
//! fresh list; an address opened is judged by the address alone, in its tab), or judge anything itself
//! (the host's policy does, from the preview).

use serde_json::json;
use waymark_protocol::{
    Effect, ErrorKind, FramePin, FramePreview, PageTool, Pin, ToolResult, ToolStatus, WorkerToContent,
};

use super::navigation::{self, Go};
use super::numbering::{self, DEFAULT_LIMIT};
use super::{downloads, focus, is_stale, send, unnumbered};
use crate::{chrome, wording};

/// Runs a page-changing tool exactly where the gate judged it: in the pinned tab, in the pinned frame,
/// if that frame still shows the pinned document, on the pinned element (the content script refuses
/// when it is gone or changed). Anything else is refused, saying what changed.
pub(super) async fn run_pinned(tab: i32, tool: PageTool, pin: Pin) -> ToolResult {
    let go = match &tool {
        PageTool::Navigate { url } => Some(Go::Address(url.clone())),
        PageTool::Back => Some(Go::Back),
        PageTool::Forward => Some(Go::Forward),
        PageTool::Reload => Some(Go::Reload),
        PageTool::OpenInNewTab { url } => Some(Go::NewTab(url.clone())),
        _ => None,
    };
    if let Some(go) = go {
        // An address is the whole of what opening it does, whatever page the tab shows meanwhile (an
        // application that moves on by itself after a send); back, forward and reload act on the
        // history of the page that was judged, so that page must still be there.
        let by_address = matches!(go, Go::Address(_) | Go::NewTab(_));
        if !by_address {
            if let Err(refused) = check_document(tab, &pin).await {
                return refused;
            }
        }
        return navigation::go(tab, go).await;
    }
    match tool {
        PageTool::ClickAndWaitDownload { index, timeout_ms } => {
            downloads::click_and_wait_download(tab, index, timeout_ms, &pin).await
        }
        PageTool::Upload { files, index, .. } if files.is_empty() => {
            // The host sent the files ahead in pieces; the worker joined them into `files`.
            ToolResult::failed(ErrorKind::BadArguments, wording::no_file_arrived(index))
        }
        PageTool::CloseBanners { .. } => {
            ToolResult::failed(ErrorKind::NotAllowed, wording::banners_through_gate())
        }
        // On an element, or a key where the focus was: the pinned frame and element.
        tool => {
            let number = tool.number();
            let frame_pin = FramePin {
                document: pin.document.clone(),
                element: pin.element,
            };
            let result = send(
                tab,
                pin.frame,
                &WorkerToContent::Tool {
                    tool,
                    number,
                    pin: Some(frame_pin),
                    // While the request guard watches this tab, the frame keeps back the forms it
                    // would post, too.
                    guard: crate::guard::frame_guard(tab),
                },
            )
            .await;
            if is_stale(&result) {
                return pinned_refusal(tab, result).await;
            }
            result
        }
    }
}

/// A pinned tool refused because its document or element changed: said so, with the fresh list, as
/// for any stale number.
async fn pinned_refusal(tab: i32, result: ToolResult) -> ToolResult {
    let (kind, said) = if result.is(ErrorKind::PageChanged) {
        (ErrorKind::PageChanged, wording::pinned_page_changed())
    } else {
        (ErrorKind::Stale, wording::pinned_gone(result.reason.as_deref()))
    };
    let fresh = numbering::list(tab, DEFAULT_LIMIT, 0, false).await;
    let refused = ToolResult {
        reason: result.reason,
        ..ToolResult::failed(kind, said)
    };
    refused.with_data(fresh.data)
}

/// What `action` would do now on the element (or in the document) it was pinned to, whatever its
/// number is now: the gate's second look before a yes runs a held action.
pub(super) async fn preview_pinned(tab: i32, action: PageTool, pin: Pin) -> ToolResult {
    let number = action.number();
    let history = history_of(&action);
    let message = WorkerToContent::Tool {
        tool: PageTool::Preview {
            action: Box::new(action),
        },
        number,
        pin: Some(FramePin {
            document: pin.document.clone(),
            element: pin.element,
        }),
        guard: None,
    };
    let answer = send(tab, pin.frame, &message).await;
    if is_stale(&answer) {
        return pinned_refusal(tab, answer).await;
    }
    effect_of(tab, pin.frame, number, history.as_ref(), answer).await
}

/// Tools the worker runs itself are pinned to the document the tab showed when they were judged (a
/// page Waymark cannot enter has no token: then only the tab is pinned).
async fn check_document(tab: i32, pin: &Pin) -> Result<(), ToolResult> {
    if pin.document.is_empty() {
        return Ok(());
    }
    let now = send(tab, pin.frame, &WorkerToContent::Document).await;
    let same = now
        .data
        .as_ref()
        .and_then(|d| d.get("document"))
        .and_then(|d| d.as_str())
        == Some(pin.document.as_str());
    if same {
        Ok(())
    } else {
        Err(ToolResult::failed(
            ErrorKind::PageChanged,
            wording::pinned_page_changed(),
        ))
    }
}

/// What `action` would do (`effect` in the content script), with where: the tab, the frame, its
/// document, the element. The gate judges this and pins the action to it.
pub(super) async fn preview(tab: i32, action: PageTool) -> ToolResult {
    let number = action.number();
    let history = history_of(&action);
    let (frame, answer) = if let Some(index) = number {
        let (frame, local) = match numbering::slot_of(tab, index) {
            Ok(slot) => slot,
            Err(refusal) => return refusal,
        };
        let local_action = action.with_number(local);
        let message = WorkerToContent::Tool {
            tool: PageTool::Preview {
                action: Box::new(local_action),
            },
            number: Some(index),
            pin: None,
            guard: None,
        };
        let answer = send(tab, frame, &message).await;
        if is_stale(&answer) {
            return numbering::stale(tab, index, answer.reason).await;
        }
        (frame, answer)
    } else if matches!(action, PageTool::Press { index: None, .. }) {
        focused_preview(tab, action).await
    } else {
        match tab_preview(tab, action).await {
            Ok(top) => (0, top),
            Err(effect) => return effect,
        }
    };
    effect_of(tab, frame, number, history.as_ref(), answer).await
}

/// The action again when it reloads or moves through history: what may send a form post again.
fn history_of(action: &PageTool) -> Option<PageTool> {
    matches!(action, PageTool::Back | PageTool::Forward | PageTool::Reload).then(|| action.clone())
}

/// The effect a frame's preview answer describes, with where it is: the tab, the frame, its document;
/// for reloading or moving through history (`history`), the form post it would send again.
async fn effect_of(
    tab: i32,
    frame: i32,
    number: Option<u32>,
    history: Option<&PageTool>,
    answer: ToolResult,
) -> ToolResult {
    if answer.status == ToolStatus::Error {
        return answer;
    }
    let Some(preview) = answer
        .data
        .and_then(|d| serde_json::from_value::<FramePreview>(d).ok())
    else {
        return ToolResult::error(wording::unreadable_answer());
    };
    // The page's own name for its site is the top frame's; a child frame's is another site's.
    let (page_url, site_name) = if frame == 0 {
        (preview.url.clone(), preview.site_name.clone())
    } else {
        (tab_url(tab).await, None)
    };
    let resends = match history {
        Some(action) => resends(tab, action, &page_url, preview.destination.as_deref()).await,
        None => None,
    };
    let effect = Effect {
        pin: Pin {
            tab,
            frame,
            document: preview.document,
            element: preview.element,
        },
        page_url,
        site_name,
        focused: number.is_none() && preview.target.is_some(),
        target: preview.target,
        option: preview.option,
        linked: preview.linked,
        resends,
        keys: preview.keys,
    };
    effect_result(&effect)
}

/// For reloading or moving through history: the address of the form post it would send again — the
/// document it would show came from posting a form (`guard::posted`): the top frame's or a child
/// frame's for a reload, the history entry's for back or forward, when the top frame could say it.
async fn resends(tab: i32, action: &PageTool, page_url: &str, destination: Option<&str>) -> Option<String> {
    match action {
        PageTool::Reload => {
            if crate::guard::posted(tab, page_url) {
                return Some(page_url.to_owned());
            }
            let frames = chrome::tabs::tab_frames(tab).await.unwrap_or_default();
            frames
                .into_iter()
                .map(|f| f.url)
                .find(|url| crate::guard::posted(tab, url))
        }
        PageTool::Back | PageTool::Forward => destination
            .filter(|url| crate::guard::posted(tab, url))
            .map(str::to_owned),
        _ => None,
    }
}

/// The preview of a tool on the tab itself (a navigation, history): the top frame's answer, with
/// whether any frame links to where a navigation would go. A page Waymark cannot enter (a browser
/// page, a page still loading) has no answer: then the effect is the tab alone, as `Err`.
async fn tab_preview(tab: i32, action: PageTool) -> Result<ToolResult, ToolResult> {
    let message = unnumbered(PageTool::Preview {
        action: Box::new(action),
    });
    let frames = numbering::numbered_frames(tab);
    let mut top = send(tab, 0, &message).await;
    let mut linked = false;
    for frame in frames.into_iter().filter(|f| *f != 0) {
        let answer = send(tab, frame, &message).await;
        linked |= answer
            .data
            .as_ref()
            .and_then(|d| d.get("linked"))
            .and_then(|l| l.as_bool())
            .unwrap_or(false);
    }
    if linked {
        if let Some(data) = top.data.as_mut() {
            data["linked"] = json!(true);
        }
    }
    if top.status != ToolStatus::Error {
        return Ok(top);
    }
    let effect = Effect {
        pin: Pin {
            tab,
            frame: 0,
            document: String::new(),
            element: None,
        },
        page_url: tab_url(tab).await,
        site_name: None,
        target: None,
        focused: false,
        option: None,
        linked,
        resends: None,
        keys: None,
    };
    Err(effect_result(&effect))
}

fn effect_result(effect: &Effect) -> ToolResult {
    match serde_json::to_value(effect) {
        Ok(data) => ToolResult::ok(data),
        Err(e) => ToolResult::error(wording::answer_not_described(&e.to_string())),
    }
}

/// The preview of a key pressed without a number: where the keyboard focus is, across the tab's frames.
/// The frame whose document has the focus decides; when none has it (the side panel has it), the one
/// frame that holds a focused control; when several do, the one the focus was last moved to there.
async fn focused_preview(tab: i32, action: PageTool) -> (i32, ToolResult) {
    let message = unnumbered(PageTool::Preview {
        action: Box::new(action),
    });
    let mut answers: Vec<(i32, ToolResult, FramePreview)> = Vec::new();
    let mut top_failure = None;
    for frame in numbering::numbered_frames(tab) {
        let answer = send(tab, frame, &message).await;
        let preview = answer
            .data
            .clone()
            .and_then(|d| serde_json::from_value::<FramePreview>(d).ok());
        match preview {
            Some(preview) => answers.push((frame, answer, preview)),
            None if frame == 0 => top_failure = Some(answer),
            None => {}
        }
    }
    let holding: Vec<usize> = (0..answers.len())
        .filter(|i| answers[*i].2.target.is_some())
        .collect();
    let focused_frame = holding.iter().copied().find(|i| answers[*i].2.has_focus);
    let last = focus::last_moved_to(tab);
    let remembered = || {
        holding.iter().copied().find(|i| {
            answers[*i]
                .2
                .target
                .as_ref()
                .and_then(|t| t.index)
                .is_some_and(|n| Some(n) == last)
        })
    };
    let chosen = match (focused_frame, holding.as_slice()) {
        (Some(i), _) => Some(i),
        (None, [one]) => Some(*one),
        (None, []) => None,
        (None, _) => remembered(),
    };
    match chosen {
        Some(i) => {
            let (frame, answer, _) = answers.swap_remove(i);
            (frame, answer)
        }
        // Nothing has the focus: the key reaches the page itself, in the top frame.
        None => match answers.into_iter().find(|(frame, ..)| *frame == 0) {
            Some((frame, answer, _)) => (frame, answer),
            // The top frame could not say: what it said instead.
            None => (
                0,
                top_failure.unwrap_or_else(|| ToolResult::error(wording::unreadable_answer())),
            ),
        },
    }
}

/// The address the tab shows, as the browser reports it.
async fn tab_url(tab: i32) -> String {
    chrome::tabs::get(tab).await.map(|t| t.url).unwrap_or_default()
}
