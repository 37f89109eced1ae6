//! Acting on one element the way a person would: click (pointer and mouse events, then the element's
//! own activation), type (so that frameworks such as React see the change), select an option by its
//! label or value, move the keyboard focus. Acting where the control is drawn, as a pointer and a
//! keyboard would (`act_by_index`, the last resort), is `pointer.rs`'s. Page text is data: nothing here
//! interprets it.
//!
//! Must not: act on anything but the element it was given (a covering element or another control
//! inside it is never clicked instead), or decide whether an action is allowed (the gate did).

pub mod keys;
mod pointer;
mod value;

use wasm_bindgen::{JsCast, JsValue};
use waymark_protocol::ActFailure;
use web_sys::{Element, HtmlElement, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};

pub use pointer::{context_click, hover, pointer_click, pointer_select, pointer_type};
pub use value::set_value;

use crate::dom::{composed_contains, composed_parent, query};

/// Why an action could not be done, typed (the service worker says it in the user's language).
pub type ActError = ActFailure;

/// The input types that take no text (a checkbox, a button, a file chooser…).
const TEXTLESS_INPUTS: [&str; 9] = [
    "checkbox", "radio", "submit", "button", "reset", "image", "file", "range", "color",
];

/// Clicks `element` as a person's mouse does: the whole pointer sequence (over, enter, move, down,
/// focus, up, click, with coordinates, button, buttons and detail) at a visible point of it. Only where
/// no point of it can be reached (something covers it, or it is not drawn on screen) the events go to
/// the element itself and its own activation runs (`click()`).
pub fn click(element: &Element) -> Result<(), ActError> {
    match pointer::aim(element) {
        Ok((target, x, y)) => {
            pointer::click_at(&target, element, x, y);
            Ok(())
        }
        Err(ActFailure::Covered { .. } | ActFailure::OffScreen) => element_click(element),
        Err(other) => Err(other),
    }
}

/// The fallback of [`click`]: mouse events at the control's centre, then its own activation.
fn element_click(element: &Element) -> Result<(), ActError> {
    let rect = element.get_bounding_client_rect();
    let (x, y) = (rect.left() + rect.width() / 2.0, rect.top() + rect.height() / 2.0);
    // A pointer at the centre lands on the topmost element there. When that is a part of the control
    // (jQuery UI tabs number the `li[role=tab]` but listen on its inner `<a>`), the events and the
    // activation go to that part, as a real click's would; a covering element that is not part of the
    // control, or another control inside it (a row's "Delete" button), is never clicked instead.
    let target = element
        .owner_document()
        .and_then(|d| topmost_at(&d, x, y))
        .filter(|hit| hit != element && part_of(element, hit))
        .and_then(|hit| html_within(&hit, element))
        .unwrap_or_else(|| element.clone());
    let html = target.dyn_ref::<HtmlElement>().ok_or(ActFailure::NotClickable)?;
    // Pages listen for any of these; `click()` then runs the element's default action (follow the link,
    // toggle the checkbox, submit the form) exactly once.
    for kind in ["pointerdown", "mousedown", "pointerup", "mouseup"] {
        dispatch_mouse(&target, kind, x, y);
    }
    focus_from(&target, element);
    html.click();
    Ok(())
}

/// Replaces the field's text with `text` the way typing does: the field focused, what it holds
/// selected, and the text inserted through the browser's editor (`insertText`: the browser itself sends
/// `beforeinput` and `input` with `inputType: insertText`, which editors such as ProseMirror and
/// CodeMirror, and frameworks' value tracking, take as typing). Where the editor does not take it (a
/// page that cancels `beforeinput`, a field it does not manage) the value is set through the native
/// setter and an `input` event sent, so React-style value tracking still sees a change.
pub fn type_text(element: &Element, text: &str) -> Result<(), ActError> {
    scroll_into_view(element);
    let document = element.owner_document().ok_or(ActFailure::Detached)?;
    let editor: &web_sys::HtmlDocument = document.unchecked_ref();
    if let Some(input) = element.dyn_ref::<HtmlInputElement>() {
        if TEXTLESS_INPUTS.contains(&input.type_().to_lowercase().as_str()) {
            return Err(ActFailure::NotTextField);
        }
        let _ = input.focus();
        input.select();
        if !insert_text(element, editor, text) || input.value() != text {
            // The isolated world's setter is the native one, so frameworks that track the value through
            // their own setter see a difference and report the change on the input event.
            input.set_value(text);
            dispatch(element, "input")?;
        }
    } else if let Some(area) = element.dyn_ref::<HtmlTextAreaElement>() {
        let _ = area.focus();
        area.select();
        if !insert_text(element, editor, text) || area.value() != text {
            area.set_value(text);
            dispatch(element, "input")?;
        }
    } else if element
        .dyn_ref::<HtmlElement>()
        .is_some_and(|h| h.is_content_editable())
    {
        let html = element.dyn_ref::<HtmlElement>().ok_or(ActFailure::NotTextField)?;
        let _ = html.focus();
        // execCommand goes through the editor, so undo and the page's input listeners work.
        let _ = editor.exec_command("selectAll");
        if !insert_text(element, editor, text) {
            element.set_text_content(Some(text));
        }
        return Ok(());
    } else {
        return Err(ActFailure::NotTextField);
    }
    dispatch(element, "change")?;
    Ok(())
}

