//! The policy classifier: decides whether a proposed page action may run (`allow`), needs the user's
//! yes first (`confirm`), or must be done by the user themself (`handoff`).
//!
//! This is the single source of truth for the gate and for `waymark-host classify`. It is pure: no
//! I/O, no clock, no model, no per-site rules, the same answer for the same input. Page text (labels,
//! nearby text, addresses) is data to match, never instructions. It must never panic, whatever the
//! input, and a reason must never repeat the text to type or a field's value: those may be secrets.
//!
//! It judges what an action will do, as the extension described it, not the name in the call: all of a
//! control's words together (its accessible name, what it shows, its `aria-label`, value and title),
//! where a link goes, what a form that a click or Enter submits does and where it is sent, whether Enter
//! in a field sends what it holds, the option a choice makes, and the words around a save button that
//! say whether saving publishes. Precedence handoff > confirm > allow:
//! - handoff: a captcha, or typing/choosing in a secret field (password, one-time code, PIN, card:
//!   `waymark_protocol::secret`, the predicate the extension uses too, or the extension's own `secret`
//!   in the element), or typing something that looks like a card number;
//! - confirm: any of a control's words says pay/order/delete/send in one of 14 languages or carries a
//!   price (a link or row that opens an item only when the word is its command, not a word of the
//!   item's title: "Re: delete the old backups" opens a mail), or its label and what it shows disagree;
//!   a link or a form submission to a destructive or scripting address; "Save"/"Update" where the page
//!   says what is saved is public; a control the page's structure marks as dangerous (an alert dialog,
//!   a destructive class or variant, a warning it is described by) unless it only dismisses; a button in
//!   another site's payment frame; a control that answers the page's own question when that question
//!   is risky (a generic "OK"/"Continue" with a risky signal around it); Enter that sends a chat message
//!   or submits a risky form; a key that reaches the page as a command (pressed where nothing has the
//!   focus, or on an element that has no such key of its own: Delete, Enter, letters) unless the page
//!   binds it to a harmless control; choosing a risky option; navigation to a destructive or scripting
//!   address;
//! - allow: everything else (reading, opening, ordinary clicks and typing, line breaks typed into a
//!   multi-line field, moving the focus or scrolling by keys, adding to a cart, plain navigation, and a
//!   button that only opens the page's own confirmation, whose answer is asked about instead).
//!
//! Matching (`text.rs`): both sides are normalised (invisible characters dropped, NFKC, lowercase,
//! dashes and underscores as spaces, one space between words) and words match whole, with no letter or
//! digit right before or after. Chinese, Japanese and Korean words also match inside short labels,
//! where there are no spaces between words. Very short ambiguous words (`ja`, `ok`, `sil`…) count only
//! on a button or link label. The judges are in `judge.rs`, the keys' in `keys.rs`, and what the page's
//! structure says around a control (its question, its marks, its frame) in `structure.rs`; `request.rs`
//! judges a request a page tried to send while Waymark acted (the request guard's second judgement,
//! [`classify_request`]).

mod judge;
mod keys;
mod request;
mod structure;
mod text;
mod words;

use serde::{Deserialize, Serialize};
use waymark_protocol::{Danger, SecretKind};

pub use request::{classify_request, RequestDecision, RequestEffect};
use text::{camel_spaced, normalize_capped, quote};

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

/// One proposed action, as `waymark-host classify` takes it (docs/requirements.md,
/// "`waymark-host classify`"). Every field may be missing; unknown fields are ignored.
///
/// - `action`: missing is judged like a click, the strictest reading of a label;
/// - `url`: the page's address, or for `navigate` the address to open;
/// - `text`: what `type` would type (never echoed, never logged here), or for `select` the option;
/// - `key` (optional, Waymark extension): the key for `press`, e.g. `Enter`, `Tab`, `Delete`; missing
///   means Enter (and for `press`, `text` is read as the key when `key` is missing);
/// - `top_url` (optional): the tab's own address when the element is in a frame: a button in another
///   site's payment frame pays;
/// - `shortcut` (optional, for `press`): the control whose `aria-keyshortcuts` names the key;
/// - `open_layer` (optional, for `press`): something is open that Escape closes.
///
/// For `press` without an element, the key reaches the page itself (nothing has the focus).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct ProposedAction {
    pub action: Option<ActionKind>,
    pub element: Option<Element>,
    pub url: Option<String>,
    pub text: Option<String>,
    pub key: Option<String>,
    pub top_url: Option<String>,
    pub shortcut: Option<Element>,
    pub open_layer: bool,
}

