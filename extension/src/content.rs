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
    ActKind, ErrorKind, FrameBanner, FrameBanners, FramePin, FramePreview, FrameScan, PageTool, ScanEntry,
    ToolResult, WorkerToContent,
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
    /// Elements described for the gate that have no number (the focused one, banner buttons), so a
    /// pinned action can find them by id. Bounded: the oldest go first.
    described: Vec<(u64, Found)>,
    /// The banner buttons of the last `find_banners`, by id, with what pressing each does.
    banner_picks: Vec<(u64, crate::banners::Pick)>,
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
    static FRAME: RefCell<Frame> = const {
        RefCell::new(Frame {
            numbered: Vec::new(),
            badges: Vec::new(),
            ids: None,
            next_id: 1,
            overlay: None,
            overlay_wanted: true,
            outdated: false,
            described: Vec::new(),
            banner_picks: Vec::new(),
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
                WorkerToContent::Tool { tool, number, pin } => run(tool, number, pin),
                WorkerToContent::Document => {
                    ToolResult::ok(json!({"document": this_document(), "url": url()}))
                }
                WorkerToContent::Locate => locate(),
            };
            let _ = send_response.call1(&JsValue::NULL, &chrome::to_js(&result));
            JsValue::FALSE
        },
    );
    chrome::on_runtime_message(listener.as_ref().unchecked_ref());
    // The listener lives as long as the frame.
    listener.forget();
    // From the start, so a password a "show password" button reveals before any listing stays secret.
    crate::secret::watch_password_fields();
}

/// Where this frame stands in its parent, for the worker's one numbering of the tab (`frames.rs`).
fn locate() -> ToolResult {
    match serde_json::to_value(crate::frames::place()) {
        Ok(data) => ToolResult::ok(data),
        Err(e) => ToolResult::error(format!("could not describe the frame: {e}")),
    }
}

