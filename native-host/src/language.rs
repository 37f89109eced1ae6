//! The user's language for one connection: the browser says it in its hello
//! ([`waymark_protocol::Hello::language`]), and everything the host composes for that browser's user —
//! the gate's questions, the agent's events, errors, tool results (which also reach the model and MCP
//! clients) — is said in it, from the `waymark_i18n` catalogues. English until the hello says otherwise.
//!
//! A command run in a terminal (`waymark-host doctor`, `install`, `uninstall`, the `mcp` proxy's words
//! to its client) has no browser to ask: it speaks the language of the environment's locale
//! ([`Language::from_environment`]).
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

    /// The language of the terminal's user: the first of `LC_ALL`, `LC_MESSAGES` and `LANG` that is
    /// set and not empty (the order POSIX gives them), read through `lookup` (the real environment, or
    /// a test's). `C`, `POSIX` or nothing: English; `ru_RU.UTF-8`: Russian.
    pub fn from_environment(lookup: impl Fn(&str) -> Option<String>) -> Self {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"]
            .into_iter()
            .find_map(|name| lookup(name).filter(|v| !v.trim().is_empty()));
        // `ru_RU.UTF-8@latin`: the language and region come before the codeset and the modifier.
        let tag = locale
            .as_deref()
            .map(|l| l.split(['.', '@']).next().unwrap_or_default().trim())
            .filter(|tag| !tag.is_empty() && *tag != "C" && *tag != "POSIX");
        match tag {
            Some(tag) => Self::of(tag),
            None => Self::default(),
        }
    }

    /// [`Language::from_environment`] of this process's environment.
    pub fn of_this_terminal() -> Self {
        Self::from_environment(|name| std::env::var(name).ok())
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

/// Every language but English that Waymark speaks: the tests that hold a language free of English run
/// for each of them.
#[cfg(test)]
pub(crate) fn other_languages() -> impl Iterator<Item = &'static str> {
    waymark_i18n::languages().filter(|l| *l != waymark_i18n::FALLBACK)
}

/// The words of `text`, said in `language`, that are not that language's: Latin words its catalogue
/// never uses, other than `values` (longer values first, as [`latin_words`] takes them).
#[cfg(test)]
pub(crate) fn foreign_words(text: &str, language: &str, values: &[&str]) -> Vec<String> {
    let mut values: Vec<&str> = values.iter().copied().filter(|v| !v.is_empty()).collect();
    values.sort_by_key(|v| std::cmp::Reverse(v.len()));
    waymark_i18n::foreign_words(text, language, &values)
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
    fn a_terminal_speaks_its_locale_in_posix_order() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| (*v).to_owned())
            }
        };
        let said = |pairs| Language::from_environment(env(pairs)).words().language();
        assert_eq!(said(&[("LANG", "ru_RU.UTF-8")]), "ru");
        assert_eq!(
            said(&[("LC_ALL", "C"), ("LANG", "ru_RU.UTF-8")]),
            "en",
            "LC_ALL beats LANG"
        );
        assert_eq!(said(&[("LC_ALL", "ru_RU.UTF-8"), ("LANG", "en_US.UTF-8")]), "ru");
        assert_eq!(said(&[("LC_MESSAGES", "ru_RU"), ("LANG", "C")]), "ru");
        assert_eq!(
            said(&[("LC_ALL", ""), ("LC_MESSAGES", "ru_UA.KOI8-U@x"), ("LANG", "C")]),
            "ru"
        );
        assert_eq!(said(&[("LANG", "C.UTF-8")]), "en");
        assert_eq!(said(&[("LANG", "POSIX")]), "en");
        assert_eq!(said(&[("LANG", "de_DE.UTF-8")]), "en", "no German catalogue");
        assert_eq!(said(&[]), "en");
    }

    #[test]
    fn latin_words_are_found_outside_the_values() {
        assert_eq!(
            latin_words("Открыть shop.example? Yes или нет, Waymark.", &["shop.example"]),
            ["Yes"]
        );
    }
}
