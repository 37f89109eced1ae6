//! The one answer to "is this field secret?": passwords, one-time codes, PINs and payment card details
//! (number, security code, expiry, holder).
//!
//! Everything that decides what a field's value may do asks [`secret_kind`]: the extension before it
//! reports a field's value in a list, a description or a find (a secret field has no value there), and
//! before a screenshot (a secret field is covered); the host's policy before typing or choosing in a
//! field (a secret field is the user's to fill). One predicate, so those places can never disagree on
//! a field again. It reads [`FieldFacts`], which either side fills with what it knows.
//!
//! What makes a field secret, strongest first:
//! - `type=password`, now or at any time before: a page's "show password" button that switches the
//!   input to `type=text` does not make the password shareable;
//! - `-webkit-text-security` (other than `none`): the page hides what is typed, as for a password;
//! - an `autocomplete` token: `current-password`, `new-password`, `webauthn`, `one-time-code`, `cc-*`;
//! - its value is a card number (13–19 digits passing the Luhn check, `values.rs`), as the side that
//!   can read the value says ([`FieldFacts::card_value`]): a card field labelled in any language;
//! - words, in the 14 languages of the policy (en de fr es it pt nl pl ru uk tr ja zh ko), in the
//!   label, `aria-label` or placeholder, or (whole, after splitting camelCase, `-`, `_` and `.`) in the
//!   `name` or `id`: "Password", "Пароль", `pwd`, `otp`, `2fa`, "PIN", "CVV", "Card number", `ccnum`,
//!   "MM/YY"…; `passport`, `spinner`, `pinned` or `shipping` are not secrets;
//! - "code" fields that ask for a code ("Enter code", "6-digit code", "Код из СМС") or are just "Code"
//!   on a short field, unless the code is a promotion, a gift, an address, a telephone prefix, an
//!   invitation, a parcel or a bank's sort code ("Promo code", "ZIP code", "Country code"…), and never
//!   a `<textarea>` (source code);
//! - a card number's shape, in any language: a text field with `inputmode=numeric` and a `maxlength`
//!   of 15 to 23 (the digits and their group spaces).
//!
//! Word lists are one signal among these: value and structure keep cards and passwords secret on a
//! page whose labels are in a language outside the lists. A search box is never secret by its words ("Search passwords"). Only fields that hold typed or
//! chosen values can be secret: a "Show password" button or a "Remember my PIN" checkbox are not.
//!
//! Must not: do I/O, read the field's value here (a [`Secret`]'s `why` names the rule and the list word
//! that matched, never the value or the page's own text), depend on anything heavy (this crate is
//! compiled into the extension that runs in every frame; the normaliser here is a small hand-written
//! one), or get slow: it runs for every field of a listing, so texts are cut short and word lists are
//! normalised once.

pub mod values;
mod words;

use std::collections::BTreeMap;
use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

use crate::text::{
    ends_whole_at, fold_accent, fold_width, is_apostrophe, is_cjk, is_combining_accent, is_dash,
    is_invisible, word_ranges,
};

/// What kind of secret a field holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SecretKind {
    Password,
    OneTimeCode,
    Pin,
    /// Anything of a payment card: number, CVV/CVC/CSC, expiry, holder.
    Card,
}

/// Everything either side may know about a field. Leave unknown texts empty: every fact is optional.
/// The extension fills it from the element; the host's policy from the element it was given.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FieldFacts<'a> {
    /// The element's tag (`input`, `select`, `textarea`, …), any case; empty when unknown.
    pub tag: &'a str,
    /// The ARIA role, explicit or implied (`textbox`, `searchbox`, `button`, …).
    pub role: &'a str,
    /// The input's type (`password`, `text`, `tel`, …).
    pub input_type: &'a str,
    /// The `autocomplete` attribute, all its tokens.
    pub autocomplete: &'a str,
    /// The `inputmode` attribute (`numeric`, …).
    pub inputmode: &'a str,
    /// The `name` attribute.
    pub name: &'a str,
    /// The `id` attribute (or other identifier-like hints, such as class names, space separated).
    pub id: &'a str,
    /// The accessible name (label).
    pub label: &'a str,
    pub placeholder: &'a str,
    pub aria_label: &'a str,
    /// The `maxlength` attribute, when it is set.
    pub maxlength: Option<u32>,
    /// `-webkit-text-security` is set to something other than `none`.
    pub text_security: bool,
    /// The field has been `type=password` at some time (a "show password" button changed it since).
    pub was_password: bool,
    /// What the field holds is a payment card number ([`values::is_card_number`]): the side that can
    /// read the value says so, and never passes the value itself.
    pub card_value: bool,
}

