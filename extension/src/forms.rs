//! A form's own properties — the address it sends to, its method, the window it sends into, its
//! controls, its `requestSubmit` — read as the browser defines them. A form's controls are also its
//! properties by name: in a form holding a control named `action` (WordPress's posts list has a
//! bulk-action list so named), `form.action` is that control, not the address, and a plain binding that
//! expects a string throws in the middle of describing the page. So every read here goes through the
//! getter of `HTMLFormElement.prototype` of the content script's own world, which no page can replace.
//!
//! Must not: read a form's property any other way, or change the form (`request_submit` is the one
//! action, used exactly where the gate judged a submission).

use js_sys::{Function, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Element, HtmlFormElement};

/// The browser's own definition of the form property `name` (a getter's value, or a method), whatever
/// the form's controls are named.
fn builtin(form: &HtmlFormElement, name: &str) -> Option<JsValue> {
    let interface = Reflect::get(&js_sys::global(), &"HTMLFormElement".into()).ok()?;
    let prototype = Reflect::get(&interface, &"prototype".into())
        .ok()?
        .dyn_into::<Object>()
        .ok()?;
    let descriptor = Reflect::get_own_property_descriptor(&prototype, &name.into()).ok()?;
    if descriptor.is_undefined() {
        return None;
    }
    match Reflect::get(&descriptor, &"get".into())
        .ok()
        .and_then(|g| g.dyn_into::<Function>().ok())
    {
        Some(getter) => getter.call0(form).ok(),
        None => Reflect::get(&descriptor, &"value".into()).ok(),
    }
}

fn text(form: &HtmlFormElement, name: &str) -> Option<String> {
    builtin(form, name).and_then(|v| v.as_string())
}

/// Where the form sends, resolved against the document (the document's own address when the form
/// names none).
pub fn action(form: &HtmlFormElement) -> String {
    text(form, "action").unwrap_or_default()
}

/// How the form sends: `get`, `post` or `dialog`.
pub fn method(form: &HtmlFormElement) -> String {
    text(form, "method").unwrap_or_else(|| "get".into())
}

/// The window the form sends into (empty: its own).
pub fn target(form: &HtmlFormElement) -> String {
    text(form, "target").unwrap_or_default()
}

/// The form's controls in tree order, those outside it that name it included.
pub fn controls(form: &HtmlFormElement) -> Vec<Element> {
    builtin(form, "elements")
        .map(|c| js_sys::Array::from(&c))
        .map(|all| all.iter().filter_map(|c| c.dyn_into::<Element>().ok()).collect())
        .unwrap_or_default()
}

/// Sends the form as its own button would (its checks and its `submit` event first). Whether it was
/// asked to.
pub fn request_submit(form: &HtmlFormElement) -> bool {
    builtin(form, "requestSubmit")
        .and_then(|f| f.dyn_into::<Function>().ok())
        .is_some_and(|submit| submit.call0(form).is_ok())
}
