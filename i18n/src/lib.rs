//! The words Waymark says to its user, in the user's language: message catalogues in Fluent's format
//! (`locales/<language>/<area>.ftl`, embedded at build time by `build.rs`), chosen by the browser's UI
//! language, with English as the fallback for a language or a message that has none.
//!
//! Every sentence a person hears from the panel, the settings page or the host is a message here, named
//! by an id and given its values by name; plural forms follow each language's own rules (Russian has
//! one, few, many and other). A third language is a directory of files, not a change to the code.
//!
//! Must not: decide anything (callers pick *which* message; this crate only says it), touch the page,
//! the network or the disk at run time, or panic on a missing message (the id is said instead, and the
//! catalogue tests make that impossible in a build that passed them).

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use unic_langid::LanguageIdentifier;

include!(concat!(env!("OUT_DIR"), "/catalogues.rs"));

#[cfg(test)]
mod tests;

/// The language every message exists in, and the one used when the user's has no catalogue.
pub const FALLBACK: &str = "en";

/// The catalogue files of `language` (`panel.ftl`, …), to load them when they are not embedded.
pub fn files(language: &str) -> Vec<&'static str> {
    CATALOGUES
        .iter()
        .filter(|(tag, _)| *tag == language)
        .flat_map(|(_, files)| files.iter().map(|(name, _)| *name))
        .collect()
}

/// The languages Waymark speaks, as their catalogue directories are named (BCP 47 tags).
pub fn languages() -> impl Iterator<Item = &'static str> {
    CATALOGUES.iter().map(|(tag, _)| *tag)
}

/// The catalogue language that best serves a BCP 47 tag such as `ru`, `ru-RU` or `en-GB`: the same
/// tag, else the same language, else [`FALLBACK`].
pub fn best_language(tag: &str) -> &'static str {
    let tag = tag.trim().replace('_', "-");
    if let Some(exact) = languages().find(|l| l.eq_ignore_ascii_case(&tag)) {
        return exact;
    }
    let wanted = tag
        .parse::<LanguageIdentifier>()
        .map(|id| id.language.as_str().to_ascii_lowercase())
        .unwrap_or_default();
    languages()
        .find(|l| primary(l).eq_ignore_ascii_case(&wanted))
        .unwrap_or(FALLBACK)
}

fn primary(tag: &str) -> &str {
    tag.split('-').next().unwrap_or(tag)
}

/// The values a message is given, by name (`{ $count }` in the catalogue). Numbers stay numbers, so
/// plural forms can be chosen by them.
#[derive(Default)]
pub struct Args<'a>(FluentArgs<'a>);

impl<'a> Args<'a> {
    pub fn new() -> Self {
        Self::default()
    }

    /// This message's value for `name`. Numbers (integers, floats) select plural forms; strings are
    /// said as they are.
    pub fn with(self, name: &'a str, value: impl Into<FluentValue<'a>>) -> Self {
        self.with_value(name, value.into())
    }

    // One copy of the insertion for every caller, not one per call: the extension's wasm has hundreds.
    #[inline(never)]
    fn with_value(mut self, name: &'a str, value: FluentValue<'a>) -> Self {
        self.0.set(name, value);
        self
    }
}

/// One language's messages, ready to say.
pub struct Words {
    language: &'static str,
    bundle: FluentBundle<FluentResource>,
    /// English, for a message the chosen language lacks (never the case in a build whose tests passed).
    fallback: Option<FluentBundle<FluentResource>>,
}

impl Words {
    /// The messages for the browser's UI language `tag` (see [`best_language`]), from the embedded
    /// catalogues. Without the `all-languages` feature only English is embedded (`english`), or none:
    /// use [`Words::from_texts`] for the others.
    pub fn new(tag: &str) -> Self {
        let language = best_language(tag);
        if !is_embedded(language) {
            return Self::english();
        }
        Self::from_texts(language, embedded(language))
    }

    /// The messages of `language` (a catalogue language, see [`best_language`]) from the texts of its
    /// catalogue files, loaded by the caller; English, when embedded, stands behind them (and is used
    /// instead of `texts` for English itself).
    pub fn from_texts<T: AsRef<str>>(language: &str, texts: impl IntoIterator<Item = T>) -> Self {
        let language = languages().find(|l| *l == language).unwrap_or(FALLBACK);
        let english = || bundle(FALLBACK, embedded(FALLBACK));
        if language == FALLBACK {
            let bundle = if is_embedded(FALLBACK) {
                english()
            } else {
                bundle(FALLBACK, texts)
            };
            return Self {
                language,
                bundle,
                fallback: None,
            };
        }
        Self {
            language,
            bundle: bundle(language, texts),
            fallback: is_embedded(FALLBACK).then(english),
        }
    }

    /// English: for MCP clients and logs, whose language Waymark does not know (without any language
    /// embedded, an empty catalogue whose messages are said as their ids until one is loaded).
    pub fn english() -> Self {
        Self::from_texts(FALLBACK, embedded(FALLBACK))
    }

    /// The catalogue language in use (`ru`, `en`).
    pub fn language(&self) -> &'static str {
        self.language
    }

    /// Whether this catalogue has a message `id` (used for messages named at run time, such as roles).
    pub fn has(&self, id: &str) -> bool {
        self.bundle.has_message(id)
    }

    /// Message `id` with its values. A missing message falls back to English, then to the id itself.
    pub fn say(&self, id: &str, args: &Args) -> String {
        let from = |bundle: &FluentBundle<FluentResource>| {
            let pattern = bundle.get_message(id)?.value()?;
            let mut errors = Vec::new();
            Some(
                bundle
                    .format_pattern(pattern, Some(&args.0), &mut errors)
                    .into_owned(),
            )
        };
        from(&self.bundle)
            .or_else(|| self.fallback.as_ref().and_then(from))
            .unwrap_or_else(|| id.to_owned())
    }
}

