//! Page-level tools in a frame: a short summary of the page, scrolling, key presses, and waiting for
//! the page to settle. Like `act/` it reads page text as data only.

use std::cell::Cell;
use std::rc::Rc;

use serde_json::{json, Value};
use wasm_bindgen::prelude::*;
use waymark_protocol::{PageReason, ScrollDirection};
use web_sys::{Document, Element, HtmlElement, HtmlInputElement};

use crate::act::keys::{key_down, key_up, Key};

/// How much of the page's text a summary carries: enough to orient, never the whole page.
const SNIPPET_CHARS: usize = 400;
const MAX_HEADINGS: usize = 20;
/// The document must stay unchanged this long to count as settled.
const QUIET_MS: f64 = 400.0;

/// Title, URL, headings and the first words of the main text, in the words a screen reader says:
/// text hidden from it (`display: none`, `aria-hidden`) never reaches the model, and separate blocks
/// stay separate words.
pub fn extract(document: &Document) -> Value {
    let headings: Vec<Value> = document
        .query_selector_all("h1, h2, h3")
        .ok()
        .map(|list| {
            (0..list.length())
                .filter_map(|i| list.item(i)?.dyn_into::<Element>().ok())
                .filter(|h| h.get_client_rects().length() > 0)
                // A screen reader meets no heading hidden from it, nor one whose role says it is
                // something else (a title field written as `<h1 role=textbox>`).
                .filter(|h| h.closest("[aria-hidden=true i]").ok().flatten().is_none())
                .filter(|h| {
                    h.get_attribute("role")
                        .is_none_or(|r| r.split_whitespace().next().unwrap_or("heading") == "heading")
                })
                .map(|h| {
                    let level = h.local_name()[1..].parse::<u32>().unwrap_or(1);
                    json!({"level": level, "text": words(&crate::detect::heading_text(&h), 120)})
                })
                .filter(|h| h["text"].as_str().is_some_and(|t| !t.is_empty()))
                .take(MAX_HEADINGS)
                .collect()
        })
        .unwrap_or_default();
    let main = document
        .query_selector("main, [role=main], article")
        .ok()
        .flatten()
        .or_else(|| document.body().map(Into::into));
    // Read a little past the snippet's length, so that the cut falls at a word.
    let text = main
        .map(|m| crate::detect::page_text(&m, SNIPPET_CHARS * 2))
        .unwrap_or_default();
    json!({
        "title": document.title(),
        "url": document.url().unwrap_or_default(),
        "headings": headings,
        "snippet": words(&text, SNIPPET_CHARS),
    })
}

/// Scrolls the window, or `target`'s nearest scrollable container (itself included); `None` in a
/// frame without a window.
pub fn scroll(target: Option<&Element>, direction: ScrollDirection) -> Option<Value> {
    let window = web_sys::window()?;
    let container = target.and_then(scrollable_container);
    let (height, top_before, full) = match &container {
        Some(c) => (
            c.client_height() as f64,
            c.scroll_top() as f64,
            c.scroll_height() as f64,
        ),
        None => {
            let document = window.document()?;
            let full = document
                .scrolling_element()
                .or_else(|| document.document_element())
                .map_or(0.0, |e| e.scroll_height() as f64);
            let height = window
                .inner_height()
                .ok()
                .and_then(|h| h.as_f64())
                .unwrap_or(600.0);
            (height, window.scroll_y().unwrap_or(0.0), full)
        }
    };
    let page = height * 0.8;
    // Where the scroll ends, within the page: a page that scrolls smoothly is still on its way when
    // this returns, so the answer says where it goes rather than where it is.
    let to = match direction {
        ScrollDirection::Up => top_before - page,
        ScrollDirection::Down => top_before + page,
        ScrollDirection::Top => 0.0,
        ScrollDirection::Bottom => full - height,
    }
    .clamp(0.0, (full - height).max(0.0));
    match &container {
        Some(c) => c.set_scroll_top(to as i32),
        None => window.scroll_to_with_x_and_y(window.scroll_x().unwrap_or(0.0), to),
    }
    let moved = (to - top_before).abs() >= 1.0;
    Some(json!({"scrolled": moved, "at_top": to <= 0.5, "container": container.is_some()}))
}

