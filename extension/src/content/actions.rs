//! Acting on this frame's numbered elements: `overlay_act` and `act_by_index` on the element checked
//! first (stale numbers, the gate's pin), and this frame's half of moving the keyboard focus.
//!
//! Must not: act on an element other than the one checked, or decide whether the action is allowed.

use serde_json::json;
use waymark_protocol::{ActKind, ErrorKind, PageReason, ToolResult};

use super::{document, no_document, numbered, redraw, FRAME};
use crate::act;
use crate::detect::Found;

/// How an action reaches its element.
pub(super) enum Way {
    /// `overlay_act`: on the element itself, with its own activation.
    Element,
    /// `act_by_index`, the last resort: a pointer's and keyboard's events where the control is drawn.
    Pointer,
}

/// `overlay_act` or `act_by_index` on `hit` (checked first: stale numbers, the gate's pin); `number` is
/// the tab-wide number, for the words.
pub(super) fn act_on(
    hit: Result<(u64, Found), ToolResult>,
    action: ActKind,
    text: Option<String>,
    number: u32,
    way: Way,
) -> ToolResult {
    let (_, found) = match hit {
        Ok(hit) => hit,
        Err(why) => return why,
    };
    let text = text.unwrap_or_default();
    let element = &found.element;
    super::changes::track(&found);
    let typed = || json!({"typed": text.chars().count()});
    let done = match (way, action) {
        (Way::Element, ActKind::Click) => act::click(element).map(|()| json!({})),
        (Way::Element, ActKind::Type) => act::type_text(element, &text).map(|()| typed()),
        (Way::Element, ActKind::Select) => {
            act::select(element, &text).map(|label| json!({"selected": label}))
        }
        (Way::Pointer, ActKind::Click) => act::pointer_click(element).map(|()| json!({})),
        (Way::Pointer, ActKind::Type) => act::pointer_type(element, &text).map(|()| typed()),
        (Way::Pointer, ActKind::Select) => {
            act::pointer_select(element, &text).map(|label| json!({"selected": label}))
        }
        // Where the control is drawn either way: a pointer has no other way to do these.
        (_, ActKind::RightClick) => act::context_click(element).map(|()| json!({})),
        (_, ActKind::Hover) => act::hover(element).map(|()| json!({})),
        (_, ActKind::Set) => act::set_value(element, &text).map(|value| json!({"value": value})),
    };
    redraw();
    if done.is_ok() && action == ActKind::Type {
        // What it now holds goes wherever its form is sent: the gate weighs that (`typed.rs`).
        crate::typed::note(element);
    }
    match done {
        Ok(mut data) => {
            data["done"] = json!(action.verb());
            data["index"] = json!(number);
            data["role"] = json!(found.role());
            data["name"] = json!(found.name());
            ToolResult::ok(data)
        }
        Err(failure) => ToolResult::refused(
            ErrorKind::Failed,
            PageReason::Act {
                number,
                action,
                role: found.role().into(),
                name: found.name().into(),
                failure,
            },
        ),
    }
}

/// This frame's half of `focus_next` / `focus_prev`. With `local`, moves the focus to that control
/// (`{"focused", "role", "name", "moved", "focusable"}`: `focusable` is false for a control that takes
/// no keyboard focus, which is left as it is); without, reports which numbered control holds this frame's
/// focus, whether the frame has the focus, and the role of every numbered control, so the worker can
/// pick the next one across frames (`{"focused": n|null, "has_focus", "roles": […]}`).
pub(super) fn focus(local: Option<u32>) -> ToolResult {
    let Some(document) = document() else {
        return no_document();
    };
    let Some(local) = local else {
        let active = act::deep_active_element(&document);
        let (focused, roles) = FRAME.with_borrow(|f| {
            // The innermost numbered control holding the focus (a focused link inside a numbered tab).
            let focused = active.as_ref().and_then(|a| {
                f.numbered
                    .iter()
                    .rposition(|(_, found)| crate::dom::composed_contains(&found.element, a))
                    .map(|i| i as u32 + 1)
            });
            let roles: Vec<String> = f
                .numbered
                .iter()
                .map(|(_, found)| found.role().to_string())
                .collect();
            (focused, roles)
        });
        let has_focus = document.has_focus().unwrap_or(false);
        return ToolResult::ok(json!({"focused": focused, "has_focus": has_focus, "roles": roles}));
    };
    let (_, found) = match numbered(local) {
        Ok(hit) => hit,
        Err(why) => return why,
    };
    let moved = act::focus_control(&found.element);
    redraw();
    ToolResult::ok(json!({
        "focused": local,
        "role": found.role(),
        "name": found.name(),
        "moved": moved == act::FocusMove::Moved,
        "focusable": moved != act::FocusMove::CannotTakeFocus,
    }))
}
