//! The service worker's side of page tools: one numbering for a whole tab across all its frames.
//!
//! Listing scans the top frame, then every child frame where it stands in its parent's document
//! (same-origin, `srcdoc` and cross-origin alike: each frame has its own content script), numbers the
//! controls in that order, and tells each frame the numbers of its elements for the badges. The map
//! from tab-wide numbers to (frame, local number) is kept per tab; every tool by number is translated
//! through it, and element ids are made tab-wide as `frame << 32 | local id`.
//!
//! This module does not judge tools: the worker only lets page-changing ones through from the host.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};

use serde_json::json;
use waymark_protocol::{
    FrameScan, InteractiveList, ListScope, PageTool, ScanEntry, ToolResult, ToolStatus, WorkerToContent,
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

/// How long to wait for a child frame to answer its parent's probe.
const PROBE_WAIT_MS: u32 = 600;
const PROBE_POLL_MS: u32 = 15;

thread_local! {
    static NUMBERINGS: RefCell<HashMap<i32, Numbering>> = RefCell::new(HashMap::new());
    /// Probe token → (tab, frame id), from child frames' answers.
    static PROBES: RefCell<HashMap<String, (i32, i32)>> = RefCell::new(HashMap::new());
}

/// A child frame reported its parent's probe: remember which frame it is.
pub fn probe_answered(probe: String, sender: &wasm_bindgen::JsValue) {
    let get = |target: &wasm_bindgen::JsValue, key: &str| js_sys::Reflect::get(target, &key.into()).ok();
    let frame = get(sender, "frameId").and_then(|f| f.as_f64());
    let tab = get(sender, "tab")
        .and_then(|t| get(&t, "id"))
        .and_then(|id| id.as_f64());
    if let (Some(tab), Some(frame)) = (tab, frame) {
        PROBES.with_borrow_mut(|p| {
            // Unclaimed probes (a frame that answered too late) must not pile up.
            if p.len() > 1000 {
                p.clear();
            }
            p.insert(probe, (tab as i32, frame as i32));
        });
    }
}

/// Waits briefly for the frame that holds `probe` to identify itself.
async fn frame_of(tab: i32, probe: &str) -> Option<i32> {
    let mut waited = 0;
    loop {
        let found = PROBES.with_borrow_mut(|p| p.remove(probe));
        if let Some((probe_tab, frame)) = found {
            return (probe_tab == tab).then_some(frame);
        }
        if waited >= PROBE_WAIT_MS {
            return None;
        }
        gloo_timers::future::TimeoutFuture::new(PROBE_POLL_MS).await;
        waited += PROBE_POLL_MS;
    }
}

/// Runs a page tool in a tab (the active tab of the focused window when `tab_id` is `None`).
pub async fn run(tab_id: Option<i32>, tool: PageTool) -> ToolResult {
    let tab = match tab_id {
        Some(id) => id,
        None => match chrome::active_tab_id().await {
            Some(id) => id,
            None => return ToolResult::error(wording::no_tab()),
        },
    };
    match tool {
        PageTool::ListInteractives { limit, offset, scope } => {
            let viewport = scope == Some(ListScope::Viewport);
            list(tab, limit.unwrap_or(DEFAULT_LIMIT), offset.unwrap_or(0), viewport).await
        }
        PageTool::OverlayShow | PageTool::OverlayHide => {
            let frames = NUMBERINGS
                .with_borrow(|n| n.get(&tab).map(|n| n.frames.clone()))
                .unwrap_or_else(|| vec![0]);
            let mut answer = ToolResult::error(wording::page_unreachable());
            for frame in frames {
                let result = send(
                    tab,
                    frame,
                    &WorkerToContent::Tool {
                        tool: tool.clone(),
                        number: None,
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
                },
            )
            .await
        }
        PageTool::Scroll {
            direction,
            index: Some(index),
        } => {
            by_number(tab, index, None, |local| PageTool::Scroll {
                direction,
                index: Some(local),
            })
            .await
        }
        PageTool::Press {
            key,
            index: Some(index),
        } => {
            by_number(tab, index, None, |local| PageTool::Press {
                key: key.clone(),
                index: Some(local),
            })
            .await
        }
        PageTool::Press { key, index: None } => {
            // Where the focus is: the focused frame is not known here, so the top frame's focus.
            send(
                tab,
                0,
                &WorkerToContent::Tool {
                    tool: PageTool::Press { key, index: None },
                    number: None,
                },
            )
            .await
        }
        PageTool::ListTabs => list_tabs().await,
        PageTool::SwitchTab { index } => switch_tab(index).await,
        PageTool::Navigate { url } => match address(&url) {
            Ok(url) => {
                navigation(
                    tab,
                    "update",
                    &[tab.into(), chrome::object(&[("url", url.into())])],
                )
                .await
            }
            Err(why) => ToolResult::error(why),
        },
        PageTool::Back => navigation(tab, "goBack", &[tab.into()]).await,
        PageTool::Forward => navigation(tab, "goForward", &[tab.into()]).await,
        PageTool::Reload => navigation(tab, "reload", &[tab.into()]).await,
        PageTool::OpenInNewTab { url } => match address(&url) {
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
            Err(why) => ToolResult::error(why),
        },
        PageTool::Describe { index } => {
            by_number(tab, index, None, |local| PageTool::Describe { index: local }).await
        }
        PageTool::OverlayAct {
            index,
            action,
            text,
            expect,
        } => {
            by_number(tab, index, expect, move |local| PageTool::OverlayAct {
                index: local,
                action,
                text: text.clone(),
                expect: None,
            })
            .await
        }
    }
}

/// Controls whose name (or value) contains `text`, ignoring case, accents and spacing, and/or whose role
/// is `role`, from a renewed numbering.
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
        return ToolResult::error(format!(
            "There is no tab {index}: there are {} tabs. Say /tabs to hear them.",
            tabs.len()
        ));
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
    // Depth-first through the frames, splicing each child's controls in where the frame stands.
    let mut stack = vec![(0, top.entries.into_iter())];
    while let Some((frame, next)) = stack.last_mut().map(|(frame, entries)| (*frame, entries.next())) {
        match next {
            None => {
                stack.pop();
            }
            Some(ScanEntry::Control(mut item)) => {
                slots.push((frame, item.index));
                item.index = slots.len() as u32;
                items.push(item);
            }
            Some(ScanEntry::Frame { probe }) => {
                if stack.len() >= MAX_FRAME_DEPTH {
                    continue;
                }
                // A frame that never answers (still loading, or a page where extensions may not run)
                // has no controls we can act on: skip it.
                let Some(frame_id) = frame_of(tab, &probe).await else {
                    continue;
                };
                if frames.contains(&frame_id) {
                    continue;
                }
                // A frame without our content script (a browser page, a blocked scheme) has no controls
                // we can act on: skip it.
                if let Ok(child) = scan(tab, frame_id, viewport).await {
                    frames.push(frame_id);
                    stack.push((frame_id, child.entries.into_iter()));
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

/// Runs a tool on the element behind a tab-wide number, in its frame, with its local number.
async fn by_number(tab: i32, index: u32, expect: Option<u64>, tool: impl Fn(u32) -> PageTool) -> ToolResult {
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
    let (frame, local) = match lookup {
        None | Some((None, 0)) => return ToolResult::error(wording::no_numbers_yet()),
        Some((None, total)) => return ToolResult::error(wording::no_such_number(index, total)),
        Some((Some(slot), _)) => slot,
    };
    let mut tool = tool(local);
    if let Some(expected) = expect {
        if (expected >> 32) as i32 != frame {
            return stale(tab, index, "now shows something else".into()).await;
        }
        if let PageTool::OverlayAct { expect, .. } = &mut tool {
            *expect = Some(expected & 0xffff_ffff);
        }
    }
    let describe = matches!(tool, PageTool::Describe { .. });
    let mut result = send(
        tab,
        frame,
        &WorkerToContent::Tool {
            tool,
            number: Some(index),
        },
    )
    .await;
    let is_stale = result
        .data
        .as_ref()
        .and_then(|d| d.get("stale"))
        .and_then(|s| s.as_bool())
        == Some(true);
    if result.status == ToolStatus::Error && is_stale {
        let what = result.error.unwrap_or_default();
        return stale(tab, index, what).await;
    }
    if let (true, Some(data)) = (describe && result.status == ToolStatus::Ok, result.data.as_mut()) {
        let local_id = data.get("id").and_then(|id| id.as_u64()).unwrap_or_default();
        data["id"] = json!(((frame as u64) << 32) | local_id);
        data["index"] = json!(index);
    }
    result
}

/// The page changed under a number: renew the numbering and answer with the fresh list.
async fn stale(tab: i32, index: u32, what: String) -> ToolResult {
    let fresh = list(tab, DEFAULT_LIMIT, 0, false).await;
    ToolResult {
        status: ToolStatus::Error,
        error: Some(wording::stale(index, &what)),
        data: fresh.data,
    }
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
        Ok(answer) if answer.is_undefined() => ToolResult::error(wording::page_unreachable()),
        Ok(answer) => chrome::from_js::<ToolResult>(answer)
            .unwrap_or_else(|e| ToolResult::error(format!("the page answered something unreadable: {e}"))),
        Err(e) => {
            chrome::log(&format!("tab {tab} frame {frame} unreachable: {e}"));
            ToolResult::error(wording::page_unreachable())
        }
    }
}
