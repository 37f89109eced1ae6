//! Page-level tools in a frame: a short summary of the page, scrolling, key presses, and waiting for
//! the page to settle. Like `act/` it reads page text as data only.

use std::cell::Cell;
use std::rc::Rc;

use serde_json::{json, Value};
use wasm_bindgen::prelude::*;
use waymark_protocol::{PageReason, ScrollDirection};
use web_sys::{Document, Element, HtmlElement};

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
    let (height, top_before) = match &container {
        Some(c) => (c.client_height() as f64, c.scroll_top() as f64),
        None => (
            window
                .inner_height()
                .ok()
                .and_then(|h| h.as_f64())
                .unwrap_or(600.0),
            window.scroll_y().unwrap_or(0.0),
        ),
    };
    let page = height * 0.8;
    let to = match direction {
        ScrollDirection::Up => top_before - page,
        ScrollDirection::Down => top_before + page,
        ScrollDirection::Top => 0.0,
        ScrollDirection::Bottom => f64::MAX / 4.0,
    };
    let top_after = match &container {
        Some(c) => {
            c.set_scroll_top(to.max(0.0) as i32);
            c.scroll_top() as f64
        }
        None => {
            window.scroll_to_with_x_and_y(window.scroll_x().unwrap_or(0.0), to.max(0.0));
            window.scroll_y().unwrap_or(0.0)
        }
    };
    let moved = (top_after - top_before).abs() >= 1.0;
    Some(json!({"scrolled": moved, "at_top": top_after <= 0.5, "container": container.is_some()}))
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

/// Presses a key on `target` (or the focused element): key events, then what the browser would do for
/// the keys that matter (Enter submits a field's form or activates a button or link; Space toggles;
/// Tab moves the focus). Synthetic key events alone do none of that.
pub fn press(document: &Document, target: Option<&Element>, key: &str) -> Result<Value, PageReason> {
    let key = normalize_key(key).ok_or_else(|| PageReason::UnknownKey { key: key.to_owned() })?;
    let element = match target {
        Some(t) => {
            if let Some(h) = t.dyn_ref::<HtmlElement>() {
                let _ = h.focus();
            }
            t.clone()
        }
        None => document
            .active_element()
            .or_else(|| document.body().map(Into::into))
            .ok_or(PageReason::NoDocument)?,
    };
    let mut default_allowed = true;
    for kind in ["keydown", "keypress", "keyup"] {
        if kind == "keypress" && key.chars().count() > 1 && key != "Enter" {
            continue;
        }
        let init = web_sys::KeyboardEventInit::new();
        init.set_key(key);
        init.set_code(&code_of(key));
        init.set_bubbles(true);
        init.set_cancelable(true);
        init.set_composed(true);
        if let Ok(event) = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict(kind, &init) {
            let not_cancelled = element.dispatch_event(&event).unwrap_or(true);
            if kind == "keydown" {
                default_allowed = not_cancelled;
            }
        }
    }
    let mut effect = "none";
    if default_allowed {
        let tag = element.local_name();
        let html = element.dyn_ref::<HtmlElement>();
        match key {
            // The browser's implicit submission, exactly as the gate's preview described it
            // (`effect::implicit_submission`): a click on the form's default button, or the form sent
            // as it is when it has one field and no button.
            "Enter" if tag == "input" => match crate::effect::implicit_submission(&element) {
                Some((_, Some(button))) => {
                    if let Some(b) = button.dyn_ref::<HtmlElement>() {
                        b.click();
                        effect = "submitted";
                    }
                }
                Some((form, None)) => {
                    let sent = crate::forms::request_submit(&form);
                    if sent {
                        effect = "submitted";
                    }
                }
                None => {}
            },
            "Enter" if matches!(tag.as_str(), "a" | "button" | "summary") => {
                if let Some(h) = html {
                    h.click();
                    effect = "activated";
                }
            }
            " " if matches!(tag.as_str(), "button" | "input" | "summary") => {
                if let Some(h) = html {
                    h.click();
                    effect = "activated";
                }
            }
            "Tab" if focus_next(document, &element) => effect = "focus moved",
            _ => {}
        }
    }
    Ok(json!({"key": key, "effect": effect}))
}

fn focus_next(document: &Document, from: &Element) -> bool {
    const FOCUSABLE: &str = "a[href], button:not([disabled]), input:not([disabled]):not([type=hidden]), \
        select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex='-1'])";
    let Ok(list) = document.query_selector_all(FOCUSABLE) else {
        return false;
    };
    let all: Vec<HtmlElement> = (0..list.length())
        .filter_map(|i| list.item(i)?.dyn_into().ok())
        .collect();
    let at = all.iter().position(|e| AsRef::<Element>::as_ref(e) == from);
    let next = at.map_or(0, |i| i + 1);
    all.get(next).is_some_and(|e| e.focus().is_ok())
}

/// Whether `key` is one [`press`] can press: a preview refuses any other before the gate asks about it.
pub fn is_known_key(key: &str) -> bool {
    normalize_key(key).is_some()
}

fn normalize_key(key: &str) -> Option<&'static str> {
    Some(match key.trim().to_lowercase().as_str() {
        "enter" | "return" => "Enter",
        "tab" => "Tab",
        "escape" | "esc" => "Escape",
        "space" | " " => " ",
        "backspace" => "Backspace",
        "delete" | "del" => "Delete",
        "up" | "arrowup" => "ArrowUp",
        "down" | "arrowdown" => "ArrowDown",
        "left" | "arrowleft" => "ArrowLeft",
        "right" | "arrowright" => "ArrowRight",
        "home" => "Home",
        "end" => "End",
        "pageup" => "PageUp",
        "pagedown" => "PageDown",
        _ => return None,
    })
}

fn code_of(key: &str) -> String {
    match key {
        " " => "Space".into(),
        other => other.into(),
    }
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
            let options = web_sys::MutationObserverInit::new();
            options.set_child_list(true);
            options.set_subtree(true);
            options.set_attributes(true);
            options.set_character_data(true);
            let _ = o.observe_with_options(&root, &options);
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
