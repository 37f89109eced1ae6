//! The page side of Waymark, loaded into every frame of every page by `content.js`: it finds the
//! frame's interactive elements, keeps their local numbering, draws the badges with the tab-wide
//! numbers the service worker assigns, and acts on elements by local number.
//!
//! It must stay cheap: it runs on every page. Nothing is computed until the worker asks, and nothing is
//! written into the page's own DOM except the one overlay host element. Stable element ids live here
//! (a `WeakMap` from element to id), never in page attributes, so pages cannot read or forge them.
//!
//! Detection and naming are in `detect.rs`, acting in `act.rs`, drawing in `overlay.rs`; the tab-wide
//! numbering across frames is the worker's (`tabs.rs`).

use std::cell::RefCell;

use serde_json::json;
use wasm_bindgen::prelude::*;
use waymark_protocol::{
    ActKind, ContentToWorker, FrameScan, PageTool, ScanEntry, ToolResult, WorkerToContent,
};

use crate::act;
use crate::chrome;
use crate::detect::{self, Entry, Found};
use crate::overlay::Overlay;
use crate::page;

const DEFAULT_WAIT_MS: u32 = 5_000;

/// What this frame knows between calls.
struct Frame {
    /// The latest local numbering: `numbered[i]` is local number `i + 1`, with its stable id.
    numbered: Vec<(u64, Found)>,
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
}

thread_local! {
    static FRAME: RefCell<Frame> = const {
        RefCell::new(Frame {
            numbered: Vec::new(),
            badges: Vec::new(),
            ids: None,
            next_id: 1,
            overlay: None,
            overlay_wanted: true,
            outdated: false,
        })
    };
}

/// Entry point, called by `content.js` once the module is instantiated in this frame.
#[wasm_bindgen]
pub fn start_content() {
    let listener = Closure::<dyn FnMut(JsValue, JsValue, js_sys::Function) -> JsValue>::new(
        |message: JsValue, _sender: JsValue, send_response: js_sys::Function| {
            let Ok(message) = chrome::from_js::<WorkerToContent>(message) else {
                // Not ours (another part of the extension may message the tab later): no answer.
                return JsValue::FALSE;
            };
            if let WorkerToContent::Tool {
                tool: PageTool::Wait { ms },
                ..
            } = message
            {
                // The one asynchronous tool: answer later, and tell the browser to keep the channel open.
                wasm_bindgen_futures::spawn_local(async move {
                    let data = page::settle(ms.unwrap_or(DEFAULT_WAIT_MS)).await;
                    let _ = send_response.call1(&JsValue::NULL, &chrome::to_js(&ToolResult::ok(data)));
                });
                return JsValue::TRUE;
            }
            let result = match message {
                WorkerToContent::Scan { viewport } => scan(viewport),
                WorkerToContent::Badges { numbers } => badges(numbers),
                WorkerToContent::Tool { tool, number } => run(tool, number),
            };
            let _ = send_response.call1(&JsValue::NULL, &chrome::to_js(&result));
            JsValue::FALSE
        },
    );
    chrome::on_runtime_message(listener.as_ref().unchecked_ref());
    // The listener lives as long as the frame.
    listener.forget();
    answer_probes();
    // From the start, so a password a "show password" button reveals before any listing stays secret.
    crate::secret::watch_password_fields();
}

/// In a child frame: when the parent frame's content script probes this window, report the probe to
/// the worker, which learns this frame's id from the sender (see [`ScanEntry::Frame`]).
fn answer_probes() {
    let Some(window) = web_sys::window() else { return };
    let parent = window.parent().ok().flatten();
    let Some(parent) = parent.filter(|p| !js_sys::Object::is(p, &window)) else {
        return;
    };
    let on_message = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |event: web_sys::MessageEvent| {
        // Only the parent may probe; anything else posting here is ignored.
        if !event.source().is_some_and(|s| js_sys::Object::is(&s, &parent)) {
            return;
        }
        let probe = js_sys::Reflect::get(&event.data(), &PROBE_KEY.into())
            .ok()
            .and_then(|p| p.as_string());
        if let Some(probe) = probe {
            chrome::send_to_worker(&chrome::to_js(&ContentToWorker::FrameProbe { probe }));
        }
    });
    let _ = window.add_event_listener_with_callback("message", on_message.as_ref().unchecked_ref());
    on_message.forget();
}

const PROBE_KEY: &str = "__waymarkProbe";

