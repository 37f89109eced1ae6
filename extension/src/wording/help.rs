//! What the panel says about its commands: `/help` (each command with what it does, and the language's
//! own form where one exists, in the catalogue's words), an unknown command and the nearest known one,
//! how to use a command said the wrong way, and every language's own words for commands (`input.ftl`),
//! understood whatever the browser's language (a Russian keyboard types `/да` in an English browser).
//! Part of `wording`; the commands themselves are `commands.rs`'s.

use std::cell::RefCell;
use std::rc::Rc;

use waymark_i18n::{say, Words};

use super::language::with_words;
use crate::commands::{Heard, COMMANDS};

/// A known command used the wrong way: which one, so its right use can be said.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Usage {
    Click,
    Type,
    Select,
    Set,
    RightClick,
    Hover,
    Find,
    Go,
    Tab,
    Scroll,
    Press,
}

thread_local! {
    /// Every language's words for commands, once `locales.rs` has loaded them (see [`set_heard`]).
    static HEARD: RefCell<Option<Rc<Heard>>> = const { RefCell::new(None) };
}

/// Understand these words from now on in this context.
pub fn set_heard(heard: Heard) {
    HEARD.with(|h| *h.borrow_mut() = Some(Rc::new(heard)));
}

/// The words every language has for commands (`input.ftl`), to understand what the user types in
/// whichever language they type it: what [`set_heard`] set, else those of every embedded catalogue
/// (all of them in native builds and tests; none in the wasm until `locales.rs` loads them, which it
/// does in the extension's pages, not in the service worker).
pub fn heard() -> Rc<Heard> {
    HEARD.with(|h| h.borrow().clone()).unwrap_or_else(|| {
        // The wasm embeds no catalogue: nothing to build, and no code for it in the module.
        if cfg!(target_arch = "wasm32") {
            return Rc::new(Heard::default());
        }
        let all: Vec<Words> = waymark_i18n::languages().map(Words::new).collect();
        Rc::new(heard_in(&all))
    })
}

/// The words for commands of these catalogues, together.
pub fn heard_in(catalogues: &[Words]) -> Heard {
    use waymark_i18n::alternatives as list;
    let mut heard = Heard::default();
    for w in catalogues {
        heard.yes.extend(list(&say!(w, "input-yes")));
        heard.no.extend(list(&say!(w, "input-no")));
        heard.done.extend(list(&say!(w, "input-done")));
        heard.stop.extend(list(&say!(w, "input-stop")));
    }
    heard
}

/// How to use a command said the wrong way.
pub fn usage(usage: Usage) -> String {
    with_words(|w| match usage {
        Usage::Click => say!(w, "usage-click"),
        Usage::Type => say!(w, "usage-type"),
        Usage::Select => say!(w, "usage-select"),
        Usage::Set => say!(w, "usage-set"),
        Usage::RightClick => say!(w, "usage-rightclick"),
        Usage::Hover => say!(w, "usage-hover"),
        Usage::Find => say!(w, "usage-find"),
        Usage::Go => say!(w, "usage-go"),
        Usage::Tab => say!(w, "usage-tab"),
        Usage::Scroll => say!(w, "usage-scroll"),
        Usage::Press => say!(w, "usage-press"),
    })
}

/// One command of `/help`: its name (and the language's own form where it has one) and what it does.
fn describe(w: &Words, command: &str) -> String {
    match command {
        "/chat" => say!(w, "command-chat"),
        "/exit" => say!(w, "command-exit"),
        "/list" => say!(w, "command-list"),
        "/click" => say!(w, "command-click"),
        "/type" => say!(w, "command-type"),
        "/select" => say!(w, "command-select"),
        "/set" => say!(w, "command-set"),
        "/rightclick" => say!(w, "command-rightclick"),
        "/hover" => say!(w, "command-hover"),
        "/more" => say!(w, "command-more"),
        "/details" => say!(w, "command-details"),
        "/find" => say!(w, "command-find"),
        "/read" => say!(w, "command-read"),
        "/scroll" => say!(w, "command-scroll"),
        "/press" => say!(w, "command-press"),
        "/go" => say!(w, "command-go"),
        "/back" => say!(w, "command-back"),
        "/forward" => say!(w, "command-forward"),
        "/reload" => say!(w, "command-reload"),
        "/tabs" => say!(w, "command-tabs"),
        "/tab" => say!(w, "command-tab"),
        "/wait" => say!(w, "command-wait"),
        "/banners" => say!(w, "command-banners"),
        "/next" => say!(w, "command-next"),
        "/prev" => say!(w, "command-prev"),
        "/stop" => say!(w, "command-stop"),
        "/yes" => say!(w, "command-yes"),
        "/no" => say!(w, "command-no"),
        "/done" => say!(w, "command-done"),
        "/overlay" => say!(w, "command-overlay"),
        "/ping" => say!(w, "command-ping"),
        "/settings" => say!(w, "command-settings"),
        "/window" => say!(w, "command-window"),
        "/keys" => say!(w, "command-keys"),
        "/help" => say!(w, "command-help"),
        other => other.to_owned(),
    }
}

pub fn help() -> String {
    with_words(|w| {
        let list: Vec<String> = COMMANDS.iter().map(|c| describe(w, c)).collect();
        say!(w, "help", commands = list.join("; "))
    })
}

pub fn unknown_command(name: &str, suggestion: Option<&str>) -> String {
    with_words(|w| match suggestion {
        Some(s) => say!(w, "command-unknown-suggest", name = name, suggestion = s),
        None => say!(w, "command-unknown", name = name),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_command_has_its_own_help() {
        with_words(|w| {
            for c in COMMANDS {
                let line = describe(w, c);
                assert!(line.starts_with(c) && line.len() > c.len() + 2, "{c}: {line}");
            }
        });
    }
}
