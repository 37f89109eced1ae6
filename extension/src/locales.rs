//! Loads the user's language into the extension's contexts (service worker, side panel, settings):
//! the catalogues travel as files in the package (`locales/`), not in the wasm (English too: every
//! sentence would otherwise cost wasm size), and are fetched once when a context starts, before it
//! says anything.
//!
//! Must not: hold or choose words (that is `wording`), or fail a context's start: a catalogue that
//! cannot be read leaves the context speaking English, and says why in the console.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use crate::{chrome, wording};

#[wasm_bindgen]
extern "C" {
    /// The global `fetch`, which windows and service workers both have.
    #[wasm_bindgen(js_name = fetch)]
    fn fetch_url(url: &str) -> js_sys::Promise;
}

/// Called by each loader (`sw.js`, `sidepanel.js`, `settings.js`) between the module's start and the
/// context's: speak the browser's UI language from the first sentence on.
#[wasm_bindgen]
pub async fn load_language() {
    let tag = chrome::ui_language().unwrap_or_default();
    let language = waymark_i18n::best_language(&tag);
    for language in [language, waymark_i18n::FALLBACK] {
        match catalogue(language).await {
            Ok(texts) => return wording::set_words(waymark_i18n::Words::from_texts(language, texts)),
            Err(why) => web_sys::console::warn_1(&format!("Waymark: no {language} words: {why}").into()),
        }
    }
}

/// The texts of every catalogue file of `language`, from the package.
async fn catalogue(language: &str) -> Result<Vec<String>, String> {
    // Every file is asked for at once (a fetch starts when it is called), then read in order: the
    // context waits for the slowest file, not for the sum of them.
    let fetches: Vec<_> = waymark_i18n::files(language)
        .into_iter()
        .map(|file| {
            (
                file,
                fetch_url(&chrome::extension_url(&format!("locales/{language}/{file}"))),
            )
        })
        .collect();
    let mut texts = Vec::new();
    for (file, fetch) in fetches {
        texts.push(text_of(fetch).await.map_err(|why| format!("{file}: {why}"))?);
    }
    Ok(texts)
}

async fn text_of(fetch: js_sys::Promise) -> Result<String, String> {
    let response = JsFuture::from(fetch)
        .await
        .map_err(|e| format!("{e:?}"))?
        .dyn_into::<web_sys::Response>()
        .map_err(|_| "not a response".to_owned())?;
    if !response.ok() {
        return Err(format!("HTTP {}", response.status()));
    }
    let text = JsFuture::from(response.text().map_err(|e| format!("{e:?}"))?)
        .await
        .map_err(|e| format!("{e:?}"))?;
    text.as_string().ok_or_else(|| "not text".to_owned())
}