fn probe_token() -> String {
    let part = || (js_sys::Math::random() * 4_294_967_296.0) as u64;
    format!("{:08x}{:08x}", part(), part())
}

/// Posts the probe to the frame's window; false if the frame has no window (not loaded).
fn post_probe(frame: &web_sys::Element, probe: &str) -> bool {
    let Ok(window) = js_sys::Reflect::get(frame, &"contentWindow".into()) else {
        return false;
    };
    let Ok(post) = js_sys::Reflect::get(&window, &"postMessage".into()) else {
        return false;
    };
    let Ok(post) = post.dyn_into::<js_sys::Function>() else {
        return false;
    };
    let message = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&message, &PROBE_KEY.into(), &probe.into());
    post.call2(&window, &message, &"*".into()).is_ok()
}

/// Renews the frame's local numbering and reports it, with the child frames where they stand (with
/// `viewport`, only what is on screen).
fn scan(viewport: bool) -> ToolResult {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return ToolResult::error("this frame has no document");
    };
    let mut entries = Vec::new();
    let mut numbered = Vec::new();
    for entry in detect::interactives(&document, viewport) {
        match entry {
            Entry::Control(found) => {
                let local = numbered.len() as u32 + 1;
                entries.push(ScanEntry::Control(found.describe(local)));
                numbered.push((stable_id(&found), found));
            }
            Entry::Frame(element) => {
                let probe = probe_token();
                if post_probe(&element, &probe) {
                    entries.push(ScanEntry::Frame { probe });
                }
            }
        }
    }
    FRAME.with_borrow_mut(|f| {
        f.numbered = numbered;
        f.badges.clear();
        f.outdated = false;
    });
    // When the page changes under this numbering: move the badges, and drop the numbers once numbered
    // elements are gone or many controls came, so the next action by number is refused as stale (and
    // answered with a fresh list) instead of landing on something else.
    crate::watch::observe(|added| {
        let outdated = added >= crate::watch::MANY_ADDED
            || FRAME.with_borrow(|f| f.numbered.iter().any(|(_, found)| !found.element.is_connected()));
        if outdated {
            // The elements are kept, so a refusal can still say which one a number meant.
            FRAME.with_borrow_mut(|f| {
                f.badges.clear();
                f.outdated = true;
            });
        }
        redraw();
    });
    let scan = FrameScan {
        url: url(),
        title: document.title(),
        entries,
    };
    match serde_json::to_value(&scan) {
        Ok(data) => ToolResult::ok(data),
        Err(e) => ToolResult::error(format!("could not describe the frame: {e}")),
    }
}

/// Takes the tab-wide numbers of this frame's elements and draws them.
fn badges(numbers: Vec<u32>) -> ToolResult {
    FRAME.with_borrow_mut(|f| f.badges = numbers);
    redraw();
    ToolResult::ok(json!({}))
}

/// Runs one tool on this frame's local numbering; `number` is the tab-wide number, for the words.
fn run(tool: PageTool, number: Option<u32>) -> ToolResult {
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
        | PageTool::Wait { .. } => {
            ToolResult::error("this tool is run by the service worker, not in a frame")
        }
        PageTool::Extract => match document() {
            Some(d) => ToolResult::ok(page::extract(&d)),
            None => ToolResult::error("this frame has no document"),
        },
        PageTool::Scroll { direction, index } => {
            let target = match index.map(|i| numbered(i, None)).transpose() {
                Ok(hit) => hit.map(|(_, found)| found.element),
                Err(why) => return why,
            };
            let result = page::scroll(target.as_ref(), direction);
            redraw();
            result.map_or_else(ToolResult::error, ToolResult::ok)
        }
        PageTool::Press { key, index } => {
            let Some(document) = document() else {
                return ToolResult::error("this frame has no document");
            };
            let target = match index.map(|i| numbered(i, None)).transpose() {
                Ok(hit) => hit.map(|(_, found)| found.element),
                Err(why) => return why,
            };
            page::press(&document, target.as_ref(), &key).map_or_else(ToolResult::error, ToolResult::ok)
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
        PageTool::Describe { index } => match numbered(index, None) {
            Ok((id, found)) => match serde_json::to_value(found.info(index, id, url())) {
                Ok(data) => ToolResult::ok(data),
                Err(e) => ToolResult::error(format!("could not describe the element: {e}")),
            },
            Err(why) => why,
        },
        PageTool::OverlayAct {
            index,
            action,
            text,
            expect,
        } => act_on(index, action, text, expect, number, Way::Element),
        PageTool::ActByIndex {
            index,
            action,
            text,
            expect,
        } => act_on(index, action, text, expect, number, Way::Pointer),
        // In a frame, the frame's half of moving the focus (the worker picks the control across frames):
        // with `number`, which here is the frame's local number of the control the worker chose, focus
        // it; without, say where this frame's focus is.
        PageTool::FocusNext { .. } | PageTool::FocusPrev { .. } => focus(number),
        // The worker passes what is left of the tab's budget; `pressed` tells it to look again.
        PageTool::CloseBanners { budget_ms } => {
            ToolResult::ok(crate::banners::close(budget_ms.unwrap_or(800)))
        }
        // The worker takes the picture; this frame makes sure its badges are drawn first, and covers
        // its password, code and card fields for the moment of the picture.
        PageTool::Screenshot => {
            redraw();
            ToolResult::ok(json!({"masked": crate::mask::cover_secrets()}))
        }
        PageTool::Upload {
            index, files, expect, ..
        } => upload(index, number.unwrap_or(index), &files, expect),
        // The worker clicks through `overlay_act` and watches the browser's downloads.
        PageTool::ClickAndWaitDownload { .. } | PageTool::DownloadWait { .. } => {
            ToolResult::error("this tool is run by the service worker, not in a frame")
        }
    }
}

