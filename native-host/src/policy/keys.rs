//! How a key is judged: what it reaches decides. A key that only moves the focus or scrolls changes
//! nothing; Enter and Space on a control activate it (judged like a click); Enter in a field sends its
//! form or what it holds; any other key is the page's to interpret — pressed where nothing has the
//! focus, or on an element that has no such key of its own (Delete on a row, a letter on a button), it
//! is judged as a page command, asked about unless the page itself binds the key to a harmless control
//! (`aria-keyshortcuts`).
//!
//! Must not: echo typed text, or let a key through because no control is named: the page hears it.

use super::judge::{judge_activation, risky_words, secret_field, what};
use super::text::{destructive_path, find, url_hint, TextKind, LEX};
use super::{ActionKind, Concern, Decision, Facts, Label, ProposedAction, SecretKind};

/// Keys that move the focus or scroll and nothing else, with Shift at most: the page reads them as
/// navigation, and no application binds a change to them alone.
const NAVIGATION: &[&str] = &[
    "tab",
    "arrowup",
    "arrowdown",
    "arrowleft",
    "arrowright",
    "up",
    "down",
    "left",
    "right",
    "pageup",
    "pagedown",
    "page up",
    "page down",
    "home",
    "end",
];

/// Roles whose own keys include letters: typing a letter moves to the item that starts with it.
const TYPE_AHEAD: &[&str] = &[
    "listbox",
    "option",
    "combobox",
    "menu",
    "menubar",
    "menuitem",
    "menuitemcheckbox",
    "menuitemradio",
    "tree",
    "treeitem",
    "radiogroup",
];

/// Roles and tags Enter or Space activates by themselves (a button, a link, a tab, a check box, an
/// option), so the key is judged as a click on them.
const ACTIVATED: &[&str] = &[
    "button",
    "link",
    "menuitem",
    "menuitemcheckbox",
    "menuitemradio",
    "tab",
    "checkbox",
    "radio",
    "switch",
    "option",
    "treeitem",
];

/// A key as a caller names it: "Enter", "shift+Tab", "ctrl+Enter", "j".
struct Key<'k> {
    /// Without its modifiers, lower case.
    base: &'k str,
    /// Ctrl, Alt or Meta is held: a shortcut, whatever the key.
    command: bool,
    /// The keys that open the page's context menu where the focus is: ContextMenu, Shift+F10.
    menu: bool,
}

impl<'k> Key<'k> {
    fn parse(key: &'k str) -> Self {
        // "+" alone (or at the end: "ctrl++") is the plus key itself.
        let (mods, base) = match key.rsplit_once('+') {
            Some((mods, base)) if !base.is_empty() && !mods.is_empty() => (mods, base),
            Some((mods, "")) if mods.ends_with('+') => (mods.trim_end_matches('+'), "+"),
            _ => ("", key),
        };
        let command = mods.split('+').any(|m| {
            matches!(
                m.trim(),
                "ctrl" | "control" | "alt" | "option" | "meta" | "cmd" | "command" | "super" | "win"
            )
        });
        // A space is a key of its own, not nothing.
        let base = if base.trim().is_empty() && !base.is_empty() {
            " "
        } else {
            base.trim()
        };
        let shift = mods.split('+').any(|m| m.trim() == "shift");
        let menu = !command && (base == "contextmenu" || (shift && base == "f10"));
        Key { base, command, menu }
    }

    fn enter(&self) -> bool {
        self.base.is_empty() || self.base.contains("enter") || matches!(self.base, "return" | "\n" | "\r")
    }

    fn space(&self) -> bool {
        matches!(self.base, " " | "space" | "spacebar")
    }

    fn delete(&self) -> bool {
        matches!(self.base, "delete" | "del" | "backspace")
    }

    fn escape(&self) -> bool {
        matches!(self.base, "escape" | "esc")
    }

    fn navigation(&self) -> bool {
        !self.command && NAVIGATION.contains(&self.base)
    }

    /// One printable character (a letter, a digit, a sign), as typed.
    fn character(&self) -> bool {
        !self.command && self.base.chars().count() == 1 && !self.base.chars().all(char::is_whitespace)
    }
}

