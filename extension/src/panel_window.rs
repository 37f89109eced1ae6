//! Waymark's panel in a window of its own, and bringing a panel in front of the user.
//!
//! With Orca 43 on Linux, while Chromium's side panel is open Orca's browse mode reads the panel's
//! document instead of the page, so an Orca user cannot read the page beside the side panel. The same
//! panel page in a small popup window (`sidepanel.html?window=1`) is the way through: the page keeps
//! its own window, where Orca reads it in browse mode, and the `open-window` shortcut (or `/window`)
//! goes to Waymark's window and, pressed there, back to the page. A panel that is not in front when a
//! shortcut's outcome or a question comes brings itself forward here, so nothing it says goes unheard.
//!
//! This module only opens, finds and focuses windows and tabs: what the panel says is `panel.rs`'s,
//! and which panel hears a shortcut is `worker.rs`'s.

use crate::chrome::tabs::{self, TabQuery, TabUpdate};
use crate::chrome::{self, windows};

/// The query that marks the panel page as running in its own window.
pub const WINDOW_PARAM: &str = "window";

/// The panel window's address; `command` is a shortcut for a freshly opened window to act on once it
/// is connected (a shortcut pressed with no panel open).
fn panel_url(command: Option<&str>) -> String {
    match command {
        Some(command) => format!("sidepanel.html?{WINDOW_PARAM}=1&command={command}"),
        None => format!("sidepanel.html?{WINDOW_PARAM}=1"),
    }
}

/// The tab and window of Waymark's own window, if one is open.
async fn find() -> Option<(i32, i32)> {
    let prefix = format!(
        "chrome-extension://{}/sidepanel.html?{WINDOW_PARAM}=1",
        chrome::extension_id()
    );
    let all = tabs::query(TabQuery::default()).await.ok()?;
    all.into_iter()
        .filter(|tab| tab.url.starts_with(&prefix))
        .find_map(|tab| Some((tab.id?, tab.window_id?)))
}

/// Makes a tab the active one of its window and that window the focused one.
async fn focus(tab: i32, window: i32) -> Result<(), String> {
    let active = TabUpdate {
        active: Some(true),
        ..TabUpdate::default()
    };
    tabs::update(tab, &active).await?;
    windows::focus(window).await
}

/// Opens Waymark's window, or brings it forward if it is open.
pub async fn open(command: Option<&str>) -> Result<(), String> {
    if let Some((tab, window)) = find().await {
        return focus(tab, window).await;
    }
    windows::create_popup(&panel_url(command), 480, 720).await
}

/// The `open-window` shortcut: to Waymark's window from anywhere else; from it, back to the browser
/// window the user was working in.
pub async fn toggle() -> Result<(), String> {
    let Some((tab, window)) = find().await else {
        return open(None).await;
    };
    if !windows::get(window).await?.focused {
        return focus(tab, window).await;
    }
    let page_window = windows::last_focused_browser_window().await?;
    let id = page_window.id.ok_or("there is no browser window to go back to")?;
    windows::focus(id).await
}

/// The tab and window of the panel page this runs in (in a tab, or in Waymark's window) when it is
/// behind: its tab not the active one, or its window not the focused one. A side panel has no tab of
/// its own and is never behind anything while it is open.
async fn self_behind() -> Result<Option<(i32, i32)>, String> {
    let Some(tab) = tabs::current().await? else {
        return Ok(None);
    };
    let (Some(id), Some(window)) = (tab.id, tab.window_id) else {
        return Ok(None);
    };
    if tab.active && windows::get(window).await?.focused {
        return Ok(None);
    }
    Ok(Some((id, window)))
}

/// Whether the panel page this runs in is behind the window the user is in (see `self_behind`). A
/// side panel, which is never behind, may still not be where the user is: the focus is in the page
/// beside it, where a screen reader does not hear its live regions either.
pub async fn is_behind() -> Result<bool, String> {
    if tabs::current().await?.is_none() {
        let focused = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.has_focus().ok())
            .unwrap_or(true);
        return Ok(!focused);
    }
    Ok(self_behind().await?.is_some())
}

/// Brings the panel page this runs in (in a tab, or in Waymark's window) in front of the user if it
/// is not: its tab made active, its window focused. Returns whether it had to. A side panel is left
/// alone.
pub async fn show_self() -> Result<bool, String> {
    let Some((id, window)) = self_behind().await? else {
        return Ok(false);
    };
    focus(id, window).await?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_address_carries_the_shortcut_to_act_on() {
        assert_eq!(panel_url(None), "sidepanel.html?window=1");
        assert_eq!(
            panel_url(Some("reject")),
            "sidepanel.html?window=1&command=reject"
        );
    }
}