/// Inserts `text` where the selection is, as typing does: `beforeinput` first (an editor that keeps
/// its own model, such as Lexical or Slate, cancels it and inserts the text itself), then, unless it
/// was cancelled, the browser's editor (`insertText`, which changes the DOM and sends `input`; an
/// empty text deletes the selection). Whether the text went in by one way or the other.
pub(crate) fn insert_text(target: &Element, editor: &web_sys::HtmlDocument, text: &str) -> bool {
    let kind = if text.is_empty() {
        "deleteContentBackward"
    } else {
        "insertText"
    };
    if !input_event(target, "beforeinput", kind, text) {
        return true;
    }
    if text.is_empty() {
        editor.exec_command("delete").unwrap_or(false)
    } else {
        editor
            .exec_command_with_show_ui_and_value("insertText", false, text)
            .unwrap_or(false)
    }
}

/// An `InputEvent` of `kind` (`beforeinput`, `input`) saying `data` goes in as `input_type`; whether
/// the page let it be (did not cancel it). The type is not among web-sys's enabled features, so it is
/// built through its constructor.
pub(crate) fn input_event(target: &Element, kind: &str, input_type: &str, data: &str) -> bool {
    let Some(window) = web_sys::window() else {
        return true;
    };
    let init = js_sys::Object::new();
    for (key, value) in [
        ("bubbles", JsValue::TRUE),
        ("cancelable", JsValue::from_bool(kind == "beforeinput")),
        ("composed", JsValue::TRUE),
        ("inputType", input_type.into()),
        (
            "data",
            if data.is_empty() {
                JsValue::NULL
            } else {
                data.into()
            },
        ),
    ] {
        let _ = js_sys::Reflect::set(&init, &key.into(), &value);
    }
    let event = js_sys::Reflect::get(&window, &"InputEvent".into())
        .ok()
        .and_then(|c| c.dyn_into::<js_sys::Function>().ok())
        .and_then(|c| js_sys::Reflect::construct(&c, &js_sys::Array::of2(&kind.into(), &init)).ok())
        .and_then(|e| e.dyn_into::<web_sys::Event>().ok());
    match event {
        Some(event) => target.dispatch_event(&event).unwrap_or(true),
        None => true,
    }
}

/// Selects the option whose label (or value) matches `wanted`, ignoring case and spaces: an exact match
/// first, then the only option that contains it ([`crate::effect::match_option`], which the gate's
/// preview used too). Returns the chosen label.
pub fn select(element: &Element, wanted: &str) -> Result<String, ActError> {
    let select = element
        .dyn_ref::<HtmlSelectElement>()
        .ok_or(ActFailure::NotAList)?;
    let (chosen, label) = crate::effect::match_option(select, wanted)?;
    scroll_into_view(element);
    let _ = select.focus();
    select.set_selected_index(chosen as i32);
    dispatch(element, "input")?;
    dispatch(element, "change")?;
    Ok(label)
}

fn scroll_into_view(element: &Element) {
    let options = web_sys::ScrollIntoViewOptions::new();
    options.set_block(web_sys::ScrollLogicalPosition::Center);
    options.set_inline(web_sys::ScrollLogicalPosition::Nearest);
    element.scroll_into_view_with_scroll_into_view_options(&options);
}

fn dispatch(element: &Element, kind: &str) -> Result<(), ActError> {
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    init.set_composed(true);
    let failed = |e: JsValue| ActFailure::Script {
        detail: crate::chrome::error_text(&e),
    };
    let event = web_sys::Event::new_with_event_init_dict(kind, &init).map_err(failed)?;
    element.dispatch_event(&event).map(|_| ()).map_err(failed)
}

fn dispatch_mouse(element: &Element, kind: &str, x: f64, y: f64) {
    let init = web_sys::MouseEventInit::new();
    init.set_bubbles(true);
    init.set_cancelable(true);
    init.set_composed(true);
    init.set_client_x(x as i32);
    init.set_client_y(y as i32);
    init.set_buttons(u16::from(kind.ends_with("down")));
    let event: Result<web_sys::Event, JsValue> = if kind.starts_with("pointer") {
        web_sys::PointerEvent::new_with_event_init_dict(kind, init.unchecked_ref()).map(Into::into)
    } else {
        web_sys::MouseEvent::new_with_mouse_event_init_dict(kind, &init).map(Into::into)
    };
    if let Ok(event) = event {
        let _ = element.dispatch_event(&event);
    }
}

/// What a focus-by-click reaches: the browser focuses the nearest of these around the pointer's target.
const FOCUSABLE: &str = "a[href], area[href], button, input, select, textarea, iframe, summary, \
    [tabindex], [contenteditable]:not([contenteditable=false])";

