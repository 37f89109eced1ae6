//! The policy classifier: decides whether a proposed page action may run (`allow`), needs the user's
//! yes first (`confirm`), or must be done by the user themself (`handoff`).
//!
//! This is the single source of truth for the gate and for `waymark-host classify`. It is pure: no
//! I/O, no clock, no model, no per-site rules, the same answer for the same input. Page text (labels,
//! nearby text, addresses) is data to match, never instructions. It must never panic, whatever the
//! input, and a reason must never repeat the text to type or a field's value: those may be secrets.
//!
//! How it decides (precedence handoff > confirm > allow):
//! - handoff: a captcha, or typing/choosing in a secret field (password, one-time code, PIN, card:
//!   `waymark_protocol::secret`, the predicate the extension uses too, or the extension's own `secret`
//!   in the element), or typing something that looks like a card number;
//! - confirm: a click (or Enter/Space on a button, or choosing with a button-like control) whose label
//!   says pay/order/delete/send in one of 14 languages or carries a price; a generic "OK"/"Continue"
//!   with a risky signal around it (a dialog, a checkout address, a delete form, risky nearby text);
//!   Enter in a field that submits a sensitive form; navigation to a destructive or scripting address;
//! - allow: everything else (reading, ordinary clicks and typing, adding to a cart, plain navigation).
//!
//! Matching: both sides are normalised (invisible characters dropped, NFKC, lowercase, dashes and
//! underscores as spaces, one space between words) and words match whole, with no letter or digit
//! right before or after. Chinese, Japanese and Korean words also match inside short labels, where
//! there are no spaces between words. Very short ambiguous words (`ja`, `ok`, `sil`…) count only on a
//! button or link label.

mod words;

use std::sync::LazyLock;

use serde::{Deserialize, Serialize};
use unicode_normalization::UnicodeNormalization;
use waymark_protocol::{secret_kind, FieldFacts, SecretKind};

use words::WordList;

/// What the agent wants to do to the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ActionKind {
    Click,
    Type,
    Press,
    Select,
    Navigate,
}

/// One proposed action, as described in INTERFACES.md (`waymark-host classify`). Every field may be
/// missing; unknown fields are ignored.
///
/// - `action`: missing is judged like a click, the strictest reading of a label;
/// - `url`: the page's address, or for `navigate` the address to open;
/// - `text`: what `type` would type (never echoed, never logged here);
/// - `key` (optional, Waymark extension): the key for `press`, e.g. `Enter`, `Tab`, `Control+Enter`;
///   missing means Enter (and for `press`, `text` is read as the key when `key` is missing).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct ProposedAction {
    pub action: Option<ActionKind>,
    pub element: Option<Element>,
    pub url: Option<String>,
    pub text: Option<String>,
    pub key: Option<String>,
}

/// The element the action targets, as the content script sees it.
///
/// Beyond INTERFACES.md, these optional fields sharpen the answer when the caller knows them:
/// - `autocomplete`: the HTML `autocomplete` attribute (`current-password`, `one-time-code`, `cc-number`…);
/// - `in_dialog`: the element sits inside `role=dialog`/`alertdialog` (or a modal `<dialog>`);
/// - `id_hints`: the element's id, class, `name` and `data-testid` text, space separated;
/// - `secret` (`password`, `one_time_code`, `pin`, `card`): the field is secret as the extension sees it
///   (it knows more: `-webkit-text-security`, a password field a "show password" button turned into
///   text). Taken as given, on top of what the classifier finds itself.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Element {
    pub role: Option<String>,
    /// The accessible name.
    pub name: Option<String>,
    pub tag: Option<String>,
    /// The input type (`submit`, `password`, …).
    #[serde(rename = "type")]
    pub input_type: Option<String>,
    pub value: Option<String>,
    pub text_around: Option<String>,
    pub form: Option<FormContext>,
    pub autocomplete: Option<String>,
    pub in_dialog: bool,
    pub id_hints: Option<String>,
    pub secret: Option<SecretKind>,
}

