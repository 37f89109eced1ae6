//! The service worker's side of page tools: one numbering for a whole tab across all its frames.
//!
//! Listing scans the top frame, then every child frame where it stands in its parent's document
//! (same-origin, `srcdoc` and cross-origin alike: each frame has its own content script; which child
//! frame stands at which frame element is found from the browser's list of the tab's frames and what
//! each side can see, without sending anything into the page: `frames.rs`), numbers the controls in
//! that order, and tells each frame the numbers of its elements for the badges. The map
//! from tab-wide numbers to (frame, local number) is kept per tab; every tool by number is translated
//! through it, and element ids are made tab-wide as `frame << 32 | local id`.
//!
//! This module does not judge tools: the worker only lets page-changing ones through from the host.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};

use serde_json::json;
use waymark_protocol::{
    BannerButton, Effect, ErrorKind, FrameBanners, FramePin, FramePlace, FramePreview, FrameScan, FrameSeen,
    InteractiveList, ListScope, PageTool, Pin, ScanEntry, ToolResult, ToolStatus, WorkerToContent,
};

use crate::{chrome, wording};

const DEFAULT_LIMIT: u32 = 50;
/// How long a navigation may take to finish loading before we answer anyway.
const NAVIGATION_WAIT_MS: u32 = 15_000;
/// Frames nested deeper than this are not scanned (a guard against pathological pages).
const MAX_FRAME_DEPTH: usize = 8;

/// The latest numbering of one tab: `slots[n - 1]` is (frame id, local number) of number `n`.
struct Numbering {
    slots: Vec<(i32, u32)>,
    frames: Vec<i32>,
}

thread_local! {
    static NUMBERINGS: RefCell<HashMap<i32, Numbering>> = RefCell::new(HashMap::new());
}

