//! The page side of Waymark, put by the service worker (through `content.js`) into every frame of a tab
//! Waymark is used in (`tabs/in_use.rs`), never into pages it is not used in: it finds the frame's
//! interactive elements, keeps their local numbering, draws the badges with the tab-wide numbers the
//! service worker assigns, and acts on elements by local number.
//!
//! It must stay cheap: it runs in every frame of every page of a tab in use. Nothing is computed until
//! the worker asks, it answers only once its document is parsed (as a script declared for
//! `document_idle` would start), and nothing is written into the page's own DOM except the overlay
//! host while numbers are shown. Stable element ids live here
//! (a `WeakMap` from element to id), never in page attributes, so pages cannot read or forge them.
//!
//! Here: the frame's state, the routing of the worker's messages (each answered, with a failure when
//! something throws while answering it), the numbering and the checks on it (stale numbers, the gate's
//! pin). The rooms: `preview.rs` (what an action would do, for the gate), `actions.rs` (acting on
//! numbered elements, moving the focus), `banners.rs` (the frame's half of closing banners),
//! `guard.rs` (the frame's half of the request guard: forms kept back while a guarded action lands),
//! `upload.rs` (files into a file input). Detection and naming are in `detect/`, acting in `act/`,
//! drawing in `overlay/`; the tab-wide numbering across frames is the worker's (`tabs/`).
//!
//! Must not: act on a page-changing tool without the gate's pin for this document, act on an element
//! other than the one a number or pin names, or talk to the host (only the worker does).

mod actions;
mod banners;
mod changes;
mod guard;
mod lists;
mod preview;
mod upload;
mod whole;

use std::cell::RefCell;

use serde_json::json;
use wasm_bindgen::prelude::*;
use waymark_protocol::tools::WAIT_DEFAULT_MS;
use waymark_protocol::{
    ErrorKind, FramePin, FrameScan, PageReason, PageTool, ScanEntry, ToolResult, ToolStatus, WorkerToContent,
};

use crate::act;
use crate::chrome;
use crate::detect::{self, Entry, Found};
use crate::overlay::Overlay;
use crate::page;
use actions::{act_on, focus, Way};
use banners::{find_banners, press_banners};
use preview::{focused_control, preview};
use upload::upload;

/// What this frame knows between calls.
struct Frame {
    /// The latest local numbering: `numbered[i]` is local number `i + 1`, with its stable id.
    numbered: Vec<(u64, Found)>,
    /// The same elements in order, as one array for the browser's bulk calls (the overlay, the check
    /// that they are all still there).
    elements: js_sys::Array,
    /// Counts the numberings: the overlay knows by it when it has a new one to watch.
    generation: u64,
    /// The tab-wide number of each numbered element, as drawn on its badge.
    badges: Vec<u32>,
    /// Element → stable id, for as long as the element exists (a `WeakMap`, so ids never keep elements
    /// alive and are never visible to the page).
    ids: Option<js_sys::WeakMap>,
    next_id: u64,
    overlay: Option<Overlay>,
    overlay_wanted: bool,
    /// The page changed so much that the numbering was dropped (see `scan`): numbers of the last list
    /// are refused as coming from an older list.
    outdated: bool,
    /// Elements described for the gate that have no number (the focused one, banner buttons), so a
    /// pinned action can find them by id. Bounded: the oldest go first.
    described: Vec<(u64, Found)>,
    /// The banner buttons of the last `find_banners`, by id, with what pressing each does.
    banner_picks: Vec<(u64, crate::banners::Pick)>,
    /// The last whole-page listing's entries, given again while the page does not change, and how
    /// many of its controls have their context (`whole.rs`).
    listing: Option<(Vec<Entry>, u32)>,
    /// The numbering is the one of the last whole-page listing, given again unchanged: the badges
    /// drawn for it stand.
    unchanged: bool,
    /// The numbering came from a whole-page listing (not the viewport's).
    whole: bool,
}

/// How many unnumbered elements the frame remembers for pinned actions.
const DESCRIBED_MAX: usize = 64;

thread_local! {
    /// This document's token (see `Pin::document`): chosen once when the content script starts, so a
    /// new document — even at the same address — has another. Never written into the page.
    static DOCUMENT: String = document_token();
}

