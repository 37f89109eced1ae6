//! What the panel says about the keyboard shortcuts (`/keys`, the unset ones, Waymark's own window).
//! Part of `wording`: every sentence a user hears lives there or here.

/// What each keyboard shortcut is called when the panel speaks of it (the manifest's command names).
pub fn shortcut_name(command: &str) -> &str {
    match command {
        "confirm" => "yes",
        "reject" => "no",
        "manual-done" => "done",
        "open-window" => "Waymark in its own window",
        "_execute_action" => "the side panel",
        "toggle-overlay" => "numbers on or off",
        "stop-agent" => "stop the agent",
        other => other,
    }
}

/// Where a user sets a shortcut the browser left unset.
const SET_SHORTCUTS_AT: &str = "chrome://extensions/shortcuts (Edge: edge://extensions/shortcuts)";

/// `/keys`: every shortcut, and which are unset. `keys` pairs a command name with its shortcut
/// (empty when unset).
pub fn shortcuts(keys: &[(String, String)]) -> String {
    let list: Vec<String> = keys
        .iter()
        .map(|(command, key)| {
            let key = if key.is_empty() { "not set" } else { key };
            format!("{}: {key}", shortcut_name(command))
        })
        .collect();
    format!(
        "Shortcuts: {}. Change them at {SET_SHORTCUTS_AT}.",
        list.join("; ")
    )
}

/// Said once when the panel opens, if a shortcut that answers a question or opens Waymark is unset.
pub fn shortcuts_unset(commands: &[&str]) -> String {
    let names: Vec<&str> = commands.iter().map(|c| shortcut_name(c)).collect();
    format!(
        "These shortcuts are not set: {}. Set them at {SET_SHORTCUTS_AT}; /keys lists them all.",
        names.join(", ")
    )
}

/// `/window` and the shortcut: the panel opens in a window of its own.
pub fn opening_window() -> String {
    "Opening Waymark in its own window.".into()
}

/// `/window` typed in that window.
pub fn already_window() -> String {
    "This is Waymark's own window. Its shortcut goes back to the page; /keys says which it is.".into()
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