/// Why a field is secret: its kind, and a short English reason naming the rule ("autocomplete
/// 'one-time-code'", "its label says 'cvv'"). Never the field's value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Secret {
    pub kind: SecretKind,
    pub why: String,
}

impl Secret {
    fn new(kind: SecretKind, why: impl Into<String>) -> Self {
        Self {
            kind,
            why: why.into(),
        }
    }
}

/// Whether the field is secret, of what kind, and why. See the module doc for the rules.
pub fn secret_kind(facts: &FieldFacts<'_>) -> Option<Secret> {
    let tag = keyword(facts.tag);
    let role = keyword(facts.role);
    let input_type = keyword(facts.input_type);
    if !holds_a_value(&tag, &role, &input_type) {
        return None;
    }
    if input_type == "password" {
        return Some(Secret::new(SecretKind::Password, "type=password"));
    }
    if facts.was_password {
        return Some(Secret::new(
            SecretKind::Password,
            "it was a password field (type=password) before the page changed it",
        ));
    }
    if let Some(secret) = by_autocomplete(facts.autocomplete) {
        return Some(secret);
    }
    if facts.card_value {
        return Some(Secret::new(
            SecretKind::Card,
            "it holds a card number (13 to 19 digits that pass the Luhn check)",
        ));
    }
    let texts = Texts::new(facts);
    if facts.text_security {
        // The page hides what is typed: a secret whatever it says, of the kind its words say if any.
        let kind = texts.words().map_or(SecretKind::Password, |s| s.kind);
        return Some(Secret::new(kind, "-webkit-text-security hides what is typed"));
    }
    if role == "searchbox" || input_type == "search" || texts.is_search() {
        return None;
    }
    texts
        .words()
        .or_else(|| texts.code(&tag, &input_type, facts.inputmode, facts.maxlength))
        .or_else(|| by_structure(&tag, &input_type, facts.inputmode, facts.maxlength))
}

/// The `maxlength` of a field made for a card number: its 13 to 19 digits, with room for the spaces
/// of its groups.
const CARD_LENGTHS: std::ops::RangeInclusive<u32> = 15..=23;

/// A card number field by its shape alone, whatever language its label is in: a text field asking for
/// digits (`inputmode=numeric`) as long as a card number. (Telephone fields say `tel`.)
fn by_structure(tag: &str, input_type: &str, inputmode: &str, maxlength: Option<u32>) -> Option<Secret> {
    let text_field = matches!(tag, "input" | "") && matches!(input_type, "" | "text");
    let card_long = maxlength.is_some_and(|m| CARD_LENGTHS.contains(&m));
    (text_field && card_long && keyword(inputmode) == "numeric").then(|| {
        Secret::new(
            SecretKind::Card,
            "it asks for digits (inputmode=numeric) as many as a card number has",
        )
    })
}

/// An attribute's keyword (a tag, role or type) in lower case; a page may put anything there, so only
/// a keyword's length is read.
fn keyword(raw: &str) -> String {
    raw.trim().chars().take(32).flat_map(char::to_lowercase).collect()
}

/// Input types that hold no typed text (their `value` is a label or nothing a user typed).
const NOT_TYPED: &[&str] = &[
    "submit", "button", "image", "reset", "checkbox", "radio", "file", "range", "color", "hidden",
];

/// Roles of elements that activate or choose rather than hold a value.
const NOT_FIELD_ROLES: &[&str] = &[
    "button",
    "link",
    "checkbox",
    "radio",
    "switch",
    "tab",
    "menuitem",
    "menuitemcheckbox",
    "menuitemradio",
    "option",
    "slider",
    "treeitem",
    "gridcell",
    "row",
    "img",
    "heading",
];

/// Whether the element holds a value a user types or chooses. An unknown tag (the policy's input may
/// leave it out) counts unless the role says otherwise; other elements (contenteditable, custom
/// widgets) count when their role is a field's.
fn holds_a_value(tag: &str, role: &str, input_type: &str) -> bool {
    if NOT_TYPED.contains(&input_type) {
        return false;
    }
    match tag {
        "input" | "textarea" | "select" => true,
        "" => !NOT_FIELD_ROLES.contains(&role),
        _ => matches!(role, "textbox" | "searchbox" | "combobox" | "spinbutton"),
    }
}