/// Which frames of the tab are children of which, from the browser (the page is asked nothing): parent
/// frame id → child frame ids in the order the browser made them. Empty when the browser will not say,
/// and then only the top frame is numbered.
async fn frame_tree(tab: i32) -> HashMap<i32, Vec<i32>> {
    let mut tree: HashMap<i32, Vec<i32>> = HashMap::new();
    match chrome::tab_frames(tab).await {
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
            ScanEntry::Control(_) => None,
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

/// Runs a page tool in a tab (the active tab of the focused window when `tab_id` is `None`). A
/// page-changing tool runs only with the `pin` the host's gate judged it on, and only there.
pub async fn run(tab_id: Option<i32>, tool: PageTool, pin: Option<Pin>) -> ToolResult {
    let tab = match (&pin, tab_id) {
        (Some(pin), _) => pin.tab,
        (None, Some(id)) => id,
        (None, None) => match chrome::active_tab_id().await {
            Some(id) => id,
            None => return ToolResult::failed(ErrorKind::Unreachable, wording::no_tab()),
        },
    };
    if tool.changes_page() && !matches!(tool, PageTool::PressBanners { .. }) {
        let Some(pin) = pin else {
            return ToolResult::failed(
                ErrorKind::NotAllowed,
                "a page-changing tool runs only where the gate judged it (no pin)",
            );
        };
        return run_pinned(tab, tool, pin).await;
    }
    match tool {
        PageTool::ListInteractives { limit, offset, scope } => {
            let viewport = scope == Some(ListScope::Viewport);
            list(tab, limit.unwrap_or(DEFAULT_LIMIT), offset.unwrap_or(0), viewport).await
        }
        PageTool::OverlayShow | PageTool::OverlayHide => {
            let frames = NUMBERINGS
                .with_borrow(|n| n.get(&tab).map(|n| n.frames.clone()))
                .unwrap_or_else(|| vec![0]);
            let mut answer = ToolResult::failed(ErrorKind::Unreachable, wording::page_unreachable());
            for frame in frames {
                let result = send(
                    tab,
                    frame,
                    &WorkerToContent::Tool {
                        tool: tool.clone(),
                        number: None,
                        pin: None,
                    },
                )
                .await;
                if frame == 0 {
                    answer = result;
                }
            }
            answer
        }
        PageTool::Find {
            text,
            role,
            limit,
            offset,
        } => find(tab, text, role, limit, offset).await,
        PageTool::Extract => {
            send(
                tab,
                0,
                &WorkerToContent::Tool {
                    tool: PageTool::Extract,
                    number: None,
                    pin: None,
                },
            )
            .await
        }
        PageTool::Wait { ms } => {
            send(
                tab,
                0,
                &WorkerToContent::Tool {
                    tool: PageTool::Wait { ms },
                    number: None,
                    pin: None,
                },
            )
            .await
        }
        PageTool::Scroll {
            direction,
            index: None,
        } => {
            send(
                tab,
                0,
                &WorkerToContent::Tool {
                    tool: PageTool::Scroll {
                        direction,
                        index: None,
                    },
                    number: None,
                    pin: None,
                },
            )
            .await
        }
        PageTool::Scroll {
            direction,
            index: Some(index),
        } => {
            by_number(tab, index, |local| PageTool::Scroll {
                direction,
                index: Some(local),
            })
            .await
        }
        PageTool::ListTabs => list_tabs().await,
        PageTool::SwitchTab { index } => switch_tab(index).await,
        PageTool::Describe { index } => {
            by_number(tab, index, |local| PageTool::Describe { index: local }).await
        }
        PageTool::Preview { action } => preview(tab, *action).await,
        PageTool::Screenshot => screenshot(tab).await,
        PageTool::DownloadWait { timeout_ms } => download_wait(timeout_ms).await,
        PageTool::FocusNext { role } => move_focus(tab, role, true).await,
        PageTool::FocusPrev { role } => move_focus(tab, role, false).await,
        PageTool::FindBanners => find_banners(tab).await,
        PageTool::PressBanners { pins } => press_banners(tab, pins).await,
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
        | PageTool::CloseBanners { .. } => ToolResult::failed(
            ErrorKind::NotAllowed,
            "a page-changing tool runs only where the gate judged it (no pin)",
        ),
    }
}

/// Runs a page-changing tool exactly where the gate judged it: in the pinned tab, in the pinned frame,
/// if that frame still shows the pinned document, on the pinned element (the content script refuses
/// when it is gone or changed). Anything else is refused, saying what changed.
async fn run_pinned(tab: i32, tool: PageTool, pin: Pin) -> ToolResult {
    let frame_pin = FramePin {
        document: pin.document.clone(),
        element: pin.element,
    };
    // Tools the worker runs itself are pinned to the document the tab showed when they were judged (a
    // page Waymark cannot enter has no token: then only the tab is pinned).
    let check_document = || async {
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
    };
    match tool {
        PageTool::Navigate { url } => {
            if let Err(refused) = check_document().await {
                return refused;
            }
            match address(&url) {
                Ok(url) => {
                    navigation(
                        tab,
                        "update",
                        &[tab.into(), chrome::object(&[("url", url.into())])],
                    )
                    .await
                }
                Err(why) => ToolResult::failed(ErrorKind::BadArguments, why),
            }
        }
        PageTool::Back | PageTool::Forward | PageTool::Reload => {
            if let Err(refused) = check_document().await {
                return refused;
            }
            let method = match tool {
                PageTool::Back => "goBack",
                PageTool::Forward => "goForward",
                _ => "reload",
            };
            navigation(tab, method, &[tab.into()]).await
        }
        PageTool::OpenInNewTab { url } => {
            if let Err(refused) = check_document().await {
                return refused;
            }
            match address(&url) {
                Ok(url) => {
                    let options = chrome::object(&[("url", url.into()), ("openerTabId", tab.into())]);
                    match chrome::tabs_api("create", &[options]).await {
                        Ok(created) => {
                            let id = js_sys::Reflect::get(&created, &"id".into())
                                .ok()
                                .and_then(|i| i.as_f64());
                            ToolResult::ok(json!({"opened": true, "tab_id": id}))
                        }
                        Err(e) => ToolResult::error(format!("could not open a new tab: {e}")),
                    }
                }
                Err(why) => ToolResult::failed(ErrorKind::BadArguments, why),
            }
        }
        PageTool::ClickAndWaitDownload { index, timeout_ms } => {
            click_and_wait_download(tab, index, timeout_ms, &pin).await
        }
        PageTool::Upload { files, index, .. } if files.is_empty() => {
            // The host sent the files ahead in pieces; the worker joined them into `files`.
            ToolResult::failed(
                ErrorKind::BadArguments,
                format!("No file arrived to put into number {index}."),
            )
        }
        PageTool::CloseBanners { .. } => ToolResult::failed(
            ErrorKind::NotAllowed,
            "closing banners is run by the gate: find_banners, then press_banners",
        ),
        // On an element, or a key where the focus was: the pinned frame and element.
        tool => {
            let number = tool.number();
            let result = send(
                tab,
                pin.frame,
                &WorkerToContent::Tool {
                    tool,
                    number,
                    pin: Some(frame_pin),
                },
            )
            .await;
            if is_stale(&result) {
                let (kind, said) = if result.is(ErrorKind::PageChanged) {
                    (ErrorKind::PageChanged, wording::pinned_page_changed())
                } else {
                    (
                        ErrorKind::Stale,
                        wording::pinned_gone(result.error.as_deref().unwrap_or_default()),
                    )
                };
                // The caller gets the fresh list with the refusal, as for any stale number.
                let fresh = list(tab, DEFAULT_LIMIT, 0, false).await;
                return ToolResult::failed(kind, said).with_data(fresh.data);
            }
            result
        }
    }
}

/// What `action` would do (`effect` in the content script), with where: the tab, the frame, its
/// document, the element. The gate judges this and pins the action to it.
async fn preview(tab: i32, action: PageTool) -> ToolResult {
    let number = action.number();
    let (frame, answer) = if let Some(index) = number {
        let slot = slot_of(tab, index);
        let (frame, local) = match slot {
            Ok(slot) => slot,
            Err(refusal) => return refusal,
        };
        let local_action = with_local_index(action, local);
        let message = WorkerToContent::Tool {
            tool: PageTool::Preview {
                action: Box::new(local_action),
            },
            number: Some(index),
            pin: None,
        };
        let answer = send(tab, frame, &message).await;
        if is_stale(&answer) {
            let what = answer.error.unwrap_or_default();
            return stale(tab, index, what).await;
        }
        (frame, answer)
    } else if matches!(action, PageTool::Press { index: None, .. }) {
        focused_preview(tab, action).await
    } else {
        // The tab itself (a navigation, history): the top frame's document, and whether any frame
        // links to where a navigation would go.
        let frames = NUMBERINGS
            .with_borrow(|n| n.get(&tab).map(|n| n.frames.clone()))
            .unwrap_or_else(|| vec![0]);
        let message = WorkerToContent::Tool {
            tool: PageTool::Preview {
                action: Box::new(action.clone()),
            },
            number: None,
            pin: None,
        };
        let top = send(tab, 0, &message).await;
        let mut linked = false;
        for frame in frames.iter().filter(|f| **f != 0) {
            let answer = send(tab, *frame, &message).await;
            linked |= answer
                .data
                .as_ref()
                .and_then(|d| d.get("linked"))
                .and_then(|l| l.as_bool())
                .unwrap_or(false);
        }
        let mut top = top;
        if linked {
            if let Some(data) = top.data.as_mut() {
                data["linked"] = json!(true);
            }
        }
        if top.status == ToolStatus::Error {
            // A page Waymark cannot enter (a browser page, a page still loading): the tab alone.
            let url = tab_url(tab).await;
            let effect = Effect {
                pin: Pin {
                    tab,
                    frame: 0,
                    document: String::new(),
                    element: None,
                },
                page_url: url,
                target: None,
                focused: false,
                option: None,
                linked,
            };
            return effect_result(&effect);
        }
        (0, top)
    };
    if answer.status == ToolStatus::Error {
        return answer;
    }
    let Some(preview) = answer
        .data
        .and_then(|d| serde_json::from_value::<FramePreview>(d).ok())
    else {
        return ToolResult::error("the page answered something unreadable");
    };
    let page_url = if frame == 0 {
        preview.url.clone()
    } else {
        tab_url(tab).await
    };
    let effect = Effect {
        pin: Pin {
            tab,
            frame,
            document: preview.document,
            element: preview.element,
        },
        page_url,
        focused: number.is_none() && preview.target.is_some(),
        target: preview.target,
        option: preview.option,
        linked: preview.linked,
    };
    effect_result(&effect)
}

fn effect_result(effect: &Effect) -> ToolResult {
    match serde_json::to_value(effect) {
        Ok(data) => ToolResult::ok(data),
        Err(e) => ToolResult::error(format!("could not describe the action: {e}")),
    }
}

/// The preview of a key pressed without a number: where the keyboard focus is, across the tab's frames.
/// The frame whose document has the focus decides; when none has it (the side panel has it), the one
/// frame that holds a focused control; when several do, the one the focus was last moved to there.
async fn focused_preview(tab: i32, action: PageTool) -> (i32, ToolResult) {
    let frames = NUMBERINGS
        .with_borrow(|n| n.get(&tab).map(|n| n.frames.clone()))
        .unwrap_or_else(|| vec![0]);
    let message = WorkerToContent::Tool {
        tool: PageTool::Preview {
            action: Box::new(action),
        },
        number: None,
        pin: None,
    };
    let mut answers: Vec<(i32, ToolResult, FramePreview)> = Vec::new();
    for frame in frames {
        let answer = send(tab, frame, &message).await;
        let preview = answer
            .data
            .clone()
            .and_then(|d| serde_json::from_value::<FramePreview>(d).ok());
        if let Some(preview) = preview {
            answers.push((frame, answer, preview));
        }
    }
    let holding: Vec<usize> = (0..answers.len())
        .filter(|i| answers[*i].2.target.is_some())
        .collect();
    let focused_frame = holding.iter().copied().find(|i| answers[*i].2.has_focus);
    let last = LAST_FOCUS.with_borrow(|l| l.get(&tab).copied());
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
            None => (
                0,
                ToolResult::failed(ErrorKind::Unreachable, wording::page_unreachable()),
            ),
        },
    }
}

