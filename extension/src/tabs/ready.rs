//! Waiting for a tab's page to answer. Waymark's content script goes into a tab's documents as they
//! commit (`in_use.rs`), but a frame answers only once its document is parsed and its wasm fetched and
//! compiled, so for a moment after every page load (longer on a busy page) the tab has nobody to
//! answer. A tool that finds nobody there puts the script into the tab's frames again (harmless where
//! it runs already: it starts once per document), waits here, bounded, for the page's answer, and fails
//! only for a page no extension may enter, saying which, or for a page the script does not start in.
//!
//! Must not: wait past its deadline, call a page closed to extensions "loading" (it is told from its
//! address at once, or from the browser's refusal of the script once the page has loaded), or send the
//! page anything but the harmless `Document` question while it waits.

use waymark_protocol::{ErrorKind, ToolResult, WorkerToContent};

use super::{deliver, in_use, Delivery};
use crate::chrome::scripting::Frames;
use crate::chrome::{self, tabs};
use crate::wording;

/// How long a tool waits for a loading page's script (within the host's 15 s and the panel's 10 s
/// deadlines for a tool).
pub(super) const READY_WAIT_MS: u32 = 8_000;
/// How long after its page has loaded a script may still take to start: the wasm is fetched and
/// compiled while the page loads, and a page busy with its own work after loading delays that.
const SCRIPT_START_GRACE_MS: f64 = 3_000.0;
/// How often, while nobody answers, the script is put into the tab's frames again (a document that
/// replaced the one it went into, a navigation it missed).
const INJECT_EVERY_MS: f64 = 1_000.0;
/// How often the tab is looked at while it is waited for.
const READY_POLL_MS: u32 = 50;

/// Why no extension's script can be in a page, from its address.
#[derive(Debug, PartialEq, Eq)]
enum Closed {
    /// The browser's own pages (`chrome://`, `about:`, DevTools, `view-source:`, other extensions).
    BrowserPage,
    /// The extension store, which browsers keep extensions out of.
    WebStore,
    /// A local file, which extensions enter only when the user allows it.
    File,
}

/// Whether a page at `url` is closed to extensions by its address alone. `about:blank` and
/// `about:srcdoc` are not: content scripts enter them.
fn closed_by_address(url: &str) -> Option<Closed> {
    let lower = url.to_ascii_lowercase();
    let browser_schemes = [
        "chrome:",
        "chrome-untrusted:",
        "chrome-search:",
        "chrome-extension:",
        "devtools:",
        "edge:",
        "brave:",
        "opera:",
        "vivaldi:",
        "view-source:",
    ];
    if browser_schemes.iter().any(|s| lower.starts_with(s))
        || (lower.starts_with("about:")
            && !lower.starts_with("about:blank")
            && !lower.starts_with("about:srcdoc"))
    {
        return Some(Closed::BrowserPage);
    }
    let web_store = [
        "https://chromewebstore.google.com",
        "https://chrome.google.com/webstore",
    ];
    if web_store.iter().any(|store| {
        lower
            .strip_prefix(store)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
    }) {
        return Some(Closed::WebStore);
    }
    lower.starts_with("file:").then_some(Closed::File)
}

/// The refusal for a page Waymark can never enter as things stand, if the tab shows one.
async fn closed(url: &str) -> Option<ToolResult> {
    let said = match closed_by_address(url)? {
        Closed::BrowserPage => wording::browser_page_closed(url),
        Closed::WebStore => wording::web_store_closed(url),
        Closed::File if tabs::file_pages_allowed().await => return None,
        Closed::File => wording::file_page_closed(url),
    };
    Some(ToolResult::failed(ErrorKind::Unreachable, said))
}