pub(super) fn judge_press(f: &Facts) -> Decision {
    let key = Key::parse(&f.key);
    if key.navigation() {
        return Decision::allow(format!(
            "pressing '{}' moves the focus or scrolls; it changes nothing",
            super::text::quote(&f.key)
        ));
    }
    if key.menu {
        // Like a right click: the menu only shows; what is then chosen in it is judged as its own click.
        return Decision::allow("the key opens the page's context menu; it changes nothing");
    }
    if key.escape() && !key.command && (f.open_layer || f.in_dialog) {
        return Decision::allow("Escape closes what is open (a dialog, a menu or a list)");
    }
    if !f.has_element {
        return page_command(f, &key, None);
    }
    if f.is_editable() {
        if key.enter() {
            return judge_enter_in_field(f);
        }
        if !key.command && (key.space() || key.delete() || key.character()) {
            return Decision::allow("a key in a field types or removes a character");
        }
        return page_command(f, &key, Some(f.described()));
    }
    let own = |list: &[&str]| {
        list.contains(&f.role.as_str()) || (f.role.is_empty() && list.contains(&f.tag.as_str()))
    };
    let activated = own(ACTIVATED)
        || (f.role.is_empty() && matches!(f.tag.as_str(), "a" | "button" | "summary" | "select"))
        || matches!(
            f.input_type.as_str(),
            "submit" | "button" | "image" | "reset" | "checkbox" | "radio"
        );
    if (key.enter() || key.space()) && !key.command && activated {
        // Enter or Space on a button, link or other control activates it: judged like a click.
        return judge_activation(f);
    }
    if key.delete() {
        let mut d = Decision::confirm(format!(
            "pressing Delete on {} may be the page's command to delete it",
            f.described()
        ));
        d.concern = Some(Concern::PageCommand);
        return d;
    }
    if key.character() && (own(TYPE_AHEAD) || f.tag == "select") {
        return Decision::allow(format!(
            "a letter in {} moves to the item that starts with it",
            f.described()
        ));
    }
    page_command(f, &key, Some(f.described()))
}

/// A key that reaches the page as a command: asked about, unless the page binds it to a control that
/// is harmless to press (then judged as pressing that control).
fn page_command(f: &Facts, key: &Key, on: Option<String>) -> Decision {
    let shown = super::text::quote(&f.key);
    if let Some(control) = f.shortcut {
        let proposal = ProposedAction {
            action: Some(ActionKind::Click),
            element: Some(control.clone()),
            url: Some(f.url.to_owned()),
            ..ProposedAction::default()
        };
        let bound = Facts::new(&proposal);
        let pressed = judge_activation(&bound);
        let as_control = format!("the page binds '{shown}' to {}", bound.described());
        return Decision {
            reason: format!("{as_control}: {}", pressed.reason),
            ..pressed
        };
    }
    let mut d = match (on, key.delete()) {
        (None, true) => Decision::confirm(
            "nothing has the focus, and the page may treat Delete as a command (deleting what is \
             selected)",
        ),
        (None, false) => Decision::confirm(format!(
            "nothing has the focus: the page may take '{shown}' as a command (a shortcut)"
        )),
        (Some(on), _) => Decision::confirm(format!(
            "{on} has no key '{shown}' of its own: the page may take it as a command (a shortcut)"
        )),
    };
    d.concern = Some(Concern::PageCommand);
    d
}

/// Enter in a text field: it may send what the field holds (a chat box), or submit a form through its
/// default button (or the button beside a field no form sends).
pub(super) fn judge_enter_in_field(f: &Facts) -> Decision {
    let described = f.described();
    for (lex, meaning) in LEX.risky_classes() {
        if let Some(term) = find(lex, &f.name.norm, TextKind::OtherLabel) {
            return Decision::confirm(format!(
                "pressing Enter in {described} means {meaning} (it says '{term}')"
            ));
        }
    }
    if f.sends_on_enter {
        return Decision::confirm(format!("pressing Enter in {described} sends what it holds"));
    }
    if let Some(submits) = f.submits {
        let button = Label::new(submits.submitter.as_deref());
        if !button.is_blank() {
            let as_button = Facts::button_named(&button);
            if let Some(reason) = risky_words(&as_button, [&button]) {
                return Decision::confirm(format!(
                    "pressing Enter in {described} presses '{}': {reason}",
                    button.quoted()
                ));
            }
        }
        let secret = submits.secret.or_else(|| secret_field(f).map(|(s, _)| s));
        if let Some(secret) = secret {
            return Decision::confirm(format!("pressing Enter submits a form with {}", what(secret)));
        }
        let action = submits.action.as_deref().unwrap_or_default();
        if let Some(word) = destructive_path(action) {
            return Decision::confirm(format!(
                "pressing Enter sends a form to an address that looks destructive (it mentions '{word}')"
            ));
        }
        let method = submits
            .method
            .as_deref()
            .unwrap_or_default()
            .trim()
            .to_lowercase();
        if matches!(method.as_str(), "post" | "dialog") {
            let target = if action.trim().is_empty() { f.url } else { action };
            if let Some(hint) = url_hint(target) {
                return Decision::confirm(format!(
                    "pressing Enter submits a form to an address that mentions '{hint}'"
                ));
            }
        }
        return Decision::allow(format!("pressing Enter in {described} submits nothing risky"));
    }
    let form = f.form;
    let secret = secret_field(f).map(|(s, _)| s).or(match form {
        Some(form) if form.has_password_field => Some(SecretKind::Password),
        Some(form) if form.has_card_field => Some(SecretKind::Card),
        _ => None,
    });
    if let Some(secret) = secret {
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
            if let Some(word) = destructive_path(target) {
                return Decision::confirm(format!(
                    "pressing Enter sends a form to an address that looks destructive (it mentions '{word}')"
                ));
            }
        }
    }
    Decision::allow(format!("pressing Enter in {described} submits nothing risky"))
}