/// The topmost element at a point of the viewport, looking into open shadow roots (the document only
/// answers with the shadow host).
pub fn topmost_at(document: &web_sys::Document, x: f64, y: f64) -> Option<Element> {
    let mut hit = document.element_from_point(x as f32, y as f32)?;
    // Nested shadow roots: each level answers with its own host until the innermost element.
    for _ in 0..32 {
        let Some(shadow) = crate::chrome::shadow_root(&hit) else {
            break;
        };
        match shadow.element_from_point(x as f32, y as f32) {
            Some(inner) if inner != hit => hit = inner,
            _ => break,
        }
    }
    Some(hit)
}

/// Elements that are controls of their own: a click meant for an outer control must not land on one of
/// these inside it, unless it is the whole of the outer control (a tab whose link fills it).
const CONTROLS: &str = "a[href], button, input, select, textarea, summary, [role=button], [role=link], \
    [role=checkbox], [role=radio], [role=switch], [role=tab], [role=menuitem], [role=option], \
    [role=treeitem], [onclick], [tabindex]:not([tabindex='-1'])";

/// Whether `hit` (inside `control`) is a part of the control rather than another control within it:
/// plain content (text, an icon), or an inner control that says the same as the control (the link that
/// fills a tab).
fn part_of(control: &Element, hit: &Element) -> bool {
    let text = |e: &Element| {
        e.text_content()
            .unwrap_or_default()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut current = Some(hit.clone());
    while let Some(e) = current {
        if &e == control {
            return true;
        }
        if e.matches(CONTROLS).unwrap_or(false) {
            return text(&e) == text(control);
        }
        current = composed_parent(&e);
    }
    false
}

/// `hit` or its nearest HTML ancestor up to `stop` (an SVG icon's path inside a button has no `click()`).
fn html_within(hit: &Element, stop: &Element) -> Option<Element> {
    let mut current = Some(hit.clone());
    while let Some(e) = current {
        if e.dyn_ref::<HtmlElement>().is_some() {
            return Some(e);
        }
        if &e == stop {
            return None;
        }
        current = composed_parent(&e);
    }
    None
}

/// Focuses what a mouse press on `target` would: its nearest focusable ancestor up to `control`, or the
/// control itself.
fn focus_from(target: &Element, control: &Element) {
    let mut current = Some(target.clone());
    while let Some(e) = current {
        if e.matches(FOCUSABLE).unwrap_or(false) && !e.matches(":disabled").unwrap_or(false) {
            if let Some(h) = e.dyn_ref::<HtmlElement>() {
                let _ = h.focus();
                return;
            }
        }
        if &e == control {
            break;
        }
        current = composed_parent(&e);
    }
    if let Some(h) = control.dyn_ref::<HtmlElement>() {
        let _ = h.focus();
    }
}

/// The element with the keyboard focus, looking into open shadow roots (the document only knows the
/// shadow host).
pub fn deep_active_element(document: &web_sys::Document) -> Option<Element> {
    let mut active = document.active_element()?;
    for _ in 0..32 {
        match crate::chrome::shadow_root(&active).and_then(|s| s.active_element()) {
            Some(inner) if inner != active => active = inner,
            _ => break,
        }
    }
    Some(active)
}

/// Where moving the keyboard focus to a control ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FocusMove {
    /// The focus is on the control or inside it.
    Moved,
    /// The control takes the focus, but the page kept it elsewhere.
    Refused,
    /// Neither the control nor a part of it takes the keyboard focus: nothing was done (making it
    /// focusable would mean writing a `tabindex` into the page, which a page could see).
    CannotTakeFocus,
}

/// Moves the keyboard focus to `control`, as Tab would reach it: the control itself when it takes the
/// focus, else its first focusable part (the link inside a tab). Scrolled into view.
pub fn focus_control(control: &Element) -> FocusMove {
    let takes_focus =
        |e: &Element| e.matches(FOCUSABLE).unwrap_or(false) && !e.matches(":disabled").unwrap_or(false);
    let target = if takes_focus(control) {
        control.clone()
    } else if let Some(part) = query(&control.clone().into(), FOCUSABLE)
        .into_iter()
        .find(|e| takes_focus(e) && e.get_client_rects().length() > 0)
    {
        part
    } else {
        return FocusMove::CannotTakeFocus;
    };
    // A frame's document must hold the focus for its element to get it.
    if let Some(window) = web_sys::window() {
        let in_frame = window
            .parent()
            .ok()
            .flatten()
            .is_some_and(|p| !js_sys::Object::is(&p, &window));
        if in_frame {
            let _ = window.focus();
        }
    }
    if let Some(h) = target.dyn_ref::<HtmlElement>() {
        let _ = h.focus();
    }
    scroll_into_view(control);
    let moved = control
        .owner_document()
        .and_then(|d| deep_active_element(&d))
        .is_some_and(|a| composed_contains(control, &a));
    if moved {
        FocusMove::Moved
    } else {
        FocusMove::Refused
    }
}