/// The nearest container around `element` (not itself) that scrolls its content, short of the page.
pub fn inner_scroller(element: &Element) -> Option<Element> {
    let container = scrollable_container(&element.parent_element()?)?;
    let document = container.owner_document()?;
    let page = document.scrolling_element().is_some_and(|s| s == container);
    let body = document.body().map(Element::from);
    (!page && Some(&container) != body.as_ref()).then_some(container)
}

/// The element itself if it scrolls, or its nearest ancestor that does.
fn scrollable_container(element: &Element) -> Option<Element> {
    let window = web_sys::window()?;
    let mut current = Some(element.clone());
    while let Some(e) = current {
        if e.scroll_height() > e.client_height() + 1 {
            let overflow = window
                .get_computed_style(&e)
                .ok()
                .flatten()
                .and_then(|s| s.get_property_value("overflow-y").ok())
                .unwrap_or_default();
            if matches!(overflow.as_str(), "auto" | "scroll" | "overlay") {
                return Some(e);
            }
        }
        current = e.parent_element();
    }
    None
}

/// Presses a key on `target` (or the focused element): the key events a keyboard sends, with their
/// legacy codes (`act::keys`), then what the browser would do for the keys that matter, which
/// synthetic events alone never do: Enter submits a field's form or activates a button or link; Space
/// toggles; Tab and Shift+Tab move the focus; ContextMenu and Shift+F10 open the page's context menu; a
/// character, Backspace or Delete edits a text field; the arrows, Home and End move a native slider or
/// number field, and the arrows a native list's choice.
pub fn press(document: &Document, target: Option<&Element>, key: &str) -> Result<Value, PageReason> {
    let key = Key::parse(key).ok_or_else(|| PageReason::UnknownKey { key: key.to_owned() })?;
    let element = match target {
        Some(t) => {
            if let Some(h) = t.dyn_ref::<HtmlElement>() {
                let _ = h.focus();
            }
            t.clone()
        }
        None => crate::act::deep_active_element(document)
            .or_else(|| document.body().map(Into::into))
            .ok_or(PageReason::NoDocument)?,
    };
    let default_allowed = key_down(&element, &key);
    let effect = if default_allowed {
        default_action(document, &element, &key)
    } else {
        "none"
    };
    key_up(&element, &key);
    Ok(json!({"key": key.name(), "effect": effect}))
}

/// What the browser does after a key the page did not cancel; the effect's name for the answer.
fn default_action(document: &Document, element: &Element, key: &Key) -> &'static str {
    let tag = element.local_name();
    let html = element.dyn_ref::<HtmlElement>();
    let input_type = element
        .dyn_ref::<HtmlInputElement>()
        .map(|i| i.type_().to_lowercase());
    let text_field = match input_type.as_deref() {
        Some(t) => !matches!(
            t,
            "checkbox" | "radio" | "submit" | "button" | "reset" | "image" | "file" | "range" | "color"
        ),
        None => tag == "textarea" || html.is_some_and(|h| h.is_content_editable()),
    };
    let plain = !key.command();
    match key.key.as_str() {
        "ContextMenu" if plain => context_menu(element),
        "F10" if key.shift && !key.ctrl && !key.alt && !key.meta => context_menu(element),
        "Tab" if !key.ctrl && !key.alt && !key.meta && focus_step(document, element, !key.shift) => {
            "focus moved"
        }
        // The browser's implicit submission, exactly as the gate's preview described it
        // (`effect::implicit_submission`): a click on the form's default button, or the form sent
        // as it is when it has one field and no button.
        "Enter" if plain && tag == "input" => match crate::effect::implicit_submission(element) {
            Some((_, Some(button))) => match button.dyn_ref::<HtmlElement>() {
                Some(b) => {
                    b.click();
                    "submitted"
                }
                None => "none",
            },
            Some((form, None)) if crate::forms::request_submit(&form) => "submitted",
            _ => "none",
        },
        "Enter" if plain && matches!(tag.as_str(), "a" | "button" | "summary") => activate(html),
        " " if plain && matches!(tag.as_str(), "button" | "summary") => activate(html),
        " " if plain
            && matches!(
                input_type.as_deref(),
                Some("checkbox" | "radio" | "button" | "submit" | "reset")
            ) =>
        {
            activate(html)
        }
        "ArrowUp" | "ArrowDown" | "ArrowLeft" | "ArrowRight" | "Home" | "End" | "PageUp" | "PageDown"
            if plain && matches!(input_type.as_deref(), Some("range" | "number")) =>
        {
            step_number(element, &key.key)
        }
        "ArrowUp" | "ArrowDown" if plain && tag == "select" => step_choice(element, key.key == "ArrowDown"),
        "Backspace" | "Delete" if plain && text_field => edit(
            document,
            element,
            if key.key == "Delete" {
                "forwardDelete"
            } else {
                "delete"
            },
            None,
        ),
        _ if plain && key.printable() && text_field && !matches!(tag.as_str(), "a" | "button") => {
            edit(document, element, "insertText", Some(&key.key))
        }
        _ => "none",
    }
}