/// The form the element belongs to.
///
/// Beyond INTERFACES.md (optional): `has_password_field` and `has_card_field` say the form holds a
/// password field or a card field (`cc-*` autocomplete), so pressing Enter in any of its fields submits
/// credentials or card details.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct FormContext {
    pub action: Option<String>,
    pub method: Option<String>,
    pub has_password_field: bool,
    pub has_card_field: bool,
}

/// The three answers, in increasing strength.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Allow,
    Confirm,
    Handoff,
}

/// The answer: `{"decision":"allow"|"confirm"|"handoff","reason":"…"}`. The reason is one short English
/// sentence for the user, naming what triggered it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decision {
    pub decision: Verdict,
    pub reason: String,
}

impl Decision {
    fn allow(reason: impl Into<String>) -> Self {
        Self {
            decision: Verdict::Allow,
            reason: reason.into(),
        }
    }

    fn confirm(reason: impl Into<String>) -> Self {
        Self {
            decision: Verdict::Confirm,
            reason: reason.into(),
        }
    }

    fn handoff(reason: impl Into<String>) -> Self {
        Self {
            decision: Verdict::Handoff,
            reason: reason.into(),
        }
    }
}

/// Classifies one JSON line. `None` for a blank line (no answer is due); a line that is not a valid
/// action fails closed with `confirm`.
pub fn classify_line(line: &[u8]) -> Option<Decision> {
    let first = line.iter().find(|b| !b.is_ascii_whitespace())?;
    // serde would also read a struct from an array (`["click"]`); the interface is objects only.
    if *first != b'{' {
        return Some(Decision::confirm(
            "unreadable input: a line must hold one JSON object",
        ));
    }
    Some(match serde_json::from_slice::<ProposedAction>(line) {
        Ok(action) => classify(&action),
        Err(e) => Decision::confirm(format!("unreadable input: {e}")),
    })
}

/// Classifies one proposed action. See the module doc for the rules.
pub fn classify(action: &ProposedAction) -> Decision {
    let f = Facts::new(action);
    // A captcha is for the user whatever the agent wants to do with it; opening an address is not
    // acting on one.
    if f.kind != ActionKind::Navigate {
        if let Some(d) = captcha(&f) {
            return d;
        }
    }
    match f.kind {
        ActionKind::Click => judge_activation(&f),
        ActionKind::Press => judge_press(&f),
        ActionKind::Type => judge_type(&f),
        ActionKind::Select => judge_select(&f),
        ActionKind::Navigate => judge_navigate(&f),
    }
}

// ---------------------------------------------------------------------------------------------------
// Limits. Labels are short; anything longer is truncated so matching stays fast on hostile input, and
// a click whose label could not be checked in full fails closed.

/// Chinese, Japanese and Korean words match as substrings only in texts up to this many characters:
/// in a long paragraph a two-character word turns up by accident.
const CJK_LABEL_MAX_CHARS: usize = 12;
/// Longest name or value checked; a longer one on a click means confirm.
const LABEL_MAX_CHARS: usize = 2_000;
/// Nearby text longer than this is an article, not the prompt around a button, and is ignored.
const CONTEXT_MAX_CHARS: usize = 280;
/// Longest address checked; navigating to a longer one means confirm.
const URL_MAX_CHARS: usize = 8_192;
/// How much of a label a reason quotes.
const QUOTE_MAX_CHARS: usize = 60;

// ---------------------------------------------------------------------------------------------------
// The facts one decision needs, normalised once.

/// A label (name or value): normalised for matching, plus the original for quoting in reasons.
struct Label {
    norm: String,
    raw: String,
    truncated: bool,
}

impl Label {
    fn new(raw: Option<&str>) -> Self {
        let raw = raw.unwrap_or_default();
        let (norm, truncated) = normalize_capped(raw, LABEL_MAX_CHARS);
        Self {
            norm,
            raw: raw.to_owned(),
            truncated,
        }
    }

    fn is_blank(&self) -> bool {
        !self.norm.chars().any(char::is_alphanumeric)
    }

    fn quoted(&self) -> String {
        quote(&self.raw)
    }
}

