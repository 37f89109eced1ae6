//! Every sentence the agent composes for the user, in their language (`agent.ftl`, `host.ftl`): the
//! summaries when the user stops it and at the step limit, the refusal of a message too long to take,
//! and a saved session that could not be read. The steps'
//! own words (progress, outcomes) are [`crate::mcp::progress`]'s.
//!
//! What it must not do: speak to the model (that is [`super::prompt`], in English), or quote page text:
//! the summaries list the steps as they were said, and the facts and plan the model wrote (which the
//! user hears as the assistant's).

use std::path::Path;

use waymark_i18n::{say, Words};
use waymark_protocol::MAX_CHAT_CHARS;

use crate::session::{self, Session, Unreadable};

/// What the user hears when their message is longer than the agent takes ([`MAX_CHAT_CHARS`]).
pub(super) fn too_long(words: &Words, length: usize) -> String {
    say!(words, "agent-too-long", length = length, max = MAX_CHAT_CHARS)
}

/// What the user hears when the saved session could not be read and a fresh one started.
pub(super) fn session_reset(words: &Words, why: &Unreadable, kept: Option<&Path>) -> String {
    let why = match why {
        Unreadable::Read(detail) => say!(words, "session-unreadable", detail = detail.as_str()),
        Unreadable::Version(version) => say!(
            words,
            "session-unreadable-version",
            version = *version,
            expected = session::VERSION
        ),
        Unreadable::Content(detail) => {
            say!(words, "session-unreadable-content", detail = detail.as_str())
        }
    };
    match kept {
        Some(path) => say!(
            words,
            "session-reset-kept",
            why = why,
            path = path.display().to_string()
        ),
        None => say!(words, "session-reset", why = why),
    }
}

/// What the user hears when they stop the agent: what it did in this run, and how to go on.
pub(super) fn stopped(words: &Words, session: &Session) -> String {
    let done: Vec<&str> = session.run.iter().map(|n| n.what.as_str()).collect();
    if done.is_empty() {
        say!(words, "agent-stopped-before-any-step")
    } else {
        say!(words, "agent-stopped", done = done.join("; "))
    }
}

/// The summary at the step limit, one sentence each: what was done, what worked and what didn't, what
/// was found, the next step, and a question.
pub(super) fn step_limit(words: &Words, session: &Session, limit: u32) -> String {
    let steps = session.counters.steps;
    let mut said = vec![if steps < limit {
        say!(words, "agent-limit-planned")
    } else {
        say!(words, "agent-limit-steps", steps = steps)
    }];
    let done: Vec<&str> = session.run.iter().map(|n| n.what.as_str()).collect();
    if !done.is_empty() {
        said.push(say!(words, "agent-limit-did", done = done.join("; ")));
    }
    let failed: Vec<&str> = session
        .run
        .iter()
        .filter(|n| !n.ok)
        .map(|n| n.what.as_str())
        .collect();
    let worked = session.run.len() - failed.len();
    if session.run.is_empty() {
        // Nothing ran: "All 0 worked" would say nothing true.
    } else if failed.is_empty() {
        said.push(say!(words, "agent-limit-all-worked", count = worked));
    } else {
        said.push(say!(
            words,
            "agent-limit-some-failed",
            worked = worked,
            failed = failed.join("; ")
        ));
    }
    if !session.facts.is_empty() {
        let facts: Vec<&str> = session.facts.iter().map(|f| f.fact.as_str()).collect();
        said.push(say!(words, "agent-limit-found", facts = facts.join("; ")));
    }
    let step = session.plan.get(session.progress.current.saturating_sub(1));
    match (step, &session.current_goal) {
        (Some(next), _) => said.push(say!(words, "agent-limit-next", next = next.trim_end_matches('.'))),
        (None, Some(goal)) => said.push(say!(words, "agent-limit-next-goal", goal = goal.as_str())),
        (None, None) => {}
    }
    said.push(say!(words, "agent-limit-go-on"));
    said.join(" ")
}