/// Puts `files` into the file input with local number `index` (tab-wide `number`) the way the browser's
/// file chooser does: its `files` become them, and `input` and `change` bubble up, so the page's own
/// script (or its framework) sees the choice.
fn upload(index: u32, number: u32, files: &[waymark_protocol::FileData], expect: Option<u64>) -> ToolResult {
    let (_, found) = match numbered(index, expect) {
        Ok(hit) => hit,
        Err(why) => return why,
    };
    let input = found
        .element
        .dyn_ref::<web_sys::HtmlInputElement>()
        .filter(|input| input.type_().eq_ignore_ascii_case("file"));
    let Some(input) = input else {
        return ToolResult::error(format!(
            "Number {number} is not a file field (it is {} \"{}\"): upload into the field that chooses files.",
            found.role(),
            found.name()
        ));
    };
    if files.is_empty() {
        return ToolResult::error(format!("No file arrived to put into number {number}."));
    }
    if files.len() > 1 && !input.multiple() {
        return ToolResult::error(format!(
            "Number {number} takes one file, and {} were given: upload one of them.",
            files.len()
        ));
    }
    match chosen_files(files) {
        Ok(list) => {
            if let Err(e) = js_sys::Reflect::set(input, &"files".into(), &list) {
                return ToolResult::error(format!(
                    "Could not put the files into number {number}: {}.",
                    chrome::error_text(&e)
                ));
            }
        }
        Err(why) => {
            return ToolResult::error(format!("Could not put the files into number {number}: {why}."))
        }
    }
    for kind in ["input", "change"] {
        let init = web_sys::EventInit::new();
        init.set_bubbles(true);
        init.set_composed(true);
        if let Ok(event) = web_sys::Event::new_with_event_init_dict(kind, &init) {
            let _ = input.dispatch_event(&event);
        }
    }
    redraw();
    let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
    ToolResult::ok(json!({"files": names, "index": number}))
}

/// A `FileList` of `files`, made through a `DataTransfer` (the one way a page's script can build one).
fn chosen_files(files: &[waymark_protocol::FileData]) -> Result<JsValue, String> {
    let global = js_sys::global();
    let constructor = |name: &str| -> Result<js_sys::Function, String> {
        js_sys::Reflect::get(&global, &name.into())
            .ok()
            .and_then(|c| c.dyn_into().ok())
            .ok_or_else(|| format!("this page has no {name}"))
    };
    let transfer = js_sys::Reflect::construct(&constructor("DataTransfer")?, &js_sys::Array::new())
        .map_err(|e| chrome::error_text(&e))?;
    let items = js_sys::Reflect::get(&transfer, &"items".into()).map_err(|e| chrome::error_text(&e))?;
    let add: js_sys::Function = js_sys::Reflect::get(&items, &"add".into())
        .ok()
        .and_then(|a| a.dyn_into().ok())
        .ok_or("this page cannot build a file list")?;
    let file_constructor = constructor("File")?;
    for file in files {
        let bytes = chrome::decode_base64(&file.base64)?;
        let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes.as_slice()));
        let options = chrome::object(&[("type", file.mime.as_str().into())]);
        let args = js_sys::Array::of3(&parts, &file.name.as_str().into(), &options);
        let made =
            js_sys::Reflect::construct(&file_constructor, &args).map_err(|e| chrome::error_text(&e))?;
        add.call1(&items, &made).map_err(|e| chrome::error_text(&e))?;
    }
    js_sys::Reflect::get(&transfer, &"files".into()).map_err(|e| chrome::error_text(&e))
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

