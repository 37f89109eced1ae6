//! The browser's own functions, looked up by name once, for calling on many objects in one call from
//! wasm: a prototype's method (`Array.prototype.map`), a getter made into a callback (`x =>
//! x.isConnected`, as `Function.prototype.call.bind(getter)`), an object's method bound to it
//! (`set.add.bind(set)`). With them `array.map(getter)` reads one property of every element in a
//! single crossing, and no script is evaluated (the extension's CSP forbids that anyway). Used where
//! wasm would otherwise cross once per element: boxes (`detect/bulk.rs`), mutation records
//! (`watch.rs`).
//!
//! Must not: decide anything, or be handed a page's object as a prototype (the content script's own
//! globals are its isolated world's, which the page cannot change).

use wasm_bindgen::{JsCast, JsValue};

fn get(target: &JsValue, key: &str) -> Option<JsValue> {
    js_sys::Reflect::get(target, &key.into()).ok()
}

fn function(value: Option<JsValue>) -> Option<js_sys::Function> {
    value?.dyn_into::<js_sys::Function>().ok()
}

/// A global of this world by name (`Object`, `Boolean`, …).
pub fn global(name: &str) -> Option<JsValue> {
    get(&js_sys::global(), name)
}

/// `<name>.prototype`.
pub fn prototype(name: &str) -> Option<JsValue> {
    get(&global(name)?, "prototype")
}

/// A function property of `target` (a prototype's method, or a static function such as
/// `Object.values`), to be called with `call1` on a `this` of its kind.
pub fn method(target: &JsValue, name: &str) -> Option<js_sys::Function> {
    function(get(target, name))
}

/// `f` as a callback taking the object to call it on: `x => f.call(x)` (`Function.prototype.call`
/// bound to `f`). Array methods pass an index and the array too, which the methods and getters used
/// this way ignore.
pub fn on_each(f: &js_sys::Function) -> Option<js_sys::Function> {
    Some(method(&prototype("Function")?, "call")?.bind0(f))
}

/// The getter `name` of `prototype`, as a callback taking the object: `x => x.name`.
pub fn getter(prototype: &JsValue, name: &str) -> Option<js_sys::Function> {
    let descriptor = js_sys::Reflect::get_own_property_descriptor(
        prototype.unchecked_ref::<js_sys::Object>(),
        &name.into(),
    )
    .ok()?;
    on_each(&function(get(&descriptor, "get"))?)
}

/// `object.name.bind(object)`: a method of `object` as a callback (`set.add`, `observer.observe`).
pub fn bound(object: &JsValue, name: &str) -> Option<js_sys::Function> {
    method(object, name).map(|f| f.bind0(object))
}
