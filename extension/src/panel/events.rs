//! What the host reports on its own, not as the answer to a request of this panel: the agent's
//! messages, errors, stop, state and progress, faults in the host's setup, and what an outside MCP
//! client does in the user's browser. Each goes to the region that suits it (`speech`), the agent's
//! state and progress through the paced status line (`status`).
//!
//! Must not: word anything (`wording` does), or say a client's every read (they would drown the rest).

use waymark_protocol::{Activity, AgentEvent, AgentState, HostFault};

use super::speech::{alert, clear_alert, note, say, say_outcome};
use super::{status, Shared};
use crate::{activity, chrome, wording};

/// How long after saying that a client reads the page its further reads go unsaid.
const READS_QUIET_MS: f64 = 30_000.0;

/// Says each fault the host found in its setup that this panel has not said yet, assertively: nothing
/// the user does is saved, or chat cannot start, until it is fixed.
pub(super) fn say_faults(panel: &Shared, faults: &[HostFault]) {
    for fault in faults {
        if panel.borrow().faults_said.contains(fault) {
            continue;
        }
        panel.borrow_mut().faults_said.push(fault.clone());
        let text = wording::host_fault(fault);
        note(panel, &activity::Event::Error(&text));
        alert(panel, &text);
    }
}

/// What the agent reports: its answers and errors go to the transcript once; its state and progress
/// to the status line, paced so that they never come before the outcome they follow.
pub(super) fn agent_event(panel: &Shared, event: AgentEvent) {
    match event {
        AgentEvent::Message { text } => say_outcome(panel, &text),
        AgentEvent::Error { text } => {
            note(panel, &activity::Event::Error(&text));
            alert(panel, &wording::agent_error(&text));
        }
        // Said once, assertively: the user asked for it and waits to hear that it happened.
        AgentEvent::Stopped { text } => {
            note(panel, &activity::Event::Stopped(&text));
            panel.borrow_mut().agent_running = false;
            alert(panel, &text);
        }
        AgentEvent::Status { state } => {
            panel.borrow_mut().agent_running = state == AgentState::Running;
            // Working again: no step waits for the user any more (a message also finishes it).
            if state == AgentState::Running && panel.borrow_mut().manual.take().is_some() {
                clear_alert(panel);
                status::question_gone(panel, true);
            }
            status::agent(panel, wording::agent_status(state), Some(state));
        }
        AgentEvent::NotSaved { fault } => {
            let text = wording::not_saved(&fault);
            note(panel, &activity::Event::Error(&text));
            alert(panel, &text);
        }
        AgentEvent::Progress { text } => status::agent(panel, text, None),
        // Each step is already heard as progress, and the outcome in the agent's message: reading every
        // tool result too would bury them. The activity view shows them, silently.
        AgentEvent::Tool { name, ok, summary } => note(
            panel,
            &activity::Event::Tool {
                name: &name,
                ok,
                summary: &summary,
            },
        ),
    }
}

/// Someone other than the user acts in their browser: they hear who and what, once. What a client
/// changes, and what fails, is always said; its reads are said once per [`READS_QUIET_MS`], and only
/// noted in the activity view in between.
pub(super) fn client_activity(panel: &Shared, activity: &Activity) {
    note(
        panel,
        &activity::Event::Client {
            source: &activity.source,
            tool: &activity.tool,
            ok: activity.ok,
            summary: &activity.summary,
        },
    );
    let now = chrome::now_ms();
    let said_lately = panel
        .borrow()
        .last_read
        .as_ref()
        .is_some_and(|(who, at)| *who == activity.source && now - at < READS_QUIET_MS);
    if activity.changes_page || !activity.ok {
        say(panel, &wording::activity(activity));
    } else if !said_lately {
        // What an outside program reads in the user's browser is said too, politely.
        say(panel, &wording::activity(activity));
        panel.borrow_mut().last_read = Some((activity.source.clone(), now));
    }
}