/// The element behind a local number, if it is still the one that was numbered (and, with `expect`, the
/// one that was approved). Otherwise an error whose `data` says `stale`, so the worker renews the
/// tab's numbering and sends the fresh list: nobody acts on a different element than they meant.
fn numbered(index: u32, expect: Option<u64>) -> Result<(u64, Found), ToolResult> {
    let (hit, outdated) = FRAME.with_borrow(|f| {
        let slot = (index as usize).checked_sub(1).and_then(|i| f.numbered.get(i));
        (slot.map(|(id, found)| (*id, found.clone())), f.outdated)
    });
    let Some((id, found)) = hit else {
        return Err(stale("is no longer on the page".into()));
    };
    let gone = !found.element.is_connected();
    let moved = expect.is_some_and(|e| e != id);
    let renamed = !gone && found.current_name() != found.name();
    if gone || moved || renamed || outdated {
        let what = if gone {
            "is no longer on the page"
        } else if moved || renamed {
            "now shows something else"
        } else {
            "was on an older list (the page changed a lot since)"
        };
        return Err(stale(format!("({} \"{}\") {what}", found.role(), found.name())));
    }
    Ok((id, found))
}

/// A refusal the worker completes: it prefixes the number and appends the fresh list.
fn stale(what: String) -> ToolResult {
    ToolResult {
        data: Some(json!({"stale": true})),
        ..ToolResult::error(what)
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
            let numbers = f.badges.iter().copied();
            overlay.draw(f.numbered.iter().map(|(_, found)| &found.element).zip(numbers));
        }
    });
}

/// How an action reaches its element.
enum Way {
    /// `overlay_act`: on the element itself, with its own activation.
    Element,
    /// `act_by_index`, the last resort: a pointer's and keyboard's events where the control is drawn.
    Pointer,
}

/// `overlay_act` or `act_by_index` on this frame's local number, checked first (stale numbers and the
/// gate's `expect` pin); `number` is the tab-wide number, for the words.
fn act_on(
    index: u32,
    action: ActKind,
    text: Option<String>,
    expect: Option<u64>,
    number: Option<u32>,
    way: Way,
) -> ToolResult {
    let (_, found) = match numbered(index, expect) {
        Ok(hit) => hit,
        Err(why) => return why,
    };
    let text = text.unwrap_or_default();
    let element = &found.element;
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
    };
    redraw();
    let number = number.unwrap_or(index);
    match done {
        Ok(mut data) => {
            data["done"] = json!(action.verb());
            data["index"] = json!(number);
            data["role"] = json!(found.role());
            data["name"] = json!(found.name());
            ToolResult::ok(data)
        }
        Err(why) => ToolResult::error(format!("Could not {} number {number}: {why}.", action.verb())),
    }
}

/// This frame's half of `focus_next` / `focus_prev`. With `local`, moves the focus to that control
/// (`{"focused", "role", "name", "moved"}`); without, reports which numbered control holds this frame's
/// focus, whether the frame has the focus, and the role of every numbered control, so the worker can
/// pick the next one across frames (`{"focused": n|null, "has_focus", "roles": […]}`).
fn focus(local: Option<u32>) -> ToolResult {
    let Some(document) = document() else {
        return ToolResult::error("this frame has no document");
    };
    let Some(local) = local else {
        let active = act::deep_active_element(&document);
        let (focused, roles) = FRAME.with_borrow(|f| {
            // The innermost numbered control holding the focus (a focused link inside a numbered tab).
            let focused = active.as_ref().and_then(|a| {
                f.numbered
                    .iter()
                    .rposition(|(_, found)| act::composed_contains(&found.element, a))
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
    let (_, found) = match numbered(local, None) {
        Ok(hit) => hit,
        Err(why) => return why,
    };
    let moved = act::focus_control(&found.element);
    redraw();
    ToolResult::ok(json!({"focused": local, "role": found.role(), "name": found.name(), "moved": moved}))
}
