//! Acting as a person's pointer and keyboard would (`act_by_index`): the last resort when the element's
//! own events were not enough, for pages that check where a click lands, listen only for pointer events,
//! or track typing key by key.
//!
//! Must not: click, type or choose anywhere but on the control it was given, a part of it or its
//! label (something covering it is refused, never clicked), or choose an option of another list.

use wasm_bindgen::{JsCast, JsValue};
use waymark_protocol::ActFailure;
use web_sys::{Element, HtmlElement, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};

use super::keys::{key_down, key_up, Key};
use super::{
    dispatch, focus_from, input_event, insert_text, part_of, scroll_into_view, select, topmost_at, ActError,
    TEXTLESS_INPUTS,
};
use crate::dom::{composed_contains, option_label, owned_options, query, OPTIONS};
use crate::plain_text::fold;

/// Whether `hit` is in a `<label>` of `control` (a pointer on a label acts on its control; custom
/// checkboxes hide the input and draw a part of its label instead).
fn is_label_of(hit: &Element, control: &Element) -> bool {
    let Some(label) = hit.closest("label").ok().flatten() else {
        return false;
    };
    let id = control.id();
    composed_contains(&label, control)
        || (!id.is_empty() && label.get_attribute("for").as_deref() == Some(&id))
}

/// Where a pointer lands on `control`: scrolled into view, the centre of its visible part first, then a
/// few points inside it. The element there must be the control, a part of it or its label; anything
/// else is covering it and is never clicked instead (the action was approved for this control).
pub(super) fn aim(control: &Element) -> Result<(Element, f64, f64), ActError> {
    scroll_into_view(control);
    let document = control.owner_document().ok_or(ActFailure::Detached)?;
    let window = web_sys::window().ok_or(ActFailure::Detached)?;
    let size = |v: Result<JsValue, JsValue>| v.ok().and_then(|v| v.as_f64()).unwrap_or(0.0);
    let (vw, vh) = (size(window.inner_width()), size(window.inner_height()));
    let rect = control.get_bounding_client_rect();
    let (l, t) = (rect.left().max(0.0), rect.top().max(0.0));
    let (r, b) = (rect.right().min(vw), rect.bottom().min(vh));
    if r - l < 1.0 || b - t < 1.0 {
        return Err(ActFailure::OffScreen);
    }
    let (cx, cy) = ((l + r) / 2.0, (t + b) / 2.0);
    let (qx, qy) = ((r - l) / 4.0, (b - t) / 4.0);
    let points = [
        (cx, cy),
        (cx - qx, cy),
        (cx + qx, cy),
        (cx, cy - qy),
        (cx, cy + qy),
        (l + 1.0, t + 1.0),
    ];
    let mut cover = None;
    let mut inner_control = false;
    for (x, y) in points {
        let Some(hit) = topmost_at(&document, x, y) else {
            continue;
        };
        if composed_contains(control, &hit) && !part_of(control, &hit) {
            // Another control inside this one (a row's own buttons): try another point.
            inner_control = true;
            continue;
        }
        if composed_contains(control, &hit) || is_label_of(&hit, control) {
            return Ok((hit, x, y));
        }
        // The control does not take pointer events itself (`pointer-events: none`) and the point falls
        // through to its container: the events still start at the control.
        if composed_contains(&hit, control) && hit.local_name() != "body" && hit.local_name() != "html" {
            return Ok((control.clone(), x, y));
        }
        cover.get_or_insert(hit);
    }
    if inner_control && cover.is_none() {
        // Only the control's own inner controls are on top of it: the events start at the control.
        return Ok((control.clone(), cx, cy));
    }
    // No point of it had anything drawn there: it is not on screen.
    let Some(cover) = cover else {
        return Err(ActFailure::OffScreen);
    };
    // What covers it: its tag, and its words when it has any.
    let text = cover.text_content().unwrap_or_default();
    let text: String = text
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .take(60)
        .collect();
    Err(ActFailure::Covered {
        text: Some(text).filter(|t| !t.is_empty()),
        tag: cover.local_name(),
    })
}

