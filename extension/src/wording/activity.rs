//! The lines of the panel's activity view (`activity.rs`), for sighted helpers: who did what and how
//! it went. Part of `wording`.

use waymark_i18n::say;

use super::language::with_words;
use crate::activity::{Answered, Event};

/// An event's line in the activity view.
pub fn activity_line(event: &Event<'_>) -> String {
    with_words(|w| {
        let outcome = |ok: bool| {
            if ok {
                say!(w, "activity-ok")
            } else {
                say!(w, "activity-failed")
            }
        };
        match event {
            Event::Tool { name, ok, summary } => say!(
                w,
                "activity-agent-tool",
                tool = *name,
                outcome = outcome(*ok),
                summary = *summary
            ),
            Event::Client {
                source,
                tool,
                ok,
                summary,
            } => say!(
                w,
                "activity-client-tool",
                source = *source,
                tool = *tool,
                outcome = outcome(*ok),
                summary = *summary
            ),
            Event::Question { manual: false, text } => say!(w, "activity-question", text = *text),
            Event::Question { manual: true, text } => say!(w, "activity-step", text = *text),
            Event::Answer(answer) => {
                let answer = match answer {
                    Answered::Yes => say!(w, "activity-answer-yes"),
                    Answered::No => say!(w, "activity-answer-no"),
                    Answered::Done => say!(w, "activity-answer-done"),
                    Answered::Withdrawn => say!(w, "activity-answer-withdrawn"),
                };
                say!(w, "activity-answer", answer = answer)
            }
            Event::Error(text) => say!(w, "activity-error", text = *text),
            Event::Stopped(text) => say!(w, "activity-stopped", text = *text),
        }
    })
}