/// The element the action targets, as the content script sees it.
///
/// Beyond those requirements, these optional fields sharpen the answer when the caller knows them:
/// - `autocomplete`: the HTML `autocomplete` attribute (`current-password`, `one-time-code`, `cc-number`…);
/// - `in_dialog`: the element sits inside `role=dialog`/`alertdialog` (or a modal `<dialog>`);
/// - `id_hints`: the element's id, class, `name` and `data-testid` text, space separated;
/// - `text`, `label`, `title`: what it shows, its `aria-label`, its title (all judged with `name`);
/// - `href`: where activating it goes; `submits`: what activating it, or Enter in it, submits;
/// - `context`: the visible words of its wider surroundings (a toolbar, a notice above the buttons);
/// - `editable`: whether it takes text; `sends_on_enter`: Enter in it sends what it holds.
/// - `secret` (`password`, `one_time_code`, `pin`, `card`): the field is secret as the extension sees it
///   (it knows more: `-webkit-text-security`, a password field a "show password" button turned into
///   text). Taken as given, on top of what the classifier finds itself.
/// - `multiline`: the field takes several lines (a line break typed into it is text, not Enter);
///   missing, a text area does;
/// - `asks`: the words of the page's own question the control answers (its dialog, or the paragraph
///   above it), however long;
/// - `danger` (`alert_dialog`, `marked`, `warning`): what in the page's structure marks it dangerous;
/// - `opens_dialog`: it only opens a dialog of the page's own, which the page names and hides.
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
    pub text: Option<String>,
    pub label: Option<String>,
    pub title: Option<String>,
    pub href: Option<String>,
    pub submits: Option<SubmitContext>,
    pub context: Option<String>,
    pub editable: Option<bool>,
    pub sends_on_enter: bool,
    pub secret: Option<SecretKind>,
    pub multiline: Option<bool>,
    pub asks: Option<String>,
    pub danger: Option<Danger>,
    pub opens_dialog: bool,
}

/// The form the element belongs to.
///
/// Beyond those requirements (optional): `has_password_field` and `has_card_field` say the form holds a
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

/// What activating the element (or Enter in it) submits: a form sent to `action` with `method`
/// (`get`, `post`, `dialog`; empty when no form sends it and a page's script does, as the button beside
/// the field suggests), through the control labelled `submitter`; `secret`, when the form holds a
/// secret field (a password, else the kind of its first one), so Enter in any of its fields sends it.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct SubmitContext {
    pub action: Option<String>,
    pub method: Option<String>,
    pub submitter: Option<String>,
    pub secret: Option<SecretKind>,
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
    /// What the action would do that its own words do not say, for the question to the user (typed,
    /// so the gate never reads it back out of the reason). Not part of `classify`'s output.
    #[serde(skip)]
    pub concern: Option<Concern>,
    /// Why the step is the user's, for the sentence that hands it over (typed, in the user's language
    /// by the gate; the reason stays English for logs and `classify`). Set with [`Verdict::Handoff`].
    #[serde(skip)]
    pub handoff: Option<Handoff>,
}

/// Why a step is left to the user.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Handoff {
    /// The page shows or leads to a captcha.
    Captcha,
    /// Typing a secret (a password, a one-time code, a PIN, card details).
    Type(SecretKind),
    /// Choosing a secret in a list.
    Choose(SecretKind),
    /// The text to type looks like a payment card number.
    CardNumber,
}

/// An effect the user should hear about in the question, beyond the control's own words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Concern {
    /// Saving here publishes: the page says so with these words.
    Publishes { signal: String },
    /// The control answers the page's own question (`asks`), which is what makes it risky: the question
    /// quotes it.
    Answers,
    /// The key reaches the page as a command: nothing has the focus, or what has it has no such key of
    /// its own.
    PageCommand,
}

