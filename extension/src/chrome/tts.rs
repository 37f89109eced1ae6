//! Typed binding to `chrome.tts`: Waymark's panel speaking through the system's speech (Speech
//! Dispatcher on Linux, which is also Orca's; SAPI on Windows; the system's voices on macOS) when it is
//! behind the window the user is in, where its live regions are not heard.
//!
//! Must not: be used by the content module (a page's frame has no such API), or speak anything but
//! Waymark's own finished sentences.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// Throws for a malformed option; a missing voice is reported as an `error` event.
    #[wasm_bindgen(catch, js_namespace = ["chrome", "tts"], js_name = speak)]
    fn tts_speak(utterance: &str, options: &JsValue) -> Result<JsValue, JsValue>;

    #[wasm_bindgen(catch, js_namespace = ["chrome", "tts"], js_name = getVoices)]
    fn tts_get_voices() -> Result<JsValue, JsValue>;
}

/// Makes the browser ready to speak: Chromium joins the system's speech on first use, which made the
/// first sentence wait 2 s (Speech Dispatcher, measured under Orca); asking for the voices does it now.
pub fn prepare() {
    if let Err(e) = tts_get_voices() {
        super::log(&format!("chrome.tts.getVoices failed: {}", super::error_text(&e)));
    }
}

/// Speaks `text` in `language` after whatever the extension is saying already (queued, never cut),
/// and calls `failed` once if the browser cannot speak it (Chromium on Linux has no voice without
/// `--enable-speech-dispatcher`), so the caller can say it another way.
pub fn speak(text: &str, language: Option<&str>, failed: impl FnOnce() + 'static) {
    type Listener = Closure<dyn FnMut(JsValue)>;
    type Failed = Rc<RefCell<Option<Box<dyn FnOnce()>>>>;
    // The listener lives until the utterance is over, then frees itself.
    let slot: Rc<RefCell<Option<Listener>>> = Rc::default();
    let keep = slot.clone();
    let failed: Failed = Rc::new(RefCell::new(Some(Box::new(failed))));
    let on_error = failed.clone();
    let listener: Listener = Closure::new(move |event: JsValue| {
        let kind = js_sys::Reflect::get(&event, &"type".into())
            .ok()
            .and_then(|t| t.as_string())
            .unwrap_or_default();
        if kind == "error" {
            let why = js_sys::Reflect::get(&event, &"errorMessage".into())
                .ok()
                .and_then(|t| t.as_string())
                .unwrap_or_default();
            super::log(&format!("the system's speech could not say a sentence: {why}"));
            let failed = on_error.borrow_mut().take();
            if let Some(failed) = failed {
                failed();
            }
        }
        if matches!(kind.as_str(), "end" | "error" | "interrupted" | "cancelled") {
            let keep = keep.clone();
            wasm_bindgen_futures::spawn_local(async move { drop(keep.borrow_mut().take()) });
        }
    });
    let options = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&options, &"enqueue".into(), &true.into());
    if let Some(language) = language {
        let _ = js_sys::Reflect::set(&options, &"lang".into(), &language.into());
    }
    let _ = js_sys::Reflect::set(&options, &"onEvent".into(), listener.as_ref());
    *slot.borrow_mut() = Some(listener);
    if let Err(e) = tts_speak(text, &options) {
        super::log(&format!("chrome.tts.speak failed: {}", super::error_text(&e)));
        slot.borrow_mut().take();
        let failed = failed.borrow_mut().take();
        if let Some(failed) = failed {
            failed();
        }
    }
}
