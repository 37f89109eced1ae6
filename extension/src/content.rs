//! The page side of Waymark, loaded into every frame of every page by `content.js`: it finds the
//! interactive elements, numbers them, draws the numbered overlay, and answers page tools sent by the
//! service worker.
//!
//! It must stay cheap: it runs on every page. Nothing is computed until a tool asks, and nothing is
//! written into the page's own DOM except the one overlay host element. Stable element ids live here
//! (a `WeakMap` from element to id), never in page attributes, so pages cannot read or forge them.
//!
//! Detection and naming are in `detect.rs`; drawing in `overlay.rs`.

use std::cell::RefCell;

use serde_json::json;
use wasm_bindgen::prelude::*;
use waymark_protocol::{ActKind, InteractiveList, PageTool, ToolResult, WorkerToContent};

use crate::act;
use crate::chrome;
use crate::detect::{self, Found};
use crate::overlay::Overlay;

const DEFAULT_LIMIT: u32 = 50;

/// What this frame knows between tool calls.
struct Frame {
    /// The latest numbering: `numbered[i]` carries overlay number `i + 1`, with the element's stable id.
    numbered: Vec<(u64, Found)>,
    /// Element → stable id, for as long as the element exists (a `WeakMap`, so ids never keep elements
    /// alive and are never visible to the page).
    ids: Option<js_sys::WeakMap>,
    next_id: u64,
    overlay: Option<Overlay>,
    overlay_wanted: bool,
}

thread_local! {
    static FRAME: RefCell<Frame> = const {
        RefCell::new(Frame { numbered: Vec::new(), ids: None, next_id: 1, overlay: None, overlay_wanted: true })
    };
}

/// Entry point, called by `content.js` once the module is instantiated in this frame.
#[wasm_bindgen]
pub fn start_content() {
    let listener = Closure::<dyn FnMut(JsValue, JsValue, js_sys::Function) -> JsValue>::new(
        |message: JsValue, _sender: JsValue, send_response: js_sys::Function| {
            let Ok(WorkerToContent::Tool { tool }) = chrome::from_js::<WorkerToContent>(message) else {
                // Not ours (another part of the extension may message the tab later): no answer.
                return JsValue::FALSE;
            };
            let result = run(tool);
            let _ = send_response.call1(&JsValue::NULL, &chrome::to_js(&result));
            JsValue::FALSE
        },
    );
    chrome::on_runtime_message(listener.as_ref().unchecked_ref());
    // The listener lives as long as the frame.
    listener.forget();
}

/// Runs one tool in this frame.
fn run(tool: PageTool) -> ToolResult {
    match tool {
        PageTool::ListInteractives { limit, offset } => {
            list(limit.unwrap_or(DEFAULT_LIMIT), offset.unwrap_or(0))
        }
        PageTool::OverlayShow => {
            FRAME.with_borrow_mut(|f| f.overlay_wanted = true);
            redraw();
            ToolResult::ok(serde_json::json!({"overlay": "shown"}))
        }
        PageTool::OverlayHide => {
            FRAME.with_borrow_mut(|f| {
                f.overlay_wanted = false;
                if let Some(o) = &f.overlay {
                    o.clear();
                }
            });
            ToolResult::ok(serde_json::json!({"overlay": "hidden"}))
        }
        PageTool::Describe { index } => match numbered(index, None) {
            Ok((id, found)) => match serde_json::to_value(found.info(index, id, url())) {
                Ok(data) => ToolResult::ok(data),
                Err(e) => ToolResult::error(format!("could not describe the element: {e}")),
            },
            Err(stale) => stale,
        },
        PageTool::OverlayAct {
            index,
            action,
            text,
            expect,
        } => {
            let (_, found) = match numbered(index, expect) {
                Ok(hit) => hit,
                Err(stale) => return stale,
            };
            let text = text.unwrap_or_default();
            let done = match action {
                ActKind::Click => act::click(&found.element).map(|()| json!({})),
                ActKind::Type => {
                    act::type_text(&found.element, &text).map(|()| json!({"typed": text.chars().count()}))
                }
                ActKind::Select => act::select(&found.element, &text).map(|label| json!({"selected": label})),
            };
            redraw();
            match done {
                Ok(mut data) => {
                    data["done"] = json!(action.verb());
                    data["index"] = json!(index);
                    data["role"] = json!(found.role());
                    data["name"] = json!(found.name());
                    ToolResult::ok(data)
                }
                Err(why) => ToolResult::error(format!("Could not {} number {index}: {why}.", action.verb())),
            }
        }
    }
}