/// Stands in for a missing `element`.
static NO_ELEMENT: Element = Element {
    role: None,
    name: None,
    tag: None,
    input_type: None,
    value: None,
    text_around: None,
    form: None,
    autocomplete: None,
    in_dialog: false,
    id_hints: None,
    secret: None,
};

struct Facts<'a> {
    kind: ActionKind,
    role: String,
    tag: String,
    input_type: String,
    autocomplete: String,
    name: Label,
    /// The element's value, only where it is a label (a submit input): in a text field it is content.
    value: Label,
    /// Normalised nearby text; empty when missing or too long to be a prompt.
    around: String,
    /// Normalised id/class/name hints, camelCase split into words.
    id_hints: String,
    /// The id/class/name hints as given, for the secret-field predicate (which normalises them its way).
    raw_id_hints: &'a str,
    /// What the extension said the field's secret is.
    described_secret: Option<SecretKind>,
    in_dialog: bool,
    form: Option<&'a FormContext>,
    /// The page address (for `navigate`: the address to open), as given.
    url: &'a str,
    text: &'a str,
    key: String,
}

impl<'a> Facts<'a> {
    fn new(a: &'a ProposedAction) -> Self {
        let el = a.element.as_ref().unwrap_or(&NO_ELEMENT);
        let lower = |s: &Option<String>| s.as_deref().unwrap_or_default().trim().to_lowercase();
        let (around, around_cut) =
            normalize_capped(el.text_around.as_deref().unwrap_or_default(), CONTEXT_MAX_CHARS);
        let key = a
            .key
            .as_deref()
            .or(a.text.as_deref().filter(|_| a.action == Some(ActionKind::Press)));
        let mut f = Facts {
            kind: a.action.unwrap_or(ActionKind::Click),
            role: lower(&el.role),
            tag: lower(&el.tag),
            input_type: lower(&el.input_type),
            autocomplete: lower(&el.autocomplete),
            name: Label::new(el.name.as_deref()),
            value: Label::new(None),
            around: if around_cut { String::new() } else { around },
            id_hints: normalize_capped(
                &camel_spaced(el.id_hints.as_deref().unwrap_or_default()),
                LABEL_MAX_CHARS,
            )
            .0,
            raw_id_hints: el.id_hints.as_deref().unwrap_or_default(),
            described_secret: el.secret,
            in_dialog: el.in_dialog,
            form: el.form.as_ref(),
            url: a.url.as_deref().unwrap_or_default(),
            text: a.text.as_deref().unwrap_or_default(),
            key: key.unwrap_or_default().trim().to_lowercase(),
        };
        // A password input's value is the password, whatever the tag says: never a label to quote.
        if !f.is_editable() && f.input_type != "password" {
            f.value = Label::new(el.value.as_deref());
        }
        f
    }

    /// A field the user types into (its value is content, Enter in it may submit its form).
    fn is_editable(&self) -> bool {
        const NOT_TEXT: &[&str] = &[
            "submit", "button", "image", "reset", "checkbox", "radio", "file", "range", "color", "hidden",
        ];
        matches!(self.tag.as_str(), "textarea" | "select")
            || matches!(
                self.role.as_str(),
                "textbox" | "searchbox" | "combobox" | "spinbutton"
            )
            || (matches!(self.tag.as_str(), "input" | "")
                && !(self.tag.is_empty() && self.input_type.is_empty())
                && !NOT_TEXT.contains(&self.input_type.as_str()))
    }

    fn is_button(&self) -> bool {
        matches!(
            self.role.as_str(),
            "button" | "menuitem" | "menuitemcheckbox" | "menuitemradio"
        ) || (self.role.is_empty() && matches!(self.tag.as_str(), "button" | "summary"))
            || matches!(self.input_type.as_str(), "submit" | "button" | "image" | "reset")
    }

    fn is_link(&self) -> bool {
        self.role == "link" || (self.role.is_empty() && self.tag == "a")
    }

    /// A control that activates something: button, submit, link, menu item. An element described by
    /// nothing at all counts too: the gate reads the unknown strictly.
    fn is_button_like(&self) -> bool {
        !self.is_editable()
            && (self.is_button()
                || self.is_link()
                || (self.role.is_empty() && self.tag.is_empty() && self.input_type.is_empty()))
    }

