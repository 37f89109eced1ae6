//! Text matching for the policy: normalising page words (invisible characters, width, case, dashes),
//! finding whole words and phrases of the word lists in them (Chinese, Japanese and Korean inside short
//! labels), prices, and the risk hints in addresses. Pure and bounded: hostile input cannot make it slow
//! or make it panic. It decides nothing itself; the judges (`judge.rs`) do. The pieces both sides share
//! (invisible characters, apostrophes and dashes, whole words, scripts without spaces) are
//! `waymark_protocol::text`'s; what is the policy's own is here: NFKC, the caps, prices, addresses.

use std::sync::LazyLock;

use unicode_normalization::UnicodeNormalization;
use waymark_protocol::text::{collapse_spaces, is_apostrophe, is_dash, is_invisible};
pub(super) use waymark_protocol::text::{contains_word, is_cjk, percent_decode};

use super::words::{self, WordList};
use super::{CJK_LABEL_MAX_CHARS, LABEL_MAX_CHARS, QUOTE_MAX_CHARS, URL_MAX_CHARS};

/// A risk hint among the words of a normalised text: a word starting with one of [`words::RISK_HINTS`].
pub(super) fn token_hint(norm: &str) -> Option<&'static str> {
    norm.split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
        .find_map(|t| words::RISK_HINTS.iter().copied().find(|h| t.starts_with(h)))
}

/// A risk hint in an address (a page, a form action): in any word of it, host included
/// (`checkout.stripe.com`), or a multi-segment hint such as `account/close`.
pub(super) fn url_hint(url: &str) -> Option<&'static str> {
    let decoded = percent_decode(url);
    let lower = decoded.to_lowercase();
    if let Some(path) = words::RISK_PATHS.iter().copied().find(|p| lower.contains(p)) {
        return Some(path);
    }
    let (spaced, _) = normalize_capped(&camel_spaced(&decoded), URL_MAX_CHARS);
    token_hint(&spaced)
}

/// An obviously destructive path: a path segment, query key or query value starting with a destructive
/// word (`/delete`, `/items/5/remove`, `?action=delete`, `/deleteAccount`), or being one as a whole
/// (`/cancel`, `?action=drop`, `/compte/supprimer`: the delete words of every language the policy
/// knows), or a multi-segment one (`/account/close`). The host is skipped (remove.bg is a site, not an
/// action), and so are words inside a slug (`/how-to-delete-your-account` is an article) and what a
/// search looks for (`?q=delete+files`).
pub(super) fn destructive_path(url: &str) -> Option<&'static str> {
    let decoded = percent_decode(url);
    let rest = match decoded.split_once("://") {
        Some((_, after)) => after.find(['/', '?', '#']).map_or("", |i| &after[i..]),
        None => decoded.as_str(),
    };
    let lower = rest.to_lowercase();
    if let Some(path) = words::DESTRUCTIVE_PATHS
        .iter()
        .copied()
        .find(|p| lower.contains(p))
    {
        return Some(path);
    }
    let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
    let (query, fragment) = query.split_once('#').unwrap_or((query, ""));
    let (path, path_fragment) = path.split_once('#').unwrap_or((path, ""));
    let key_of = |pair: &str| {
        let key = pair.split_once('=').map_or("", |(k, _)| k);
        key.trim_start_matches('_').to_lowercase()
    };
    // What an action-like key asks for is an act, with every delete word (`?action=trash`); what a
    // search looks for is no act at all.
    if let Some(verb) = query
        .split(['&', ';'])
        .filter(|pair| words::ACTION_KEYS.contains(&key_of(pair).as_str()))
        .find_map(|pair| {
            pair.split_once('=')
                .and_then(|(_, value)| segment_verb(value, true))
        })
    {
        return Some(verb);
    }
    let queried = query
        .split(['&', ';'])
        .filter(|pair| !words::SEARCH_KEYS.contains(&key_of(pair).as_str()))
        .flat_map(|pair| pair.split('='));
    let found = path
        .split(['/', ';', '='])
        .chain(queried)
        .chain(
            [fragment, path_fragment]
                .into_iter()
                .flat_map(|f| f.split(['/', '?', '&', '='])),
        )
        .find_map(|segment| segment_verb(segment, false));
    found
}

