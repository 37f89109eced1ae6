//! What the side panel says. Every sentence a user hears lives here, as plain functions of protocol
//! data, so the wording is reviewed and tested in one place.

use serde_json::Value;
use waymark_protocol::{
    AgentState, ConnectionState, Download, ErrorReply, InteractiveList, PageTool, Pong, Screenshot,
    ScrollDirection, PROTOCOL_VERSION,
};

use crate::commands::COMMANDS;

mod faults;
mod keys;
mod language;
pub use faults::{config_file_problems, host_fault, not_saved, saved_keeping_copy, settings_not_loaded};
pub use keys::{already_window, opening_window, shortcuts, shortcuts_unset};
use language::with_words;
pub use language::{set_language, set_words};
use waymark_i18n::say;

/// The status line for a connection state. Retry delays are left out on purpose: the text must not
/// change (and be announced again) on every retry of the same failure.
pub fn connection_status(state: &ConnectionState) -> String {
    match state {
        ConnectionState::Connecting => "Connecting to the Waymark host…".into(),
        ConnectionState::Connected { host_version, .. } => {
            format!("Connected to Waymark host {host_version}")
        }
        ConnectionState::NotInstalled { .. } => "Host not installed: run ./build.sh install".into(),
        ConnectionState::Forbidden { .. } => {
            "The Waymark host does not allow this extension: run ./build.sh install again".into()
        }
        ConnectionState::Incompatible {
            host_version,
            host_protocol,
        } => format!(
            "Waymark host {host_version} speaks protocol {host_protocol} but this extension speaks \
             {PROTOCOL_VERSION}: run ./build.sh install to update both"
        ),
        ConnectionState::Disconnected { reason, .. } => {
            format!(
                "Waymark host disconnected ({}); reconnecting…",
                reason.trim_end_matches('.')
            )
        }
    }
}

/// The short answer to `/ping`, for listening: "Pong, 24 ms."; [`pong_detail`] is what `/details` adds.
pub fn pong(elapsed_ms: f64) -> String {
    with_words(|w| say!(w, "pong", ms = elapsed_ms.max(0.0).round()))
}

/// The detail of the last `/ping`: which host answered.
pub fn pong_detail(p: &Pong, elapsed_ms: f64) -> String {
    with_words(|w| {
        say!(
            w,
            "pong-detail",
            version = p.host_version.as_str(),
            pid = p.pid,
            ms = elapsed_ms.max(0.0).round()
        )
    })
}

/// `/details` when the last answer had none.
pub fn no_details() -> String {
    "There is nothing more to say about the last answer.".into()
}

pub fn ping_timeout(seconds: u32) -> String {
    format!("The host did not answer /ping within {seconds} seconds.")
}

pub fn host_error(e: &ErrorReply) -> String {
    format!("The host reported an error: {}", e.message)
}

pub fn not_delivered(reason: &str) -> String {
    format!("Could not reach the host: {reason}. Waymark keeps retrying on its own.")
}

pub fn help() -> String {
    let list: Vec<String> = COMMANDS.iter().map(|(c, what)| format!("{c}: {what}")).collect();
    format!("Commands: {}.", list.join("; "))
}

pub fn unknown_command(name: &str, suggestion: Option<&str>) -> String {
    match suggestion {
        Some(s) => format!("Unknown command {name}. Did you mean {s}? Type /help for the list."),
        None => format!("Unknown command {name}. Type /help for the list."),
    }
}

/// Plain text outside chat mode.
pub fn chat_unavailable() -> String {
    "That is not a command. To give the agent a task, type /chat first; /help lists the commands.".into()
}

pub fn chat_mode(on: bool) -> String {
    if on {
        "Chat mode: your messages go to the agent. /exit to leave."
    } else {
        "Chat mode off: type commands, or /chat to talk to the agent again."
    }
    .into()
}

/// The status line for the agent's state.
pub fn agent_status(state: AgentState) -> String {
    match state {
        AgentState::Running => "The agent is working…",
        AgentState::Idle => "The agent is ready.",
        AgentState::WaitingUser => "The agent is waiting for you.",
        AgentState::Error => "The agent stopped on an error.",
    }
    .into()
}