    /// How a label on this element is read: short ambiguous words count only on button-like labels.
    fn label_kind(&self) -> TextKind {
        if self.is_button_like() {
            TextKind::Button
        } else {
            TextKind::OtherLabel
        }
    }

    /// "the button", "the link", "the field", "the element" for reasons.
    fn noun(&self) -> &'static str {
        if self.is_link() {
            "the link"
        } else if self.is_button() {
            "the button"
        } else if self.is_editable() {
            "the field"
        } else {
            "the element"
        }
    }

    /// "the button 'Pay now'" or "the unnamed button".
    fn described(&self) -> String {
        let noun = self.noun();
        if !self.name.is_blank() {
            format!("{noun} '{}'", self.name.quoted())
        } else if !self.value.is_blank() {
            format!("{noun} '{}'", self.value.quoted())
        } else {
            format!("the unnamed {}", noun.trim_start_matches("the "))
        }
    }

    /// The labels a click is judged on: name first, then value.
    fn labels(&self) -> [&Label; 2] {
        [&self.name, &self.value]
    }
}

// ---------------------------------------------------------------------------------------------------
// Handoff: captchas and secrets.

fn captcha(f: &Facts) -> Option<Decision> {
    let texts = [
        f.name.norm.as_str(),
        f.value.norm.as_str(),
        f.role.as_str(),
        f.id_hints.as_str(),
    ];
    for text in texts {
        if text.contains("captcha") {
            return Some(captcha_decision(f, "captcha"));
        }
        if let Some(term) = find(&LEX.captcha, text, TextKind::OtherLabel) {
            return Some(captcha_decision(f, term));
        }
    }
    let url = percent_decode(f.url).to_lowercase();
    for sign in [
        "captcha",
        "challenges.cloudflare.com",
        "challenge-platform",
        "turnstile",
    ] {
        if url.contains(sign) {
            return Some(Decision::handoff(format!(
                "the page address points to a captcha ('{sign}'); solving it is for the user"
            )));
        }
    }
    None
}

fn captcha_decision(f: &Facts, term: &str) -> Decision {
    Decision::handoff(format!(
        "{} looks like a captcha ('{term}'); solving it is for the user",
        f.described()
    ))
}

/// "a password", "card details" for reasons.
fn what(kind: SecretKind) -> &'static str {
    match kind {
        SecretKind::Password => "a password",
        SecretKind::OneTimeCode => "a one-time code",
        SecretKind::Pin => "a PIN",
        SecretKind::Card => "card details",
    }
}

/// Whether the field holds a secret, and what says so: the shared predicate over what this element
/// tells, or else the extension's own finding (it saw more of the field).
fn secret_field(f: &Facts) -> Option<(SecretKind, String)> {
    let facts = FieldFacts {
        tag: &f.tag,
        role: &f.role,
        input_type: &f.input_type,
        autocomplete: &f.autocomplete,
        label: &f.name.raw,
        id: f.raw_id_hints,
        ..Default::default()
    };
    if let Some(secret) = secret_kind(&facts) {
        return Some((secret.kind, secret.why));
    }
    f.described_secret
        .map(|kind| (kind, "the browser found the field secret".to_owned()))
}

/// A typed value that is 13–19 digits (spaces and dashes allowed) passing the Luhn check.
fn looks_like_card_number(text: &str) -> bool {
    let text = text.trim();
    if text.is_empty() || !text.chars().all(|c| c.is_ascii_digit() || c == ' ' || c == '-') {
        return false;
    }
    let digits: Vec<u32> = text.chars().filter_map(|c| c.to_digit(10)).collect();
    if !(13..=19).contains(&digits.len()) {
        return false;
    }
    let sum: u32 = digits
        .iter()
        .rev()
        .enumerate()
        .map(|(i, &d)| {
            if i % 2 == 1 {
                if d * 2 > 9 {
                    d * 2 - 9
                } else {
                    d * 2
                }
            } else {
                d
            }
        })
        .sum();
    sum.is_multiple_of(10)
}