/// The destructive word a path segment starts with, if any (see [`destructive_path`]); `act`: the
/// segment is what an action-like key asks for, so no delete word names a place there.
fn segment_verb(segment: &str, act: bool) -> Option<&'static str> {
    let (spaced, _) = normalize_capped(&camel_spaced(segment), LABEL_MAX_CHARS);
    let head = spaced
        .split(|c: char| !c.is_alphanumeric())
        .find(|t| !t.is_empty())?;
    if let Some(word) = words::DESTRUCTIVE_PATH_HEADS
        .iter()
        .copied()
        .find(|w| head.starts_with(w))
    {
        return Some(word);
    }
    if let Some(word) = words::DESTRUCTIVE_PATH_WORDS.iter().copied().find(|w| head == *w) {
        return Some(word);
    }
    // The delete verbs of every language, as a whole segment head: `/konto/löschen`, `/удалить`.
    let lexicon: &'static Lexicons = &LEX;
    lexicon
        .delete
        .iter()
        .filter(|t| !t.text.contains(' ') && (act || !words::PATH_NOT_DESTRUCTIVE.contains(&t.text.as_str())))
        .find(|t| t.text == head || (t.cjk && spaced.starts_with(t.text.as_str())))
        .map(|t| t.text.as_str())
}

// ---------------------------------------------------------------------------------------------------
// Word lists, normalised once.

/// Where a text comes from, which decides how strictly words match in it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum TextKind {
    /// A button, submit or link label: every word counts.
    Button,
    /// The label of some other element (a field, a row): short ambiguous words do not count.
    OtherLabel,
    /// Free text such as `text_around`: short ambiguous words do not count.
    FreeText,
}

pub(super) struct Term {
    pub(super) text: String,
    /// Has Chinese, Japanese or Korean characters: may match inside a short label.
    cjk: bool,
    /// In [`words::AMBIGUOUS_SHORT`]: counts on button-like labels only.
    ambiguous: bool,
}

pub(super) struct Lexicons {
    pub(super) pay: Vec<Term>,
    pub(super) delete: Vec<Term>,
    /// Delete words that count only as a whole label ([`words::DELETE_ALONE`]).
    pub(super) delete_alone: Vec<Term>,
    pub(super) send: Vec<Term>,
    pub(super) dismiss: Vec<Term>,
    pub(super) confirm: Vec<Term>,
    pub(super) next: Vec<Term>,
    pub(super) add_to_cart: Vec<Term>,
    pub(super) cookie: Vec<Term>,
    pub(super) captcha: Vec<Term>,
    pub(super) save: Vec<Term>,
    pub(super) published: Vec<Term>,
    pub(super) private: Vec<Term>,
    pub(super) draft: Vec<Term>,
}

impl Lexicons {
    /// The classes that make a label risky by themselves, with what they mean for reasons.
    pub(super) fn risky_classes(&self) -> [(&[Term], &'static str); 3] {
        [
            (&self.pay, "paying, buying, ordering or booking"),
            (&self.delete, "deleting, removing or cancelling something"),
            (&self.send, "sending, publishing or submitting something"),
        ]
    }
}

pub(super) static LEX: LazyLock<Lexicons> = LazyLock::new(|| Lexicons {
    pay: lexicon(words::PAY),
    delete: lexicon(words::DELETE),
    delete_alone: lexicon(words::DELETE_ALONE),
    send: lexicon(words::SEND),
    dismiss: lexicon(words::DISMISS),
    confirm: lexicon(words::CONFIRM),
    next: lexicon(words::NEXT),
    add_to_cart: lexicon(words::ADD_TO_CART),
    cookie: lexicon(words::COOKIE),
    captcha: lexicon(words::CAPTCHA),
    save: lexicon(words::SAVE),
    published: lexicon(words::PUBLISHED),
    private: lexicon(words::PRIVATE),
    draft: lexicon(words::DRAFT),
});

pub(super) fn lexicon(list: WordList) -> Vec<Term> {
    let ambiguous: Vec<String> = words::AMBIGUOUS_SHORT.iter().map(|w| normalize(w)).collect();
    let mut terms: Vec<Term> = list
        .iter()
        .flat_map(|(_, words)| words.iter())
        .map(|w| normalize(w))
        .filter(|w| !w.is_empty())
        .map(|text| Term {
            cjk: text.chars().any(is_cjk),
            ambiguous: ambiguous.contains(&text),
            text,
        })
        .collect();
    // Longest first, so a reason names the most specific phrase ("zahlungspflichtig bestellen", not
    // "bestellen").
    terms.sort_by_key(|t| std::cmp::Reverse(t.text.chars().count()));
    terms
}

/// The longest term of `lex` found in the normalised `text`.
pub(super) fn find<'t>(lex: &'t [Term], text: &str, kind: TextKind) -> Option<&'t str> {
    if text.is_empty() {
        return None;
    }
    let short = text.chars().count() <= CJK_LABEL_MAX_CHARS;
    lex.iter()
        .filter(|t| !t.ambiguous || kind == TextKind::Button)
        .find(|t| {
            if t.cjk && short {
                text.contains(t.text.as_str())
            } else {
                contains_word(text, &t.text)
            }
        })
        .map(|t| t.text.as_str())
}

