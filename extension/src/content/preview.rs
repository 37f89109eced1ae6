//! This frame's half of the gate's preview: what an action would do here (`effect.rs`), on which
//! element (by number, or where the keyboard focus is), with the option a choice would make.
//!
//! Must not: act (a preview only describes), or describe a secret field's value.

use waymark_protocol::{ActKind, ErrorKind, FramePreview, PageReason, PageTool, ToolResult};

use super::{answer, document, no_document, numbered, remember, this_document, url, FRAME};
use crate::act;
use crate::effect::element_info;

/// What `action` would do here (see `effect`), for the gate: the element it reaches (by number, or the
/// focused one for a key without a number), the option a choice would make, and whether this frame
/// links to the site a navigation would open.
pub(super) fn preview(action: PageTool, number: Option<u32>) -> ToolResult {
    let Some(document) = document() else {
        return no_document();
    };
    let mut out = FramePreview {
        document: this_document(),
        url: url(),
        target: None,
        element: None,
        option: None,
        linked: false,
        has_focus: document.has_focus().unwrap_or(false),
        destination: match &action {
            PageTool::Back => super::guard::history_destination(-1),
            PageTool::Forward => super::guard::history_destination(1),
            _ => None,
        },
    };
    let numbered_target = action.number();
    if let Some(index) = numbered_target {
        let (id, found) = match numbered(index) {
            Ok(hit) => hit,
            Err(why) => return why,
        };
        if let PageTool::OverlayAct {
            action: ActKind::Select,
            text,
            ..
        }
        | PageTool::ActByIndex {
            action: ActKind::Select,
            text,
            ..
        } = &action
        {
            match crate::effect::option_choice(&found.element, text.as_deref().unwrap_or_default()) {
                Ok(choice) => out.option = Some(choice),
                Err(failure) => {
                    let reason = PageReason::Act {
                        number: number.unwrap_or(index),
                        action: ActKind::Select,
                        role: found.role().into(),
                        name: found.name().into(),
                        failure,
                    };
                    return ToolResult::refused(ErrorKind::BadArguments, reason);
                }
            }
        }
        out.target = Some(element_info(&found, Some(number.unwrap_or(index)), url()));
        out.element = Some(id);
    }
    match &action {
        PageTool::Press { index: None, .. } => {
            if let Some(active) = focused_control(&document) {
                // A numbered control says its number; anything else is remembered for a pinned press.
                let listed = FRAME.with_borrow(|f| {
                    f.numbered
                        .iter()
                        .position(|(_, found)| found.element == active)
                        .map(|i| (i, f.numbered[i].0, f.badges.get(i).copied()))
                });
                let (id, found, index) = match listed {
                    Some((i, id, badge)) => {
                        let found = FRAME.with_borrow(|f| f.numbered[i].1.clone());
                        (id, found, badge)
                    }
                    None => {
                        let found = crate::detect::found_for(&active);
                        (remember(&found), found, None)
                    }
                };
                out.target = Some(element_info(&found, index, url()));
                out.element = Some(id);
            }
        }
        PageTool::Navigate { url } | PageTool::OpenInNewTab { url } => {
            out.linked = crate::effect::links_to_site_of(&document, url);
        }
        _ => {}
    }
    answer(serde_json::to_value(&out))
}

/// The element with the keyboard focus in this frame, if it is a control: not the page itself, and not
/// a child frame (whose own content script answers for what has the focus inside it).
pub(super) fn focused_control(document: &web_sys::Document) -> Option<web_sys::Element> {
    let active = act::deep_active_element(document)?;
    let tag = active.local_name();
    (!matches!(tag.as_str(), "body" | "html" | "iframe" | "frame")).then_some(active)
}
