//! The keyboard shortcuts, as the panel sees them: acting on one (the worker sends each to one panel),
//! saying which are unset, and bringing the panel forward so a shortcut's outcome is heard.
//!
//! Must not: choose which panel hears a shortcut (`worker.rs` does), or open windows itself
//! (`panel_window`).

use waymark_protocol::PageTool;

use super::question::{answer, manual_done};
use super::speech::{alert, say};
use super::{tool, Shared, KEY_SHORTCUTS};
use crate::chrome::{self, windows};
use crate::wording;

/// Says once, when the panel opens, which of the shortcuts that answer or open Waymark the browser left
/// unset (it never assigns one of its own keys, nor more than four), and where to set them; and, in a
/// side panel on Linux, how to read the page beside it with Orca.
pub(super) fn say_unset_shortcuts(panel: &Shared) {
    let panel = panel.clone();
    wasm_bindgen_futures::spawn_local(async move {
        let Ok(keys) = windows::shortcuts().await else {
            return;
        };
        let unset: Vec<&str> = KEY_SHORTCUTS
            .iter()
            .copied()
            .filter(|name| keys.iter().any(|c| c.name == *name && c.shortcut.is_empty()))
            .collect();
        if !unset.is_empty() {
            say(&panel, &wording::shortcuts_unset(&unset));
        }
        // Orca 43 reads the side panel instead of the page while it is open: the README's advice,
        // said where it matters (the browser's side panel, which has no tab of its own, on Linux,
        // where Orca is the screen reader).
        let own_window = panel.borrow().own_window;
        let side_panel = !own_window && matches!(chrome::tabs::current().await, Ok(None));
        if side_panel && windows::platform().await.is_ok_and(|p| p.os == "linux") {
            let key = keys
                .iter()
                .find(|c| c.name == "open-window")
                .map(|c| c.shortcut.as_str())
                .unwrap_or_default();
            say(&panel, &wording::orca_side_panel(key));
        }
    });
}

/// `/keys`: every shortcut and its key.
pub(super) fn say_shortcuts(panel: &Shared) {
    let panel = panel.clone();
    wasm_bindgen_futures::spawn_local(async move {
        match windows::shortcuts().await {
            Ok(keys) => {
                let keys: Vec<(String, String)> = keys.into_iter().map(|c| (c.name, c.shortcut)).collect();
                say(&panel, &wording::shortcuts(&keys))
            }
            Err(e) => alert(&panel, &wording::tool_failed(&e)),
        }
    });
}

/// A keyboard shortcut, pressed wherever the focus was: the same as its command typed here, and its
/// outcome said like one. Pressed where this panel is behind (in the page, beside Waymark's window),
/// the user stays there: the panel acts and says what blocks work through the system's speech
/// (`speech::speak_from_behind`), and the focus it keeps for the user's return is the message field.
/// Where the browser has no voice it comes forward instead, with the focus already in the message
/// field (a question dialog brought forward would leave a screen reader in browse mode), before
/// acting, so the outcome cannot arrive while it is still behind.
pub(super) fn shortcut(panel: &Shared, command: &str) {
    let panel = panel.clone();
    let command = command.to_string();
    wasm_bindgen_futures::spawn_local(async move {
        if behind().await {
            let no_voice = panel.borrow().no_voice;
            if no_voice {
                let _ = panel.borrow().input.focus();
                bring_forward().await;
            } else {
                panel.borrow_mut().aloud = true;
            }
        }
        act_on_shortcut(&panel, &command);
    });
}

fn act_on_shortcut(panel: &Shared, command: &str) {
    match command {
        "confirm" | "reject" => answer(panel, command == "confirm"),
        "toggle-overlay" => {
            let shown = panel.borrow().overlay_shown;
            tool(
                panel,
                if shown {
                    PageTool::OverlayHide
                } else {
                    PageTool::OverlayShow
                },
            );
        }
        "manual-done" => manual_done(panel),
        other => chrome::log(&format!("unknown shortcut {other}")),
    }
}

/// Whether the panel is behind the window the user is in: a tab or Waymark's window not in front, or a
/// side panel without the focus.
pub(super) async fn behind() -> bool {
    logged(
        crate::panel_window::is_behind().await,
        "tell whether the panel is in front",
    )
}

/// Brings the panel in front of the user if it is a tab or Waymark's window that is behind; whether it
/// had to. A side panel is never behind anything while it is open, and is left alone.
pub(super) async fn bring_forward() -> bool {
    logged(crate::panel_window::show_self().await, "bring the panel forward")
}

/// The answer, or no (and why not, in the log) when the browser could not say.
fn logged(answer: Result<bool, String>, what: &str) -> bool {
    answer.unwrap_or_else(|e| {
        chrome::log(&format!("could not {what}: {e}"));
        false
    })
}