/// One pointer or mouse event at (`x`, `y`), as a primary mouse pointer sends it.
fn pointer_event(target: &Element, kind: &str, x: f64, y: f64, button: i16, buttons: u16) -> bool {
    // `*enter` and `*leave` do not bubble; everything else does, across shadow roots like real input.
    let bubbles = !kind.ends_with("enter") && !kind.ends_with("leave");
    let screen = |v: f64, key: &str| {
        let offset = web_sys::window()
            .and_then(|w| js_sys::Reflect::get(&w, &key.into()).ok())
            .and_then(|v| v.as_f64())
            .unwrap_or(0.0);
        (v + offset) as i32
    };
    let event: Result<web_sys::Event, JsValue> = if kind.starts_with("pointer") {
        let init = web_sys::PointerEventInit::new();
        init.set_bubbles(bubbles);
        init.set_cancelable(bubbles);
        init.set_composed(true);
        init.set_client_x(x as i32);
        init.set_client_y(y as i32);
        init.set_screen_x(screen(x, "screenX"));
        init.set_screen_y(screen(y, "screenY"));
        init.set_button(button);
        init.set_buttons(buttons);
        init.set_pointer_id(1);
        init.set_pointer_type("mouse");
        init.set_is_primary(true);
        init.set_width(1);
        init.set_height(1);
        init.set_pressure(if buttons != 0 { 0.5 } else { 0.0 });
        init.set_view(web_sys::window().as_ref());
        web_sys::PointerEvent::new_with_event_init_dict(kind, &init).map(Into::into)
    } else {
        let init = web_sys::MouseEventInit::new();
        init.set_bubbles(bubbles);
        init.set_cancelable(bubbles);
        init.set_composed(true);
        init.set_client_x(x as i32);
        init.set_client_y(y as i32);
        init.set_screen_x(screen(x, "screenX"));
        init.set_screen_y(screen(y, "screenY"));
        init.set_button(button.max(0));
        init.set_buttons(buttons);
        init.set_detail(i32::from(matches!(kind, "mousedown" | "mouseup" | "click")));
        init.set_view(web_sys::window().as_ref());
        web_sys::MouseEvent::new_with_mouse_event_init_dict(kind, &init).map(Into::into)
    };
    match event {
        Ok(event) => target.dispatch_event(&event).unwrap_or(true),
        Err(_) => true,
    }
}

thread_local! {
    /// Where the pointer last was: a real mouse leaves it (`*out`, `*leave`) before entering another
    /// element, which menus that close on leaving rely on.
    static HOVERED: std::cell::RefCell<Option<Element>> = const { std::cell::RefCell::new(None) };
}

/// The pointer comes to (`x`, `y`) on `target`: it leaves where it was, then over, enter and move.
fn arrive(target: &Element, x: f64, y: f64) {
    let before = HOVERED.with_borrow_mut(|h| h.replace(target.clone()));
    if let Some(old) = before.filter(|old| old != target && old.is_connected()) {
        for kind in ["pointerout", "pointerleave", "mouseout", "mouseleave"] {
            pointer_event(&old, kind, x, y, -1, 0);
        }
    }
    for kind in [
        "pointerover",
        "pointerenter",
        "mouseover",
        "mouseenter",
        "pointermove",
    ] {
        pointer_event(target, kind, x, y, -1, 0);
    }
    pointer_event(target, "mousemove", x, y, 0, 0);
}

/// The whole sequence of a mouse click at (`x`, `y`) on `target`: hover, move, press (which focuses,
/// unless the page cancels it), release, click. The click event runs the default action (follow the
/// link, toggle the box, submit the form) as a real one does.
pub(super) fn click_at(target: &Element, control: &Element, x: f64, y: f64) {
    arrive(target, x, y);
    pointer_event(target, "pointerdown", x, y, 0, 1);
    if pointer_event(target, "mousedown", x, y, 0, 1) {
        focus_from(target, control);
    }
    pointer_event(target, "pointerup", x, y, 0, 0);
    pointer_event(target, "mouseup", x, y, 0, 0);
    pointer_event(target, "click", x, y, 0, 0);
}

/// Clicks `control` where it is drawn, with a pointer's full sequence of events.
pub fn pointer_click(control: &Element) -> Result<(), ActError> {
    let (target, x, y) = aim(control)?;
    click_at(&target, control, x, y);
    Ok(())
}

/// Rests the pointer on `control` where it is drawn (over, enter, move), as a person does to open a
/// menu that opens on hover or to show a tooltip.
pub fn hover(control: &Element) -> Result<(), ActError> {
    let (target, x, y) = aim(control)?;
    arrive(&target, x, y);
    Ok(())
}

/// A right click on `control` where it is drawn: the secondary button pressed (which focuses),
/// `contextmenu` (as Linux sends it, while the button is down), released, `auxclick`. A page that
/// offers its own context menu opens it; the browser's own menu is not opened by synthetic events.
pub fn context_click(control: &Element) -> Result<(), ActError> {
    let (target, x, y) = aim(control)?;
    arrive(&target, x, y);
    pointer_event(&target, "pointerdown", x, y, 2, 2);
    if pointer_event(&target, "mousedown", x, y, 2, 2) {
        focus_from(&target, control);
    }
    pointer_event(&target, "contextmenu", x, y, 2, 2);
    pointer_event(&target, "pointerup", x, y, 2, 0);
    pointer_event(&target, "mouseup", x, y, 2, 0);
    pointer_event(&target, "auxclick", x, y, 2, 0);
    Ok(())
}

