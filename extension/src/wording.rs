//! What the side panel says. Every sentence a user hears lives here, as plain functions of protocol
//! data, so the wording is reviewed and tested in one place; the words themselves are messages of the
//! catalogues in `i18n/locales/<language>/`, said in the context's language (`language.rs`).
//!
//! Must not: glue a sentence together from pieces (word order differs between languages: one message
//! per sentence, values by name), or decide anything beyond which message to say.

use waymark_protocol::{AgentState, ConnectionState, Disconnection, ErrorReply, Pong, PROTOCOL_VERSION};

mod activity;
mod faults;
mod help;
mod keys;
mod language;
mod list;
mod pages;
mod reasons;
mod settings;
mod tabs;
mod tools;
pub use activity::activity_line;
pub use faults::{config_file_problems, host_fault, not_saved, saved_keeping_copy, settings_not_loaded};
pub use help::{heard, heard_in, help, set_heard, unknown_command, usage, Usage};
pub use keys::{already_window, opening_window, shortcuts, shortcuts_unset};
use language::with_words;
pub use language::{set_language, set_words};
pub use list::interactive_list;
pub use pages::{settings_page, side_panel, Attribute, PageWords};
pub use reasons::{page_reason, pinned_gone, stale};
pub use settings::*;
pub use tabs::*;
pub use tools::tool_answer;
use waymark_i18n::say;

/// The language the context speaks, as a BCP 47 tag for `<html lang>` (`en`, `ru`).
pub fn language() -> &'static str {
    with_words(|w| w.language())
}

/// The host's Debian package, and the command that installs the host from a source checkout: named in
/// the sentences that say how to install it (commands are not words to translate).
const HOST_PACKAGE: &str = "waymark-host";
const SOURCE_INSTALL: &str = "./build.sh install";

/// The status line for a connection state. Retry delays are left out on purpose: the text must not
/// change (and be announced again) on every retry of the same failure.
pub fn connection_status(state: &ConnectionState) -> String {
    with_words(|w| match state {
        ConnectionState::Connecting => say!(w, "status-connecting"),
        // Said at every opening, so short: the host's version is in `/details`.
        ConnectionState::Connected { .. } => say!(w, "status-connected"),
        ConnectionState::NotInstalled { .. } => say!(
            w,
            "status-not-installed",
            package = HOST_PACKAGE,
            command = SOURCE_INSTALL
        ),
        ConnectionState::Forbidden {
            extension_id,
            browser,
            ..
        } => say!(
            w,
            "status-forbidden",
            command = format!(
                "waymark-host install --browser {} --extension-id {extension_id}",
                browser.option()
            )
        ),
        ConnectionState::Incompatible {
            host_version,
            host_protocol,
        } => say!(
            w,
            "status-incompatible",
            version = host_version.as_str(),
            host_protocol = *host_protocol,
            protocol = PROTOCOL_VERSION,
            package = HOST_PACKAGE,
            command = SOURCE_INSTALL
        ),
        ConnectionState::Disconnected { why, .. } => {
            let reason = match why {
                Disconnection::Exited => say!(w, "status-host-exited"),
                Disconnection::FailedToStart => say!(w, "status-host-failed-to-start"),
                Disconnection::CommunicationFailed => say!(w, "status-host-unreadable"),
                Disconnection::Closed => say!(w, "status-host-closed"),
                Disconnection::Silent { seconds } => say!(w, "status-host-silent", seconds = *seconds),
                Disconnection::Other { reason } => reason.clone(),
            };
            say!(w, "status-disconnected", reason = reason)
        }
    })
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
    with_words(|w| say!(w, "panel-no-details"))
}

pub fn ping_timeout(seconds: u32) -> String {
    with_words(|w| say!(w, "panel-ping-timeout", seconds = seconds))
}

pub fn host_error(e: &ErrorReply) -> String {
    with_words(|w| say!(w, "panel-host-error", message = e.message.as_str()))
}

pub fn not_delivered(reason: &str) -> String {
    with_words(|w| say!(w, "panel-not-delivered", reason = reason))
}