// ---------------------------------------------------------------------------------------------------
// The judges, one per action kind.

/// A click, or Enter/Space on a button, or choosing with a button-like control.
fn judge_activation(f: &Facts) -> Decision {
    let described = f.described();
    if let Some(label) = f.labels().into_iter().find(|l| l.truncated) {
        return Decision::confirm(format!(
            "{}'s label is too long to check in full ({} characters)",
            f.noun(),
            label.raw.chars().count()
        ));
    }
    let kind = f.label_kind();
    for (lex, meaning) in LEX.risky_classes() {
        for label in f.labels() {
            if let Some(term) = find(lex, &label.norm, kind) {
                let said = if term == label.norm {
                    String::new()
                } else {
                    format!(" (it says '{term}')")
                };
                return Decision::confirm(format!(
                    "{}'s label '{}' means {meaning}{said}",
                    f.noun(),
                    label.quoted()
                ));
            }
        }
    }
    for label in f.labels() {
        if let Some(amount) = find_amount(&label.norm) {
            return Decision::confirm(format!("{}'s label carries a price ({amount})", f.noun()));
        }
    }
    for label in f.labels() {
        if find(&LEX.add_to_cart, &label.norm, kind).is_some() {
            return Decision::allow(format!(
                "{described} only adds to the cart, which is not a purchase"
            ));
        }
    }
    let confirm_word = f
        .labels()
        .into_iter()
        .find_map(|l| find(&LEX.confirm, &l.norm, kind));
    let next_word = f
        .labels()
        .into_iter()
        .find_map(|l| find(&LEX.next, &l.norm, kind));
    let unnamed = f.name.is_blank() && f.value.is_blank();
    let generic = confirm_word.is_some() || (f.is_button_like() && (next_word.is_some() || unnamed));
    if !generic {
        return Decision::allow(format!(
            "nothing in {described} suggests paying, deleting or sending"
        ));
    }
    let says = if unnamed && confirm_word.is_none() && next_word.is_none() {
        "has no label"
    } else {
        "says go ahead"
    };
    if let Some(signal) = risky_context(f) {
        return Decision::confirm(format!("{described} {says}, and {signal}"));
    }
    if confirm_word.is_some() && f.in_dialog {
        if is_cookie_consent(f) {
            return Decision::allow(format!("{described} answers a cookie-consent dialog"));
        }
        return Decision::confirm(format!(
            "{described} in a dialog confirms whatever the dialog asks"
        ));
    }
    Decision::allow(format!("{described} {says}, and nothing around it looks risky"))
}

fn judge_press(f: &Facts) -> Decision {
    let key = f.key.as_str();
    let enter = key.is_empty() || key.contains("enter") || matches!(key, "return" | "\n" | "\r");
    let space = matches!(key, " " | "space" | "spacebar");
    if !enter && !space {
        return Decision::allow(format!(
            "pressing '{}' does not submit or activate anything",
            quote(key)
        ));
    }
    if !f.is_editable() {
        // Enter or Space on a button, link or unknown element activates it: judge it like a click.
        return judge_activation(f);
    }
    if space {
        return Decision::allow("pressing Space in a field only types a space");
    }
    judge_enter_in_field(f)
}

/// Enter in a text field: it may submit the field's form.
fn judge_enter_in_field(f: &Facts) -> Decision {
    let described = f.described();
    for (lex, meaning) in LEX.risky_classes() {
        if let Some(term) = find(lex, &f.name.norm, TextKind::OtherLabel) {
            return Decision::confirm(format!(
                "pressing Enter in {described} means {meaning} (it says '{term}')"
            ));
        }
    }
    let form = f.form;
    let password = secret_field(f).map(|(s, _)| s).or(match form {
        Some(form) if form.has_password_field => Some(SecretKind::Password),
        Some(form) if form.has_card_field => Some(SecretKind::Card),
        _ => None,
    });
    if let Some(secret) = password {
        return Decision::confirm(format!("pressing Enter submits a form with {}", what(secret)));
    }
    if let Some(form) = form {
        let method = form.method.as_deref().unwrap_or_default().trim().to_lowercase();
        // A missing method is read as post: the caller may simply not know it, and the gate reads the
        // unknown strictly. An explicit GET form (a search) submits nothing.
        if method != "get" {
            // A form without an action is sent to the page's own address.
            let target = form
                .action
                .as_deref()
                .filter(|a| !a.trim().is_empty())
                .unwrap_or(f.url);
            if let Some(hint) = url_hint(target) {
                return Decision::confirm(format!(
                    "pressing Enter submits a form to an address that mentions '{hint}'"
                ));
            }
        }
    }
    Decision::allow(format!("pressing Enter in {described} submits nothing risky"))
}

