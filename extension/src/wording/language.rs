//! Which language the extension speaks: the browser's UI language, set once per context (the panel,
//! the settings page, the service worker) by `locales.rs` before the context says anything.
//!
//! Must not: read the browser itself (`locales.rs` loads the catalogue, so the wording stays plain
//! Rust and unit-testable), or change language in the middle of a conversation on its own.

use std::cell::RefCell;
use std::rc::Rc;

use waymark_i18n::Words;

thread_local! {
    /// English until the context says otherwise: every sentence is said in some language.
    static WORDS: RefCell<Rc<Words>> = RefCell::new(Rc::new(Words::english()));
}

/// Speak these words from now on in this context.
pub fn set_words(words: Words) {
    WORDS.with(|w| *w.borrow_mut() = Rc::new(words));
}

/// Speak `tag` (a BCP 47 tag such as `ru` or `en-US`) from the embedded catalogues (all of them in
/// native builds and tests; English only in the wasm, where `locales.rs` loads the others).
pub fn set_language(tag: &str) {
    set_words(Words::new(tag));
}

/// Say something with this context's words.
pub(crate) fn with_words<T>(f: impl FnOnce(&Words) -> T) -> T {
    f(&words())
}

/// This context's words. One function, not one per sentence: the wasm stays small.
#[inline(never)]
fn words() -> Rc<Words> {
    WORDS.with(|w| w.borrow().clone())
}