/// The term of `lex` that is the whole of the normalised `text`.
pub(super) fn find_whole<'t>(lex: &'t [Term], text: &str) -> Option<&'t str> {
    lex.iter().find(|t| t.text == text).map(|t| t.text.as_str())
}

// ---------------------------------------------------------------------------------------------------
// Prices.

/// The first currency amount in a normalised text: a number with a currency sign or code right before
/// or after it (`€84.97`, `84,97 €`, `chf 12.50`, `1 000 ₽`, `49,99 zł`, `¥1,000`, `10,000원`).
pub(super) fn find_amount(text: &str) -> Option<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if !chars[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        let mut end = i + 1;
        // Digits with thousands and decimal separators: "1 000,50", "1'000.50", "84.97".
        while end < chars.len() {
            if chars[end].is_ascii_digit() {
                end += 1;
            } else if matches!(chars[end], '.' | ',' | '\'' | ' ')
                && chars.get(end + 1).is_some_and(char::is_ascii_digit)
            {
                end += 2;
            } else {
                break;
            }
        }
        if let Some(from) = currency_before(&chars, start) {
            return Some(chars[from..end].iter().collect());
        }
        if let Some(to) = currency_after(&chars, end) {
            return Some(chars[start..to].iter().collect());
        }
        i = end;
    }
    None
}

/// Where a currency sign or code ends right before `start` (one space and one dot allowed between:
/// "€ 5", "rs. 499"), as the index where it begins.
pub(super) fn currency_before(chars: &[char], start: usize) -> Option<usize> {
    let mut p = start;
    if p > 0 && chars[p - 1] == ' ' {
        p -= 1;
    }
    if p > 0 && chars[p - 1] == '.' {
        p -= 1;
    }
    let prev = *chars.get(p.checked_sub(1)?)?;
    if words::CURRENCY_SIGNS.contains(&prev) {
        return Some(p - 1);
    }
    words::CURRENCY_CODES.iter().find_map(|code| {
        let code: Vec<char> = code.chars().collect();
        let from = p.checked_sub(code.len())?;
        let boundary = from == 0 || !chars[from - 1].is_alphanumeric();
        (chars[from..p] == code[..] && boundary).then_some(from)
    })
}

/// Where a currency sign or code right after `end` ends (up to two of space, comma, dot between:
/// "84,97 €", "12,- €").
pub(super) fn currency_after(chars: &[char], end: usize) -> Option<usize> {
    let mut q = end;
    for _ in 0..2 {
        if chars.get(q).is_some_and(|c| matches!(c, ' ' | ',' | '.')) {
            q += 1;
        }
    }
    let next = *chars.get(q)?;
    if words::CURRENCY_SIGNS.contains(&next) {
        return Some(q + 1);
    }
    words::CURRENCY_CODES.iter().find_map(|code| {
        let code: Vec<char> = code.chars().collect();
        let to = q + code.len();
        let matches = chars.get(q..to).is_some_and(|s| s == &code[..]);
        let boundary = chars.get(to).is_none_or(|c| !c.is_alphanumeric());
        (matches && boundary).then_some(to)
    })
}

// ---------------------------------------------------------------------------------------------------
// Text normalisation.