/// The embedded texts of `language`'s files (none when it is not embedded).
fn embedded(language: &str) -> Vec<&'static str> {
    CATALOGUES
        .iter()
        .filter(|(tag, _)| *tag == language)
        .flat_map(|(_, files)| files.iter().map(|(_, text)| *text))
        .filter(|text| !text.is_empty())
        .collect()
}

fn is_embedded(language: &str) -> bool {
    !embedded(language).is_empty()
}

/// One language's catalogue files in one bundle. A file that does not parse still gives the messages
/// that do (the tests fail the build on any parse error, so this only matters to a translator's draft).
fn bundle<T: AsRef<str>>(language: &str, texts: impl IntoIterator<Item = T>) -> FluentBundle<FluentResource> {
    let id: LanguageIdentifier = language.parse().unwrap_or_default();
    let mut bundle = FluentBundle::new_concurrent(vec![id]);
    // Unicode isolation marks around values are for bidirectional display; screen readers may say
    // them, and Waymark's values are names and numbers in the same direction as the sentence.
    bundle.set_use_isolating(false);
    for text in texts {
        let resource = FluentResource::try_new(text.as_ref().to_owned()).unwrap_or_else(|(r, _)| r);
        // A message defined twice keeps its first definition; the tests forbid that too.
        let _ = bundle.add_resource(resource);
    }
    bundle
}

/// The words of a message that lists what a user may type (`input.ftl`: "готово, сделано"), each
/// in lower case with the spaces around it trimmed (a catalogue writes one space between words): a
/// language brings the words it understands in its catalogue, as it brings the words it says.
pub fn alternatives(said: &str) -> Vec<String> {
    said.split(',')
        .map(|word| word.trim().to_lowercase())
        .filter(|word| !word.is_empty())
        .collect()
}

/// The words of `sentence`, said in `language`, that its catalogue never uses: words in Latin letters
/// only (as English's are) that are none of `values` (names and numbers a sentence carries from the
/// page, the model or the system) nor a command (`/list`). For the tests that hold every language's sentences free of English:
/// a catalogue's own Latin words (command names, key names, `Waymark`) are its language's, whatever
/// its script. Empty for a language that is not embedded.
pub fn foreign_words(sentence: &str, language: &str, values: &[&str]) -> Vec<String> {
    use std::collections::{BTreeMap, BTreeSet};
    use std::sync::OnceLock;
    // Every language's own Latin words, gathered once: the tests ask about thousands of sentences.
    static OWN: OnceLock<BTreeMap<&'static str, BTreeSet<String>>> = OnceLock::new();
    let all = OWN.get_or_init(|| {
        languages()
            .map(|language| {
                let words = embedded(language)
                    .iter()
                    .flat_map(|text| text.lines())
                    .map(said_part)
                    .flat_map(|line| latin_words(&line).map(str::to_lowercase).collect::<Vec<_>>())
                    .collect();
                (language, words)
            })
            .collect()
    });
    let Some(own) = all.get(language).filter(|own| !own.is_empty()) else {
        return Vec::new();
    };
    let mut sentence = sentence.to_owned();
    for value in values {
        sentence = sentence.replace(value, " ");
    }
    // Commands, such as one the user mistyped (`/pnig`), are values too.
    let sentence: Vec<&str> = sentence
        .split_whitespace()
        .filter(|w| !w.trim_start_matches(['(', '«', '„', '"']).starts_with('/'))
        .collect();
    latin_words(&sentence.join(" "))
        .filter(|w| !own.contains(&w.to_lowercase()))
        .map(str::to_owned)
        .collect()
}

/// What a catalogue line says, without its syntax: the id before `=`, a variant's `[key]`, and
/// every `{ … }` (values' and messages' names, the start of a choice), which are English in every
/// language.
fn said_part(line: &str) -> String {
    let mut rest = line.trim_start();
    if let Some((id, said)) = rest.split_once(" =") {
        if !id.contains(' ') && id.starts_with(|c: char| c.is_ascii_lowercase() || c == '-') {
            rest = said;
        }
    }
    let rest = rest.trim_start().trim_start_matches('*');
    let rest = match rest.strip_prefix('[') {
        Some(variant) => variant.split_once(']').map_or("", |(_, said)| said),
        None => rest,
    };
    let mut said = String::new();
    let mut depth = 0usize;
    for c in rest.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            _ if depth == 0 => said.push(c),
            _ => {}
        }
    }
    said
}

/// The words of `text` written in ASCII letters (and digits) only, with at least one letter.
fn latin_words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| w.is_ascii() && w.chars().any(|c| c.is_ascii_alphabetic()))
}

/// Says message `id` of `words` with named values: `say!(words, "pong", ms = 24)`.
#[macro_export]
macro_rules! say {
    ($words:expr, $id:literal $(, $name:ident = $value:expr)* $(,)?) => {{
        #[allow(unused_mut)]
        let mut args = $crate::Args::new();
        $( args = args.with(stringify!($name), $value); )*
        $words.say($id, &args)
    }};
}
