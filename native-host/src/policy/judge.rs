//! The judges, one per kind of action, over the normalised [`Facts`]. Each returns the decision and a
//! short reason naming what triggered it. What they read is what the action will do: every word of the
//! control, where its link goes, what the form it submits does, whether Enter sends, the option chosen.
//!
//! Must not: echo typed text or a field's value in a reason, or decide by site.

use super::keys::{judge_enter_in_field, judge_press};
use super::structure;
use super::text::{
    destructive_path, find, find_amount, find_whole, is_cjk, percent_decode, quote, token_hint, url_hint,
    TextKind, LEX,
};
use waymark_protocol::{secret_kind, FieldFacts, SecretKind};

use super::words;
use super::{ActionKind, Decision, Facts, Handoff, Label, URL_MAX_CHARS};

/// The decision for one action. See the module doc of `policy` for the rules.
pub(super) fn judge(f: &Facts) -> Decision {
    // A captcha is for the user whatever the agent wants to do with it; opening an address is not
    // acting on one.
    if f.kind != ActionKind::Navigate {
        if let Some(d) = captcha(f) {
            return d;
        }
    }
    match f.kind {
        ActionKind::Click => judge_activation(f),
        ActionKind::Press => judge_press(f),
        ActionKind::Type => judge_type(f),
        ActionKind::Select => judge_select(f),
        ActionKind::Navigate => judge_navigate(f),
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
            return Some(Decision::handoff(
                Handoff::Captcha,
                format!("the page address points to a captcha ('{sign}'); solving it is for the user"),
            ));
        }
    }
    None
}

fn captcha_decision(f: &Facts, term: &str) -> Decision {
    Decision::handoff(
        Handoff::Captcha,
        format!(
            "{} looks like a captcha ('{term}'); solving it is for the user",
            f.described()
        ),
    )
}

/// "a password", "card details" for reasons.
pub(super) fn what(kind: SecretKind) -> &'static str {
    match kind {
        SecretKind::Password => "a password",
        SecretKind::OneTimeCode => "a one-time code",
        SecretKind::Pin => "a PIN",
        SecretKind::Card => "card details",
    }
}

/// Whether the field holds a secret, and what says so: the shared predicate over what this element
/// tells, or else the extension's own finding (it saw more of the field).
pub(super) fn secret_field(f: &Facts) -> Option<(SecretKind, String)> {
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

// ---------------------------------------------------------------------------------------------------
// Activation: a click, Enter or Space on a button or link, choosing with a button-like control.

pub(super) fn judge_activation(f: &Facts) -> Decision {
    let described = f.described();
    if let Some(label) = f.labels().into_iter().find(|l| l.truncated) {
        return Decision::confirm(format!(
            "{}'s label is too long to check in full ({} characters)",
            f.noun(),
            label.raw.chars().count()
        ));
    }
    // One question per intent: the page's own confirmation will ask, and its answer is judged.
    if let Some(decision) = structure::opens_confirmation(f) {
        return decision;
    }
    if let Some(reason) = risky_words(f, f.labels()) {
        return Decision::confirm(reason);
    }
    if let Some(reason) = link_risk(f.href) {
        return Decision::confirm(format!("{described} {reason}"));
    }
    if let Some(action) = f.submits.and_then(|s| s.action.as_deref()) {
        if let Some(word) = destructive_path(action) {
            return Decision::confirm(format!(
                "{described} sends a form to an address that looks destructive (it mentions '{word}')"
            ));
        }
    }
    if let Some((said, shows)) = disagreement(f) {
        return Decision::confirm(format!(
            "{}'s label '{}' is not what it shows ('{}')",
            f.noun(),
            said.quoted(),
            shows.quoted()
        ));
    }
    if let Some((reason, signal)) = publishes(f) {
        let mut decision = Decision::confirm(format!("{described} {reason}"));
        decision.concern = Some(super::Concern::Publishes { signal });
        return decision;
    }
    if let Some(reason) = structure::payment_frame(f) {
        return Decision::confirm(format!("{described} {reason}"));
    }
    if let Some(reason) = structure::marked_dangerous(f) {
        return Decision::confirm(format!("{described} {reason}"));
    }
    let kind = f.label_kind();
    for label in f.labels() {
        if find(&LEX.add_to_cart, &label.norm, kind).is_some() {
            return Decision::allow(format!(
                "{described} only adds to the cart, which is not a purchase"
            ));
        }
    }
    if let Some(reason) = structure::answers_risky_question(f) {
        return answering(Decision::confirm(format!("{described} {reason}")));
    }
    let confirm_word = f
        .labels()
        .into_iter()
        .find_map(|l| find(&LEX.confirm, &l.norm, kind));
    let next_word = f
        .labels()
        .into_iter()
        .find_map(|l| find(&LEX.next, &l.norm, kind));
    let unnamed = f.labels().iter().all(|l| l.is_blank());
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
        return answering(Decision::confirm(format!("{described} {says}, and {signal}")));
    }
    if confirm_word.is_some() && f.in_dialog {
        if is_cookie_consent(f) {
            return Decision::allow(format!("{described} answers a cookie-consent dialog"));
        }
        return answering(Decision::confirm(format!(
            "{described} in a dialog confirms whatever the dialog asks"
        )));
    }
    Decision::allow(format!("{described} {says}, and nothing around it looks risky"))
}

