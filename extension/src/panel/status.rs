//! The status line, paced for listening. The connection's state is said at once (`speech::set_status`).
//! The agent's state and progress wait a moment first ([`SETTLE_MS`]: a line replaced within it is never
//! said, and a question or an alert that comes meanwhile goes first), are held while a question or a
//! step for the user is shown (the question itself says that the agent waits, and a progress line said
//! after it would be stale), and never follow an alert closer than [`AFTER_ALERT_MS`]: a screen reader
//! queues the polite lines it has not said yet before the assertive ones (Orca 43 does), and drops
//! them when an assertive one comes, so a status set together with an outcome would be said first
//! ("The agent is ready." before "Stopped."), or lost. A line held back is said once that is over, so
//! the last one is always heard.
//!
//! While the panel speaks from behind (`speech::aloud`), the line is shown but only the agent's resting
//! states (ready, waiting, stopped on an error) are spoken, after the outcome; the first of them ends
//! speaking from behind.
//!
//! Must not: word anything (`wording` does), or hold back the connection's state.

use gloo_timers::callback::Timeout;
use waymark_protocol::AgentState;

use super::speech::{set_status, speak_from_behind};
use super::Shared;
use crate::chrome;

/// How long an agent's line waits before it is said: a line replaced within it is never said.
const SETTLE_MS: f64 = 250.0;
/// How long after an alert a line waits, so the screen reader has queued the alert first.
const AFTER_ALERT_MS: f64 = 500.0;

/// The agent's line waiting to be said, and when the last alert was.
#[derive(Default)]
pub(super) struct StatusLine {
    /// The line, and the state it says (none for a step's progress).
    held: Option<(String, Option<AgentState>)>,
    timer: Option<Timeout>,
    last_alert_ms: f64,
}

/// The agent's state (or, with none, a step's progress), said once it has settled.
pub(super) fn agent(panel: &Shared, text: String, state: Option<AgentState>) {
    panel.borrow_mut().status_line.held = Some((text, state));
    arm(panel, SETTLE_MS);
}

/// An alert was just made: a line waiting to be said waits for it.
pub(super) fn alerted(panel: &Shared) {
    let armed = {
        let mut p = panel.borrow_mut();
        p.status_line.last_alert_ms = chrome::now_ms();
        p.status_line.timer.is_some()
    };
    if armed {
        arm(panel, 0.0);
    }
}

/// A question or a step for the user is shown: the line says nothing more until it is gone. What it
/// said before is taken away silently (an emptied live region is not announced).
pub(super) fn question_shown(panel: &Shared) {
    let p = &mut *panel.borrow_mut();
    p.status_line.timer = None;
    p.status.set_text_content(None);
}

/// The question or step is gone: a line held back meanwhile is said now, or, when it was answered,
/// once settled (the outcome's alert, which comes meanwhile, goes first). Answered, "The agent is
/// waiting for you." is stale and never said.
pub(super) fn question_gone(panel: &Shared, answered: bool) {
    let held = {
        let mut p = panel.borrow_mut();
        if answered
            && p.status_line
                .held
                .as_ref()
                .is_some_and(|(_, state)| *state == Some(AgentState::WaitingUser))
        {
            p.status_line.held = None;
        }
        p.status_line.held.is_some()
    };
    if held {
        arm(panel, if answered { SETTLE_MS } else { 0.0 });
    }
}

/// Says the held line after `delay` ms, and not sooner than [`AFTER_ALERT_MS`] after the last alert.
fn arm(panel: &Shared, delay: f64) {
    let wait = {
        let p = panel.borrow();
        let since_alert = chrome::now_ms() - p.status_line.last_alert_ms;
        delay.max(AFTER_ALERT_MS - since_alert).max(0.0)
    };
    let timer = {
        let panel = panel.clone();
        Timeout::new(wait as u32, move || release(&panel))
    };
    panel.borrow_mut().status_line.timer = Some(timer);
}

fn release(panel: &Shared) {
    let held = {
        let mut p = panel.borrow_mut();
        // This runs inside that timer's callback: it is freed after this turn, not during it.
        let timer = p.status_line.timer.take();
        wasm_bindgen_futures::spawn_local(async move { drop(timer) });
        if p.question.is_some() || p.manual.is_some() {
            // Kept for when the question is gone.
            return;
        }
        p.status_line.held.take()
    };
    let Some((text, state)) = held else { return };
    let aloud = panel.borrow().aloud;
    set_status(panel, &text);
    if aloud && state.is_some_and(|s| s != AgentState::Running) {
        speak_from_behind(panel, &text);
        panel.borrow_mut().aloud = false;
    }
}