/// The autocomplete tokens that name a secret.
fn by_autocomplete(autocomplete: &str) -> Option<Secret> {
    let autocomplete: String = autocomplete.chars().take(MAX_CHARS).collect();
    for token in autocomplete.split_whitespace() {
        let token = token.to_lowercase();
        let kind = match token.as_str() {
            "current-password" | "new-password" | "webauthn" => SecretKind::Password,
            "one-time-code" => SecretKind::OneTimeCode,
            t if t.starts_with("cc-") => SecretKind::Card,
            _ => continue,
        };
        let shown: String = token.chars().take(32).collect();
        return Some(Secret::new(kind, format!("autocomplete '{shown}'")));
    }
    None
}

// ---------------------------------------------------------------------------------------------------
// The field's texts, normalised once.

/// A field of at most this many characters (`maxlength`) is short enough to hold a one-time code.
const SHORT_FIELD_MAX: u32 = 12;

struct Texts {
    /// Label-like texts (label, `aria-label`, placeholder), normalised, with what each is called in a
    /// reason.
    labels: Vec<(Text, &'static str)>,
    /// `name` and `id`, normalised as identifiers.
    ids: Vec<Text>,
}

impl Texts {
    fn new(f: &FieldFacts<'_>) -> Self {
        let mut labels: Vec<(Text, &'static str)> = Vec::new();
        for (raw, source) in [
            (f.label, "label"),
            (f.aria_label, "label"),
            (f.placeholder, "placeholder"),
        ] {
            let text = Text::new(raw, false);
            if !text.norm.is_empty() && !labels.iter().any(|(t, _)| t.norm == text.norm) {
                labels.push((text, source));
            }
        }
        let ids = [f.name, f.id]
            .into_iter()
            .map(|raw| Text::new(raw, true))
            .filter(|t| !t.norm.is_empty())
            .collect();
        Self { labels, ids }
    }

    /// The most specific secret word in the texts: the longest matching list word of any kind (so
    /// "one-time password" is a one-time code, not a password), labels before identifiers.
    fn words(&self) -> Option<Secret> {
        let mut best: Option<(usize, Secret)> = None;
        let mut consider = |term: &Term, kind: SecretKind, why: String| {
            let len = term.text.chars().count();
            if best.as_ref().is_none_or(|(l, _)| len > *l) {
                best = Some((len, Secret::new(kind, why)));
            }
        };
        for kind in &LEX.kinds {
            for (text, source) in &self.labels {
                if let Some(term) = kind.labels.find(text) {
                    consider(term, kind.kind, format!("its {source} says '{}'", term.text));
                }
            }
            for id in &self.ids {
                if let Some(term) = kind.ids.find(id) {
                    consider(term, kind.kind, format!("its name or id says '{}'", term.text));
                }
            }
        }
        best.map(|(_, secret)| secret)
    }

    /// A search box by its words: a label that begins with "Search" (in any of the languages), or an
    /// identifier such as `q` or `search…`.
    fn is_search(&self) -> bool {
        let by_label = self.labels.iter().any(|(text, _)| LEX.search.starts(text));
        let by_id = self
            .ids
            .iter()
            .any(|id| LEX.search_ids.contains(&id.norm) || id.norm.split(' ').next() == Some("search"));
        by_label || by_id
    }

    /// A one-time code asked for with the plain word "code": see the module doc.
    fn code(&self, tag: &str, input_type: &str, inputmode: &str, maxlength: Option<u32>) -> Option<Secret> {
        if !matches!(tag, "input" | "") || !matches!(input_type, "" | "text" | "tel" | "number") {
            return None;
        }
        let anywhere = |lex: &Lex| {
            self.labels.iter().any(|(t, _)| lex.find(t).is_some())
                || self.ids.iter().any(|t| lex.find(t).is_some())
        };
        if anywhere(&LEX.not_one_time) {
            return None;
        }
        let inputmode = keyword(inputmode);
        let short = maxlength.is_some_and(|m| (1..=SHORT_FIELD_MAX).contains(&m))
            || matches!(inputmode.as_str(), "numeric" | "tel" | "decimal")
            || matches!(input_type, "number" | "tel");
        for (text, source) in &self.labels {
            if LEX.code.find(text).is_none() {
                continue;
            }
            let asks = [&LEX.enter, &LEX.digits, &LEX.sent]
                .into_iter()
                .any(|lex| lex.find(text).is_some());
            if asks {
                return Some(Secret::new(
                    SecretKind::OneTimeCode,
                    format!("its {source} asks for a code"),
                ));
            }
            if short && is_just_code(&text.norm) {
                return Some(Secret::new(
                    SecretKind::OneTimeCode,
                    format!("its {source} says just 'code', on a short field"),
                ));
            }
        }
        let named_code = self.ids.iter().any(|id| {
            let mut tokens = id
                .norm
                .split(' ')
                .filter(|t| !t.chars().all(|c| c.is_ascii_digit()))
                .filter(|t| !matches!(*t, "input" | "field" | "box" | "value"));
            tokens.next() == Some("code") && tokens.next().is_none()
        });
        if short && named_code {
            return Some(Secret::new(
                SecretKind::OneTimeCode,
                "its name or id says just 'code', on a short field",
            ));
        }
        None
    }
}

/// The label says nothing but "code" (perhaps "Your code:", "Code *").
fn is_just_code(text: &str) -> bool {
    let mut words = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .filter(|w| !LEX.filler.iter().any(|f| f == w));
    let Some(word) = words.next() else {
        return false;
    };
    words.next().is_none() && LEX.code.terms.iter().any(|t| t.text == word)
}

// ---------------------------------------------------------------------------------------------------
// Word lists, normalised once and indexed by their first word, so matching a text costs a look-up per
// word of the text rather than a search per word of the lists (a listing asks for every field).

/// A normalised text with its words (runs of letters and digits) as byte ranges.
struct Text {
    norm: String,
    words: Vec<(usize, usize)>,
    /// Has Chinese, Japanese or Korean characters, so CJK list words may be inside it.
    cjk: bool,
}

impl Text {
    fn new(raw: &str, ids: bool) -> Self {
        let norm = normalize(raw, ids);
        let words = word_ranges(&norm);
        let cjk = norm.chars().any(is_cjk);
        Self { norm, words, cjk }
    }
}

struct Term {
    text: String,
}

/// A word list. A list word matches a text where it stands whole: it begins at the start of one of
/// the text's words and no letter or digit follows it. Words with Chinese, Japanese or Korean
/// characters match anywhere in the text, where words are not spaced.
struct Lex {
    /// Longest first, so the first match names the most specific phrase.
    terms: Vec<Term>,
    /// The other terms, by their first word.
    by_first: BTreeMap<String, Vec<usize>>,
    cjk: Vec<usize>,
}

impl Lex {
    fn new<'w>(words: impl Iterator<Item = &'w str>, ids: bool) -> Self {
        let mut terms: Vec<Term> = Vec::new();
        for word in words {
            let text = normalize(word, ids);
            if !text.is_empty() && !terms.iter().any(|t| t.text == text) {
                terms.push(Term { text });
            }
        }
        terms.sort_by_key(|t| std::cmp::Reverse(t.text.chars().count()));
        let mut by_first: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        let mut cjk = Vec::new();
        for (i, term) in terms.iter().enumerate() {
            match word_ranges(&term.text).first() {
                // Every other list word begins with a letter or digit (a test sees to it).
                Some(&(0, end)) if !term.text.chars().any(is_cjk) => {
                    by_first.entry(term.text[..end].to_owned()).or_default().push(i);
                }
                _ => cjk.push(i),
            }
        }
        Self { terms, by_first, cjk }
    }