/// Renews the frame's local numbering and reports it, with what it sees of the child frames where they
/// stand (with `viewport`, only what is on screen).
fn scan(viewport: bool) -> ToolResult {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return ToolResult::failed(ErrorKind::Unreachable, "this frame has no document");
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
            Entry::Frame(element) => entries.push(ScanEntry::Frame(crate::frames::seen(&element))),
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
        document: this_document(),
        url: url(),
        title: document.title(),
        entries,
        windows: crate::frames::windows(),
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

/// Runs one tool on this frame's local numbering; `number` is the tab-wide number, for the words. A
/// page-changing tool comes with the `pin` the gate judged it on: it runs only in that document, and on
/// exactly that element when the pin names one, whatever its number is now.
fn run(tool: PageTool, number: Option<u32>, pin: Option<FramePin>) -> ToolResult {
    if let Some(pin) = &pin {
        if pin.document != this_document() {
            return ToolResult::failed(
                ErrorKind::PageChanged,
                "this frame shows another document than the one the action was judged on",
            );
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
        | PageTool::Wait { .. } => {
            ToolResult::error("this tool is run by the service worker, not in a frame")
        }
        PageTool::Extract => match document() {
            Some(d) => ToolResult::ok(page::extract(&d)),
            None => ToolResult::failed(ErrorKind::Unreachable, "this frame has no document"),
        },
        PageTool::Scroll { direction, index } => {
            let target = match index.map(|i| target(i, element)).transpose() {
                Ok(hit) => hit.map(|(_, found)| found.element),
                Err(why) => return why,
            };
            let result = page::scroll(target.as_ref(), direction);
            redraw();
            result.map_or_else(ToolResult::error, ToolResult::ok)
        }
        PageTool::Press { key, index } => {
            let Some(document) = document() else {
                return ToolResult::failed(ErrorKind::Unreachable, "this frame has no document");
            };
            // A key without a number goes where the focus is; pinned, to the element that had the focus
            // when the gate looked (focused again first), not to wherever the focus went since.
            let target = match (element, index) {
                (Some(id), _) => by_id(id).map(|(_, found)| Some(found.element)),
                (None, Some(i)) => numbered(i).map(|(_, found)| Some(found.element)),
                // Judged as reaching no control: if one has the focus now, the key would reach it
                // instead, which nobody judged.
                (None, None) if pin.is_some() && focused_control(&document).is_some() => {
                    Err(stale("the keyboard focus moved to a control since".into()))
                }
                (None, None) => Ok(None),
            };
            let target = match target {
                Ok(target) => target,
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
        PageTool::Describe { index } => match numbered(index) {
            Ok((_, found)) => match serde_json::to_value(found.info(Some(number.unwrap_or(index)), url())) {
                Ok(data) => ToolResult::ok(data),
                Err(e) => ToolResult::error(format!("could not describe the element: {e}")),
            },
            Err(why) => why,
        },
        PageTool::Preview { action } => preview(*action, number),
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
        PageTool::CloseBanners { .. } => ToolResult::failed(
            ErrorKind::NotAllowed,
            "closing banners is run by the gate: find_banners, then press_banners",
        ),
        PageTool::FindBanners => find_banners(),
        PageTool::PressBanners { pins } => press_banners(&pins),
        // The worker takes the picture; this frame makes sure its badges are drawn first, and covers
        // its password, code and card fields for the moment of the picture.
        PageTool::Screenshot => {
            redraw();
            ToolResult::ok(json!({"masked": crate::mask::cover_secrets()}))
        }
        PageTool::Upload { index, files, .. } => {
            upload(target(index, element), number.unwrap_or(index), &files)
        }
        // The worker clicks through `overlay_act` and watches the browser's downloads.
        PageTool::ClickAndWaitDownload { .. } | PageTool::DownloadWait { .. } => {
            ToolResult::error("this tool is run by the service worker, not in a frame")
        }
    }
}

/// What `action` would do here (see `effect`), for the gate: the element it reaches (by number, or the
/// focused one for a key without a number), the option a choice would make, and whether this frame
/// links to the site a navigation would open.
fn preview(action: PageTool, number: Option<u32>) -> ToolResult {
    let Some(document) = document() else {
        return ToolResult::failed(ErrorKind::Unreachable, "this frame has no document");
    };
    let mut out = FramePreview {
        document: this_document(),
        url: url(),
        target: None,
        element: None,
        option: None,
        linked: false,
        has_focus: document.has_focus().unwrap_or(false),
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
                Err(why) => {
                    let number = number.unwrap_or(index);
                    return ToolResult::failed(
                        ErrorKind::BadArguments,
                        format!("Could not select in number {number}: {why}."),
                    );
                }
            }
        }
        out.target = Some(found.info(Some(number.unwrap_or(index)), url()));
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
                out.target = Some(found.info(index, url()));
                out.element = Some(id);
            }
        }
        PageTool::Navigate { url } | PageTool::OpenInNewTab { url } => {
            out.linked = crate::effect::links_to_site_of(&document, url);
        }
        _ => {}
    }
    match serde_json::to_value(&out) {
        Ok(data) => ToolResult::ok(data),
        Err(e) => ToolResult::error(format!("could not describe the action: {e}")),
    }
}