fn activate(html: Option<&HtmlElement>) -> &'static str {
    match html {
        Some(h) => {
            h.click();
            "activated"
        }
        None => "none",
    }
}

/// The page's context menu at the focused element, as the ContextMenu key or Shift+F10 asks for it:
/// a `contextmenu` event at the element's place (the browser's own menu is not opened by it).
fn context_menu(element: &Element) -> &'static str {
    let rect = element.get_bounding_client_rect();
    let init = web_sys::MouseEventInit::new();
    init.set_bubbles(true);
    init.set_cancelable(true);
    init.set_composed(true);
    init.set_client_x((rect.left() + rect.width().min(20.0) / 2.0) as i32);
    init.set_client_y((rect.top() + rect.height() / 2.0) as i32);
    init.set_view(web_sys::window().as_ref());
    match web_sys::MouseEvent::new_with_mouse_event_init_dict("contextmenu", &init) {
        Ok(event) => {
            let _ = element.dispatch_event(&event);
            "context menu"
        }
        Err(_) => "none",
    }
}

/// An edit in the focused text field as typing makes it: `beforeinput` (an editor with a model of
/// its own cancels it and edits itself), then the browser's editor, which sends `input`.
fn edit(document: &Document, element: &Element, command: &str, value: Option<&str>) -> &'static str {
    let editor: &web_sys::HtmlDocument = document.unchecked_ref();
    let input_type = match command {
        "insertText" => "insertText",
        "forwardDelete" => "deleteContentForward",
        _ => "deleteContentBackward",
    };
    if !crate::act::input_event(element, "beforeinput", input_type, value.unwrap_or_default()) {
        return "edited";
    }
    let done = match value {
        Some(v) => editor.exec_command_with_show_ui_and_value(command, false, v),
        None => editor.exec_command(command),
    };
    if done.unwrap_or(false) {
        "edited"
    } else {
        "none"
    }
}

/// An arrow, Home, End, PageUp or PageDown on a native slider or number field: its value moved as
/// the browser moves it, with `input` and `change`.
fn step_number(element: &Element, key: &str) -> &'static str {
    let Some(input) = element.dyn_ref::<HtmlInputElement>() else {
        return "none";
    };
    let before = input.value();
    // `stepUp` and `stepDown` keep the value within the field's bounds and steps, as the keys do.
    let step = |method: &str, times: u32| {
        js_sys::Reflect::get(input, &method.into())
            .ok()
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
            .is_some_and(|f| f.call1(input, &times.into()).is_ok())
    };
    let done = match key {
        "ArrowUp" | "ArrowRight" => step("stepUp", 1),
        "ArrowDown" | "ArrowLeft" => step("stepDown", 1),
        "PageUp" => step("stepUp", 10),
        "PageDown" => step("stepDown", 10),
        "Home" => {
            input.set_value(&input.min());
            true
        }
        _ => {
            input.set_value(&input.max());
            true
        }
    };
    if !done || input.value() == before {
        return "none";
    }
    fire(element, "input");
    fire(element, "change");
    "value changed"
}