/// The tool with its number replaced by the frame's local one.
fn with_local_index(tool: PageTool, local: u32) -> PageTool {
    match tool {
        PageTool::OverlayAct { action, text, .. } => PageTool::OverlayAct {
            index: local,
            action,
            text,
        },
        PageTool::ActByIndex { action, text, .. } => PageTool::ActByIndex {
            index: local,
            action,
            text,
        },
        PageTool::Upload { paths, files, .. } => PageTool::Upload {
            index: local,
            paths,
            files,
        },
        PageTool::ClickAndWaitDownload { timeout_ms, .. } => PageTool::ClickAndWaitDownload {
            index: local,
            timeout_ms,
        },
        PageTool::Press { key, index: Some(_) } => PageTool::Press {
            key,
            index: Some(local),
        },
        other => other,
    }
}

/// The address the tab shows, as the browser reports it.
async fn tab_url(tab: i32) -> String {
    chrome::tabs_api("get", &[tab.into()])
        .await
        .ok()
        .and_then(|t| js_sys::Reflect::get(&t, &"url".into()).ok())
        .and_then(|u| u.as_string())
        .unwrap_or_default()
}

/// Every frame's banners and the button that would close each, pinned, for the gate to judge.
async fn find_banners(tab: i32) -> ToolResult {
    let frames = NUMBERINGS
        .with_borrow(|n| n.get(&tab).map(|n| n.frames.clone()))
        .unwrap_or_else(|| vec![0]);
    let mut banners = Vec::new();
    let mut reached = false;
    for frame in frames {
        let message = WorkerToContent::Tool {
            tool: PageTool::FindBanners,
            number: None,
            pin: None,
        };
        let answer = send(tab, frame, &message).await;
        let Some(found) = answer
            .data
            .and_then(|d| serde_json::from_value::<FrameBanners>(d).ok())
        else {
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
        return ToolResult::failed(ErrorKind::Unreachable, wording::page_unreachable());
    }
    ToolResult::ok(json!({ "banners": banners }))
}

/// Presses the banner buttons the gate allowed, each in its own frame and document.
async fn press_banners(tab: i32, pins: Vec<Pin>) -> ToolResult {
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
        let message = WorkerToContent::Tool {
            tool: PageTool::PressBanners { pins: mine },
            number: None,
            pin: None,
        };
        let answer = send(tab, frame, &message).await;
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

/// Whether a frame refused a tool because its number or its page changed under it.
fn is_stale(result: &ToolResult) -> bool {
    result.is(ErrorKind::Stale) || result.is(ErrorKind::PageChanged)
}

/// Controls whose name (or value) contains `text`, ignoring case, accents and spacing, and/or whose role
/// is `role`, from a renewed numbering. A secret field has no value in the list, so what was typed
/// there can never be found.
async fn find(
    tab: i32,
    text: Option<String>,
    role: Option<String>,
    limit: Option<u32>,
    offset: Option<u32>,
) -> ToolResult {
    let all = list(tab, u32::MAX, 0, false).await;
    let Some(Ok(mut list)) = all.data.clone().map(serde_json::from_value::<InteractiveList>) else {
        return all;
    };
    let wanted = text.as_deref().map(fold).filter(|t| !t.is_empty());
    let role = role.as_deref().map(fold).filter(|r| !r.is_empty());
    list.items.retain(|item| {
        let text_ok = wanted.as_ref().is_none_or(|w| {
            fold(&item.name).contains(w.as_str())
                || item
                    .value
                    .as_deref()
                    .is_some_and(|v| fold(v).contains(w.as_str()))
        });
        let role_ok = role.as_ref().is_none_or(|r| fold(&item.role) == *r);
        text_ok && role_ok
    });
    let offset = offset.unwrap_or(0);
    list.total = list.items.len() as u32;
    list.offset = offset;
    list.items = list
        .items
        .into_iter()
        .skip(offset as usize)
        .take(limit.unwrap_or(DEFAULT_LIMIT) as usize)
        .collect();
    match serde_json::to_value(&list) {
        Ok(data) => ToolResult::ok(data),
        Err(e) => ToolResult::error(format!("could not describe the matches: {e}")),
    }
}

/// Lower case, accents removed (NFD, combining marks dropped), spacing collapsed: "Café  Crème" → "cafe creme".
fn fold(text: &str) -> String {
    let decomposed: String = js_sys::JsString::from(text).normalize("NFD").into();
    decomposed
        .chars()
        .filter(|c| !('\u{300}'..='\u{36f}').contains(c))
        .collect::<String>()
        .to_lowercase()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The tabs of the focused window, numbered from 1.
async fn list_tabs() -> ToolResult {
    let tabs = match chrome::tabs_api("query", &[chrome::object(&[("lastFocusedWindow", true.into())])]).await
    {
        Ok(tabs) => tabs,
        Err(e) => return ToolResult::error(format!("could not list the tabs: {e}")),
    };
    let get = |tab: &wasm_bindgen::JsValue, key: &str| js_sys::Reflect::get(tab, &key.into()).ok();
    let items: Vec<_> = js_sys::Array::from(&tabs)
        .iter()
        .filter(|tab| {
            !get(tab, "url")
                .and_then(|u| u.as_string())
                .unwrap_or_default()
                .starts_with("chrome-extension://")
        })
        .enumerate()
        .map(|(i, tab)| {
            json!({
                "index": i + 1,
                "title": get(&tab, "title").and_then(|t| t.as_string()).unwrap_or_default(),
                "url": get(&tab, "url").and_then(|t| t.as_string()).unwrap_or_default(),
                "active": get(&tab, "active").and_then(|t| t.as_bool()).unwrap_or(false),
                "pinned": get(&tab, "pinned").and_then(|t| t.as_bool()).unwrap_or(false),
                "tab_id": get(&tab, "id").and_then(|t| t.as_f64()),
            })
        })
        .collect();
    ToolResult::ok(json!({"tabs": items}))
}

async fn switch_tab(index: u32) -> ToolResult {
    let listed = list_tabs().await;
    let tabs = listed
        .data
        .as_ref()
        .and_then(|d| d.get("tabs"))
        .and_then(|t| t.as_array())
        .cloned()
        .unwrap_or_default();
    let Some(tab) = (index as usize).checked_sub(1).and_then(|i| tabs.get(i)) else {
        return ToolResult::failed(
            ErrorKind::BadArguments,
            format!(
                "There is no tab {index}: there are {} tabs. Say /tabs to hear them.",
                tabs.len()
            ),
        );
    };
    let id = tab.get("tab_id").and_then(|i| i.as_f64()).unwrap_or_default();
    match chrome::tabs_api("update", &[id.into(), chrome::object(&[("active", true.into())])]).await {
        Ok(_) => ToolResult::ok(
            json!({"switched": true, "index": index, "title": tab.get("title"), "url": tab.get("url")}),
        ),
        Err(e) => ToolResult::error(format!("could not switch tabs: {e}")),
    }
}

/// Accepts what people type as an address: adds `https://` to a bare host; refuses script addresses.
fn address(url: &str) -> Result<String, String> {
    let url = url.trim();
    let lower = url.to_lowercase();
    if url.is_empty() {
        return Err("Say which address to open, like /go example.com.".into());
    }
    if lower.starts_with("javascript:") || lower.starts_with("data:") {
        return Err("Waymark does not open script or data addresses.".into());
    }
    if lower.contains("://") || lower.starts_with("about:") || lower.starts_with("chrome:") {
        return Ok(url.to_string());
    }
    Ok(format!("https://{url}"))
}

/// Starts a navigation with `chrome.tabs.<method>`, then waits for the tab to finish loading. The old
/// numbering is dropped: numbers never outlive their page.
async fn navigation(tab: i32, method: &str, args: &[wasm_bindgen::JsValue]) -> ToolResult {
    NUMBERINGS.with_borrow_mut(|n| n.remove(&tab));
    if let Err(e) = chrome::tabs_api(method, args).await {
        return ToolResult::error(format!(
            "could not {}: {e}",
            match method {
                "goBack" => "go back",
                "goForward" => "go forward",
                "reload" => "reload",
                _ => "open the address",
            }
        ));
    }
    // Give the browser a moment to start loading, then wait for "complete" (at most 15 s).
    let mut waited = 0;
    let mut status = String::new();
    let mut info = wasm_bindgen::JsValue::NULL;
    while waited < NAVIGATION_WAIT_MS {
        gloo_timers::future::TimeoutFuture::new(100).await;
        waited += 100;
        if let Ok(t) = chrome::tabs_api("get", &[tab.into()]).await {
            status = js_sys::Reflect::get(&t, &"status".into())
                .ok()
                .and_then(|s| s.as_string())
                .unwrap_or_default();
            info = t;
            if status == "complete" {
                break;
            }
        }
    }
    let get = |key: &str| {
        js_sys::Reflect::get(&info, &key.into())
            .ok()
            .and_then(|v| v.as_string())
            .unwrap_or_default()
    };
    ToolResult::ok(json!({"url": get("url"), "title": get("title"), "loaded": status == "complete"}))
}

/// Renumbers the whole tab and returns one page of the list.
async fn list(tab: i32, limit: u32, offset: u32, viewport: bool) -> ToolResult {
    let top = match scan(tab, 0, viewport).await {
        Ok(scan) => scan,
        Err(error) => return error,
    };
    let mut slots = Vec::new();
    let mut items = Vec::new();
    let mut frames = vec![0];
    let tree = frame_tree(tab).await;
    let placed = place_children(tab, 0, &top, &tree).await;
    // Depth-first through the frames, splicing each child's controls in where the frame stands;
    // `placed` says which child frame stands at each frame entry.
    let mut stack = vec![(0, top.entries.into_iter(), placed.into_iter())];
    while let Some((frame, next)) = stack
        .last_mut()
        .map(|(frame, entries, _)| (*frame, entries.next()))
    {
        match next {
            None => {
                stack.pop();
            }
            Some(ScanEntry::Control(mut item)) => {
                slots.push((frame, item.index));
                item.index = slots.len() as u32;
                items.push(item);
            }
            Some(ScanEntry::Frame(_)) => {
                let child = stack
                    .last_mut()
                    .and_then(|(_, _, placed)| placed.next())
                    .flatten();
                // A frame entry no child matched (not loaded yet, or a page where extensions may not
                // run) has no controls we can act on: skip it.
                let Some(frame_id) = child.filter(|_| stack.len() < MAX_FRAME_DEPTH) else {
                    continue;
                };
                if frames.contains(&frame_id) {
                    continue;
                }
                if let Ok(child) = scan(tab, frame_id, viewport).await {
                    let placed = place_children(tab, frame_id, &child, &tree).await;
                    frames.push(frame_id);
                    stack.push((frame_id, child.entries.into_iter(), placed.into_iter()));
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
    let page: Vec<_> = items
        .into_iter()
        .skip(offset as usize)
        .take(limit as usize)
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
        Err(e) => ToolResult::error(format!("could not describe the page: {e}")),
    }
}

/// The (frame, local number) behind a tab-wide number, or the refusal to give when there is none.
fn slot_of(tab: i32, index: u32) -> Result<(i32, u32), ToolResult> {
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

/// Runs a reading tool on the element behind a tab-wide number, in its frame, with its local number.
async fn by_number(tab: i32, index: u32, tool: impl Fn(u32) -> PageTool) -> ToolResult {
    let (frame, local) = match slot_of(tab, index) {
        Ok(slot) => slot,
        Err(refusal) => return refusal,
    };
    let result = send(
        tab,
        frame,
        &WorkerToContent::Tool {
            tool: tool(local),
            number: Some(index),
            pin: None,
        },
    )
    .await;
    if is_stale(&result) {
        let what = result.error.unwrap_or_default();
        return stale(tab, index, what).await;
    }
    result
}

/// The page changed under a number: renew the numbering and answer with the fresh list.
async fn stale(tab: i32, index: u32, what: String) -> ToolResult {
    let fresh = list(tab, DEFAULT_LIMIT, 0, false).await;
    ToolResult::failed(ErrorKind::Stale, wording::stale(index, &what)).with_data(fresh.data)
}

async fn scan(tab: i32, frame: i32, viewport: bool) -> Result<FrameScan, ToolResult> {
    let result = send(tab, frame, &WorkerToContent::Scan { viewport }).await;
    if result.status == ToolStatus::Error {
        return Err(result);
    }
    result
        .data
        .and_then(|d| serde_json::from_value::<FrameScan>(d).ok())
        .ok_or_else(|| ToolResult::error("the page answered something unreadable"))
}

/// Sends one message to one frame's content script and returns its answer.
async fn send(tab: i32, frame: i32, message: &WorkerToContent) -> ToolResult {
    match chrome::send_to_frame(tab, frame, &chrome::to_js(message)).await {
        Ok(answer) if answer.is_undefined() => {
            ToolResult::failed(ErrorKind::Unreachable, wording::page_unreachable())
        }
        Ok(answer) => chrome::from_js::<ToolResult>(answer)
            .unwrap_or_else(|e| ToolResult::error(format!("the page answered something unreadable: {e}"))),
        Err(e) => {
            chrome::log(&format!("tab {tab} frame {frame} unreachable: {e}"));
            ToolResult::failed(ErrorKind::Unreachable, wording::page_unreachable())
        }
    }
}

/// How long the download tools wait when the caller does not say.
const DOWNLOAD_WAIT_MS: u32 = 30_000;
/// How often a waiting download tool looks at the download again.
const DOWNLOAD_POLL_MS: u32 = 150;
/// Time for the page to paint freshly drawn badges before the picture is taken.
const PAINT_WAIT_MS: u32 = 120;
/// JPEG at this quality keeps a full screen near 100 KB, still sharp enough to read the badges.
const SCREENSHOT_QUALITY: u32 = 70;

/// A picture of the tab as it is on screen, with the numbered badges drawn (numbering the page first
/// if it has no numbers yet). The browser can only picture the tab its window shows.
async fn screenshot(tab: i32) -> ToolResult {
    let info = match chrome::tabs_api("get", &[tab.into()]).await {
        Ok(info) => info,
        Err(e) => return ToolResult::error(format!("Could not find the tab to take a picture of: {e}")),
    };
    let get = |key: &str| js_sys::Reflect::get(&info, &key.into()).ok();
    if get("active").and_then(|a| a.as_bool()) != Some(true) {
        return ToolResult::error(
            "This tab is not the one its window shows, so the browser cannot take a picture of it: \
             bring it to the front first (browser_switch_tab), then ask again.",
        );
    }
    let Some(window) = get("windowId").and_then(|w| w.as_f64()) else {
        return ToolResult::error("Could not tell which window shows the tab.");
    };
    // No numbers yet: number the page, which draws the badges.
    if NUMBERINGS.with_borrow(|n| !n.contains_key(&tab)) {
        let _ = list(tab, DEFAULT_LIMIT, 0, false).await;
    }
    // Every frame of the page that can hold the site's fields, numbered or not, draws its badges again
    // (the page may have moved since) and covers its secret fields. A frame that does not confirm its
    // masks could show a password or a card number in the picture: then no picture is taken.
    let frames = match chrome::tab_frames(tab).await {
        Ok(frames) => frames
            .into_iter()
            .filter(|f| f.frame == 0 || holds_page_fields(&f.url))
            .map(|f| f.frame)
            .collect(),
        Err(_) => NUMBERINGS
            .with_borrow(|n| n.get(&tab).map(|n| n.frames.clone()))
            .unwrap_or_else(|| vec![0]),
    };
    for frame in frames {
        let covered = send(
            tab,
            frame,
            &WorkerToContent::Tool {
                tool: PageTool::Screenshot,
                number: None,
                pin: None,
            },
        )
        .await;
        if covered.status == ToolStatus::Error {
            return ToolResult::error(wording::picture_not_taken());
        }
    }
    gloo_timers::future::TimeoutFuture::new(PAINT_WAIT_MS).await;
    let options = chrome::object(&[("format", "jpeg".into()), ("quality", SCREENSHOT_QUALITY.into())]);
    let url = match chrome::tabs_api("captureVisibleTab", &[window.into(), options]).await {
        Ok(url) => url.as_string().unwrap_or_default(),
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

/// Notes the downloads the browser starts while it lives (`chrome.downloads.onCreated`), from before a
/// click, so a download the click starts at once is not missed.
struct DownloadWatch {
    started: std::rc::Rc<RefCell<Vec<f64>>>,
    event: chrome::ChromeEvent,
    listener: wasm_bindgen::closure::Closure<dyn FnMut(wasm_bindgen::JsValue)>,
}

impl DownloadWatch {
    fn start() -> Result<Self, String> {
        let event = chrome::downloads_event("onCreated")?;
        let started = std::rc::Rc::new(RefCell::new(Vec::new()));
        let listener = {
            let started = started.clone();
            wasm_bindgen::closure::Closure::<dyn FnMut(wasm_bindgen::JsValue)>::new(
                move |item: wasm_bindgen::JsValue| {
                    if let Some(id) = js_sys::Reflect::get(&item, &"id".into())
                        .ok()
                        .and_then(|i| i.as_f64())
                    {
                        started.borrow_mut().push(id);
                    }
                },
            )
        };
        event.add_listener(wasm_bindgen::JsCast::unchecked_ref(listener.as_ref()));
        Ok(Self {
            started,
            event,
            listener,
        })
    }

    /// The first download that started since the watch began.
    fn first(&self) -> Option<f64> {
        self.started.borrow().first().copied()
    }
}

impl Drop for DownloadWatch {
    fn drop(&mut self) {
        self.event
            .remove_listener(wasm_bindgen::JsCast::unchecked_ref(self.listener.as_ref()));
    }
}

/// "30 seconds", "1 second", "1.5 seconds".
fn seconds(ms: u32) -> String {
    match ms {
        1_000 => "1 second".into(),
        ms if ms % 1_000 == 0 => format!("{} seconds", ms / 1_000),
        ms => format!("{:.1} seconds", f64::from(ms) / 1_000.0),
    }
}

/// Clicks number `index` (pinned to the approved element like any click) and waits for the download it
/// starts to finish.
async fn click_and_wait_download(tab: i32, index: u32, timeout_ms: Option<u32>, pin: &Pin) -> ToolResult {
    let timeout = timeout_ms.unwrap_or(DOWNLOAD_WAIT_MS);
    // Listening starts before the click: a download can begin before the click returns.
    let watch = match DownloadWatch::start() {
        Ok(watch) => watch,
        Err(why) => return ToolResult::error(format!("Could not watch for downloads: {why}.")),
    };
    let began = chrome::now_ms();
    let click = PageTool::OverlayAct {
        index,
        action: waymark_protocol::ActKind::Click,
        text: None,
    };
    let clicked = Box::pin(run_pinned(tab, click, pin.clone())).await;
    if clicked.status == ToolStatus::Error {
        return clicked;
    }
    let Some(id) = first_download(&watch, began, timeout).await else {
        return ToolResult::failed(
            ErrorKind::TimedOut,
            format!(
                "No download started within {} after clicking {index}.",
                seconds(timeout)
            ),
        );
    };
    drop(watch);
    finish_download(id, began, timeout).await
}

/// Waits for the download in progress (the latest, if several are) or, if none is, for the next one
/// to start; then for it to finish.
async fn download_wait(timeout_ms: Option<u32>) -> ToolResult {
    let timeout = timeout_ms.unwrap_or(DOWNLOAD_WAIT_MS);
    let watch = match DownloadWatch::start() {
        Ok(watch) => watch,
        Err(why) => return ToolResult::error(format!("Could not watch for downloads: {why}.")),
    };
    let began = chrome::now_ms();
    let query = chrome::object(&[
        ("state", "in_progress".into()),
        ("orderBy", js_sys::Array::of1(&"-startTime".into()).into()),
        ("limit", 1.into()),
    ]);
    let running = chrome::downloads_api("search", &[query])
        .await
        .ok()
        .map(|found| js_sys::Array::from(&found))
        .and_then(|found| js_sys::Reflect::get(&found.get(0), &"id".into()).ok())
        .and_then(|id| id.as_f64());
    let id = match running {
        Some(id) => id,
        None => match first_download(&watch, began, timeout).await {
            Some(id) => id,
            None => {
                return ToolResult::failed(
                    ErrorKind::TimedOut,
                    format!(
                        "No download is going on, and none started within {}.",
                        seconds(timeout)
                    ),
                )
            }
        },
    };
    drop(watch);
    finish_download(id, began, timeout).await
}

/// The first download noted by `watch`, waiting until `timeout` ms after `began`.
async fn first_download(watch: &DownloadWatch, began: f64, timeout: u32) -> Option<f64> {
    loop {
        if let Some(id) = watch.first() {
            return Some(id);
        }
        if chrome::now_ms() - began >= f64::from(timeout) {
            return None;
        }
        gloo_timers::future::TimeoutFuture::new(DOWNLOAD_POLL_MS).await;
    }
}

/// Follows download `id` until it completes or is interrupted (at most until `timeout` ms after
/// `began`), and says what became of it.
async fn finish_download(id: f64, began: f64, timeout: u32) -> ToolResult {
    let mut last = None;
    loop {
        let query = chrome::object(&[("id", id.into())]);
        if let Ok(found) = chrome::downloads_api("search", &[query]).await {
            let item = js_sys::Array::from(&found).get(0);
            if item.is_object() {
                last = Some(download_of(&item));
            }
        }
        match &last {
            Some(download) if download.state == "complete" => {
                return match serde_json::to_value(download) {
                    Ok(data) => ToolResult::ok(data),
                    Err(e) => ToolResult::error(format!("could not describe the download: {e}")),
                }
            }
            Some(download) if download.state == "interrupted" => {
                return ToolResult {
                    data: serde_json::to_value(download).ok(),
                    ..ToolResult::error(format!(
                        "The download of {} stopped: {}.",
                        bare_name(&download.filename, &download.url),
                        download.error.as_deref().unwrap_or("the browser gave no reason")
                    ))
                }
            }
            _ => {}
        }
        if chrome::now_ms() - began >= f64::from(timeout) {
            let name = last
                .as_ref()
                .map(|d| bare_name(&d.filename, &d.url))
                .unwrap_or_else(|| "the file".into());
            return ToolResult::failed(
                ErrorKind::TimedOut,
                format!(
                    "The download of {name} did not finish within {}; it goes on in the browser: wait \
                 for it with browser_download_wait.",
                    seconds(timeout)
                ),
            );
        }
        gloo_timers::future::TimeoutFuture::new(DOWNLOAD_POLL_MS).await;
    }
}

/// A `chrome.downloads.DownloadItem` as the protocol's [`waymark_protocol::Download`].
fn download_of(item: &wasm_bindgen::JsValue) -> waymark_protocol::Download {
    let get = |key: &str| js_sys::Reflect::get(item, &key.into()).ok();
    let text = |key: &str| get(key).and_then(|v| v.as_string()).unwrap_or_default();
    let number = |key: &str| get(key).and_then(|v| v.as_f64()).unwrap_or(-1.0);
    let url = match text("finalUrl") {
        u if u.is_empty() => text("url"),
        u => u,
    };
    // `fileSize` is -1 when the server did not say; what arrived is then the size.
    let bytes = match (number("fileSize"), number("bytesReceived")) {
        (size, _) if size >= 0.0 => size,
        (_, received) => received.max(0.0),
    };
    let error = get("error")
        .and_then(|e| e.as_string())
        .map(|reason| reason.to_lowercase().replace('_', " "));
    waymark_protocol::Download {
        filename: text("filename"),
        url,
        mime: text("mime"),
        bytes: bytes as u64,
        state: text("state"),
        error,
    }
}

/// The file's name without its folders, or the last part of its address before it has one.
fn bare_name(filename: &str, url: &str) -> String {
    let from_path = filename.rsplit(['/', '\\']).next().unwrap_or_default();
    if !from_path.is_empty() {
        return from_path.to_owned();
    }
    url.split(['?', '#'])
        .next()
        .and_then(|u| u.rsplit('/').next())
        .filter(|n| !n.is_empty())
        .unwrap_or("the file")
        .to_owned()
}

// ---------------------------------------------------------------------------------------------------
// Moving the keyboard focus by number, and closing banners: tab-wide tools that ask every frame.

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

/// `focus_next` / `focus_prev`: the numbered control after (before) the one with the focus, of `role` if
/// given, across the tab's frames; numbers the tab first when it has no numbering.
async fn move_focus(tab: i32, role: Option<String>, forward: bool) -> ToolResult {
    let wanted = role.as_deref().map(fold).filter(|r| !r.is_empty());
    for attempt in 0..2 {
        let numbered = NUMBERINGS.with_borrow(|n| n.contains_key(&tab));
        if attempt > 0 || !numbered {
            let listed = list(tab, DEFAULT_LIMIT, 0, false).await;
            if listed.status == ToolStatus::Error {
                return listed;
            }
        }
        let Some((slots, frames)) =
            NUMBERINGS.with_borrow(|n| n.get(&tab).map(|n| (n.slots.clone(), n.frames.clone())))
        else {
            return ToolResult::failed(ErrorKind::Stale, wording::no_numbers_yet());
        };
        let mut states: HashMap<i32, FrameFocus> = HashMap::new();
        for frame in frames {
            let query = WorkerToContent::Tool {
                tool: PageTool::FocusNext { role: None },
                number: None,
                pin: None,
            };
            let answer = send(tab, frame, &query).await;
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
        let remembered = LAST_FOCUS.with_borrow(|l| l.get(&tab).copied());
        let current = current_focus(&holders, remembered);
        let fits = |i: &usize| {
            wanted
                .as_ref()
                .is_none_or(|w| slots.get(*i).is_some_and(|slot| fold(role_of(slot)) == *w))
        };
        let next = if forward {
            (current.map_or(0, |c| c + 1)..slots.len()).find(fits)
        } else {
            (0..current.unwrap_or(slots.len())).rev().find(fits)
        };
        let Some(next) = next else {
            return ToolResult::ok(json!({"at_end": true, "total": slots.len()}));
        };
        let Some(&(frame, local)) = slots.get(next) else {
            continue;
        };
        let number = next as u32 + 1;
        let moved = send(
            tab,
            frame,
            &WorkerToContent::Tool {
                tool: PageTool::FocusNext { role: None },
                number: Some(local),
                pin: None,
            },
        )
        .await;
        let stale = is_stale(&moved);
        if moved.status == ToolStatus::Error && stale && attempt == 0 {
            // The page changed under the numbering: renumber and look again.
            continue;
        }
        if moved.status == ToolStatus::Error {
            return moved;
        }
        let data = moved.data.unwrap_or_default();
        LAST_FOCUS.with_borrow_mut(|l| l.insert(tab, number));
        return ToolResult::ok(json!({
            "index": number,
            "role": data.get("role"),
            "name": data.get("name"),
        }));
    }
    ToolResult::failed(ErrorKind::Unreachable, wording::page_unreachable())
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
mod focus_tests {
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