/// Plain text outside chat mode.
pub fn chat_unavailable() -> String {
    with_words(|w| say!(w, "panel-chat-unavailable"))
}

pub fn chat_mode(on: bool) -> String {
    with_words(|w| {
        if on {
            say!(w, "panel-chat-on")
        } else {
            say!(w, "panel-chat-off")
        }
    })
}

/// The status line for the agent's state.
pub fn agent_status(state: AgentState) -> String {
    with_words(|w| match state {
        AgentState::Running => say!(w, "agent-state-running"),
        AgentState::Idle => say!(w, "agent-state-idle"),
        AgentState::WaitingUser => say!(w, "agent-state-waiting"),
        AgentState::Error => say!(w, "agent-state-error"),
    })
}

/// An error the agent reports (its text is already written for people).
pub fn agent_error(text: &str) -> String {
    with_words(|w| say!(w, "agent-stopped-error", text = text))
}

/// What the user typed, shown (never spoken) in the transcript for a sighted helper.
pub fn you_said(text: &str) -> String {
    with_words(|w| say!(w, "panel-you-said", text = text))
}

pub fn overlay(shown: bool) -> String {
    with_words(|w| {
        if shown {
            say!(w, "overlay-shown")
        } else {
            say!(w, "overlay-hidden")
        }
    })
}

/// Why a question was taken away before the user answered it.
pub fn question_closed(reason: waymark_protocol::ClosedReason) -> String {
    use waymark_protocol::ClosedReason;
    with_words(|w| match reason {
        ClosedReason::Expired => say!(w, "question-closed-expired"),
        ClosedReason::PageChanged => say!(w, "question-closed-page-changed"),
        ClosedReason::Withdrawn => say!(w, "question-closed-withdrawn"),
        ClosedReason::Stopped => say!(w, "question-closed-stopped"),
    })
}

/// An answer to a question no longer open (answered in another view of Waymark, or closed).
pub fn answer_refused() -> String {
    with_words(|w| say!(w, "panel-answer-refused"))
}

/// A side panel opened on Linux: Orca reads the panel instead of the page while it is open, and
/// Waymark's own window (its shortcut `key`, or `/window` when it has none) keeps the page readable.
pub fn orca_side_panel(key: &str) -> String {
    with_words(|w| {
        if key.is_empty() {
            say!(w, "panel-orca-side-panel-no-key")
        } else {
            say!(w, "panel-orca-side-panel", key = key)
        }
    })
}

/// `/settings`.
pub fn opening_settings() -> String {
    with_words(|w| say!(w, "panel-opening-settings"))
}

/// What the panel says when it cannot reach its own service worker.
pub fn worker_reconnecting() -> String {
    not_delivered(&with_words(|w| say!(w, "panel-worker-reconnecting")))
}

pub fn no_manual_step() -> String {
    with_words(|w| say!(w, "panel-no-manual-step"))
}

pub fn no_more() -> String {
    with_words(|w| say!(w, "list-no-more"))
}

pub fn nothing_to_continue() -> String {
    with_words(|w| say!(w, "list-nothing-to-continue"))
}

pub fn nothing_to_answer() -> String {
    with_words(|w| say!(w, "panel-nothing-to-answer"))
}

pub fn overlay_usage() -> String {
    with_words(|w| say!(w, "usage-overlay"))
}

pub fn tool_timeout(seconds: u32) -> String {
    with_words(|w| say!(w, "panel-tool-timeout", seconds = seconds))
}

pub fn tool_failed(error: &str) -> String {
    error.to_string()
}

/// A failed tool that gave no reason.
pub fn page_reported_error() -> String {
    with_words(|w| say!(w, "panel-page-error"))
}

/// What an outside MCP client did, naming it: "Claude Desktop: Clicking 12: done". A failure's summary
/// is the host's sentence for it, which says that nothing was done ("Not done: you said no."), so it is
/// not prefixed again.
pub fn activity(activity: &waymark_protocol::Activity) -> String {
    let (source, summary) = (activity.source.as_str(), activity.summary.as_str());
    with_words(|w| say!(w, "client-activity", source = source, summary = summary))
}

#[cfg(test)]
mod every_sentence;
#[cfg(test)]
mod tests;
