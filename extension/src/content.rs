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

use wasm_bindgen::prelude::*;
use waymark_protocol::{InteractiveList, PageTool, ToolResult, WorkerToContent};

use crate::chrome;
use crate::detect::{self, Found};
use crate::overlay::Overlay;

const DEFAULT_LIMIT: u32 = 50;

/// What this frame knows between tool calls.
struct Frame {
    /// The latest numbering: `numbered[i]` carries overlay number `i + 1`.
    numbered: Vec<Found>,
    overlay: Option<Overlay>,
    overlay_wanted: bool,
}

thread_local! {
    static FRAME: RefCell<Frame> = const {
        RefCell::new(Frame { numbered: Vec::new(), overlay: None, overlay_wanted: true })
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
    }
}

/// Renews the numbering of the whole frame and returns one page of it.
fn list(limit: u32, offset: u32) -> ToolResult {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return ToolResult::error("this frame has no document");
    };
    let found = detect::interactives(&document);
    let items: Vec<_> = found
        .iter()
        .enumerate()
        .skip(offset as usize)
        .take(limit as usize)
        .map(|(i, f)| f.describe(i as u32 + 1))
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
            overlay.draw(f.numbered.iter().map(|found| &found.element));
        }
    });
}
