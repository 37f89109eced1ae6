//! Moving a tab: opening an address typed by a person or asked for by the agent, back, forward,
//! reload, and opening an address in a new tab; then waiting for the page to load and for Waymark's
//! script in it to answer, so the next tool reaches the new page at once.
//!
//! Must not: run without the gate's pin (`pinned.rs` checks the pinned document first), open script or
//! data addresses, or leave the old page's numbering behind (numbers never outlive their page).

use serde_json::json;
use waymark_protocol::{ErrorKind, ToolResult};

use super::{in_use, numbering, ready};
use crate::chrome::now_ms;
use crate::chrome::tabs::{self, NewTab, Tab, TabUpdate};
use crate::wording;

/// How long a navigation may take to load and answer before we answer anyway (within the host's 15 s
/// deadline for a tool).
const NAVIGATION_WAIT_MS: u32 = 12_000;
/// How often the tab is looked at while it loads.
const NAVIGATION_POLL_MS: u32 = 100;

/// Where a tab goes.
pub(super) enum Go {
    /// Open this address, as typed, in the tab.
    Address(String),
    Back,
    Forward,
    Reload,
    /// Open this address, as typed, in a new tab next to it.
    NewTab(String),
}

/// Moves the tab (or opens a new one) and says where it went.
pub(super) async fn go(tab: i32, go: Go) -> ToolResult {
    let address_of = |url: &str| address(url).map_err(|why| ToolResult::failed(ErrorKind::BadArguments, why));
    let started = match go {
        Go::NewTab(url) => {
            return match address_of(&url) {
                Ok(url) => open_in_new_tab(tab, url).await,
                Err(refused) => refused,
            }
        }
        Go::Address(url) => {
            let url = match address_of(&url) {
                Ok(url) => url,
                Err(refused) => return refused,
            };
            numbering::forget(tab);
            let change = TabUpdate {
                url: Some(url),
                active: None,
            };
            tabs::update(tab, &change).await
        }
        Go::Back => {
            numbering::forget(tab);
            tabs::go_back(tab).await
        }
        Go::Forward => {
            numbering::forget(tab);
            tabs::go_forward(tab).await
        }
        Go::Reload => {
            numbering::forget(tab);
            tabs::reload(tab).await
        }
    };
    if let Err(e) = started {
        return ToolResult::error(wording::navigation_failed(&e));
    }
    let began = now_ms();
    let (loaded, mut shown) = wait_for_load(tab).await;
    if loaded {
        // A page no extension may enter is still a navigation done: the next tool says why it
        // cannot work there.
        let left = f64::from(NAVIGATION_WAIT_MS) - (now_ms() - began);
        if ready::top_frame(tab, left.max(0.0) as u32).await.is_ok() {
            shown = tabs::get(tab).await.unwrap_or(shown);
        }
    }
    ToolResult::ok(json!({"url": shown.url, "title": shown.title, "loaded": loaded}))
}

/// Gives the browser a moment to start loading, then waits for the tab to say `complete` with no
/// navigation still pending (at most [`NAVIGATION_WAIT_MS`]); whether it did, and the tab as last
/// seen.
async fn wait_for_load(tab: i32) -> (bool, Tab) {
    let done = |tab: &Tab| tab.status == "complete" && tab.pending_url.is_empty();
    let mut waited = 0;
    let mut last = Tab::default();
    while waited < NAVIGATION_WAIT_MS {
        gloo_timers::future::TimeoutFuture::new(NAVIGATION_POLL_MS).await;
        waited += NAVIGATION_POLL_MS;
        if let Ok(now) = tabs::get(tab).await {
            last = now;
            if done(&last) {
                break;
            }
        }
    }
    (done(&last), last)
}

async fn open_in_new_tab(tab: i32, url: String) -> ToolResult {
    let new = NewTab {
        url,
        opener_tab_id: tab,
    };
    match tabs::create(&new).await {
        Ok(created) => {
            // Opened by Waymark to work in: its page gets the script as it loads.
            if let Some(id) = created.id {
                in_use::mark(id).await;
            }
            ToolResult::ok(json!({"opened": true, "tab_id": created.id}))
        }
        Err(e) => ToolResult::error(wording::new_tab_failed(&e)),
    }
}

/// Accepts what people type as an address: adds `https://` to a bare host; refuses script addresses.
fn address(url: &str) -> Result<String, String> {
    let url = url.trim();
    let lower = url.to_lowercase();
    if url.is_empty() {
        return Err(wording::no_address());
    }
    if lower.starts_with("javascript:") || lower.starts_with("data:") {
        return Err(wording::script_address_refused());
    }
    if lower.contains("://") || lower.starts_with("about:") || lower.starts_with("chrome:") {
        return Ok(url.to_string());
    }
    Ok(format!("https://{url}"))
}

#[cfg(test)]
mod tests {
    use super::address;

    #[test]
    fn typed_addresses_get_https_and_scripts_are_refused() {
        assert_eq!(address(" example.com ").as_deref(), Ok("https://example.com"));
        assert_eq!(address("http://a.example/x").as_deref(), Ok("http://a.example/x"));
        assert_eq!(address("about:blank").as_deref(), Ok("about:blank"));
        assert!(address("JavaScript:alert(1)").is_err());
        assert!(address("data:text/html,hi").is_err());
        assert!(address("  ").is_err());
    }
}
