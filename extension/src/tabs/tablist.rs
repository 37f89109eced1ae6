//! The tabs of the user's browser window, numbered from 1 as the user hears them, and bringing one to
//! the front. That window is the normal browser window the user last worked in: never Waymark's own
//! window (a popup, see `panel_window`), which holds only the panel, even while it has the focus.
//!
//! Must not: list or switch to Waymark's own pages (the side panel, settings), or change anything in a
//! tab but which one its window shows.

use serde_json::json;
use waymark_protocol::{ErrorKind, ToolResult};

use crate::chrome::tabs::{self, Tab, TabQuery, TabUpdate};
use crate::chrome::windows;
use crate::wording;

/// The user's tabs of the browser window they last worked in, in the window's order.
async fn user_tabs() -> Result<Vec<Tab>, String> {
    // With no normal window to be found (the browser will not say), the focused one, as before.
    let window = windows::last_focused_browser_window()
        .await
        .ok()
        .and_then(|w| w.id);
    let wanted = TabQuery {
        active: None,
        last_focused_window: window.is_none().then_some(true),
        window_id: window,
    };
    let tabs = tabs::query(wanted).await?;
    Ok(tabs.into_iter().filter(|tab| !tab.is_waymark_page()).collect())
}

/// The tabs of the user's browser window, numbered from 1.
pub(super) async fn list_tabs() -> ToolResult {
    let tabs = match user_tabs().await {
        Ok(tabs) => tabs,
        Err(e) => return ToolResult::error(wording::tabs_unlisted(&e)),
    };
    let items: Vec<_> = tabs
        .iter()
        .enumerate()
        .map(|(i, tab)| {
            json!({
                "index": i + 1,
                "title": tab.title,
                "url": tab.url,
                "active": tab.active,
                "pinned": tab.pinned,
                "tab_id": tab.id,
            })
        })
        .collect();
    ToolResult::ok(json!({"tabs": items}))
}

/// Brings tab `index` (as [`list_tabs`] numbers it) to the front of its window.
pub(super) async fn switch_tab(index: u32) -> ToolResult {
    // Tabs that cannot be listed cannot be chosen either: the answer then says there are none.
    let tabs = user_tabs().await.unwrap_or_default();
    let Some(tab) = (index as usize).checked_sub(1).and_then(|i| tabs.get(i)) else {
        return ToolResult::failed(ErrorKind::BadArguments, wording::no_such_tab(index, tabs.len()));
    };
    let change = TabUpdate {
        url: None,
        active: Some(true),
    };
    match tabs::update(tab.id.unwrap_or_default(), &change).await {
        Ok(()) => {
            ToolResult::ok(json!({"switched": true, "index": index, "title": tab.title, "url": tab.url}))
        }
        Err(e) => ToolResult::error(wording::tab_switch_failed(&e)),
    }
}
