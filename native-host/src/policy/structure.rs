//! What the page's structure says around a control, beyond its own words: whether it opens an item
//! (a link to a page, a row) rather than commands one, whether it only opens the page's own
//! confirmation, which question of the page it answers, whether the page marks it as dangerous, and
//! whether it sits in another site's payment frame. Structure speaks every language: a label in a
//! language outside the word lists is still not let through where the page says "danger".
//!
//! Which structural signals are trusted, and why:
//! - `role=alertdialog`: ARIA's pattern for a question that interrupts (a destructive confirmation);
//! - a class word or variant value `danger`/`destructive` (`btn-danger`, `variant="destructive"`):
//!   how component libraries draw a destructive button red, on purpose and by name;
//! - `aria-describedby` pointing at a warning (`role=alert`, or marked as danger): the page's own
//!   description of the control is a warning;
//! - a button in a frame of another site whose address says pay, checkout or wallet: wallet buttons
//!   are named by their brand alone, with the amount outside the frame.
//!
//! Not trusted: colour alone (brands and sale buttons are red too), position, icons.
//!
//! Must not: decide by site, or quote a field's value.

use waymark_protocol::Danger;

use super::text::{find, find_amount, is_cjk, normalize, TextKind, LEX};
use super::{words, Decision, Facts, CJK_LABEL_MAX_CHARS};

/// Roles of controls that open or select an item rather than command it: a row of a mail list, an
/// option, a tree item, a cell.
const OPENING_ROLES: &[&str] = &[
    "row", "option", "treeitem", "gridcell", "cell", "listitem", "article",
];

/// How many words a command-like label has at most ("Delete", "Delete this draft", "Konto endgültig
/// löschen"); a longer one that opens an item is its title ("AW: Bitte die alten Sicherungen
/// löschen").
const COMMAND_MAX_WORDS: usize = 4;

/// Whether activating the control opens or selects an item, where the words it carries are the item's
/// (a mail's subject, a document's title): a link to a page of its own, or a row, option or tree item.
pub(super) fn opens_item(f: &Facts) -> bool {
    if f.is_editable() {
        return false;
    }
    (f.is_link() && ordinary_address(f.href, f.url)) || OPENING_ROLES.contains(&f.role.as_str())
}

/// Whether `term`, found in the normalised `label`, is the label's command rather than a word of a
/// title: the label is short and starts or (in languages that put the verb last) ends with it.
pub(super) fn command_like(label: &str, term: &str) -> bool {
    if label.chars().any(is_cjk) {
        return label.chars().count() <= CJK_LABEL_MAX_CHARS;
    }
    label.split_whitespace().count() <= COMMAND_MAX_WORDS
        && (label.starts_with(term) || label.ends_with(term))
}

/// A web page's own address (`http:`/`https:`), not a jump inside the page it is on (unless the
/// jump is a route of a one-page application: `#/mail/42`).
fn ordinary_address(href: &str, page: &str) -> bool {
    let href = href.trim();
    let lower = href.to_lowercase();
    if !(lower.starts_with("http://") || lower.starts_with("https://")) {
        return false;
    }
    let (address, fragment) = href.split_once('#').unwrap_or((href, ""));
    let here = page.split_once('#').map_or(page, |(a, _)| a);
    address != here || fragment.contains('/')
}

/// A control that only opens the page's own confirmation: it submits nothing and goes nowhere, and the
/// page names a hidden dialog it opens. One question per intent: the dialog's own answer is asked
/// about, naming what it confirms.
pub(super) fn opens_confirmation(f: &Facts) -> Option<Decision> {
    if !f.opens_dialog || f.submits.is_some() || f.is_editable() {
        return None;
    }
    let href = f.href.trim();
    let goes_nowhere = href.is_empty()
        || href.starts_with('#')
        || href.to_lowercase().starts_with("javascript:")
        || !ordinary_address(href, f.url);
    goes_nowhere.then(|| {
        Decision::allow(format!(
            "{} only opens the page's own dialog; what is answered there is judged then",
            f.described()
        ))
    })
}