/// 128 random bits as hex, from the browser's cryptographic generator.
fn document_token() -> String {
    let mut bytes = [0u8; 16];
    let filled = web_sys::window()
        .and_then(|w| w.crypto().ok())
        .is_some_and(|c| c.get_random_values_with_u8_array(&mut bytes).is_ok());
    if !filled {
        // No crypto (never in a browser that runs extensions): still unique enough per document.
        for b in &mut bytes {
            *b = (js_sys::Math::random() * 256.0) as u8;
        }
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn this_document() -> String {
    DOCUMENT.with(Clone::clone)
}

thread_local! {
    static FRAME: RefCell<Frame> = RefCell::new(Frame {
        numbered: Vec::new(),
        elements: js_sys::Array::new(),
        generation: 0,
        badges: Vec::new(),
        ids: None,
        next_id: 1,
        overlay: None,
        overlay_wanted: true,
        outdated: false,
        described: Vec::new(),
        banner_picks: Vec::new(),
        listing: None,
        unchanged: false,
        whole: false,
    });
}

/// Whether several controls of this frame's latest list have the name `name` (then the name alone does
/// not say which one a question is about).
fn name_repeats(name: &str) -> bool {
    let wanted = crate::plain_text::fold(name);
    !wanted.is_empty()
        && FRAME.with(|f| {
            f.try_borrow().is_ok_and(|f| {
                f.numbered
                    .iter()
                    .filter(|(_, found)| crate::plain_text::fold(found.name()) == wanted)
                    .nth(1)
                    .is_some()
            })
        })
}

/// Entry point, called by `content.js` once the module is instantiated in this frame.
#[wasm_bindgen]
pub fn start_content() {
    chrome::report_panics();
    let handler = Closure::<dyn FnMut(JsValue, JsValue, js_sys::Function) -> JsValue>::new(handle);
    // The handler is called as a JavaScript function, so whatever is thrown inside it — by a binding
    // that met something the page put in the place of a built-in, or by a panic, which aborts the call
    // — comes back here as an `Err` instead of leaving the worker without an answer.
    let handler_fn: js_sys::Function = handler.as_ref().unchecked_ref::<js_sys::Function>().clone();
    let listener = Closure::<dyn FnMut(JsValue, JsValue, js_sys::Function) -> JsValue>::new(
        move |message: JsValue, sender: JsValue, send_response: js_sys::Function| {
            // A panic from before (in a callback of the page's) is not this message's.
            let _ = chrome::take_panic();
            match handler_fn.call3(&JsValue::NULL, &message, &sender, &send_response) {
                Ok(keep_open) => keep_open,
                Err(thrown) => {
                    let failed = ToolResult::refused(ErrorKind::Failed, failure(&thrown));
                    // If the handler had answered before it failed, this second answer is ignored.
                    reply(&send_response, failed);
                    JsValue::FALSE
                }
            }
        },
    );
    chrome::on_runtime_message(listener.as_ref().unchecked_ref());
    // Both live as long as the frame.
    handler.forget();
    listener.forget();
    // From the start, so a password a "show password" button reveals before any listing stays secret.
    crate::secret::watch_password_fields();
    // From the start too: what the user typed into secret fields is kept out of what Waymark relays.
    crate::secret_values::watch();
}

/// Answers the worker: the result, with what this frame's secret fields hold (for the worker to take
/// out of everything it relays; see `secret_values.rs`).
fn reply(send_response: &js_sys::Function, result: ToolResult) {
    let answer = waymark_protocol::FrameAnswer {
        result,
        secrets: crate::secret_values::values(),
    };
    let _ = send_response.call1(&JsValue::NULL, &chrome::to_js(&answer));
}

/// Answers one message from the worker: `send_response` is called with the result, at once or, for
/// the one asynchronous tool, later (then `true` tells the browser to keep the channel open).
fn handle(message: JsValue, _sender: JsValue, send_response: js_sys::Function) -> JsValue {
    if document().is_some_and(|d| d.ready_state() == "loading") {
        // The script went in as the document committed; until it is parsed, nobody answers, and the
        // worker waits for the page as for one whose script has not started (`tabs/ready.rs`).
        return JsValue::FALSE;
    }
    let Ok(message) = chrome::from_js::<WorkerToContent>(message) else {
        // Not ours (another part of the extension may message the tab later): no answer.
        return JsValue::FALSE;
    };
    if let WorkerToContent::Tool {
        tool: PageTool::Wait { ms },
        ..
    } = message
    {
        // An asynchronous tool: answer later, and tell the browser to keep the channel open.
        wasm_bindgen_futures::spawn_local(async move {
            let data = page::settle(ms.unwrap_or(WAIT_DEFAULT_MS)).await;
            reply(&send_response, ToolResult::ok(data));
        });
        return JsValue::TRUE;
    }
    if let WorkerToContent::Tool {
        tool: PageTool::Screenshot,
        ..
    } = message
    {
        // The worker takes the picture; this frame draws its badges and, once the page has stopped
        // moving, covers its password, code and card fields for the moment of the picture (`mask.rs`).
        redraw();
        wasm_bindgen_futures::spawn_local(async move {
            let result = match crate::mask::cover_secrets().await {
                Ok(masked) => ToolResult::ok(json!({"masked": masked})),
                Err(()) => ToolResult::refused(ErrorKind::Failed, PageReason::StillMoving),
            };
            reply(&send_response, result);
        });
        return JsValue::TRUE;
    }
    if let WorkerToContent::Tool {
        tool,
        number,
        pin,
        guard: armed,
    } = message
    {
        let guarded = armed.is_some();
        // The gate allowed it: this frame keeps back the forms it would send meanwhile (`guard.rs`).
        if let Some(armed) = armed {
            guard::arm(armed);
        }
        if !matches!(
            tool,
            PageTool::OverlayAct { .. } | PageTool::ActByIndex { .. } | PageTool::Press { .. }
        ) {
            reply(&send_response, run(tool, number, pin));
            return JsValue::FALSE;
        }
        // An action: answered once its effects had a moment to show, saying what changed.
        let watch = changes::Watch::start();
        let result = run(tool, number, pin);
        if result.status != ToolStatus::Ok {
            watch.stop();
            reply(&send_response, result);
            return JsValue::FALSE;
        }
        let acted = js_sys::Date::now();
        let answer_later: changes::Reply = Box::new(move |changed| {
            let mut result = result;
            if let Some(data) = result.data.as_mut().and_then(|d| d.as_object_mut()) {
                data.insert("changed".into(), json!(changed));
                if guarded {
                    // The request guard counts these moments as part of the quiet it waits for.
                    let watched = (js_sys::Date::now() - acted).max(0.0);
                    data.insert(waymark_protocol::request::WATCHED_MS.into(), json!(watched));
                }
            }
            reply(&send_response, result);
        });
        wasm_bindgen_futures::spawn_local(watch.settle(answer_later));
        return JsValue::TRUE;
    }
    let result = match message {
        WorkerToContent::Scan { viewport, describe } => scan(viewport, describe),
        WorkerToContent::Badges { numbers } => badges(numbers),
        WorkerToContent::Tool { .. } => return JsValue::FALSE,
        WorkerToContent::Disarm => answer(serde_json::to_value(guard::disarm())),
        WorkerToContent::Document => ToolResult::ok(json!({"document": this_document(), "url": url()})),
        WorkerToContent::MasksHeld => ToolResult::ok(json!({"held": crate::mask::held()})),
        WorkerToContent::Locate => locate(),
        WorkerToContent::Prepare => whole::prepare_when_idle(),
        WorkerToContent::ScrollLists { restore, first } => lists::scroll(restore, first),
    };
    reply(&send_response, result);
    JsValue::FALSE
}

/// What to tell the worker when answering a message failed inside this script: the panic's message,
/// else what was thrown.
fn failure(thrown: &JsValue) -> PageReason {
    let why = chrome::take_panic()
        .or_else(|| {
            thrown
                .dyn_ref::<js_sys::Error>()
                .map(|e| String::from(e.message()))
        })
        .or_else(|| thrown.as_string())
        .unwrap_or_else(|| "no reason given".into());
    chrome::log(&format!("answering the worker failed: {why}"));
    PageReason::ScriptFailed { detail: why }
}

/// `data` as a frame's answer; a value that cannot be made JSON (never for these types) is this
/// script's failure.
fn answer(data: Result<serde_json::Value, serde_json::Error>) -> ToolResult {
    match data {
        Ok(data) => ToolResult::ok(data),
        Err(e) => ToolResult::refused(
            ErrorKind::Failed,
            PageReason::ScriptFailed {
                detail: e.to_string(),
            },
        ),
    }
}

/// The refusal of a frame that has no document to act in.
fn no_document() -> ToolResult {
    ToolResult::refused(ErrorKind::Unreachable, PageReason::NoDocument)
}

/// Where this frame stands in its parent, for the worker's one numbering of the tab (`frames.rs`).
fn locate() -> ToolResult {
    answer(serde_json::to_value(crate::frames::place()))
}

/// Renews the frame's local numbering and reports it, with what it sees of the child frames where they
/// stand (with `viewport`, only what is on screen); only the first `describe` controls are described,
/// the others counted.
fn scan(viewport: bool, describe: Option<u32>) -> ToolResult {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return no_document();
    };
    let limit = describe.unwrap_or(u32::MAX);
    let (found, reused) = if viewport {
        let mut found = detect::interactives(&document, true);
        detect::add_context(&mut found, limit);
        (found, false)
    } else {
        whole::listing(&document, limit)
    };
    let mut entries = Vec::new();
    let mut numbered = Vec::new();
    for entry in found {
        match entry {
            Entry::Control(mut found) => {
                let local = numbered.len() as u32 + 1;
                if local <= limit {
                    // A listing reads values and states only of what it describes (and a kept
                    // decision's may have changed without a trace).
                    found.refresh();
                    entries.push(ScanEntry::Control(found.describe(local)));
                } else if let Some(ScanEntry::More { count }) = entries.last_mut() {
                    *count += 1;
                } else {
                    entries.push(ScanEntry::More { count: 1 });
                }
                numbered.push((stable_id(&found), found));
            }
            Entry::Frame(element) => entries.push(ScanEntry::Frame(crate::frames::seen(&element))),
        }
    }
    let elements: js_sys::Array = numbered
        .iter()
        .map(|(_, found): &(u64, Found)| JsValue::from(&found.element))
        .collect();
    FRAME.with_borrow_mut(|f| {
        f.numbered = numbered;
        f.elements = elements;
        f.unchanged = reused && f.whole;
        f.whole = !viewport;
        if !f.unchanged {
            f.badges.clear();
            f.generation += 1;
        }
        f.outdated = false;
    });
    // When the page changes under this numbering: move the badges, and drop the numbers once numbered
    // elements are gone or many controls came, so the next action by number is refused as stale (and
    // answered with a fresh list) instead of landing on something else.
    crate::watch::observe(crate::detect::controls_in, |added| {
        // Whether every numbered element is still there: one native call for the whole numbering.
        let gone = || {
            FRAME.with_borrow(|f| match crate::detect::Bulk::new() {
                Some(bulk) => !bulk.all_connected(&f.elements),
                None => f.numbered.iter().any(|(_, found)| !found.element.is_connected()),
            })
        };
        let outdated = added >= crate::watch::MANY_ADDED || gone();
        if outdated {
            // The elements are kept, so a refusal can still say which one a number meant.
            FRAME.with_borrow_mut(|f| {
                f.badges.clear();
                f.outdated = true;
            });
        }
        FRAME.with_borrow(|f| {
            if let Some(overlay) = &f.overlay {
                overlay.redraw_soon();
            }
        });
    });
    let scan = FrameScan {
        document: this_document(),
        url: url(),
        title: document.title(),
        entries,
        windows: crate::frames::windows(),
    };
    answer(serde_json::to_value(&scan))
}

/// Takes the tab-wide numbers of this frame's elements and draws them (unless the same numbers are
/// drawn for the same, unchanged numbering already).
fn badges(numbers: Vec<u32>) -> ToolResult {
    let drawn = FRAME.with_borrow_mut(|f| {
        let drawn = f.unchanged && f.badges == numbers;
        f.unchanged = false;
        f.badges = numbers;
        drawn
    });
    if !drawn {
        redraw_listed();
    }
    ToolResult::ok(json!({}))
}

/// Runs one tool on this frame's local numbering; `number` is the tab-wide number, for the words. A
/// page-changing tool comes with the `pin` the gate judged it on: it runs only in that document, and on
/// exactly that element when the pin names one, whatever its number is now.
fn run(tool: PageTool, number: Option<u32>, pin: Option<FramePin>) -> ToolResult {
    if let Some(pin) = &pin {
        if pin.document != this_document() {
            return ToolResult::refused(ErrorKind::PageChanged, PageReason::OtherDocument);
        }
    }
    let element = pin.as_ref().and_then(|p| p.element);
    match tool {
        PageTool::ListInteractives { .. }
        | PageTool::Find { .. }
        | PageTool::ListTabs
        | PageTool::SwitchTab { .. }
        | PageTool::Navigate { .. }
        | PageTool::Back
        | PageTool::Forward
        | PageTool::Reload
        | PageTool::OpenInNewTab { .. }
        | PageTool::Wait { .. } => not_in_frame(),
        PageTool::Extract => match document() {
            Some(d) => ToolResult::ok(page::extract(&d)),
            None => no_document(),
        },
        PageTool::Scroll { direction, index } => {
            let target = match index.map(|i| target(i, element)).transpose() {
                Ok(hit) => hit.map(|(_, found)| found.element),
                Err(why) => return why,
            };
            let result = page::scroll(target.as_ref(), direction);
            redraw();
            result.map_or_else(no_document, ToolResult::ok)
        }
        PageTool::Press { key, index } => {
            let Some(document) = document() else {
                return no_document();
            };
            // A key without a number goes where the focus is; pinned, to the element that had the focus
            // when the gate looked (focused again first), not to wherever the focus went since.
            let target = match (element, index) {
                (Some(id), _) => by_id(id).map(|(_, found)| Some(found.element)),
                (None, Some(i)) => numbered(i).map(|(_, found)| Some(found.element)),
                // Judged as reaching no control: if one has the focus now, the key would reach it
                // instead, which nobody judged.
                (None, None) if pin.is_some() && focused_control(&document).is_some() => {
                    Err(stale(PageReason::FocusMoved))
                }
                (None, None) => Ok(None),
            };
            let target = match target {
                Ok(target) => target,
                Err(why) => return why,
            };
            if let Some(reached) = target.clone().or_else(|| act::deep_active_element(&document)) {
                changes::track(&detect::found_for(&reached));
            }
            page::press(&document, target.as_ref(), &key)
                .map_or_else(|why| ToolResult::refused(ErrorKind::Failed, why), ToolResult::ok)
        }
        PageTool::OverlayShow => {
            FRAME.with_borrow_mut(|f| f.overlay_wanted = true);
            redraw();
            ToolResult::ok(json!({"overlay": "shown"}))
        }
        PageTool::OverlayHide => {
            FRAME.with_borrow_mut(|f| {
                f.overlay_wanted = false;
                if let Some(o) = &f.overlay {
                    o.clear();
                }
            });
            ToolResult::ok(json!({"overlay": "hidden"}))
        }
        PageTool::Describe { index } => match numbered(index) {
            Ok((_, found)) => answer(serde_json::to_value(crate::effect::element_info(
                &found,
                Some(number.unwrap_or(index)),
                url(),
            ))),
            Err(why) => why,
        },
        PageTool::Preview { action } => preview(*action, number, element),
        PageTool::OverlayAct { index, action, text } => act_on(
            target(index, element),
            action,
            text,
            number.unwrap_or(index),
            Way::Element,
        ),
        PageTool::ActByIndex { index, action, text } => act_on(
            target(index, element),
            action,
            text,
            number.unwrap_or(index),
            Way::Pointer,
        ),
        // In a frame, the frame's half of moving the focus (the worker picks the control across frames):
        // with `number`, which here is the frame's local number of the control the worker chose, focus
        // it; without, say where this frame's focus is.
        PageTool::FocusNext { .. } | PageTool::FocusPrev { .. } => focus(number),
        // The worker passes what is left of the tab's budget; `pressed` tells it to look again.
        PageTool::CloseBanners { .. } => ToolResult::refused(ErrorKind::NotAllowed, PageReason::NotInFrame),
        PageTool::FindBanners => find_banners(),
        PageTool::PressBanners { pins } => press_banners(&pins),
        // Answered later, by `handle` (the masks wait for the page to stop moving).
        PageTool::Screenshot => not_in_frame(),
        PageTool::Upload { index, files, .. } => {
            upload(target(index, element), number.unwrap_or(index), &files)
        }
        // The worker clicks through `overlay_act` and watches the browser's downloads.
        PageTool::ClickAndWaitDownload { .. } | PageTool::DownloadWait { .. } => not_in_frame(),
    }
}

/// The refusal of a tool the service worker runs itself.
fn not_in_frame() -> ToolResult {
    ToolResult::refused(ErrorKind::Failed, PageReason::NotInFrame)
}

/// Keeps an unnumbered element the gate was told about, so a pinned action can find it; its id.
fn remember(found: &Found) -> u64 {
    let id = stable_id(found);
    FRAME.with_borrow_mut(|f| {
        f.described.retain(|(known, _)| *known != id);
        if f.described.len() >= DESCRIBED_MAX {
            f.described.remove(0);
        }
        f.described.push((id, found.clone()));
    });
    id
}

/// The element with id `id` as the gate was told about it, if it is still there and still says the same.
fn by_id(id: u64) -> Result<(u64, Found), ToolResult> {
    let found = FRAME.with_borrow(|f| {
        f.numbered
            .iter()
            .chain(f.described.iter())
            .find(|(known, _)| *known == id)
            .map(|(_, found)| found.clone())
    });
    let Some(found) = found else {
        return Err(stale(PageReason::Unknown));
    };
    if !found.element.is_connected() {
        return Err(stale(PageReason::Gone {
            role: found.role().into(),
            name: found.name().into(),
        }));
    }
    if found.current_name() != found.name() {
        return Err(stale(PageReason::Changed {
            role: found.role().into(),
            name: found.name().into(),
        }));
    }
    Ok((id, found))
}

/// The element an action by number reaches: exactly the pinned one when the gate pinned it, else the
/// one behind the local number.
fn target(index: u32, element: Option<u64>) -> Result<(u64, Found), ToolResult> {
    match element {
        Some(id) => by_id(id),
        None => numbered(index),
    }
}

fn document() -> Option<web_sys::Document> {
    web_sys::window().and_then(|w| w.document())
}

fn url() -> String {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.url().ok())
        .unwrap_or_default()
}