/// A decision whose question quotes the page's own question the control answers.
fn answering(mut decision: Decision) -> Decision {
    decision.concern = Some(super::Concern::Answers);
    decision
}

/// The first risky word (pay, delete, send) or price among `labels`, as a reason. On a control that
/// opens an item (a link to a page, a row), a word counts only as the control's command, not as a word
/// of the item's title: "Delete" asks, "Re: please delete the old backups" opens a mail.
pub(super) fn risky_words<'l>(
    f: &Facts,
    labels: impl IntoIterator<Item = &'l Label> + Clone,
) -> Option<String> {
    let kind = f.label_kind();
    let opens = structure::opens_item(f);
    for label in labels.clone() {
        if let Some(term) = find_whole(&LEX.delete_alone, &label.norm) {
            return Some(format!(
                "{}'s label '{}' means deleting, removing or cancelling something (it says '{term}')",
                f.noun(),
                label.quoted()
            ));
        }
    }
    for (lex, meaning) in LEX.risky_classes() {
        for label in labels.clone() {
            if let Some(term) = find(lex, &label.norm, kind) {
                if opens && !structure::command_like(&label.norm, term) {
                    continue;
                }
                let said = if term == label.norm {
                    String::new()
                } else {
                    format!(" (it says '{term}')")
                };
                return Some(format!(
                    "{}'s label '{}' means {meaning}{said}",
                    f.noun(),
                    label.quoted()
                ));
            }
        }
    }
    // A price in an item's title (an invoice mail, a product page's link) is not a purchase.
    for label in labels.into_iter().filter(|_| !opens) {
        if let Some(amount) = find_amount(&label.norm) {
            return Some(format!("{}'s label carries a price ({amount})", f.noun()));
        }
    }
    None
}

/// What following a link to `href` would do that needs a yes: run a script, open something other than
/// a web page, or reach an address that deletes or closes something. `None` for an ordinary link (or
/// none: an empty `href`, a `#` jump, `javascript:void(0)`).
fn link_risk(href: &str) -> Option<String> {
    let href: String = href
        .chars()
        .filter(|c| !c.is_ascii_whitespace() && !c.is_control())
        .collect();
    if href.is_empty() {
        return None;
    }
    let lower = href.to_lowercase();
    if let Some(code) = lower.strip_prefix("javascript:") {
        // The common way to say "no address, a script handles the click".
        let inert = matches!(
            code.trim_end_matches(';'),
            "" | "void(0)" | "void0" | "void(null)" | "undefined"
        );
        return (!inert).then(|| format!("runs the page's script '{}'", quote(&href)));
    }
    if let Some((scheme, _)) = lower.split_once(':') {
        if words::RISKY_SCHEMES.contains(&scheme) {
            return Some(format!(
                "goes to a '{scheme}:' address, which does not simply open a web page"
            ));
        }
    }
    if href.chars().count() > URL_MAX_CHARS {
        return Some("goes to an address too long to check in full".into());
    }
    destructive_path(&href)
        .map(|word| format!("goes to an address that looks destructive (it mentions '{word}')"))
}

/// A control whose label (`aria-label`, or the accessible name) says something else than it shows: a
/// page can make "Delete all mail" read "Read more". Words must share nothing (a word of one starting
/// another counts as shared: "EN" and "English"); numbers, icons and initials do not count as words.
/// An ordinary web link is judged by its address instead (a logo link reads "Home" and shows the
/// site's name), so it is left out.
fn disagreement<'f>(f: &'f Facts) -> Option<(&'f Label, &'f Label)> {
    if f.is_editable() {
        return None;
    }
    let web_link = {
        let lower = f.href.trim().to_lowercase();
        lower.starts_with("http:") || lower.starts_with("https:")
    };
    if web_link {
        return None;
    }
    let said = if f.aria.is_blank() { &f.name } else { &f.aria };
    let shows = &f.shows;
    let words = |label: &Label, min: usize| -> Vec<String> {
        label
            .norm
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| w.chars().count() >= min && w.chars().any(char::is_alphabetic))
            .map(str::to_owned)
            .collect()
    };
    // Scripts without spaces between words are not split reliably: not judged this way.
    if said.norm.chars().any(is_cjk) || shows.norm.chars().any(is_cjk) {
        return None;
    }
    let said_words = words(said, 2);
    let shown_words = words(shows, 3);
    if said_words.is_empty() || shown_words.is_empty() {
        return None;
    }
    let shared = said_words.iter().any(|a| {
        shown_words
            .iter()
            .any(|b| a.starts_with(b.as_str()) || b.starts_with(a.as_str()))
    });
    (!shared).then_some((said, shows))
}