/// An error the agent reports (its text is already written for people).
pub fn agent_error(text: &str) -> String {
    format!("The agent stopped: {text}")
}

pub fn no_tab() -> String {
    "There is no web page to work on: open a page in this window, then try again.".into()
}

/// The page's script answered Waymark a moment ago, then not this request: `why` is the browser's
/// reason (the script failed on it, or the page went away meanwhile).
pub fn page_did_not_answer(why: &str) -> String {
    format!(
        "The page in this tab did not answer this request (the browser says: {why}). Try again; if it \
         keeps failing, reload the page."
    )
}

/// The page changed under the numbering each time the focus was about to move.
pub fn page_kept_changing() -> String {
    "The page kept changing while Waymark moved the focus. Try again.".into()
}

/// A frame inside the page did not answer Waymark: `why` is the browser's reason.
pub fn frame_did_not_answer(why: &str) -> String {
    format!(
        "A frame inside this page did not answer this request (the browser says: {why}); it may still \
         be loading. Try again in a moment."
    )
}

/// The tab shows one of the browser's own pages (`chrome://settings`, `about:`…), closed to every
/// extension.
pub fn browser_page_closed(url: &str) -> String {
    format!(
        "Waymark cannot reach this tab: it shows {url}, one of the browser's own pages, which no \
         extension may enter. Open a web page in it, or switch to a tab that shows one."
    )
}

/// The tab shows the browser's extension store, closed to every extension.
pub fn web_store_closed(url: &str) -> String {
    format!(
        "Waymark cannot reach this tab: it shows the Chrome Web Store ({url}), which no extension may \
         enter."
    )
}

/// The tab shows a file, and the user has not let Waymark into files.
pub fn file_page_closed(url: &str) -> String {
    format!(
        "Waymark cannot reach this tab: it shows a file ({url}), and Waymark may enter files only when \
         \"Allow access to file URLs\" is on in its details on the browser's extensions page."
    )
}

/// The page has loaded but Waymark's script never started in it: it was there before Waymark.
pub fn page_needs_reload(url: &str) -> String {
    format!(
        "Waymark cannot reach the page in this tab ({url}): it was probably open before Waymark was \
         installed or updated. Reload it, then try again."
    )
}

/// The page was still loading when the tool could wait no longer.
pub fn page_still_loading(seconds: u32) -> String {
    format!("The page in this tab is still loading after {seconds} seconds. Try again once it has loaded.")
}

pub fn tab_closed() -> String {
    "That tab has been closed.".into()
}

/// A page of the numbered list, one control per line: "12, button, Add to cart", and how to hear the
/// rest when there is more.
pub fn interactive_list(list: &InteractiveList) -> String {
    if list.total == 0 {
        return format!("No controls found on \"{}\".", list.title);
    }
    let first = list.offset + 1;
    let last = list.offset + list.items.len() as u32;
    let mut out = if last < list.total || list.offset > 0 {
        format!(
            "{} controls on \"{}\", {first} to {last}:",
            list.total, list.title
        )
    } else {
        format!("{} controls on \"{}\":", list.total, list.title)
    };
    for item in &list.items {
        out.push_str(&format!(
            "\n{}, {}, {}",
            item.index,
            item.role,
            if item.name.is_empty() {
                "no name"
            } else {
                &item.name
            }
        ));
        if let Some(value) = &item.value {
            out.push_str(&format!(", value {value}"));
        }
        for state in &item.states {
            out.push_str(&format!(", {state}"));
        }
    }
    let left = list.total.saturating_sub(last);
    if left > 0 {
        out.push_str(&format!("\n{}", more_to_hear(left)));
    }
    out
}

/// The last line of a list page that is not the end: "Say /more for the next 5."
fn more_to_hear(left: u32) -> String {
    format!("Say /more for the next {left}.")
}

pub fn overlay(shown: bool) -> String {
    if shown {
        "Numbers shown on the page."
    } else {
        "Numbers hidden."
    }
    .into()
}