/// The element behind a local number, if it is still the one that was numbered. Otherwise an error
/// whose `data` says `stale`, so the worker renews the tab's numbering and sends the fresh list: nobody
/// acts on a different element than they meant.
fn numbered(index: u32) -> Result<(u64, Found), ToolResult> {
    let (hit, outdated) = FRAME.with_borrow(|f| {
        let slot = (index as usize).checked_sub(1).and_then(|i| f.numbered.get(i));
        (slot.map(|(id, found)| (*id, found.clone())), f.outdated)
    });
    let Some((id, found)) = hit else {
        return Err(stale(PageReason::Unknown));
    };
    let gone = !found.element.is_connected();
    let renamed = !gone && found.current_name() != found.name();
    if gone || renamed || outdated {
        let (role, name) = (found.role().into(), found.name().into());
        return Err(stale(if gone {
            PageReason::Gone { role, name }
        } else if renamed {
            PageReason::Changed { role, name }
        } else {
            PageReason::Outdated { role, name }
        }));
    }
    Ok((id, found))
}

/// A refusal the worker completes: it says it with the number and appends the fresh list.
fn stale(why: PageReason) -> ToolResult {
    ToolResult::refused(ErrorKind::Stale, why)
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

/// Draws the badges of a numbering just made, at the boxes its listing read moments ago (a scroll or
/// a change of the page since redraws them where the elements stand then).
fn redraw_listed() {
    with_overlay(|overlay, f| {
        let numbers = f.badges.iter().copied();
        let boxes = f
            .numbered
            .iter()
            .map(|(_, found)| found.rect())
            .zip(numbers)
            .collect();
        overlay.draw_at(f.generation, &f.elements, boxes);
    });
}

/// Draws the badges of the current numbering, if the overlay is wanted.
fn redraw() {
    with_overlay(|overlay, f| overlay.draw(f.generation, &f.elements, &f.badges));
}

/// Runs `draw` with the frame's overlay, made on first use, when the overlay is wanted.
fn with_overlay(draw: impl FnOnce(&Overlay, &Frame)) {
    FRAME.with_borrow_mut(|f| {
        if !f.overlay_wanted {
            return;
        }
        if f.overlay.is_none() {
            f.overlay = Overlay::create(redraw).ok();
        }
        if let Some(overlay) = &f.overlay {
            draw(overlay, f);
        }
    });
}