/// Waits until the tab's top frame answers, for at most `wait_ms` (a tool: [`READY_WAIT_MS`]). `Err`
/// is the answer to give instead: the tab is closed, its page is closed to extensions (at once), its
/// page loaded long enough ago without the script starting, or it was still loading at the deadline.
pub(super) async fn top_frame(tab: i32, wait_ms: u32) -> Result<(), ToolResult> {
    let began = chrome::now_ms();
    let mut loaded_at: Option<f64> = None;
    let mut injected_at: Option<f64> = None;
    // Why the browser last refused the script, if it did.
    let mut refused: Option<String> = None;
    loop {
        let Ok(shown) = tabs::get(tab).await else {
            return Err(ToolResult::failed(ErrorKind::Unreachable, wording::tab_closed()));
        };
        // While a navigation has not shown its page, the address is still the old page's.
        let moving = !shown.pending_url.is_empty();
        if !moving {
            if let Some(refusal) = closed(&shown.url).await {
                return Err(refusal);
            }
        }
        if matches!(
            deliver(tab, 0, &WorkerToContent::Document).await,
            Delivery::Answered(_)
        ) {
            return Ok(());
        }
        let now = chrome::now_ms();
        if !moving && injected_at.is_none_or(|at| now - at >= INJECT_EVERY_MS) {
            injected_at = Some(now);
            match in_use::inject(tab, Frames::All).await {
                // The page's own security policy keeps Waymark's module from compiling: no reload
                // helps, and no later try either.
                Ok(injected) if injected.top_refused_wasm() => {
                    chrome::log(&format!("tab {tab}: the page's policy refuses WebAssembly"));
                    return Err(ToolResult::failed(
                        ErrorKind::Unreachable,
                        wording::page_policy_refuses(&shown.url),
                    ));
                }
                // Started (or was there): ask again at once.
                Ok(_) => {
                    refused = None;
                    continue;
                }
                Err(why) => refused = Some(why),
            }
        }
        if shown.status == "complete" && !moving {
            if let Some(why) = &refused {
                // A page that has loaded and into which the browser lets no script (an error page, a
                // site the browser's policy closes to extensions).
                chrome::log(&format!("tab {tab}: the browser keeps the script out: {why}"));
                return Err(ToolResult::failed(
                    ErrorKind::Unreachable,
                    wording::page_not_entered(&shown.url),
                ));
            }
            let since = *loaded_at.get_or_insert(now);
            if now - since >= SCRIPT_START_GRACE_MS {
                return Err(ToolResult::failed(
                    ErrorKind::Unreachable,
                    wording::page_needs_reload(&shown.url),
                ));
            }
        } else {
            loaded_at = None;
        }
        if now - began >= f64::from(wait_ms) {
            return Err(ToolResult::failed(
                ErrorKind::TimedOut,
                wording::page_still_loading(wait_ms.div_ceil(1_000)),
            ));
        }
        gloo_timers::future::TimeoutFuture::new(READY_POLL_MS).await;
    }
}

#[cfg(test)]
mod tests {
    use super::{closed_by_address, Closed};

    #[test]
    fn pages_closed_to_extensions_are_told_by_their_address() {
        for url in [
            "chrome://version/",
            "chrome://newtab/",
            "CHROME://settings",
            "about:version",
            "view-source:https://a.example/",
            "devtools://devtools/bundled/inspector.html",
            "chrome-extension://abcdefghijklmnop/page.html",
            "edge://settings",
        ] {
            assert_eq!(closed_by_address(url), Some(Closed::BrowserPage), "{url}");
        }
        assert_eq!(
            closed_by_address("https://chromewebstore.google.com/detail/x"),
            Some(Closed::WebStore)
        );
        assert_eq!(
            closed_by_address("https://chrome.google.com/webstore/category/extensions"),
            Some(Closed::WebStore)
        );
        assert_eq!(closed_by_address("file:///home/me/a.html"), Some(Closed::File));
        for url in [
            "https://a.example/",
            "http://127.0.0.1:8080/slow",
            "about:blank",
            "about:srcdoc",
            "https://chromewebstore.google.com.evil.example/",
            "https://chrome.google.com/webstorefront",
            "",
        ] {
            assert_eq!(closed_by_address(url), None, "{url}");
        }
    }
}
