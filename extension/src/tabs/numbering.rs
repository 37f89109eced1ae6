//! One numbering for a whole tab across all its frames.
//!
//! Listing scans the top frame, then every child frame where it stands in its parent's document
//! (same-origin, `srcdoc` and cross-origin alike: each frame has its own content script; which child
//! frame stands at which frame element is found from the browser's list of the tab's frames and what
//! each side can see, without sending anything into the page: `frames.rs`), numbers the controls in
//! that order, and tells each frame the numbers of its elements for the badges. The map from tab-wide
//! numbers to (frame, local number) is kept per tab; every tool by number is translated through it.
//!
//! Must not: keep a numbering past its page (navigation drops it: [`forget`]), act on anything (it only
//! lists, draws badges and reads by number), or guess a number's element: a number the page no longer
//! backs is refused as stale, with a fresh list.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};

use waymark_protocol::{
    ErrorKind, FramePlace, FrameScan, FrameSeen, InteractiveList, PageReason, PageTool, ScanEntry,
    ToolResult, ToolStatus, WorkerToContent,
};

use super::{is_stale, send, unnumbered};
use crate::{chrome, wording};

/// How many controls a list gives when the caller does not say.
pub(super) const DEFAULT_LIMIT: u32 = 50;
/// Frames nested deeper than this are not scanned (a guard against pathological pages).
const MAX_FRAME_DEPTH: usize = 8;

/// Where a tab-wide number's element is: (frame id, the frame's local number).
pub(super) type Slot = (i32, u32);

/// The latest numbering of one tab: `slots[n - 1]` is where number `n`'s element is.
struct Numbering {
    slots: Vec<Slot>,
    frames: Vec<i32>,
}

thread_local! {
    static NUMBERINGS: RefCell<HashMap<i32, Numbering>> = RefCell::new(HashMap::new());
}

/// The frames of the tab's numbering, top frame first; only the top frame when it has none.
pub(super) fn numbered_frames(tab: i32) -> Vec<i32> {
    NUMBERINGS
        .with_borrow(|n| n.get(&tab).map(|n| n.frames.clone()))
        .unwrap_or_else(|| vec![0])
}

/// The tab's numbering as (frame, local number) per tab-wide number, and its frames, if it has one.
pub(super) fn slots_and_frames(tab: i32) -> Option<(Vec<Slot>, Vec<i32>)> {
    NUMBERINGS.with_borrow(|n| n.get(&tab).map(|n| (n.slots.clone(), n.frames.clone())))
}

pub(super) fn is_numbered(tab: i32) -> bool {
    NUMBERINGS.with_borrow(|n| n.contains_key(&tab))
}

/// Drops the tab's numbering: its page is going away.
pub(super) fn forget(tab: i32) {
    NUMBERINGS.with_borrow_mut(|n| n.remove(&tab));
}

/// Which frames of the tab are children of which, from the browser (the page is asked nothing): parent
/// frame id → child frame ids in the order the browser made them. Empty when the browser will not say,
/// and then only the top frame is numbered.
async fn frame_tree(tab: i32) -> HashMap<i32, Vec<i32>> {
    let mut tree: HashMap<i32, Vec<i32>> = HashMap::new();
    match chrome::tabs::tab_frames(tab).await {
        Ok(frames) => {
            for f in frames {
                tree.entry(f.parent).or_default().push(f.frame);
            }
        }
        Err(e) => chrome::log(&format!("tab {tab}: cannot list its frames: {e}")),
    }
    tree
}

/// For each frame entry of `scan` (frame `parent`'s), in order, the child frame standing there, if
/// any: each child says where it stands (`locate`) and `frames::assign` matches them.
async fn place_children(
    tab: i32,
    parent: i32,
    scan: &FrameScan,
    tree: &HashMap<i32, Vec<i32>>,
) -> Vec<Option<i32>> {
    let seen: Vec<FrameSeen> = scan
        .entries
        .iter()
        .filter_map(|e| match e {
            ScanEntry::Frame(seen) => Some(seen.clone()),
            ScanEntry::Control(_) | ScanEntry::More { .. } => None,
        })
        .collect();
    let Some(ids) = tree.get(&parent).filter(|_| !seen.is_empty()) else {
        return vec![None; seen.len()];
    };
    let mut children = Vec::with_capacity(ids.len());
    for &child in ids {
        // A frame without our content script (a browser page, a frame still loading) cannot answer,
        // and has no controls we could act on.
        let answer = send(tab, child, &WorkerToContent::Locate).await;
        if let Some(place) = answer
            .data
            .filter(|_| answer.status == ToolStatus::Ok)
            .and_then(|d| serde_json::from_value::<FramePlace>(d).ok())
        {
            children.push((child, place));
        }
    }
    crate::frames::assign(&seen, scan.windows, &children)
}