/// The result of an action by number: "Clicked 3, button, Save draft."
pub fn acted(data: Option<&serde_json::Value>) -> String {
    let field = |k: &str| {
        data.and_then(|d| d.get(k))
            .and_then(|v| v.as_str())
            .unwrap_or_default()
            .to_string()
    };
    let index = data
        .and_then(|d| d.get("index"))
        .and_then(|v| v.as_u64())
        .unwrap_or_default();
    let what = format!("{index}, {}, {}", field("role"), field("name"));
    match field("done").as_str() {
        "click" => format!("Clicked {what}."),
        "type" => format!("Typed into {what}."),
        "select" => format!("Selected {} in {what}.", field("selected")),
        _ => "Done.".into(),
    }
}

pub fn no_numbers_yet() -> String {
    "There are no numbers yet on this page: say /list first.".into()
}

pub fn no_such_number(index: u32, total: usize) -> String {
    format!("There is no number {index}: the list goes from 1 to {total}. Say /list for the current numbers.")
}

/// `what` is the content script's account, e.g. `(button "Save") is no longer on the page`.
pub fn stale(index: u32, what: &str) -> String {
    format!("Number {index} {what}: the page changed, so the numbers were renewed. Nothing was done.")
}

/// A picture of the screen refused because a part of the page did not cover its secret fields.
pub fn picture_not_taken() -> String {
    "No picture was taken: a part of the page did not answer, so Waymark could not cover its password, \
     code and card fields. Try again once the page has loaded."
        .into()
}

/// Why a question was taken away before the user answered it.
pub fn question_closed(reason: waymark_protocol::ClosedReason) -> String {
    use waymark_protocol::ClosedReason;
    match reason {
        ClosedReason::Expired => "The question was withdrawn: nobody answered it in time. Nothing was done.",
        ClosedReason::PageChanged => {
            "The question was withdrawn: the page it was about has changed. Nothing was done."
        }
        ClosedReason::Withdrawn => {
            "The question was withdrawn: whoever asked stopped waiting. Nothing was done."
        }
        ClosedReason::Stopped => "The question was withdrawn: you stopped the agent. Nothing was done.",
    }
    .into()
}

/// A pinned action whose page changed since it was judged (a navigation, a reload).
pub fn pinned_page_changed() -> String {
    "Not done: the page changed since this was asked (the tab shows another page now), so it could no \
     longer do what was asked. The numbers were renewed."
        .into()
}

/// A pinned action whose element went or changed since it was judged; `what` is the content script's
/// account, e.g. `(button "Save") is no longer on the page`.
pub fn pinned_gone(what: &str) -> String {
    format!("Not done: the control the action was for {what}. The numbers were renewed.")
}

