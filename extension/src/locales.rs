//! Loads the user's language into the extension's contexts (service worker, side panel, settings):
//! the catalogues travel as files in the package (`locales/`), not in the wasm (English too: every
//! sentence would otherwise cost wasm size), and are fetched once when a context starts, before it
//! says anything; in the extension's pages, so is every language's `input.ftl`, the words users type.
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
    // Every language's words for commands are asked for now, read after the context's own words;
    // only where the user types (a page: the panel, its window), never by the service worker, which
    // must be ready for the events that woke it.
    let pages = web_sys::window().is_some();
    let heard: Vec<_> = waymark_i18n::languages()
        .filter(|_| pages)
        .map(|language| {
            let url = chrome::extension_url(&format!("locales/{language}/{INPUT}"));
            (language, fetch_url(&url))
        })
        .collect();
    let tag = chrome::ui_language().unwrap_or_default();
    let language = waymark_i18n::best_language(&tag);
    for language in [language, waymark_i18n::FALLBACK] {
        match catalogue(language).await {
            Ok(texts) => {
                wording::set_words(waymark_i18n::Words::from_texts(language, texts));
                break;
            }
            Err(why) => web_sys::console::warn_1(&format!("Waymark: no {language} words: {why}").into()),
        }
    }
    let mut catalogues = Vec::new();
    for (language, fetch) in heard {
        // A language whose file is missing is one whose catalogue did not load either (said above
        // when it is the context's). A `Vec`, as above: one copy of the loading code in the wasm.
        if let Ok(text) = text_of(fetch).await {
            catalogues.push(waymark_i18n::Words::from_texts(language, vec![text]));
        }
    }
    if pages {
        wording::set_heard(wording::heard_in(&catalogues));
    }
}

/// The catalogue file of the words users type (`/да`, «hotovo»): every language's is understood in
/// every context, whatever the browser's language.
const INPUT: &str = "input.ftl";

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