fn judge_type(f: &Facts) -> Decision {
    if let Some((secret, why)) = secret_field(f) {
        return Decision::handoff(format!("typing {} is for the user ({why})", what(secret)));
    }
    if looks_like_card_number(f.text) {
        return Decision::handoff("the text looks like a payment card number; card details are for the user");
    }
    // A typed line break is an Enter: it submits a one-line field's form, and many chat boxes send on
    // Enter even in a multi-line field.
    if f.text.contains(['\n', '\r']) {
        let d = judge_enter_in_field(f);
        if d.decision != Verdict::Allow {
            return d;
        }
    }
    Decision::allow(format!("typing into {} is ordinary input", f.described()))
}

fn judge_select(f: &Facts) -> Decision {
    if let Some((secret, why)) = secret_field(f) {
        return Decision::handoff(format!("choosing {} is for the user ({why})", what(secret)));
    }
    if f.is_button_like() {
        // A menu button or submit-like control: choosing with it acts like clicking it.
        return judge_activation(f);
    }
    Decision::allow(format!(
        "choosing an option in {} is ordinary input",
        f.described()
    ))
}

fn judge_navigate(f: &Facts) -> Decision {
    // Browsers ignore tabs and newlines inside a URL ("java\tscript:"): so does this check.
    let url: String = f
        .url
        .chars()
        .filter(|c| !c.is_ascii_whitespace() && !c.is_control())
        .collect();
    if url.is_empty() {
        return Decision::allow("there is no address to open");
    }
    if url.chars().count() > URL_MAX_CHARS {
        return Decision::confirm("the address is too long to check in full");
    }
    let lower = url.to_lowercase();
    if let Some((scheme, _)) = lower.split_once(':') {
        if words::RISKY_SCHEMES.contains(&scheme) {
            return Decision::confirm(format!(
                "the address uses the '{scheme}:' scheme, which does not simply open a web page"
            ));
        }
    }
    if let Some(word) = destructive_path(&url) {
        return Decision::confirm(format!("the address looks destructive (it mentions '{word}')"));
    }
    Decision::allow("opening an address is reading")
}

// ---------------------------------------------------------------------------------------------------
// Context: what makes a generic "OK" / "Continue" risky.

/// The first risky signal around the element, as the end of a sentence ("the page address mentions
/// 'checkout'").
fn risky_context(f: &Facts) -> Option<String> {
    for lex in [&LEX.pay, &LEX.delete] {
        if let Some(term) = find(lex, &f.around, TextKind::FreeText) {
            return Some(format!("the text around it mentions '{term}'"));
        }
    }
    if let Some(amount) = find_amount(&f.around) {
        return Some(format!("the text around it carries a price ({amount})"));
    }
    for label in f.labels() {
        if let Some(hint) = token_hint(&label.norm) {
            return Some(format!("its label mentions '{hint}'"));
        }
    }
    if let Some(hint) = token_hint(&f.id_hints) {
        return Some(format!("its id, class or name mentions '{hint}'"));
    }
    if let Some(action) = f.form.and_then(|form| form.action.as_deref()) {
        if let Some(hint) = url_hint(action) {
            return Some(format!("its form is sent to an address that mentions '{hint}'"));
        }
    }
    if let Some(hint) = url_hint(f.url) {
        return Some(format!("the page address mentions '{hint}'"));
    }
    None
}