/// Renumbers the whole tab and returns one page of the list.
pub(super) async fn list(tab: i32, limit: u32, offset: u32, viewport: bool) -> ToolResult {
    // No frame's controls past its first `offset + limit` can be on this page of the list.
    let describe = offset.saturating_add(limit);
    let top = match scan(tab, 0, viewport, describe).await {
        Ok(scan) => scan,
        Err(error) => return error,
    };
    let mut slots = Vec::new();
    // The described controls, by their place in `slots`.
    let mut items = Vec::new();
    let mut frames = vec![0];
    let tree = frame_tree(tab).await;
    let placed = place_children(tab, 0, &top, &tree).await;
    // Depth-first through the frames, splicing each child's controls in where the frame stands;
    // `placed` says which child frame stands at each frame entry, and the last number tells where
    // the frame's undescribed controls (`More`) go on.
    let mut stack = vec![(0, top.entries.into_iter(), placed.into_iter(), 0)];
    while let Some((frame, next)) = stack
        .last_mut()
        .map(|(frame, entries, _, _)| (*frame, entries.next()))
    {
        match next {
            None => {
                stack.pop();
            }
            Some(ScanEntry::Control(mut item)) => {
                if let Some(last) = stack.last_mut() {
                    last.3 = item.index;
                }
                slots.push((frame, item.index));
                item.index = slots.len() as u32;
                items.push(item);
            }
            Some(ScanEntry::More { count }) => {
                if let Some(last) = stack.last_mut() {
                    slots.extend((1..=count).map(|n| (frame, last.3 + n)));
                    last.3 += count;
                }
            }
            Some(ScanEntry::Frame(_)) => {
                let child = stack
                    .last_mut()
                    .and_then(|(_, _, placed, _)| placed.next())
                    .flatten();
                // A frame entry no child matched (not loaded yet, or a page where extensions may not
                // run) has no controls we can act on: skip it.
                let Some(frame_id) = child.filter(|_| stack.len() < MAX_FRAME_DEPTH) else {
                    continue;
                };
                if frames.contains(&frame_id) {
                    continue;
                }
                if let Ok(child) = scan(tab, frame_id, viewport, describe).await {
                    let placed = place_children(tab, frame_id, &child, &tree).await;
                    frames.push(frame_id);
                    stack.push((frame_id, child.entries.into_iter(), placed.into_iter(), 0));
                }
            }
        }
    }
    let mut per_frame: BTreeMap<i32, Vec<u32>> = frames.iter().map(|f| (*f, Vec::new())).collect();
    for (n, (frame, _)) in slots.iter().enumerate() {
        per_frame.entry(*frame).or_default().push(n as u32 + 1);
    }
    for (frame, numbers) in per_frame {
        let _ = send(tab, frame, &WorkerToContent::Badges { numbers }).await;
    }
    let total = slots.len() as u32;
    NUMBERINGS.with_borrow_mut(|n| n.insert(tab, Numbering { slots, frames }));
    // Every control of this page of the list was described (see `describe`).
    let page: Vec<_> = items
        .into_iter()
        .skip_while(|item| item.index <= offset)
        .take_while(|item| item.index <= offset.saturating_add(limit))
        .collect();
    let list = InteractiveList {
        url: top.url,
        title: top.title,
        total,
        offset,
        items: page,
    };
    match serde_json::to_value(&list) {
        Ok(data) => ToolResult::ok(data),
        Err(e) => ToolResult::error(wording::answer_not_described(&e.to_string())),
    }
}

/// Shows or hides the badges in every numbered frame; the top frame's answer is the tool's.
pub(super) async fn overlay(tab: i32, tool: PageTool) -> ToolResult {
    let top = send(tab, 0, &unnumbered(tool.clone())).await;
    for frame in numbered_frames(tab).into_iter().filter(|f| *f != 0) {
        send(tab, frame, &unnumbered(tool.clone())).await;
    }
    top
}

/// The (frame, local number) behind a tab-wide number, or the refusal to give when there is none.
pub(super) fn slot_of(tab: i32, index: u32) -> Result<Slot, ToolResult> {
    let lookup = NUMBERINGS.with_borrow(|n| {
        n.get(&tab).map(|n| {
            (
                (index as usize)
                    .checked_sub(1)
                    .and_then(|i| n.slots.get(i))
                    .copied(),
                n.slots.len(),
            )
        })
    });
    match lookup {
        None | Some((None, 0)) => Err(ToolResult::failed(ErrorKind::Stale, wording::no_numbers_yet())),
        Some((None, total)) => Err(ToolResult::failed(
            ErrorKind::Stale,
            wording::no_such_number(index, total),
        )),
        Some((Some(slot), _)) => Ok(slot),
    }
}

/// Runs a reading tool on the element behind its tab-wide number `index`, in its frame, with its local
/// number put in its place.
pub(super) async fn by_number(tab: i32, index: u32, tool: PageTool) -> ToolResult {
    let (frame, local) = match slot_of(tab, index) {
        Ok(slot) => slot,
        Err(refusal) => return refusal,
    };
    let result = send(
        tab,
        frame,
        &WorkerToContent::Tool {
            tool: tool.with_number(local),
            number: Some(index),
            pin: None,
            guard: None,
        },
    )
    .await;
    if is_stale(&result) {
        return stale(tab, index, result.reason).await;
    }
    result
}

/// The page changed under a number (`reason`, the frame's account): renew the numbering and answer
/// with the fresh list.
pub(super) async fn stale(tab: i32, index: u32, reason: Option<Box<PageReason>>) -> ToolResult {
    let said = wording::stale(index, reason.as_deref());
    let fresh = list(tab, DEFAULT_LIMIT, 0, false).await;
    ToolResult {
        reason,
        ..ToolResult::failed(ErrorKind::Stale, said)
    }
    .with_data(fresh.data)
}

async fn scan(tab: i32, frame: i32, viewport: bool, describe: u32) -> Result<FrameScan, ToolResult> {
    let describe = Some(describe).filter(|d| *d < u32::MAX);
    let result = send(tab, frame, &WorkerToContent::Scan { viewport, describe }).await;
    if result.status == ToolStatus::Error {
        return Err(result);
    }
    result
        .data
        .and_then(|d| serde_json::from_value::<FrameScan>(d).ok())
        .ok_or_else(|| ToolResult::error(wording::unreadable_answer()))
}
