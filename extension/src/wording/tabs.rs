//! What the service worker's page tools say when they cannot do what was asked: the tab or page out
//! of reach, a number that is not there, a download or a picture that did not come. These sentences
//! reach the user in the panel, and the model or an MCP client through the tool's result. Part of
//! `wording`.

use waymark_i18n::say;

use super::language::with_words;

pub fn no_tab() -> String {
    with_words(|w| say!(w, "tab-none"))
}

/// The page's script answered Waymark a moment ago, then not this request: `why` is the browser's
/// reason (the script failed on it, or the page went away meanwhile).
pub fn page_did_not_answer(why: &str) -> String {
    with_words(|w| say!(w, "tab-page-silent", why = why))
}

/// A page's own dialog (`kind`: `alert`, `confirm`, `prompt` or `leave`), which blocks it: what it
/// asks, in its own words (quoted: the page's data), and which keys answer it in the browser's dialog.
pub fn page_dialog(kind: &str, text: &str) -> String {
    with_words(|w| {
        let none = say!(w, "page-dialog-no-words");
        let text = if text.is_empty() { none.as_str() } else { text };
        match kind {
            "alert" => say!(w, "page-dialog-alert", text = text),
            "confirm" => say!(w, "page-dialog-confirm", text = text),
            "prompt" => say!(w, "page-dialog-prompt", text = text),
            _ => say!(w, "page-dialog-leave"),
        }
    })
}

/// The page changed under the numbering each time the focus was about to move.
pub fn page_kept_changing() -> String {
    with_words(|w| say!(w, "tab-page-kept-changing"))
}

/// A frame inside the page did not answer Waymark: `why` is the browser's reason.
pub fn frame_did_not_answer(why: &str) -> String {
    with_words(|w| say!(w, "tab-frame-silent", why = why))
}

/// The tab shows one of the browser's own pages (`chrome://settings`, `about:`…), closed to every
/// extension.
pub fn browser_page_closed(url: &str) -> String {
    with_words(|w| say!(w, "tab-browser-page", url = url))
}

/// The tab shows the browser's extension store, closed to every extension.
pub fn web_store_closed(url: &str) -> String {
    with_words(|w| say!(w, "tab-web-store", url = url))
}

/// The tab shows a file, and the user has not let Waymark into files.
pub fn file_page_closed(url: &str) -> String {
    with_words(|w| say!(w, "tab-file-page", url = url))
}

/// The page has loaded and took Waymark's script, but the script never answered (a page open while
/// Waymark was updated keeps the old one's).
pub fn page_needs_reload(url: &str) -> String {
    with_words(|w| say!(w, "tab-needs-reload", url = url))
}

/// The page's own security policy (its `Content-Security-Policy` without `wasm-unsafe-eval`) keeps
/// Waymark's script from starting in it: the browser applies it to extensions' scripts too.
pub fn page_policy_refuses(url: &str) -> String {
    with_words(|w| say!(w, "tab-page-policy", url = url))
}

/// The page has loaded, and the browser refuses to put Waymark's script into it (an error page, a site
/// the browser's policy closes to extensions).
pub fn page_not_entered(url: &str) -> String {
    with_words(|w| say!(w, "tab-not-entered", url = url))
}

/// The page was still loading when the tool could wait no longer.
pub fn page_still_loading(seconds: u32) -> String {
    with_words(|w| say!(w, "tab-still-loading", seconds = seconds))
}

pub fn tab_closed() -> String {
    with_words(|w| say!(w, "tab-closed"))
}

/// The page's script (or the browser) answered something Waymark cannot read.
pub fn unreadable_answer() -> String {
    with_words(|w| say!(w, "tab-unreadable-answer"))
}

/// Waymark could not put its own answer into words for the caller (`why`: the encoder's reason).
pub fn answer_not_described(why: &str) -> String {
    with_words(|w| say!(w, "tab-answer-not-described", why = why))
}

pub fn no_numbers_yet() -> String {
    with_words(|w| say!(w, "number-none-yet"))
}

pub fn no_such_number(index: u32, total: usize) -> String {
    with_words(|w| say!(w, "number-missing", index = index, total = total))
}