/// What a page tool's successful result means, in one message.
pub fn tool_answer(tool: &PageTool, data: Option<&Value>) -> String {
    let text = |key: &str| {
        data.and_then(|d| d.get(key))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let flag = |key: &str| {
        data.and_then(|d| d.get(key))
            .and_then(Value::as_bool)
            .unwrap_or(false)
    };
    let list = || data.and_then(|d| serde_json::from_value::<InteractiveList>(d.clone()).ok());
    match tool {
        PageTool::ListInteractives { .. } => list().map_or_else(
            || "The page's list could not be read.".into(),
            |l| interactive_list(&l),
        ),
        PageTool::Find { text: wanted, .. } => match list() {
            Some(l) => found(wanted.as_deref().unwrap_or_default(), &l),
            None => "The page's list could not be read.".into(),
        },
        PageTool::OverlayShow => overlay(true),
        PageTool::OverlayHide => overlay(false),
        PageTool::OverlayAct { .. } | PageTool::ActByIndex { .. } => acted(data),
        PageTool::FocusNext { .. } | PageTool::FocusPrev { .. } => focused(data),
        PageTool::Screenshot => screenshot(data),
        PageTool::CloseBanners { .. } => banners_closed(data),
        PageTool::Upload { index, .. } => uploaded(*index, data),
        PageTool::ClickAndWaitDownload { .. } | PageTool::DownloadWait { .. } => downloaded(data),
        PageTool::Describe { .. } | PageTool::Preview { .. } => "Described.".into(),
        PageTool::FindBanners => "Looked for banners.".into(),
        PageTool::PressBanners { .. } => banners_closed(data),
        PageTool::Extract => summary(data),
        PageTool::Scroll { direction, .. } => match (direction, flag("scrolled")) {
            (ScrollDirection::Up | ScrollDirection::Top, false) => "Already at the top.".into(),
            (_, false) => "Already at the bottom: nothing more to scroll.".into(),
            (ScrollDirection::Up, true) => "Scrolled up.".into(),
            (ScrollDirection::Down, true) => "Scrolled down. Say /list for the controls now in view.".into(),
            (ScrollDirection::Top, true) => "Scrolled to the top.".into(),
            (ScrollDirection::Bottom, true) => "Scrolled to the bottom.".into(),
        },
        PageTool::Press { key, .. } => {
            let key = if key.trim().is_empty() || key == " " {
                "Space"
            } else {
                key.as_str()
            };
            match text("effect").as_str() {
                "submitted" => format!("Pressed {key}: the form was sent."),
                "activated" => format!("Pressed {key}: activated."),
                "focus moved" => format!("Pressed {key}: the focus moved."),
                _ => format!("Pressed {key}."),
            }
        }
        PageTool::Wait { .. } => {
            if flag("settled") {
                "The page has settled.".into()
            } else {
                "The page is still changing; Waymark stopped waiting.".into()
            }
        }
        PageTool::ListTabs => tabs(data),
        PageTool::SwitchTab { index } => format!(
            "Switched to tab {index}, \"{}\".",
            data.and_then(|d| d.get("title"))
                .and_then(Value::as_str)
                .unwrap_or_default()
        ),
        PageTool::Navigate { .. } | PageTool::Back | PageTool::Forward | PageTool::Reload => {
            let (title, url) = (text("title"), text("url"));
            let verb = match tool {
                PageTool::Back => "Went back to",
                PageTool::Forward => "Went forward to",
                PageTool::Reload => "Reloaded",
                _ => "Opened",
            };
            let still = if flag("loaded") {
                ""
            } else {
                " It is still loading."
            };
            format!("{verb} \"{title}\" ({url}).{still} Say /list for its controls.")
        }
        PageTool::OpenInNewTab { .. } => "Opened a new tab.".into(),
    }
}

/// "Focus on 12, button, Add to cart."
fn focused(data: Option<&Value>) -> String {
    let field = |k: &str| {
        data.and_then(|d| d.get(k))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    match data.and_then(|d| d.get("index")).and_then(Value::as_u64) {
        Some(index) => format!("Focus on {index}, {}, {}.", field("role"), field("name")),
        None => "No other control to move to. Say /list for the controls.".into(),
    }
}

fn screenshot(data: Option<&Value>) -> String {
    match data.and_then(|d| serde_json::from_value::<Screenshot>(d.clone()).ok()) {
        Some(s) => format!(
            "Took a picture of the screen, {} by {} pixels.",
            s.width, s.height
        ),
        None => "Took a picture of the screen.".into(),
    }
}

/// "Closed 2 banners: Reject all; No thanks." or that there was none.
fn banners_closed(data: Option<&Value>) -> String {
    let closed: Vec<String> = data
        .and_then(|d| d.get("closed"))
        .and_then(|c| serde_json::from_value(c.clone()).ok())
        .unwrap_or_default();
    match closed.len() {
        0 => "No banner to close.".into(),
        1 => format!("Closed a banner: {}.", closed[0]),
        n => format!("Closed {n} banners: {}.", closed.join("; ")),
    }
}

/// "Put 2 files into 7: cv.pdf, photo.png."
fn uploaded(index: u32, data: Option<&Value>) -> String {
    let names: Vec<String> = data
        .and_then(|d| d.get("files"))
        .and_then(|c| serde_json::from_value(c.clone()).ok())
        .unwrap_or_default();
    let files = if names.len() == 1 {
        "1 file".to_string()
    } else {
        format!("{} files", names.len())
    };
    format!("Put {files} into {index}: {}.", names.join(", "))
}

/// "Downloaded report.pdf, 12 KB." or why it stopped.
fn downloaded(data: Option<&Value>) -> String {
    let Some(d) = data.and_then(|d| serde_json::from_value::<Download>(d.clone()).ok()) else {
        return "The download finished.".into();
    };
    let name = d
        .filename
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or(&d.filename)
        .to_string();
    if d.state == "complete" {
        format!("Downloaded {name}, {}.", size(d.bytes))
    } else {
        format!(
            "The download of {name} stopped: {}.",
            d.error.as_deref().unwrap_or("the browser gave no reason")
        )
    }
}

/// "12 KB", "3.4 MB".
fn size(bytes: u64) -> String {
    match bytes {
        b if b < 1_024 => format!("{b} bytes"),
        b if b < 1_024 * 1_024 => format!("{} KB", b.div_ceil(1_024)),
        b => format!("{:.1} MB", b as f64 / (1_024.0 * 1_024.0)),
    }
}

/// "3 matches for "cart": 12, button, Add to cart; …"
fn found(wanted: &str, list: &InteractiveList) -> String {
    if list.total == 0 {
        return format!("No control matches \"{wanted}\". Say /list to hear them all.");
    }
    let mut reading = interactive_list(list);
    // Reuse the list's lines, with a heading that says these are matches.
    let lines = reading
        .split_once('\n')
        .map(|(_, rest)| rest.to_string())
        .unwrap_or_default();
    let noun = if list.total == 1 { "match" } else { "matches" };
    reading = format!("{} {noun} for \"{wanted}\":\n{lines}", list.total);
    reading
}

/// The page summary: title, address, headings, the first words.
fn summary(data: Option<&Value>) -> String {
    let Some(d) = data else {
        return "The page could not be read.".into();
    };
    let get = |k: &str| d.get(k).and_then(Value::as_str).unwrap_or_default();
    let mut out = format!("\"{}\" at {}.", get("title"), get("url"));
    let headings: Vec<String> = d
        .get("headings")
        .and_then(Value::as_array)
        .map(|hs| {
            hs.iter()
                .filter_map(|h| h.get("text").and_then(Value::as_str))
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    if !headings.is_empty() {
        out.push_str(&format!("\nHeadings: {}.", headings.join("; ")));
    }
    let snippet = get("snippet");
    if !snippet.is_empty() {
        out.push_str(&format!("\nText: {snippet}"));
    }
    out
}

fn tabs(data: Option<&Value>) -> String {
    let tabs = data
        .and_then(|d| d.get("tabs"))
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if tabs.is_empty() {
        return "No web pages are open in this window.".into();
    }
    let mut out = format!("{} tabs:", tabs.len());
    for tab in &tabs {
        let get = |k: &str| tab.get(k).and_then(Value::as_str).unwrap_or_default();
        let mut line = format!(
            "\n{}, {}",
            tab.get("index").and_then(Value::as_u64).unwrap_or_default(),
            get("title")
        );
        if tab.get("active").and_then(Value::as_bool) == Some(true) {
            line.push_str(", current");
        }
        if tab.get("pinned").and_then(Value::as_bool) == Some(true) {
            line.push_str(", pinned");
        }
        out.push_str(&line);
    }
    out
}

/// `/settings`.
pub fn opening_settings() -> String {
    "Opening Waymark's settings in a new tab.".into()
}

/// What the panel says when it cannot reach its own service worker.
pub fn worker_reconnecting() -> String {
    not_delivered("the panel is reconnecting to the service worker")
}

pub fn no_manual_step() -> String {
    "No step is waiting for you to finish.".into()
}

pub fn no_more() -> String {
    "That was the whole list.".into()
}

pub fn nothing_to_continue() -> String {
    "There is no list to continue: say /list first.".into()
}

pub fn nothing_to_answer() -> String {
    "There is no question waiting for an answer.".into()
}

pub fn overlay_usage() -> String {
    "Say /overlay on or /overlay off.".into()
}

pub fn tool_timeout(seconds: u32) -> String {
    format!("The page did not answer within {seconds} seconds.")
}

pub fn tool_failed(error: &str) -> String {
    error.to_string()
}

/// What an outside MCP client did, naming it: "Claude Desktop: Clicking 12: done".
pub fn activity(activity: &waymark_protocol::Activity) -> String {
    let outcome = if activity.ok { "" } else { "not done: " };
    format!("{}: {outcome}{}", activity.source, activity.summary)
}

#[cfg(test)]
mod tests;
