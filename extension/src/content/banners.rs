//! This frame's half of closing banners: the banners `banners::find` chose, described and remembered
//! by id for the gate, and pressing those the gate allowed.
//!
//! Must not: press a button the gate did not allow for this very document.

use serde_json::json;
use waymark_protocol::{FrameBanner, FrameBanners, ToolResult};

use super::{answer, redraw, remember, this_document, url, FRAME};

/// This frame's banners and the button that would close each (`banners::find`), described for the gate
/// and remembered by id for `press_banners`. Nothing is pressed.
pub(super) fn find_banners() -> ToolResult {
    let picks = crate::banners::find();
    let mut banners = Vec::new();
    let mut kept = Vec::new();
    for pick in picks {
        let found = crate::detect::found_for(&pick.button);
        let id = remember(&found);
        banners.push(FrameBanner {
            element: id,
            kind: pick.kind_name().into(),
            choice: pick.choice_name().into(),
            target: crate::effect::element_info(&found, None, url()),
        });
        kept.push((id, pick));
    }
    FRAME.with_borrow_mut(|f| f.banner_picks = kept);
    let found = FrameBanners {
        document: this_document(),
        banners,
    };
    answer(serde_json::to_value(&found))
}

/// Presses the banner buttons the gate allowed (those of this document among `pins`).
pub(super) fn press_banners(pins: &[waymark_protocol::Pin]) -> ToolResult {
    let here = this_document();
    let picks: Vec<crate::banners::Pick> = FRAME.with_borrow(|f| {
        pins.iter()
            .filter(|p| p.document == here)
            .filter_map(|p| p.element)
            .filter_map(|id| f.banner_picks.iter().find(|(known, _)| *known == id))
            .map(|(_, pick)| pick.clone())
            .collect()
    });
    let mut closed = Vec::new();
    let mut pressed = 0;
    for pick in picks {
        if let Some(outcome) = crate::banners::press(&pick) {
            pressed += 1;
            closed.extend(outcome);
        }
    }
    redraw();
    ToolResult::ok(json!({"closed": closed, "pressed": pressed}))
}