    /// The longest list word found in `text`.
    fn find(&self, text: &Text) -> Option<&Term> {
        let mut best: Option<usize> = None;
        let mut note = |i: usize| best = Some(best.map_or(i, |b| b.min(i)));
        for &(start, end) in &text.words {
            let Some(candidates) = self.by_first.get(&text.norm[start..end]) else {
                continue;
            };
            for &i in candidates {
                if ends_whole_at(&text.norm, start, &self.terms[i].text) {
                    note(i);
                }
            }
        }
        if text.cjk {
            for &i in &self.cjk {
                if text.norm.contains(self.terms[i].text.as_str()) {
                    note(i);
                }
            }
        }
        best.and_then(|i| self.terms.get(i))
    }

    /// Whether `text` begins with one of the list words.
    fn starts(&self, text: &Text) -> bool {
        let first = text.words.first().filter(|(start, _)| *start == 0);
        let by_word = first
            .and_then(|&(_, end)| self.by_first.get(&text.norm[..end]))
            .is_some_and(|candidates| {
                candidates
                    .iter()
                    .any(|&i| ends_whole_at(&text.norm, 0, &self.terms[i].text))
            });
        by_word
            || (text.cjk
                && self
                    .cjk
                    .iter()
                    .any(|&i| text.norm.starts_with(self.terms[i].text.as_str())))
    }
}

struct KindTerms {
    kind: SecretKind,
    /// Matched on labels.
    labels: Lex,
    /// Matched on identifiers: the label words and the identifier-only tokens.
    ids: Lex,
}

struct Lexicon {
    kinds: [KindTerms; 4],
    code: Lex,
    enter: Lex,
    digits: Lex,
    sent: Lex,
    not_one_time: Lex,
    search: Lex,
    search_ids: Vec<String>,
    filler: Vec<String>,
}

static LEX: LazyLock<Lexicon> = LazyLock::new(|| {
    let kind = |kind, list: words::WordList, ids: &'static [&'static str]| KindTerms {
        kind,
        labels: Lex::new(all(list), false),
        ids: Lex::new(all(list).chain(ids.iter().copied()), true),
    };
    Lexicon {
        kinds: [
            kind(SecretKind::Password, words::PASSWORD, words::PASSWORD_IDS),
            kind(
                SecretKind::OneTimeCode,
                words::ONE_TIME_CODE,
                words::ONE_TIME_CODE_IDS,
            ),
            kind(SecretKind::Pin, words::PIN, words::PIN_IDS),
            kind(SecretKind::Card, words::CARD, words::CARD_IDS),
        ],
        code: Lex::new(all(words::CODE), false),
        enter: Lex::new(all(words::ENTER), false),
        digits: Lex::new(all(words::DIGITS), false),
        sent: Lex::new(all(words::SENT), false),
        // Also matched on identifiers (`promoCode`): normalised as labels, which is the same for
        // these words.
        not_one_time: Lex::new(all(words::NOT_ONE_TIME), false),
        search: Lex::new(all(words::SEARCH), false),
        search_ids: words::SEARCH_IDS.iter().map(|w| normalize(w, true)).collect(),
        filler: words::FILLER.iter().map(|w| normalize(w, false)).collect(),
    }
});