/// A cookie banner: the label or the nearby text talks about cookies.
fn is_cookie_consent(f: &Facts) -> bool {
    [f.name.norm.as_str(), f.around.as_str()]
        .into_iter()
        .any(|t| find(&LEX.cookie, t, TextKind::FreeText).is_some())
}

/// A risk hint among the words of a normalised text: a word starting with one of [`words::RISK_HINTS`].
fn token_hint(norm: &str) -> Option<&'static str> {
    norm.split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
        .find_map(|t| words::RISK_HINTS.iter().copied().find(|h| t.starts_with(h)))
}

/// A risk hint in an address (a page, a form action): in any word of it, host included
/// (`checkout.stripe.com`), or a multi-segment hint such as `account/close`.
fn url_hint(url: &str) -> Option<&'static str> {
    let decoded = percent_decode(url);
    let lower = decoded.to_lowercase();
    if let Some(path) = words::RISK_PATHS.iter().copied().find(|p| lower.contains(p)) {
        return Some(path);
    }
    let (spaced, _) = normalize_capped(&camel_spaced(&decoded), URL_MAX_CHARS);
    token_hint(&spaced)
}

/// An obviously destructive path: a path segment or query value starting with a destructive word
/// (`/delete`, `/items/5/remove`, `?action=delete`, `/deleteAccount`), or a multi-segment one
/// (`/account/close`). The host is skipped (remove.bg is a site, not an action) and so are words inside
/// a slug (`/how-to-delete-your-account` is an article).
fn destructive_path(url: &str) -> Option<&'static str> {
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
    rest.split(['/', '?', '&', '=', '#', ';']).find_map(|segment| {
        let (spaced, _) = normalize_capped(&camel_spaced(segment), LABEL_MAX_CHARS);
        let head = spaced
            .split(|c: char| !c.is_alphanumeric())
            .find(|t| !t.is_empty())?;
        words::DESTRUCTIVE_PATH_HEADS
            .iter()
            .copied()
            .find(|w| head.starts_with(w))
    })
}

// ---------------------------------------------------------------------------------------------------
// Word lists, normalised once.

/// Where a text comes from, which decides how strictly words match in it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum TextKind {
    /// A button, submit or link label: every word counts.
    Button,
    /// The label of some other element (a field, a row): short ambiguous words do not count.
    OtherLabel,
    /// Free text such as `text_around`: short ambiguous words do not count.
    FreeText,
}

struct Term {
    text: String,
    /// Has Chinese, Japanese or Korean characters: may match inside a short label.
    cjk: bool,
    /// In [`words::AMBIGUOUS_SHORT`]: counts on button-like labels only.
    ambiguous: bool,
}

struct Lexicons {
    pay: Vec<Term>,
    delete: Vec<Term>,
    send: Vec<Term>,
    confirm: Vec<Term>,
    next: Vec<Term>,
    add_to_cart: Vec<Term>,
    cookie: Vec<Term>,
    captcha: Vec<Term>,
}

