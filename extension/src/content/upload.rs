//! Putting an upload's files into a file input, the way the browser's file chooser does (a
//! `DataTransfer`'s `FileList`, then `input` and `change`).
//!
//! Must not: read any file (the host sends the bytes, after the gate's yes), or put files into
//! anything but a file input.

use serde_json::json;
use wasm_bindgen::{JsCast, JsValue};
use waymark_protocol::{ErrorKind, PageReason, ToolResult};

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
        let reason = PageReason::NotAFileField {
            number,
            role: found.role().into(),
            name: found.name().into(),
        };
        return ToolResult::refused(ErrorKind::BadArguments, reason);
    };
    if files.is_empty() {
        return ToolResult::refused(ErrorKind::BadArguments, PageReason::NoFiles { number });
    }
    if files.len() > 1 && !input.multiple() {
        let given = u32::try_from(files.len()).unwrap_or(u32::MAX);
        return ToolResult::refused(ErrorKind::BadArguments, PageReason::OneFileOnly { number, given });
    }
    let put = chosen_files(files).and_then(|list| {
        js_sys::Reflect::set(input, &"files".into(), &list).map_err(|e| chrome::error_text(&e))
    });
    if let Err(detail) = put {
        return ToolResult::refused(ErrorKind::Failed, PageReason::FilesNotPut { number, detail });
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
/// `Err` is the browser's error text, or the name of the part of the platform the page lacks.
pub(super) fn chosen_files(files: &[waymark_protocol::FileData]) -> Result<JsValue, String> {
    let global = js_sys::global();
    let constructor = |name: &str| -> Result<js_sys::Function, String> {
        js_sys::Reflect::get(&global, &name.into())
            .ok()
            .and_then(|c| c.dyn_into().ok())
            .ok_or_else(|| name.to_owned())
    };
    let transfer = js_sys::Reflect::construct(&constructor("DataTransfer")?, &js_sys::Array::new())
        .map_err(|e| chrome::error_text(&e))?;
    let items = js_sys::Reflect::get(&transfer, &"items".into()).map_err(|e| chrome::error_text(&e))?;
    let add: js_sys::Function = js_sys::Reflect::get(&items, &"add".into())
        .ok()
        .and_then(|a| a.dyn_into().ok())
        .ok_or("DataTransferItemList.add")?;
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
