//! Closing the banners that stand between a person and the page: cookie and consent notices (GDPR
//! consent managers included), newsletter and "subscribe" pop-ups, "open in the app" banners. One frame
//! at a time (the worker fans out over the tab's frames); found by structure
//! (visible, fixed or sticky or dialog-like, short: `page.rs`) and by words in many languages
//! (`words.rs`), inside open shadow roots too.
//!
//! The button pressed is the one that gives away least: "reject all" and "only necessary" before
//! "no thanks", "close" and ✕, then saving the (default, off) choices or opening the settings layer of a
//! consent manager (its "reject" is pressed on the next pass), and "accept" only when a cookie notice has
//! no other way to close. Never anything that pays, sends, deletes (the shared list the host's policy
//! asks about, `waymark_protocol::words`), subscribes, installs or leaves the page, and never anything
//! in a form with fields to fill.
//!
//! The choice is plain Rust here ([`kind_of`], [`rank`], [`choose`]), tested natively. Page text is
//! data: it is matched against the lists (`waymark_protocol::text`), never interpreted otherwise.
//! Must not: press anything itself (the gate judges every chosen button first), or keep its own copy
//! of the words the policy asks about.

mod page;
mod words;

use std::sync::LazyLock;

use waymark_protocol::text::{collapse_spaces, contains_phrase, is_apostrophe};
use waymark_protocol::words::{DELETE, PAY, SEND};

pub use page::{find, press, Pick};
use words::{
    ACCEPT, APP, CLOSE, CONSENT_WEAK, COOKIE_STRONG, DISMISS, NEVER, NEWSLETTER, REJECT, SAVE, SETTINGS,
};

/// What a banner is about, from its words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Cookies, consent to tracking, privacy choices.
    Cookie,
    /// A newsletter or "subscribe" pop-up.
    Newsletter,
    /// "Open in the app", "get the app".
    App,
}

/// What pressing a button does to a banner, best last: the derived order is the preference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Choice {
    /// Gives consent: only for a cookie notice that has no other way to close.
    Accept,
    /// Opens a consent manager's second layer, where "reject all" or "save" usually are.
    Settings,
    /// Saves the choices as they stand (off by default under the GDPR).
    Save,
    Close,
    /// "No thanks", "not now", "continue in the browser".
    Dismiss,
    /// "Reject all", "only necessary", "decline".
    Reject,
}

/// Longest text a button label may have: a paragraph is not a button.
const MAX_LABEL_CHARS: usize = 60;

/// The shared words of paying, deleting and sending, normalised once as labels are.
static SHARED_NEVER: LazyLock<Vec<String>> = LazyLock::new(|| {
    [PAY, DELETE, SEND]
        .into_iter()
        .flat_map(|list| list.iter())
        .flat_map(|(_, words)| words.iter())
        .map(|word| normalize(word))
        .filter(|word| !word.is_empty())
        .collect()
});

/// Lower case, spacing collapsed, surrounding punctuation dropped ("No thanks!" → "no thanks").
pub fn normalize(text: &str) -> String {
    let joined = collapse_spaces(text).to_lowercase();
    let trimmed = joined.trim_matches(|c: char| {
        matches!(
            c,
            '.' | '!' | '?' | ':' | '"' | '«' | '»' | '“' | '”' | '>' | '<' | '›' | '‹' | '→'
        )
    });
    // The typographic apostrophe is written several ways on the web.
    trimmed
        .trim()
        .chars()
        .map(|c| if is_apostrophe(c) { '\'' } else { c })
        .collect()
}

fn any_phrase(text: &str, list: &[&str]) -> bool {
    list.iter().any(|p| contains_phrase(text, p))
}

/// Whether a normalised label says something a banner button must never do.
fn never(label: &str) -> bool {
    any_phrase(label, NEVER) || SHARED_NEVER.iter().any(|w| contains_phrase(label, w))
}

/// What a banner's text is about, if it is one of the banners this module closes.
pub fn kind_of(text: &str) -> Option<Kind> {
    let text = normalize(text);
    if any_phrase(&text, COOKIE_STRONG) {
        Some(Kind::Cookie)
    } else if any_phrase(&text, NEWSLETTER) {
        Some(Kind::Newsletter)
    } else if any_phrase(&text, APP) {
        Some(Kind::App)
    } else if any_phrase(&text, CONSENT_WEAK) {
        Some(Kind::Cookie)
    } else {
        None
    }
}

/// What pressing a button labelled `label` would do to a banner of this kind; `hint` is the button's
/// id, class, title and aria-label (an icon-only ✕ says "close" only there). `None`: never press it.
pub fn rank(label: &str, hint: &str, kind: Kind) -> Option<Choice> {
    let label = normalize(label);
    if label.chars().count() > MAX_LABEL_CHARS || never(&label) {
        return None;
    }
    if any_phrase(&label, REJECT) {
        return Some(Choice::Reject);
    }
    if any_phrase(&label, DISMISS) {
        return Some(Choice::Dismiss);
    }
    let hint = normalize(&hint.replace(['-', '_'], " "));
    let glyph_only = !label.chars().any(char::is_alphanumeric);
    if any_phrase(&label, CLOSE)
        || ((label.is_empty() || glyph_only)
            && (any_phrase(&hint, CLOSE) || contains_phrase(&hint, "dismiss")))
    {
        return Some(Choice::Close);
    }
    if kind != Kind::Cookie {
        return None;
    }
    if any_phrase(&label, SAVE) {
        Some(Choice::Save)
    } else if any_phrase(&label, SETTINGS) {
        Some(Choice::Settings)
    } else if any_phrase(&label, ACCEPT) {
        Some(Choice::Accept)
    } else {
        None
    }
}

/// The button to press among `(label, hint)` pairs in document order: the best choice, the first of
/// equals. "Accept" wins only when nothing else would close the notice.
pub fn choose(buttons: &[(String, String)], kind: Kind) -> Option<(usize, Choice)> {
    let mut best: Option<(usize, Choice)> = None;
    for (i, (label, hint)) in buttons.iter().enumerate() {
        if let Some(choice) = rank(label, hint, kind) {
            if best.is_none_or(|(_, b)| choice > b) {
                best = Some((i, choice));
            }
        }
    }
    best
}

#[cfg(test)]
mod tests;