impl Lexicons {
    /// The classes that make a label risky by themselves, with what they mean for reasons.
    fn risky_classes(&self) -> [(&[Term], &'static str); 3] {
        [
            (&self.pay, "paying, buying, ordering or booking"),
            (&self.delete, "deleting, removing or cancelling something"),
            (&self.send, "sending, publishing or submitting something"),
        ]
    }
}

static LEX: LazyLock<Lexicons> = LazyLock::new(|| Lexicons {
    pay: lexicon(words::PAY),
    delete: lexicon(words::DELETE),
    send: lexicon(words::SEND),
    confirm: lexicon(words::CONFIRM),
    next: lexicon(words::NEXT),
    add_to_cart: lexicon(words::ADD_TO_CART),
    cookie: lexicon(words::COOKIE),
    captcha: lexicon(words::CAPTCHA),
});

fn lexicon(list: WordList) -> Vec<Term> {
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
fn find<'t>(lex: &'t [Term], text: &str, kind: TextKind) -> Option<&'t str> {
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

/// `needle` occurs in `text` with no letter or digit right before or after it.
fn contains_word(text: &str, needle: &str) -> bool {
    text.match_indices(needle).any(|(i, m)| {
        let before = text[..i].chars().next_back();
        let after = text[i + m.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

fn is_cjk(c: char) -> bool {
    matches!(c,
        '\u{1100}'..='\u{11FF}'     // Hangul Jamo
        | '\u{3040}'..='\u{30FF}'   // Hiragana, Katakana
        | '\u{3130}'..='\u{318F}'   // Hangul compatibility Jamo
        | '\u{31F0}'..='\u{31FF}'   // Katakana extensions
        | '\u{3400}'..='\u{4DBF}'   // Han extension A
        | '\u{4E00}'..='\u{9FFF}'   // Han
        | '\u{AC00}'..='\u{D7AF}'   // Hangul syllables
        | '\u{F900}'..='\u{FAFF}'   // Han compatibility
        | '\u{20000}'..='\u{2FFFF}' // Han extensions B and later
    )
}

// ---------------------------------------------------------------------------------------------------
// Prices.

/// The first currency amount in a normalised text: a number with a currency sign or code right before
/// or after it (`€84.97`, `84,97 €`, `chf 12.50`, `1 000 ₽`, `49,99 zł`, `¥1,000`, `10,000원`).
fn find_amount(text: &str) -> Option<String> {
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
fn currency_before(chars: &[char], start: usize) -> Option<usize> {
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
fn currency_after(chars: &[char], end: usize) -> Option<usize> {
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
fn normalize(raw: &str) -> String {
    normalize_capped(raw, usize::MAX).0
}

/// [`normalize`], keeping at most `max` characters; also says whether anything was cut.
fn normalize_capped(raw: &str, max: usize) -> (String, bool) {
    // Bound the work on huge input before normalising; invisible characters may pad a label, so keep
    // a generous margin before the exact cut below.
    let bounded = max.saturating_mul(4).saturating_add(16);
    let pre: String = raw
        .chars()
        .take(bounded)
        .filter(|c| !is_invisible(*c))
        .map(|c| {
            if matches!(c, '’' | '‘' | 'ʼ' | '`' | '´' | '′') {
                '\''
            } else {
                c
            }
        })
        .collect();
    let mut cut = raw.chars().nth(bounded).is_some();
    let mut out = String::with_capacity(pre.len());
    let mut count = 0usize;
    let mut last_space = true;
    let mut prev = '\0';
    for c in pre.nfkc().flat_map(char::to_lowercase) {
        let c = match c {
            'ı' => 'i',
            '-' | '‐' | '‑' | '‒' | '–' | '—' | '―' | '−' | '_' => ' ',
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

/// Format and zero-width characters that render as nothing.
fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
        | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{206F}' | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}' | '\u{FFA0}'
        | '\u{E0000}'..='\u{E0FFF}'
    )
}

/// Puts a space where camelCase or a digit turns into a capital (`placeOrderBtn` → `place Order Btn`),
/// so ids and paths split into words.
fn camel_spaced(raw: &str) -> String {
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

/// Decodes `%XX` escapes (invalid ones stay as they are; invalid UTF-8 becomes U+FFFD).
fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = (bytes[i] == b'%')
            .then(|| bytes.get(i + 1..i + 3))
            .flatten()
            .and_then(|hex| std::str::from_utf8(hex).ok())
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match escaped {
            Some(b) => {
                out.push(b);
                i += 3;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A page-derived string made safe and short for a reason: control characters and line breaks as
/// spaces, whitespace collapsed, at most [`QUOTE_MAX_CHARS`] characters.
fn quote(raw: &str) -> String {
    let cleaned: String = raw
        .chars()
        .take(QUOTE_MAX_CHARS * 8)
        .filter(|c| !is_invisible(*c))
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let words: Vec<&str> = cleaned.split_whitespace().collect();
    let joined = words.join(" ");
    if joined.chars().count() > QUOTE_MAX_CHARS {
        let mut short: String = joined.chars().take(QUOTE_MAX_CHARS - 1).collect();
        short.push('…');
        short
    } else {
        joined
    }
}

#[cfg(test)]
mod tests;