fn url() -> String {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.url().ok())
        .unwrap_or_default()
}

/// The element behind a number, if it is still the one that was numbered (and, with `expect`, the one
/// that was approved). Otherwise an error result carrying the fresh list, so nobody acts on a
/// different element than the one they meant.
fn numbered(index: u32, expect: Option<u64>) -> Result<(u64, Found), ToolResult> {
    let hit = FRAME.with_borrow(|f| {
        let total = f.numbered.len();
        let slot = (index as usize).checked_sub(1).and_then(|i| f.numbered.get(i));
        slot.map(|(id, found)| (*id, found.clone())).ok_or(total)
    });
    let (id, found) = match hit {
        Ok(hit) => hit,
        Err(0) => {
            return Err(ToolResult::error(
                "There are no numbers yet on this page: say /list first.",
            ))
        }
        Err(total) => {
            return Err(ToolResult::error(format!(
            "There is no number {index}: the list goes from 1 to {total}. Say /list for the current numbers."
        )))
        }
    };
    let gone = !found.element.is_connected();
    let moved = expect.is_some_and(|e| e != id);
    let renamed = !gone && found.current_name() != found.name();
    if gone || moved || renamed {
        let what = if gone {
            "is no longer on the page"
        } else {
            "now shows something else"
        };
        let message = format!(
            "Number {index} ({} \"{}\") {what}: the page changed, so the numbers were renewed. Nothing was done.",
            found.role(),
            found.name()
        );
        let fresh = list(DEFAULT_LIMIT, 0);
        return Err(ToolResult {
            status: waymark_protocol::ToolStatus::Error,
            error: Some(message),
            data: fresh.data,
        });
    }
    Ok((id, found))
}

/// Renews the numbering of the whole frame and returns one page of it.
fn list(limit: u32, offset: u32) -> ToolResult {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return ToolResult::error("this frame has no document");
    };
    let found: Vec<(u64, Found)> = detect::interactives(&document)
        .into_iter()
        .map(|f| (stable_id(&f), f))
        .collect();
    let items: Vec<_> = found
        .iter()
        .enumerate()
        .skip(offset as usize)
        .take(limit as usize)
        .map(|(i, (_, f))| f.describe(i as u32 + 1))
        .collect();
    let list = InteractiveList {
        url: document.url().unwrap_or_default(),
        title: document.title(),
        total: found.len() as u32,
        offset,
        items,
    };
    FRAME.with_borrow_mut(|f| f.numbered = found);
    redraw();
    match serde_json::to_value(&list) {
        Ok(data) => ToolResult::ok(data),
        Err(e) => ToolResult::error(format!("could not describe the page: {e}")),
    }
}

/// The element's id, assigned the first time it is seen.
fn stable_id(found: &Found) -> u64 {
    FRAME.with_borrow_mut(|f| {
        let ids = f.ids.get_or_insert_with(js_sys::WeakMap::new);
        if let Some(id) = ids.get(&found.element).as_f64() {
            return id as u64;
        }
        let id = f.next_id;
        f.next_id += 1;
        ids.set(&found.element, &JsValue::from(id as f64));
        id
    })
}

/// Draws the badges of the current numbering, if the overlay is wanted.
fn redraw() {
    FRAME.with_borrow_mut(|f| {
        if !f.overlay_wanted {
            return;
        }
        if f.overlay.is_none() {
            f.overlay = Overlay::create(redraw).ok();
        }
        if let Some(overlay) = &f.overlay {
            overlay.draw(f.numbered.iter().map(|(_, found)| &found.element));
        }
    });
}