/// Types `text` into a field as a keyboard would: a click into the field, everything in it selected,
/// then the text inserted through the browser's editor (`insertText`: `beforeinput` and `input` come
/// from the browser itself), or key by key where the editor refuses; `change` at the end, as when the
/// person leaves the field.
pub fn pointer_type(control: &Element, text: &str) -> Result<(), ActError> {
    let input = control.dyn_ref::<HtmlInputElement>();
    if let Some(input) = input {
        if TEXTLESS_INPUTS.contains(&input.type_().to_lowercase().as_str()) {
            return Err(ActFailure::NotTextField);
        }
    }
    let area = control.dyn_ref::<HtmlTextAreaElement>();
    let html = control.dyn_ref::<HtmlElement>().ok_or(ActFailure::NotTextField)?;
    let editable = html.is_content_editable();
    if input.is_none() && area.is_none() && !editable {
        return Err(ActFailure::NotTextField);
    }
    let (target, x, y) = aim(control)?;
    click_at(&target, control, x, y);
    let _ = html.focus();
    let document = control.owner_document().ok_or(ActFailure::Detached)?;
    let editor: &web_sys::HtmlDocument = document.unchecked_ref();
    match (input, area) {
        (Some(i), _) => i.select(),
        (_, Some(a)) => a.select(),
        _ => {
            let _ = editor.exec_command("selectAll");
        }
    }
    let value = || match (input, area) {
        (Some(i), _) => Some(i.value()),
        (_, Some(a)) => Some(a.value()),
        _ => None,
    };
    let inserted = insert_text(control, editor, text);
    // The editor may refuse (a page that cancels `beforeinput`, a field it does not manage): then key by
    // key, each character with its key events and an `input` event saying what was inserted.
    if !inserted || value().is_some_and(|v| v != text) {
        match (input, area) {
            (Some(i), _) => i.set_value(""),
            (_, Some(a)) => a.set_value(""),
            _ => control.set_text_content(None),
        }
        for ch in text.chars() {
            type_char(control, ch, || match (input, area) {
                (Some(i), _) => i.set_value(&format!("{}{ch}", i.value())),
                (_, Some(a)) => a.set_value(&format!("{}{ch}", a.value())),
                _ => {
                    let old = control.text_content().unwrap_or_default();
                    control.set_text_content(Some(&format!("{old}{ch}")));
                }
            });
        }
    }
    dispatch(control, "change")?;
    Ok(())
}

/// One character typed: keydown, keypress (with the key's legacy codes), `beforeinput`, the change
/// itself, `input`, keyup. A page that cancels the keydown or keypress (a field that filters keys) does not get the
/// character, as with a real keyboard.
fn type_char(target: &Element, ch: char, insert: impl FnOnce()) {
    let key = Key::parse(&ch.to_string()).unwrap_or_else(|| Key {
        key: ch.to_string(),
        code: String::new(),
        key_code: 0,
        shift: false,
        ctrl: false,
        alt: false,
        meta: false,
    });
    if key_down(target, &key) && input_event(target, "beforeinput", "insertText", &key.key) {
        insert();
        input_event(target, "input", "insertText", &key.key);
    }
    key_up(target, &key);
}

/// Chooses an option as a person would: a native list gets the focus a click gives it and then the
/// option (the browser's own popup cannot be driven by events); a custom list box (`role=combobox`,
/// `listbox`, a button that opens a menu) is clicked open and the option with that label clicked.
///
/// Only an option of this list is ever clicked: one the control owns (`aria-controls`, `aria-owns`),
/// or else one that its opening put on screen — never an option that was already shown elsewhere on
/// the page (another menu's "Delete forever"). A custom list's options were not visible when the gate
/// judged the choice, so the label must match in full: a part of a label is refused with the whole.
pub fn pointer_select(control: &Element, wanted: &str) -> Result<String, ActError> {
    if control.dyn_ref::<HtmlSelectElement>().is_some() {
        let (target, x, y) = aim(control)?;
        arrive(&target, x, y);
        return select(control, wanted);
    }
    let document = control.owner_document().ok_or(ActFailure::Detached)?;
    let shown = |e: &Element| e.get_client_rects().length() > 0;
    let before: Vec<Element> = query(&document.clone().into(), OPTIONS)
        .into_iter()
        .filter(|o| shown(o))
        .collect();
    pointer_click(control)?;
    let owned: Vec<(Element, String)> = owned_options(control)
        .into_iter()
        .filter(|(o, _)| shown(o))
        .collect();
    let options = if owned.is_empty() {
        query(&document.clone().into(), OPTIONS)
            .into_iter()
            .filter(|o| shown(o) && !before.contains(o))
            .map(|o| {
                let label = option_label(&o);
                (o, label)
            })
            .collect()
    } else {
        owned
    };
    let target = fold(wanted);
    if let Some((option, label)) = options.iter().find(|(_, l)| fold(l) == target) {
        pointer_click(option)?;
        return Ok(label.clone());
    }
    let mut partial: Vec<String> = options
        .iter()
        .filter(|(_, l)| !target.is_empty() && fold(l).contains(&target))
        .map(|(_, l)| l.clone())
        .collect();
    let wanted = wanted.to_owned();
    Err(match partial.len() {
        0 if options.is_empty() => ActFailure::NoOptionsOpened { wanted },
        0 => ActFailure::NoSuchOption {
            wanted,
            options: options.into_iter().map(|(_, l)| l).collect(),
        },
        1 => ActFailure::PartOfOption {
            wanted,
            option: partial.remove(0),
        },
        _ => ActFailure::SeveralOptions {
            wanted,
            options: partial,
        },
    })
}
