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
/// unset (it never assigns one of its own keys, nor more than four), and where to set them.
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
/// outcome said like one. A panel tab or Waymark's window that is behind comes forward, so the outcome
/// is heard: a live region in a background tab is not. It comes forward before acting, so the outcome
/// cannot arrive while it is still behind.
pub(super) fn shortcut(panel: &Shared, command: &str) {
    let panel = panel.clone();
    let command = command.to_string();
    wasm_bindgen_futures::spawn_local(async move {
        bring_forward().await;
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

/// Brings the panel in front of the user if it is a tab or Waymark's window that is behind; whether it
/// had to. A side panel is never behind anything while it is open, and is left alone.
pub(super) async fn bring_forward() -> bool {
    match crate::panel_window::show_self().await {
        Ok(moved) => moved,
        Err(e) => {
            chrome::log(&format!("could not bring the panel forward: {e}"));
            false
        }
    }
}