fn all(list: words::WordList) -> impl Iterator<Item = &'static str> {
    list.iter().flat_map(|(_, words)| words.iter().copied())
}

// ---------------------------------------------------------------------------------------------------
// Text normalisation.

/// Only this much of each text is read: labels are short, and a hostile page must not make a listing
/// slow with a megabyte of label.
const MAX_CHARS: usize = 256;

/// Normalises a text for matching: invisible characters dropped (a page must not hide "Password" as
/// "Pass\u{200B}word"), full-width ASCII folded, camelCase split (`cardNumber` → `card number`),
/// lowercase, accents folded (`contraseña` and `contrasena` match), `-`, `_`, `.` and white space as
/// one space, no space around `/` (`MM / YY` → `mm/yy`), trimmed. With `ids`, a letter followed by a
/// digit is split too (`otp1` → `otp 1`), as identifiers number their parts.
fn normalize(raw: &str, ids: bool) -> String {
    let chars: Vec<char> = raw
        .chars()
        .take(MAX_CHARS)
        .filter(|c| !is_invisible(*c))
        .map(fold_width)
        .collect();
    fn space(out: &mut String) {
        if !out.is_empty() && !out.ends_with(' ') {
            out.push(' ');
        }
    }
    let mut out = String::with_capacity(raw.len().min(MAX_CHARS * 4));
    for (i, &c) in chars.iter().enumerate() {
        if let Some(&prev) = i.checked_sub(1).and_then(|p| chars.get(p)) {
            let next = chars.get(i + 1).copied();
            let camel = (prev.is_lowercase() && c.is_uppercase())
                || (prev.is_uppercase() && c.is_uppercase() && next.is_some_and(char::is_lowercase));
            if camel || (ids && prev.is_alphabetic() && c.is_ascii_digit()) {
                space(&mut out);
            }
        }
        match c {
            c if is_dash(c) || matches!(c, '_' | '.') => space(&mut out),
            c if c.is_whitespace() => space(&mut out),
            c if is_apostrophe(c) => out.push('\''),
            '/' => {
                if out.ends_with(' ') {
                    out.pop();
                }
                out.push('/');
            }
            c => {
                for lower in c.to_lowercase() {
                    // Combining accents go, as precomposed ones are folded below ("İ" lowercases to "i"
                    // and a combining dot, "й" may come as "и" and a breve).
                    if is_combining_accent(lower) {
                        continue;
                    }
                    match fold_accent(lower) {
                        Some(folded) => out.push_str(folded),
                        None => out.push(lower),
                    }
                }
            }
        }
    }
    out.trim().replace("/ ", "/")
}

#[cfg(test)]
mod tests;
