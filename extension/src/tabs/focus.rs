//! Moving the keyboard focus along the tab's numbering (`focus_next`, `focus_prev`), across frames:
//! each frame says which of its numbered controls holds its focus and what their roles are, and the
//! worker picks the next control tab-wide and asks its frame to focus it. A control that takes no
//! keyboard focus (a `div` with a click handler and no `tabindex`) is passed over, as Tab passes it.
//!
//! Must not: activate anything (focusing is not clicking), make anything focusable (a `tabindex`
//! written into the page would show it Waymark), or move the focus by a numbering the page changed
//! under (a stale answer renumbers and looks again, once).

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use serde_json::json;
use waymark_protocol::{ErrorKind, PageTool, ToolResult, ToolStatus, WorkerToContent};

use super::find::fold;
use super::numbering::{self, DEFAULT_LIMIT};
use super::{is_stale, send, unnumbered};
use crate::wording;

thread_local! {
    /// Per tab, the number the focus was last moved to: it decides between frames that each still hold
    /// a focused element (a frame keeps its own focused element when another frame takes the focus).
    static LAST_FOCUS: RefCell<HashMap<i32, u32>> = RefCell::new(HashMap::new());
}

/// Where one frame's focus is and what its numbered controls are (the frame's answer to a focus query).
struct FrameFocus {
    focused: Option<u32>,
    has_focus: bool,
    roles: Vec<String>,
}

/// The number the focus was last moved to in this tab, if it was.
pub(super) fn last_moved_to(tab: i32) -> Option<u32> {
    LAST_FOCUS.with_borrow(|l| l.get(&tab).copied())
}

/// `focus_next` / `focus_prev`: the numbered control after (before) the one with the focus, of `role` if
/// given, across the tab's frames; numbers the tab first when it has no numbering.
pub(super) async fn move_focus(tab: i32, role: Option<String>, forward: bool) -> ToolResult {
    let wanted = role.as_deref().map(fold).filter(|r| !r.is_empty());
    for attempt in 0..2 {
        if attempt > 0 || !numbering::is_numbered(tab) {
            let listed = numbering::list(tab, DEFAULT_LIMIT, 0, false).await;
            if listed.status == ToolStatus::Error {
                return listed;
            }
        }
        let Some((slots, frames)) = numbering::slots_and_frames(tab) else {
            return ToolResult::failed(ErrorKind::Stale, wording::no_numbers_yet());
        };
        let mut states: HashMap<i32, FrameFocus> = HashMap::new();
        for frame in frames {
            let answer = send(tab, frame, &unnumbered(PageTool::FocusNext { role: None })).await;
            let Some(data) = answer.data.filter(|_| answer.status == ToolStatus::Ok) else {
                continue;
            };
            let roles = data
                .get("roles")
                .and_then(|r| serde_json::from_value::<Vec<String>>(r.clone()).ok())
                .unwrap_or_default();
            states.insert(
                frame,
                FrameFocus {
                    focused: data.get("focused").and_then(|f| f.as_u64()).map(|f| f as u32),
                    has_focus: data.get("has_focus").and_then(|f| f.as_bool()).unwrap_or(false),
                    roles,
                },
            );
        }
        let role_of = |(frame, local): &(i32, u32)| {
            states
                .get(frame)
                .and_then(|s| (*local as usize).checked_sub(1).and_then(|i| s.roles.get(i)))
                .map(String::as_str)
                .unwrap_or_default()
        };
        // Tab-wide positions holding a frame's focus, with whether that frame has the focus now.
        let holders: Vec<(usize, bool)> = slots
            .iter()
            .enumerate()
            .filter_map(|(i, (frame, local))| {
                let state = states.get(frame)?;
                (state.focused == Some(*local)).then_some((i, state.has_focus))
            })
            .collect();
        let current = current_focus(&holders, last_moved_to(tab));
        // Controls found to take no keyboard focus: passed over, as Tab passes them.
        let mut unfocusable: HashSet<usize> = HashSet::new();
        loop {
            let fits = |i: &usize| {
                !unfocusable.contains(i)
                    && wanted
                        .as_ref()
                        .is_none_or(|w| slots.get(*i).is_some_and(|slot| fold(role_of(slot)) == *w))
            };
            let next = if forward {
                (current.map_or(0, |c| c + 1)..slots.len()).find(fits)
            } else {
                (0..current.unwrap_or(slots.len())).rev().find(fits)
            };
            let Some((next, &(frame, local))) = next.and_then(|n| Some((n, slots.get(n)?))) else {
                return ToolResult::ok(json!({"at_end": true, "total": slots.len()}));
            };
            let number = next as u32 + 1;
            let moved = send(
                tab,
                frame,
                &WorkerToContent::Tool {
                    tool: PageTool::FocusNext { role: None },
                    number: Some(local),
                    pin: None,
                    guard: None,
                },
            )
            .await;
            if moved.status == ToolStatus::Error && is_stale(&moved) && attempt == 0 {
                // The page changed under the numbering: renumber and look again.
                break;
            }
            if moved.status == ToolStatus::Error {
                return moved;
            }
            let data = moved.data.unwrap_or_default();
            if data.get("focusable").and_then(|f| f.as_bool()) == Some(false) {
                unfocusable.insert(next);
                continue;
            }
            LAST_FOCUS.with_borrow_mut(|l| l.insert(tab, number));
            return ToolResult::ok(json!({
                "index": number,
                "role": data.get("role"),
                "name": data.get("name"),
            }));
        }
    }
    ToolResult::error(wording::page_kept_changing())
}

/// Which of the controls holding a frame's focus has the tab's focus: the one in the frame that has
/// the focus now; when that does not decide (the side panel has the focus, so no page frame has it),
/// the one the focus was last moved to, else the first.
fn current_focus(holders: &[(usize, bool)], remembered: Option<u32>) -> Option<usize> {
    let focused: Vec<usize> = holders.iter().filter(|(_, has)| *has).map(|(i, _)| *i).collect();
    if let [only] = focused.as_slice() {
        return Some(*only);
    }
    let pool: Vec<usize> = if focused.is_empty() {
        holders.iter().map(|(i, _)| *i).collect()
    } else {
        focused
    };
    remembered
        .and_then(|n| (n as usize).checked_sub(1))
        .filter(|r| pool.contains(r))
        .or_else(|| pool.first().copied())
}

#[cfg(test)]
mod tests {
    use super::current_focus;

    #[test]
    fn the_focused_frame_decides_then_the_last_move() {
        // Position 4 is in the frame that has the focus; position 1 is a frame's stale focus.
        assert_eq!(current_focus(&[(1, false), (4, true)], Some(2)), Some(4));
        // The side panel has the focus: the number the focus was last moved to, if it still holds it.
        assert_eq!(current_focus(&[(1, false), (4, false)], Some(5)), Some(4));
        assert_eq!(current_focus(&[(1, false), (4, false)], Some(9)), Some(1));
        assert_eq!(current_focus(&[], Some(3)), None);
    }
}
