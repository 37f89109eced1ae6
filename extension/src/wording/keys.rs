//! What the panel says about the keyboard shortcuts (`/keys`, the unset ones, Waymark's own window).
//! Part of `wording`: every sentence a user hears lives there or here.

use waymark_i18n::{say, Words};

use super::language::with_words;

/// What each keyboard shortcut is called when the panel speaks of it (the manifest's command names).
fn shortcut_name(w: &Words, command: &str) -> String {
    match command {
        "confirm" => say!(w, "shortcut-confirm"),
        "reject" => say!(w, "shortcut-reject"),
        "manual-done" => say!(w, "shortcut-manual-done"),
        "open-window" => say!(w, "shortcut-open-window"),
        "_execute_action" => say!(w, "shortcut-side-panel"),
        "toggle-overlay" => say!(w, "shortcut-toggle-overlay"),
        "stop-agent" => say!(w, "shortcut-stop-agent"),
        other => other.to_owned(),
    }
}

/// `/keys`: every shortcut, and which are unset. `keys` pairs a command name with its shortcut
/// (empty when unset).
pub fn shortcuts(keys: &[(String, String)]) -> String {
    with_words(|w| {
        let list: Vec<String> = keys
            .iter()
            .map(|(command, key)| {
                let name = shortcut_name(w, command);
                if key.is_empty() {
                    say!(w, "shortcut-unset", name = name)
                } else {
                    say!(w, "shortcut-key", name = name, key = key.as_str())
                }
            })
            .collect();
        say!(w, "shortcuts", shortcuts = list.join("; "))
    })
}

/// Said once when the panel opens, if a shortcut that answers a question or opens Waymark is unset.
pub fn shortcuts_unset(commands: &[&str]) -> String {
    with_words(|w| {
        let names: Vec<String> = commands.iter().map(|c| shortcut_name(w, c)).collect();
        say!(w, "shortcuts-unset", names = names.join(", "))
    })
}

/// `/window` and the shortcut: the panel opens in a window of its own.
pub fn opening_window() -> String {
    with_words(|w| say!(w, "window-opening"))
}

/// `/window` typed in that window.
pub fn already_window() -> String {
    with_words(|w| say!(w, "window-already"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shortcuts_name_what_they_do_and_where_to_set_them() {
        let keys = vec![
            ("reject".to_string(), "Alt+Shift+J".to_string()),
            ("open-window".to_string(), String::new()),
        ];
        assert_eq!(
            shortcuts(&keys),
            "Shortcuts: no: Alt+Shift+J; Waymark in its own window: not set. Change them at \
             chrome://extensions/shortcuts (Edge: edge://extensions/shortcuts)."
        );
        assert!(
            shortcuts_unset(&["reject", "manual-done"]).starts_with("These shortcuts are not set: no, done.")
        );
    }
}