/// "Save", "Update", "Save changes" where the page says what is saved is public (a published post, a
/// wiki page others read): the reason, or `None` when nothing says so or the label or the words around
/// it say it stays private (a draft, settings only the user sees). The page's own words decide, never
/// the site.
fn publishes(f: &Facts) -> Option<(String, String)> {
    let kind = f.label_kind();
    let save = f
        .labels()
        .into_iter()
        .find_map(|l| find(&LEX.save, &l.norm, kind))?;
    let stays_private = |l: &Label| {
        find(&LEX.private, &l.norm, TextKind::OtherLabel).is_some()
            || find(&LEX.draft, &l.norm, TextKind::OtherLabel).is_some()
    };
    if f.labels().into_iter().any(stays_private) {
        return None;
    }
    if find(&LEX.private, &f.surroundings, TextKind::FreeText).is_some() {
        return None;
    }
    if let Some(signal) = find(&LEX.published, &f.surroundings, TextKind::FreeText) {
        return Some((
            format!("says '{save}', and the page around it says '{signal}': saving publishes"),
            signal.to_owned(),
        ));
    }
    let action = f.submits.and_then(|s| s.action.as_deref()).unwrap_or_default();
    if percent_decode(action).to_lowercase().contains("publish") {
        return Some((
            format!("says '{save}', and its form is sent to an address that publishes"),
            "publish".to_owned(),
        ));
    }
    None
}

// ---------------------------------------------------------------------------------------------------
// Typing, choosing, navigating.

fn judge_type(f: &Facts) -> Decision {
    if let Some((secret, why)) = secret_field(f) {
        return Decision::handoff(
            Handoff::Type(secret),
            format!("typing {} is for the user ({why})", what(secret)),
        );
    }
    if waymark_protocol::secret::values::holds_card_number(f.text) {
        return Decision::handoff(
            Handoff::CardNumber,
            "the text holds a payment card number; card details are for the user",
        );
    }
    // A line break typed into a one-line field is an Enter: it submits the field's form, or sends what
    // a chat box holds. In a multi-line field (a text area, a code editor) it is a line of text.
    if f.text.contains(['\n', '\r']) && !f.is_multiline() {
        let d = judge_enter_in_field(f);
        if d.decision != super::Verdict::Allow {
            return d;
        }
    }
    Decision::allow(format!("typing into {} is ordinary input", f.described()))
}

fn judge_select(f: &Facts) -> Decision {
    if let Some((secret, why)) = secret_field(f) {
        return Decision::handoff(
            Handoff::Choose(secret),
            format!("choosing {} is for the user ({why})", what(secret)),
        );
    }
    if f.is_button_like() {
        // A menu button or submit-like control: choosing with it acts like clicking it.
        return judge_activation(f);
    }
    if let Some(action) = f.submits.and_then(|s| s.action.as_deref()) {
        if let Some(word) = destructive_path(action) {
            return Decision::confirm(format!(
                "choosing in {} sends its form to an address that looks destructive (it mentions '{word}')",
                f.described()
            ));
        }
    }
    // The option is what happens: "Delete selected forever" in a bulk-action list may act at once.
    let option = Label::new(Some(f.text));
    for (lex, meaning) in LEX.risky_classes() {
        if let Some(term) = find(lex, &option.norm, TextKind::Button) {
            return Decision::confirm(format!(
                "choosing '{}' in {} means {meaning} (it says '{term}')",
                option.quoted(),
                f.described()
            ));
        }
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
pub(super) fn risky_context(f: &Facts) -> Option<String> {
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
    let action = f
        .submits
        .and_then(|s| s.action.as_deref())
        .or_else(|| f.form.and_then(|form| form.action.as_deref()));
    if let Some(action) = action {
        if let Some(hint) = url_hint(action) {
            return Some(format!("its form is sent to an address that mentions '{hint}'"));
        }
    }
    if let Some(hint) = url_hint(f.url) {
        return Some(format!("the page address mentions '{hint}'"));
    }
    None
}

/// A cookie banner: the label, the nearby text or the question it answers talks about cookies.
pub(super) fn is_cookie_consent(f: &Facts) -> bool {
    [f.name.norm.as_str(), f.around.as_str(), f.asks.as_str()]
        .into_iter()
        .any(|t| find(&LEX.cookie, t, TextKind::FreeText).is_some())
}

impl Facts<'_> {
    /// How a label on this element is read: short ambiguous words count only on button-like labels.
    pub(super) fn label_kind(&self) -> TextKind {
        if self.is_button_like() {
            TextKind::Button
        } else {
            TextKind::OtherLabel
        }
    }
}

impl Facts<'static> {
    /// The facts of a button with this label alone: how a form's default button is judged when Enter in
    /// a field presses it.
    pub(super) fn button_named(label: &Label) -> Facts<'static> {
        static NONE: super::ProposedAction = super::ProposedAction {
            action: None,
            element: None,
            url: None,
            text: None,
            key: None,
            top_url: None,
            shortcut: None,
            open_layer: false,
        };
        let mut f = Facts::new(&NONE);
        f.role = "button".into();
        f.name = Label {
            norm: label.norm.clone(),
            raw: label.raw.clone(),
            truncated: label.truncated,
        };
        f
    }
}