/// A button in a frame of another site that says it takes payments: a wallet or card button named by
/// its brand, with the amount shown outside the frame.
pub(super) fn payment_frame(f: &Facts) -> Option<String> {
    let here = host(f.url);
    let top = host(f.top_url);
    if here.is_empty() || top.is_empty() || site(here) == site(top) || !f.is_button_like() {
        return None;
    }
    let address = super::text::camel_spaced(&super::text::percent_decode(f.url)).to_lowercase();
    let hint = address
        .split(|c: char| !c.is_alphanumeric())
        .find_map(|t| words::PAYMENT_FRAME_HINTS.iter().find(|h| t.starts_with(*h)))?;
    Some(format!(
        "sits in a frame of {here}, another site than the page's, whose address mentions '{hint}': a \
         payment provider's button pays"
    ))
}

/// What marks the control as dangerous in the page's structure, unless it is the way out.
pub(super) fn marked_dangerous(f: &Facts) -> Option<String> {
    let danger = f.danger?;
    if dismisses(f) {
        return None;
    }
    Some(
        match danger {
            Danger::AlertDialog => "answers an alert dialog, where the page asks about something urgent",
            Danger::Marked => "is marked as destructive by the page (its class or variant says so)",
            Danger::Warning => "is described by a warning on the page",
        }
        .to_owned(),
    )
}

/// The control answers the page's own question, and that question is risky: it mentions deleting or
/// paying (or, for a generic "OK"/"Continue", sending), or carries a price. A generic control answers
/// whatever words are around it; another label only words that ask (with a question mark). A
/// button that only says no or goes back is the way out, not the answer.
pub(super) fn answers_risky_question(f: &Facts) -> Option<String> {
    if f.asks.is_empty() || !f.is_button_like() || dismisses(f) || super::judge::is_cookie_consent(f) {
        return None;
    }
    let kind = f.label_kind();
    let generic = f.labels().iter().all(|l| l.is_blank())
        || f.labels()
            .into_iter()
            .any(|l| find(&LEX.confirm, &l.norm, kind).is_some() || find(&LEX.next, &l.norm, kind).is_some());
    // A generic "OK" answers whatever is around it; any other label only a question the page asks.
    let asking = f.asks_raw.contains(['?', '？', '؟']);
    if !generic && !asking {
        return None;
    }
    let classes = LEX.risky_classes();
    let considered = if generic { &classes[..] } else { &classes[..2] };
    for (lex, _) in considered {
        if let Some(term) = find(lex, &f.asks, TextKind::FreeText) {
            return Some(format!(
                "answers the page's question '{}', which mentions '{term}'",
                super::text::quote(f.asks_raw)
            ));
        }
    }
    find_amount(&f.asks).map(|amount| {
        format!(
            "answers the page's question '{}', which carries a price ({amount})",
            super::text::quote(f.asks_raw)
        )
    })
}

/// The control only says no, closes or goes back — unless the question it answers uses the same word
/// ("Cancel your order?" makes its "Cancel" the answer).
fn dismisses(f: &Facts) -> bool {
    let kind = f.label_kind();
    let said = f
        .labels()
        .into_iter()
        .find_map(|l| find(&LEX.dismiss, &l.norm, kind));
    said.is_some_and(|term| !super::text::contains_word(&f.asks, &normalize(term)))
}

/// The host of an address, lower case, without user or port.
fn host(url: &str) -> &str {
    let rest = url.split_once("://").map_or("", |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let authority = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    match authority.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or_default(),
        None => authority.split(':').next().unwrap_or_default(),
    }
}

/// The site a host belongs to, roughly: its last two labels, or three under a two-letter country code
/// with a short second level (`shop.example.co.uk` → `example.co.uk`). Good enough to tell a payment
/// provider's frame from the shop's own; an address is a name here, never a verdict by itself.
fn site(host: &str) -> String {
    let host = host.to_lowercase();
    if host.parse::<std::net::IpAddr>().is_ok() {
        return host;
    }
    let labels: Vec<&str> = host.trim_end_matches('.').split('.').collect();
    let keep = match labels.as_slice() {
        [.., second, top] if top.len() == 2 && second.len() <= 3 && labels.len() > 2 => 3,
        _ => 2,
    };
    labels[labels.len().saturating_sub(keep)..].join(".")
}

#[cfg(test)]
mod tests {
    use super::site;

    #[test]
    fn sites_are_told_apart_by_their_last_labels() {
        assert_eq!(site("js.pay.example"), "pay.example");
        assert_eq!(site("shop.example.co.uk"), "example.co.uk");
        assert_eq!(site("127.0.0.1"), "127.0.0.1");
        assert_eq!(site("localhost"), "localhost");
    }
}
