//! What the panel says about its commands: `/help` (each command with what it does, and its Russian
//! form where one exists, in the catalogue's words), an unknown command and the nearest known one, and
//! how to use a command said the wrong way. Part of `wording`; the commands themselves are
//! `commands.rs`'s.

use waymark_i18n::{say, Words};

use super::language::with_words;
use crate::commands::COMMANDS;

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

/// One command of `/help`: its name (and its Russian form where it has one) and what it does.
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