/// The element with the keyboard focus in this frame, if it is a control: not the page itself, and not
/// a child frame (whose own content script answers for what has the focus inside it).
fn focused_control(document: &web_sys::Document) -> Option<web_sys::Element> {
    let active = act::deep_active_element(document)?;
    let tag = active.local_name();
    (!matches!(tag.as_str(), "body" | "html" | "iframe" | "frame")).then_some(active)
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
        return Err(stale("is no longer on the page".into()));
    };
    if !found.element.is_connected() {
        return Err(stale(format!(
            "({} \"{}\") is no longer on the page",
            found.role(),
            found.name()
        )));
    }
    if found.current_name() != found.name() {
        return Err(stale(format!(
            "({} \"{}\") now shows something else",
            found.role(),
            found.name()
        )));
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

/// This frame's banners and the button that would close each (`banners::find`), described for the gate
/// and remembered by id for `press_banners`. Nothing is pressed.
fn find_banners() -> ToolResult {
    let picks = crate::banners::find();
    let mut banners = Vec::new();
    let mut kept = Vec::new();
    for pick in picks {
        let found = crate::detect::found_for(&pick.button);
        let id = remember(&found);
        banners.push(FrameBanner {
            element: id,
            kind: pick.kind_name().into(),
            choice: pick.choice_name().into(),
            target: found.info(None, url()),
        });
        kept.push((id, pick));
    }
    FRAME.with_borrow_mut(|f| f.banner_picks = kept);
    let answer = FrameBanners {
        document: this_document(),
        banners,
    };
    match serde_json::to_value(&answer) {
        Ok(data) => ToolResult::ok(data),
        Err(e) => ToolResult::error(format!("could not describe the banners: {e}")),
    }
}

/// Presses the banner buttons the gate allowed (those of this document among `pins`).
fn press_banners(pins: &[waymark_protocol::Pin]) -> ToolResult {
    let here = this_document();
    let picks: Vec<crate::banners::Pick> = FRAME.with_borrow(|f| {
        pins.iter()
            .filter(|p| p.document == here)
            .filter_map(|p| p.element)
            .filter_map(|id| f.banner_picks.iter().find(|(known, _)| *known == id))
            .map(|(_, pick)| pick.clone())
            .collect()
    });
    let mut closed = Vec::new();
    let mut pressed = 0;
    for pick in picks {
        if let Some(outcome) = crate::banners::press(&pick) {
            pressed += 1;
            closed.extend(outcome);
        }
    }
    redraw();
    ToolResult::ok(json!({"closed": closed, "pressed": pressed}))
}

/// Puts `files` into the file input `hit` (tab-wide `number`) the way the browser's file chooser does:
/// its `files` become them, and `input` and `change` bubble up, so the page's own script (or its
/// framework) sees the choice.
fn upload(
    hit: Result<(u64, Found), ToolResult>,
    number: u32,
    files: &[waymark_protocol::FileData],
) -> ToolResult {
    let (_, found) = match hit {
        Ok(hit) => hit,
        Err(why) => return why,
    };
    let input = found
        .element
        .dyn_ref::<web_sys::HtmlInputElement>()
        .filter(|input| input.type_().eq_ignore_ascii_case("file"));
    let Some(input) = input else {
        return ToolResult::failed(ErrorKind::BadArguments, format!(
            "Number {number} is not a file field (it is {} \"{}\"): upload into the field that chooses files.",
            found.role(),
            found.name()
        ));
    };
    if files.is_empty() {
        return ToolResult::failed(
            ErrorKind::BadArguments,
            format!("No file arrived to put into number {number}."),
        );
    }
    if files.len() > 1 && !input.multiple() {
        return ToolResult::failed(
            ErrorKind::BadArguments,
            format!(
                "Number {number} takes one file, and {} were given: upload one of them.",
                files.len()
            ),
        );
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

/// The element behind a local number, if it is still the one that was numbered. Otherwise an error
/// whose `data` says `stale`, so the worker renews the tab's numbering and sends the fresh list: nobody
/// acts on a different element than they meant.
fn numbered(index: u32) -> Result<(u64, Found), ToolResult> {
    let (hit, outdated) = FRAME.with_borrow(|f| {
        let slot = (index as usize).checked_sub(1).and_then(|i| f.numbered.get(i));
        (slot.map(|(id, found)| (*id, found.clone())), f.outdated)
    });
    let Some((id, found)) = hit else {
        return Err(stale("is no longer on the page".into()));
    };
    let gone = !found.element.is_connected();
    let renamed = !gone && found.current_name() != found.name();
    if gone || renamed || outdated {
        let what = if gone {
            "is no longer on the page"
        } else if renamed {
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
    ToolResult::failed(ErrorKind::Stale, what)
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

/// `overlay_act` or `act_by_index` on `hit` (checked first: stale numbers, the gate's pin); `number` is
/// the tab-wide number, for the words.
fn act_on(
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
        return ToolResult::failed(ErrorKind::Unreachable, "this frame has no document");
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
    let (_, found) = match numbered(local) {
        Ok(hit) => hit,
        Err(why) => return why,
    };
    let moved = act::focus_control(&found.element);
    redraw();
    ToolResult::ok(json!({"focused": local, "role": found.role(), "name": found.name(), "moved": moved}))
}
