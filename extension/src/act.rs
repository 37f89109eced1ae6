//! Acting on one element the way a person would: click (pointer and mouse events, then the element's
//! own activation), type (so that frameworks such as React see the change), select an option by its
//! label or value. Page text is data: nothing here interprets it.

use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Element, HtmlElement, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};

/// Why an action could not be done, in words for the user.
pub type ActError = String;

pub fn click(element: &Element) -> Result<(), ActError> {
    scroll_into_view(element);
    let html = element
        .dyn_ref::<HtmlElement>()
        .ok_or("this element cannot be clicked")?;
    let rect = element.get_bounding_client_rect();
    let (x, y) = (rect.left() + rect.width() / 2.0, rect.top() + rect.height() / 2.0);
    // Pages listen for any of these; `click()` then runs the element's default action (follow the link,
    // toggle the checkbox, submit the form) exactly once.
    for kind in ["pointerdown", "mousedown", "pointerup", "mouseup"] {
        dispatch_mouse(element, kind, x, y);
    }
    let _ = html.focus();
    html.click();
    Ok(())
}

/// Replaces the field's text with `text`.
pub fn type_text(element: &Element, text: &str) -> Result<(), ActError> {
    scroll_into_view(element);
    if let Some(input) = element.dyn_ref::<HtmlInputElement>() {
        let kind = input.type_().to_lowercase();
        if matches!(
            kind.as_str(),
            "checkbox" | "radio" | "submit" | "button" | "reset" | "image" | "file" | "range" | "color"
        ) {
            return Err(format!("this is a {kind} control, not a text field"));
        }
        let _ = input.focus();
        // The isolated world's setter is the native one, so frameworks that track the value through
        // their own setter see a difference and report the change on the input event.
        input.set_value(text);
    } else if let Some(area) = element.dyn_ref::<HtmlTextAreaElement>() {
        let _ = area.focus();
        area.set_value(text);
    } else if element
        .dyn_ref::<HtmlElement>()
        .is_some_and(|h| h.is_content_editable())
    {
        let html = element.dyn_ref::<HtmlElement>().ok_or("not an HTML element")?;
        let _ = html.focus();
        let document = element.owner_document().ok_or("the element has no document")?;
        let html_doc: &web_sys::HtmlDocument = document.unchecked_ref();
        // execCommand goes through the editor, so undo and the page's input listeners work.
        let _ = html_doc.exec_command("selectAll");
        if !html_doc
            .exec_command_with_show_ui_and_value("insertText", false, text)
            .unwrap_or(false)
        {
            element.set_text_content(Some(text));
        }
        return Ok(());
    } else {
        return Err("this element does not take text".into());
    }
    dispatch(element, "input")?;
    dispatch(element, "change")?;
    Ok(())
}

/// Selects the option whose label (or value) matches `wanted`, ignoring case and spaces: an exact match
/// first, then the only option that contains it. Returns the chosen label.
pub fn select(element: &Element, wanted: &str) -> Result<String, ActError> {
    let select = element
        .dyn_ref::<HtmlSelectElement>()
        .ok_or("this is not a list of options")?;
    let norm = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase();
    let target = norm(wanted);
    let options = select.options();
    let mut labels = Vec::new();
    let mut exact = None;
    let mut partial = Vec::new();
    for i in 0..options.length() {
        let Some(option) = options
            .item(i)
            .and_then(|o| o.dyn_into::<web_sys::HtmlOptionElement>().ok())
        else {
            continue;
        };
        let label = norm(&option.text());
        labels.push(option.text().trim().to_string());
        if label == target || norm(&option.value()) == target {
            exact.get_or_insert(i);
        } else if label.contains(&target) {
            partial.push(i);
        }
    }
    let chosen = match (exact, partial.as_slice()) {
        (Some(i), _) | (None, &[i]) => i,
        (None, []) => {
            return Err(format!(
                "there is no option \"{wanted}\"; the options are: {}",
                labels.join(", ")
            ))
        }
        (None, _) => {
            let names: Vec<&str> = partial
                .iter()
                .filter_map(|i| labels.get(*i as usize).map(String::as_str))
                .collect();
            return Err(format!(
                "\"{wanted}\" matches several options: {}; say which",
                names.join(", ")
            ));
        }
    };
    scroll_into_view(element);
    let _ = select.focus();
    select.set_selected_index(chosen as i32);
    dispatch(element, "input")?;
    dispatch(element, "change")?;
    Ok(labels.get(chosen as usize).cloned().unwrap_or_default())
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
    let event = web_sys::Event::new_with_event_init_dict(kind, &init).map_err(|e| format!("{e:?}"))?;
    element
        .dispatch_event(&event)
        .map(|_| ())
        .map_err(|e| format!("{e:?}"))
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
