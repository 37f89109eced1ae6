//! Putting an upload's files into a file input, the way the browser's file chooser does (a
//! `DataTransfer`'s `FileList`, then `input` and `change`).
//!
//! Must not: read any file (the host sends the bytes, after the gate's yes), or put files into
//! anything but a file input.

use serde_json::json;
use wasm_bindgen::{JsCast, JsValue};
use waymark_protocol::{ErrorKind, ToolResult};

use super::redraw;
use crate::chrome;
use crate::detect::Found;

/// Puts `files` into the file input `hit` (tab-wide `number`) the way the browser's file chooser does:
/// its `files` become them, and `input` and `change` bubble up, so the page's own script (or its
/// framework) sees the choice.
pub(super) fn upload(
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
pub(super) fn chosen_files(files: &[waymark_protocol::FileData]) -> Result<JsValue, String> {
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
