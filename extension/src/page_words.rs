//! Puts a static page's own words (`wording::side_panel`, `wording::settings_page`) in place when the
//! page starts, in the user's language: the title, `<html lang>`, and each element's text or name.
//!
//! Must not: word anything (`wording` does), or fail the page's start: an element the page lacks is
//! said in the console and passed over, and the page keeps its English there.

use web_sys::Document;

use crate::chrome;
use crate::wording::{self, Attribute, PageWords};

/// Says `words` on `document`.
pub fn apply(document: &Document, words: &PageWords) {
    if let Some(root) = document.document_element() {
        let _ = root.set_attribute("lang", wording::language());
    }
    document.set_title(&words.title);
    for (id, attribute, text) in &words.elements {
        let Some(element) = document.get_element_by_id(id) else {
            chrome::log(&format!("the page lacks #{id}, so it keeps its own words there"));
            continue;
        };
        match attribute {
            Attribute::Text => element.set_text_content(Some(text)),
            Attribute::AriaLabel => {
                let _ = element.set_attribute("aria-label", text);
            }
        }
    }
}
