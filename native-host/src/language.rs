//! The user's language for one connection: the browser says it in its hello
//! ([`waymark_protocol::Hello::language`]), and everything the host composes for that browser's user —
//! the gate's questions, the agent's events, errors, tool results (which also reach the model and MCP
//! clients) — is said in it, from the `waymark_i18n` catalogues. English until the hello says otherwise.
//!
//! What it must not do: pick a message (callers do), or change the words said to the model as
//! instructions (the system prompt and notes stay English) or the logs (English).

use std::sync::{Arc, RwLock};

use waymark_i18n::Words;

/// The connection's language, shared by its parts (the gate, the agent, the MCP server): set once by
/// the hello, read whenever a sentence is said.
#[derive(Clone)]
pub struct Language(Arc<RwLock<Arc<Words>>>);

impl Default for Language {
    fn default() -> Self {
        Self(Arc::new(RwLock::new(Arc::new(Words::english()))))
    }
}

impl Language {
    /// The language of `tag` (BCP 47), fixed: for tests and for callers that know it.
    pub fn of(tag: &str) -> Self {
        Self(Arc::new(RwLock::new(Arc::new(Words::new(tag)))))
    }

    /// The browser said its language (`None`: it did not, so English).
    pub fn set(&self, tag: Option<&str>) {
        let words = Arc::new(tag.map_or_else(Words::english, Words::new));
        tracing::info!(language = words.language(), "the user's language");
        *self.0.write().unwrap_or_else(|poisoned| poisoned.into_inner()) = words;
    }

    /// The words to say now.
    pub fn words(&self) -> Arc<Words> {
        self.0
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone()
    }
}

/// The words in Latin letters that `text` says, other than `values` (the page's words, addresses, names
/// given to the sentence) and the product's name: a Russian sentence must have none.
#[cfg(test)]
pub(crate) fn latin_words(text: &str, values: &[&str]) -> Vec<String> {
    let mut rest = text.to_owned();
    // Longer values first, so a value inside another ("API" in "OPENAI_API_KEY") does not split it.
    let mut values: Vec<&&str> = values.iter().filter(|v| !v.is_empty()).collect();
    values.sort_by_key(|v| std::cmp::Reverse(v.len()));
    for value in values {
        rest = rest.replace(value, " ");
    }
    rest.split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| w.len() > 1 && *w != "Waymark")
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english_until_the_browser_says_otherwise() {
        let language = Language::default();
        assert_eq!(language.words().language(), "en");
        let shared = language.clone();
        shared.set(Some("ru-RU"));
        assert_eq!(language.words().language(), "ru");
        shared.set(None);
        assert_eq!(language.words().language(), "en");
        assert_eq!(Language::of("de").words().language(), "en");
    }

    #[test]
    fn latin_words_are_found_outside_the_values() {
        assert_eq!(
            latin_words("Открыть shop.example? Yes или нет, Waymark.", &["shop.example"]),
            ["Yes"]
        );
    }
}