/// A pinned action whose page changed since it was judged (a navigation, a reload).
pub fn pinned_page_changed() -> String {
    with_words(|w| say!(w, "pinned-page-changed"))
}

/// A page-changing tool that came without the gate's pin, or from a panel instead of the host.
pub fn not_through_gate() -> String {
    with_words(|w| say!(w, "tool-not-through-gate"))
}

/// The request guard could not arm (the browser refused its rules), so the action did not run.
pub fn guard_failed() -> String {
    with_words(|w| say!(w, "tool-guard-failed"))
}

/// `close_banners` asked of the worker itself: the gate runs it in two steps.
pub fn banners_through_gate() -> String {
    with_words(|w| say!(w, "tool-banners-through-gate"))
}

/// A message only the worker may send to the host, sent by a panel.
pub fn workers_message() -> String {
    with_words(|w| say!(w, "tool-workers-message"))
}

/// A picture of the screen refused because a part of the page did not cover its secret fields.
pub fn picture_not_taken() -> String {
    with_words(|w| say!(w, "picture-not-covered"))
}

pub fn picture_busy() -> String {
    with_words(|w| say!(w, "picture-busy"))
}

pub fn picture_refused(why: &str) -> String {
    with_words(|w| say!(w, "picture-refused", why = why))
}

pub fn picture_no_tab(why: &str) -> String {
    with_words(|w| say!(w, "picture-no-tab", why = why))
}

pub fn picture_tab_behind() -> String {
    with_words(|w| say!(w, "picture-tab-behind"))
}

pub fn picture_no_window() -> String {
    with_words(|w| say!(w, "picture-no-window"))
}

pub fn picture_unreadable() -> String {
    with_words(|w| say!(w, "picture-unreadable"))
}

/// `seconds`: how long a wait was, as a number ("1.5").
fn waited(ms: u32) -> f64 {
    f64::from(ms) / 1_000.0
}

pub fn downloads_unwatched(why: &str) -> String {
    with_words(|w| say!(w, "download-unwatched", why = why))
}

pub fn no_download_after_click(index: u32, ms: u32) -> String {
    with_words(|w| {
        say!(
            w,
            "download-none-after-click",
            index = index,
            seconds = waited(ms)
        )
    })
}

pub fn no_download(ms: u32) -> String {
    with_words(|w| say!(w, "download-none", seconds = waited(ms)))
}

/// A download stopped: `name` the file, `why` the browser's reason in plain words, if it gave one.
pub fn download_stopped(name: &str, why: Option<&str>) -> String {
    with_words(|w| match why {
        Some(why) => say!(w, "download-stopped", name = name, why = why),
        None => say!(w, "download-stopped-no-reason", name = name),
    })
}

/// A download still going when the wait ended; `name` is `None` before the file has one.
pub fn download_unfinished(name: Option<&str>, ms: u32) -> String {
    with_words(|w| match name {
        Some(name) => say!(w, "download-unfinished", name = name, seconds = waited(ms)),
        None => say!(w, "download-unfinished-unnamed", seconds = waited(ms)),
    })
}

pub fn no_file_arrived(index: u32) -> String {
    with_words(|w| say!(w, "upload-no-file", index = index))
}

/// `/go` without an address.
pub fn no_address() -> String {
    super::usage(super::Usage::Go)
}

pub fn script_address_refused() -> String {
    with_words(|w| say!(w, "go-script-refused"))
}

/// The browser refused to move the tab: `why` its reason.
pub fn navigation_failed(why: &str) -> String {
    with_words(|w| say!(w, "go-failed", why = why))
}

pub fn new_tab_failed(why: &str) -> String {
    with_words(|w| say!(w, "go-new-tab-failed", why = why))
}

pub fn tabs_unlisted(why: &str) -> String {
    with_words(|w| say!(w, "tabs-unlisted", why = why))
}

pub fn tab_switch_failed(why: &str) -> String {
    with_words(|w| say!(w, "tabs-switch-failed", why = why))
}

pub fn no_such_tab(index: u32, count: usize) -> String {
    with_words(|w| say!(w, "tabs-missing", index = index, count = count))
}
