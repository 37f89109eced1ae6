//! The tab's side of closing banners: every frame's banners and the button that would close each,
//! pinned for the gate to judge (`find_banners`), and pressing in each frame the buttons the gate
//! allowed (`press_banners`). Which button closes a banner is the content script's (`banners/`).
//!
//! Must not: press a button the gate did not allow and pin (each frame presses only pins of its own
//! document), or press anything while finding.

use serde_json::json;
use waymark_protocol::{BannerButton, FrameBanners, PageTool, Pin, ToolResult, ToolStatus};

use super::{numbering, send, unnumbered};
use crate::wording;

/// Every frame's banners and the button that would close each, pinned, for the gate to judge.
pub(super) async fn find_banners(tab: i32) -> ToolResult {
    let mut banners = Vec::new();
    let mut reached = false;
    let mut failure = None;
    for frame in numbering::numbered_frames(tab) {
        let answer = send(tab, frame, &unnumbered(PageTool::FindBanners)).await;
        let found = answer
            .data
            .clone()
            .filter(|_| answer.status == ToolStatus::Ok)
            .and_then(|d| serde_json::from_value::<FrameBanners>(d).ok());
        let Some(found) = found else {
            failure.get_or_insert(answer);
            continue;
        };
        reached = true;
        for banner in found.banners {
            banners.push(BannerButton {
                pin: Pin {
                    tab,
                    frame,
                    document: found.document.clone(),
                    element: Some(banner.element),
                },
                kind: banner.kind,
                choice: banner.choice,
                target: banner.target,
            });
        }
    }
    if !reached {
        // No frame could say: what the first one said.
        return failure.unwrap_or_else(|| ToolResult::error(wording::unreadable_answer()));
    }
    ToolResult::ok(json!({ "banners": banners }))
}

/// Presses the banner buttons the gate allowed, each in its own frame and document.
pub(super) async fn press_banners(tab: i32, pins: Vec<Pin>) -> ToolResult {
    let mut frames: Vec<i32> = pins.iter().filter(|p| p.tab == tab).map(|p| p.frame).collect();
    frames.sort_unstable();
    frames.dedup();
    let mut closed: Vec<String> = Vec::new();
    let mut pressed = 0;
    for frame in frames {
        let mine: Vec<Pin> = pins
            .iter()
            .filter(|p| p.tab == tab && p.frame == frame)
            .cloned()
            .collect();
        let answer = send(tab, frame, &unnumbered(PageTool::PressBanners { pins: mine })).await;
        let Some(data) = answer.data.filter(|_| answer.status == ToolStatus::Ok) else {
            continue;
        };
        if let Some(names) = data
            .get("closed")
            .and_then(|c| serde_json::from_value::<Vec<String>>(c.clone()).ok())
        {
            closed.extend(names);
        }
        pressed += data.get("pressed").and_then(|p| p.as_u64()).unwrap_or(0);
    }
    ToolResult::ok(json!({"closed": closed, "pressed": pressed}))
}