/// Normalises for matching: invisible characters dropped (a page must not hide "Delete" as
/// "De\u{200B}lete"), NFKC (full-width and compatibility forms become plain), lowercase, Turkish dotted
/// and dotless i folded to `i`, typographic apostrophes as `'`, dashes and underscores as spaces, one
/// space between words, trimmed.
pub(super) fn normalize(raw: &str) -> String {
    normalize_capped(raw, usize::MAX).0
}

/// [`normalize`], keeping at most `max` characters; also says whether anything was cut.
pub(super) fn normalize_capped(raw: &str, max: usize) -> (String, bool) {
    // Bound the work on huge input before normalising; invisible characters may pad a label, so keep
    // a generous margin before the exact cut below.
    let bounded = max.saturating_mul(4).saturating_add(16);
    let pre: String = raw
        .chars()
        .take(bounded)
        .filter(|c| !is_invisible(*c))
        .map(|c| if is_apostrophe(c) { '\'' } else { c })
        .collect();
    let mut cut = raw.chars().nth(bounded).is_some();
    let mut out = String::with_capacity(pre.len());
    let mut count = 0usize;
    let mut last_space = true;
    let mut prev = '\0';
    for c in pre.nfkc().flat_map(char::to_lowercase) {
        let c = match c {
            'ı' => 'i',
            c if is_dash(c) || c == '_' => ' ',
            c if c.is_whitespace() => ' ',
            c => c,
        };
        // "İ".to_lowercase() is "i" plus a combining dot; Turkish words are matched without it.
        if c == '\u{307}' && prev == 'i' {
            continue;
        }
        if c == ' ' {
            if last_space {
                continue;
            }
            last_space = true;
        } else {
            last_space = false;
        }
        if count == max {
            cut = true;
            break;
        }
        out.push(c);
        count += 1;
        prev = c;
    }
    if out.ends_with(' ') {
        out.pop();
    }
    (out, cut)
}

/// Puts a space where camelCase or a digit turns into a capital (`placeOrderBtn` → `place Order Btn`),
/// so ids and paths split into words.
pub(super) fn camel_spaced(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len() + 8);
    let mut prev_lower = false;
    for c in raw.chars() {
        if c.is_uppercase() && prev_lower {
            out.push(' ');
        }
        prev_lower = c.is_lowercase() || c.is_numeric();
        out.push(c);
    }
    out
}

/// A page-derived string made safe and short for a reason: control characters and line breaks as
/// spaces, whitespace collapsed, at most [`QUOTE_MAX_CHARS`] characters.
pub(super) fn quote(raw: &str) -> String {
    // Straight quotes become typographic ones, so page text cannot close the quotes Waymark's own
    // sentence puts around it ("Click button 'Pay' on bank.example?' …").
    clean(raw, QUOTE_MAX_CHARS).replace('\'', "’").replace('"', "”")
}

/// Control characters and line breaks as spaces, invisible and bidi characters out, whitespace
/// collapsed, at most `max` characters (an ellipsis ends a cut text).
pub(super) fn clean(raw: &str, max: usize) -> String {
    let cleaned: String = raw
        .chars()
        .take(max.saturating_mul(8))
        .filter(|c| !is_invisible(*c))
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let joined = collapse_spaces(&cleaned);
    if joined.chars().count() > max {
        let mut short: String = joined.chars().take(max.saturating_sub(1)).collect();
        short.push('…');
        short
    } else {
        joined
    }
}

/// The Latin letter a Cyrillic or Greek lower-case letter looks like, or the letter itself.
pub(super) fn latin_look_alike(c: char) -> char {
    match c {
        'а' | 'α' => 'a',
        'в' | 'β' => 'b',
        'с' | 'ϲ' => 'c',
        'е' | 'ε' => 'e',
        'һ' => 'h',
        'і' | 'ι' => 'i',
        'ј' => 'j',
        'к' | 'κ' => 'k',
        'м' | 'μ' => 'm',
        'н' | 'η' => 'n',
        'о' | 'ο' => 'o',
        'р' | 'ρ' => 'p',
        'ԛ' => 'q',
        'г' => 'r',
        'ѕ' => 's',
        'т' | 'τ' => 't',
        'у' | 'υ' => 'y',
        'ѵ' | 'ν' => 'v',
        'ԝ' | 'ω' | 'ш' => 'w',
        'х' | 'χ' => 'x',
        other => other,
    }
}