/// An arrow on a native list: the next or previous option chosen, with `input` and `change`.
fn step_choice(element: &Element, down: bool) -> &'static str {
    let Some(select) = element.dyn_ref::<web_sys::HtmlSelectElement>() else {
        return "none";
    };
    let at = select.selected_index();
    let next = if down { at + 1 } else { at - 1 };
    if next < 0 || next >= select.length() as i32 {
        return "none";
    }
    select.set_selected_index(next);
    fire(element, "input");
    fire(element, "change");
    "value changed"
}

fn fire(element: &Element, kind: &str) {
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    if let Ok(event) = web_sys::Event::new_with_event_init_dict(kind, &init) {
        let _ = element.dispatch_event(&event);
    }
}

/// Moves the focus to the next (or previous) element in the document's tab order.
fn focus_step(document: &Document, from: &Element, forward: bool) -> bool {
    const FOCUSABLE: &str = "a[href], button:not([disabled]), input:not([disabled]):not([type=hidden]), \
        select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex='-1'])";
    let Ok(list) = document.query_selector_all(FOCUSABLE) else {
        return false;
    };
    let all: Vec<HtmlElement> = (0..list.length())
        .filter_map(|i| list.item(i)?.dyn_into().ok())
        .collect();
    let at = all.iter().position(|e| AsRef::<Element>::as_ref(e) == from);
    let next = match (at, forward) {
        (Some(i), true) => i + 1,
        (None, true) => 0,
        (Some(i), false) => match i.checked_sub(1) {
            Some(p) => p,
            None => return false,
        },
        (None, false) => match all.len().checked_sub(1) {
            Some(p) => p,
            None => return false,
        },
    };
    all.get(next).is_some_and(|e| e.focus().is_ok())
}

/// Resolves once the document is loaded and has not changed for [`QUIET_MS`], or after `max_ms`.
pub async fn settle(max_ms: u32) -> Value {
    let Some(window) = web_sys::window() else {
        return json!({"settled": false});
    };
    let Some(document) = window.document() else {
        return json!({"settled": false});
    };
    let performance = window.performance();
    let now = move || {
        performance
            .as_ref()
            .map(|p| p.now())
            .unwrap_or_else(js_sys::Date::now)
    };
    let start = now();
    let last_change = Rc::new(Cell::new(start));
    let observer = {
        let last_change = last_change.clone();
        let now = now.clone();
        let callback = Closure::<dyn FnMut()>::new(move || last_change.set(now()));
        let observer = web_sys::MutationObserver::new(callback.as_ref().unchecked_ref()).ok();
        if let (Some(o), Some(root)) = (&observer, document.document_element()) {
            crate::dom::observe_everything(o, &root);
        }
        (observer, callback)
    };
    let settled = loop {
        let t = now();
        if document.ready_state() == "complete" && t - last_change.get() >= QUIET_MS {
            break true;
        }
        if t - start >= max_ms as f64 {
            break false;
        }
        gloo_timers::future::TimeoutFuture::new(50).await;
    };
    if let Some(o) = &observer.0 {
        o.disconnect();
    }
    json!({"settled": settled, "waited_ms": (now() - start).round()})
}

/// Collapses white space and cuts at a word boundary near `max` characters.
fn words(text: &str, max: usize) -> String {
    let joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if joined.chars().count() <= max {
        return joined;
    }
    let cut: String = joined.chars().take(max).collect();
    let cut = cut
        .rsplit_once(' ')
        .map_or(cut.as_str(), |(head, _)| head)
        .to_string();
    format!("{cut}…")
}