impl Decision {
    pub fn new(decision: Verdict, reason: impl Into<String>) -> Self {
        Self {
            decision,
            reason: reason.into(),
            concern: None,
            handoff: None,
        }
    }

    fn allow(reason: impl Into<String>) -> Self {
        Self::new(Verdict::Allow, reason)
    }

    fn confirm(reason: impl Into<String>) -> Self {
        Self::new(Verdict::Confirm, reason)
    }

    fn handoff(why: Handoff, reason: impl Into<String>) -> Self {
        Self {
            handoff: Some(why),
            ..Self::new(Verdict::Handoff, reason)
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
    judge::judge(&Facts::new(action))
}

/// Quotes page text for a sentence: control, bidi and invisible characters out, one line, short.
pub fn quoted(raw: &str) -> String {
    quote(raw)
}

/// Quotes a long page text for a sentence, at most `max` characters: when it is longer, its start and
/// its end with "…" between (a notice's question is usually its last sentence), never dropped.
pub fn quoted_at_most(raw: &str, max: usize) -> String {
    let whole = text::clean(raw, usize::MAX / 16);
    let count = whole.chars().count();
    let said = if count <= max {
        whole
    } else {
        let head = max * 2 / 3;
        let tail = max.saturating_sub(head + 3);
        let start: String = whole.chars().take(head).collect();
        let end: String = whole.chars().skip(count - tail).collect();
        format!("{} … {}", start.trim_end(), end.trim_start())
    };
    said.replace('\'', "’").replace('"', "”")
}

/// Text that is not Waymark's own (a model's answer, a page's words) made safe to say: control, bidi
/// and invisible characters out, white space collapsed, at most `max` characters.
pub fn cleaned(raw: &str, max: usize) -> String {
    text::clean(raw, max)
}

/// A text as it looks rather than as it is spelt: normalised (width, case, invisible characters) and
/// with Cyrillic and Greek letters that look like Latin ones turned into those, so "Wаymаrk" with
/// Cyrillic a reads "waymark". For telling names apart that a person would read as the same.
pub fn skeleton(raw: &str) -> String {
    text::normalize(raw).chars().map(text::latin_look_alike).collect()
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
/// How much of the page's own question a control answers is read (a long notice is read, not ignored).
const ASKS_MAX_CHARS: usize = 2_000;
/// How much of the wider surroundings is read for signs that saving publishes.
const SURROUNDINGS_MAX_CHARS: usize = 1_200;
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
    text: None,
    label: None,
    title: None,
    href: None,
    submits: None,
    context: None,
    editable: None,
    sends_on_enter: false,
    secret: None,
    multiline: None,
    asks: None,
    danger: None,
    opens_dialog: false,
};

struct Facts<'a> {
    kind: ActionKind,
    /// Whether an element was described at all.
    has_element: bool,
    role: String,
    tag: String,
    input_type: String,
    autocomplete: String,
    name: Label,
    /// The element's value, only where it is a label (a submit input): in a text field it is content.
    value: Label,
    /// What it shows, its `aria-label` and its title: judged like the name.
    shows: Label,
    aria: Label,
    title: Label,
    /// Normalised nearby text; empty when missing or too long to be a prompt.
    around: String,
    /// Normalised wider surroundings (and the nearby text), for signs that saving publishes.
    surroundings: String,
    /// Normalised id/class/name hints, camelCase split into words.
    id_hints: String,
    /// The id/class/name hints as given, for the secret-field predicate (which normalises them its way).
    raw_id_hints: &'a str,
    /// What the extension said the field's secret is.
    described_secret: Option<SecretKind>,
    in_dialog: bool,
    form: Option<&'a FormContext>,
    submits: Option<&'a SubmitContext>,
    href: &'a str,
    editable_given: Option<bool>,
    sends_on_enter: bool,
    /// The page address (for `navigate`: the address to open), as given.
    url: &'a str,
    /// The tab's own address, when the element is in a frame.
    top_url: &'a str,
    text: &'a str,
    key: String,
    multiline_given: Option<bool>,
    /// The page's question the control answers, normalised (empty when none).
    asks: String,
    /// The question as the page wrote it, for reasons.
    asks_raw: &'a str,
    danger: Option<Danger>,
    opens_dialog: bool,
    /// For a key: the control the page binds it to, and whether Escape has something to close.
    shortcut: Option<&'a Element>,
    open_layer: bool,
}

impl<'a> Facts<'a> {
    fn new(a: &'a ProposedAction) -> Self {
        let el = a.element.as_ref().unwrap_or(&NO_ELEMENT);
        let lower = |s: &Option<String>| s.as_deref().unwrap_or_default().trim().to_lowercase();
        let (around, around_cut) =
            normalize_capped(el.text_around.as_deref().unwrap_or_default(), CONTEXT_MAX_CHARS);
        let wider = format!(
            "{} \n {}",
            el.context.as_deref().unwrap_or_default(),
            el.text_around.as_deref().unwrap_or_default()
        );
        let key = a
            .key
            .as_deref()
            .or(a.text.as_deref().filter(|_| a.action == Some(ActionKind::Press)));
        let mut f = Facts {
            kind: a.action.unwrap_or(ActionKind::Click),
            has_element: a.element.is_some(),
            role: lower(&el.role),
            tag: lower(&el.tag),
            input_type: lower(&el.input_type),
            autocomplete: lower(&el.autocomplete),
            name: Label::new(el.name.as_deref()),
            value: Label::new(None),
            shows: Label::new(el.text.as_deref()),
            aria: Label::new(el.label.as_deref()),
            title: Label::new(el.title.as_deref()),
            around: if around_cut { String::new() } else { around },
            surroundings: normalize_capped(&wider, SURROUNDINGS_MAX_CHARS).0,
            id_hints: normalize_capped(
                &camel_spaced(el.id_hints.as_deref().unwrap_or_default()),
                LABEL_MAX_CHARS,
            )
            .0,
            raw_id_hints: el.id_hints.as_deref().unwrap_or_default(),
            described_secret: el.secret,
            in_dialog: el.in_dialog,
            form: el.form.as_ref(),
            submits: el.submits.as_ref(),
            href: el.href.as_deref().unwrap_or_default(),
            editable_given: el.editable,
            sends_on_enter: el.sends_on_enter,
            url: a.url.as_deref().unwrap_or_default(),
            top_url: a.top_url.as_deref().unwrap_or_default(),
            text: a.text.as_deref().unwrap_or_default(),
            key: match key.unwrap_or_default() {
                // A space is the Space key, not a missing one (which means Enter).
                k if !k.is_empty() && k.trim().is_empty() => " ".to_owned(),
                k => k.trim().to_lowercase(),
            },
            multiline_given: el.multiline,
            asks: normalize_capped(el.asks.as_deref().unwrap_or_default(), ASKS_MAX_CHARS).0,
            asks_raw: el.asks.as_deref().unwrap_or_default(),
            danger: el.danger,
            opens_dialog: el.opens_dialog,
            shortcut: a.shortcut.as_ref(),
            open_layer: a.open_layer,
        };
        // A password input's value is the password, whatever the tag says: never a label to quote.
        if !f.is_editable() && f.input_type != "password" {
            f.value = Label::new(el.value.as_deref());
        }
        f
    }

    /// A field the user types into (its value is content, Enter in it may submit its form).
    fn is_editable(&self) -> bool {
        if let Some(given) = self.editable_given {
            return given;
        }
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

    /// A field that takes several lines: a line break typed into it is text.
    fn is_multiline(&self) -> bool {
        self.multiline_given.unwrap_or(self.tag == "textarea")
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
        match self.labels().into_iter().find(|l| !l.is_blank()) {
            Some(label) => format!("{noun} '{}'", label.quoted()),
            None => format!("the unnamed {}", noun.trim_start_matches("the ")),
        }
    }

    /// Every word a control carries, as a person or a screen reader meets it: the accessible name, the
    /// value (of a submit input), the `aria-label`, what it shows, and its title. An activation is
    /// judged on all of them: a page cannot hide "Delete" behind a harmless label.
    fn labels(&self) -> [&Label; 5] {
        [&self.name, &self.value, &self.aria, &self.shows, &self.title]
    }
}

#[cfg(test)]
mod tests;
