//! The user's stop (`/stop`, "stop", Escape, the shortcut): a run in progress ends at its next wait
//! (the model call in flight is dropped, so its HTTP request is cancelled; a step in flight is no
//! longer waited for), and no further tool runs; a question the agent holds, or a step it handed to
//! the user, is withdrawn. The goal, plan and facts are kept, so "continue" goes on with them.
//!
//! What it must not do: run anything itself, or lose the session: a stopped run is saved like any
//! other, with [`Stop::Stopped`], and the conversation stays valid (every tool call answered).

use std::future::Future;
use std::sync::Arc;

use waymark_protocol::{AgentEvent, AgentState, ClosedReason, QuestionClosed, ToExtension};

use waymark_i18n::say;

use super::{prompt, wording, Agent, Work};
use crate::session::{PendingKind, Stop};
use crate::steplog;

impl Agent {
    /// The user says stop. A run holding the session is told to end; otherwise what waits for the user
    /// is withdrawn here. Either way the user hears [`AgentEvent::Stopped`] once.
    pub async fn stop(self: Arc<Self>) {
        let Ok(mut slot) = self.work.try_lock() else {
            // A run holds the session: it hears this at its next wait and says it stopped.
            self.stopping.send_replace(true);
            return;
        };
        let settings = match (self.setup)(&self.words()) {
            Ok(settings) => settings,
            Err(text) => return self.emit(AgentEvent::Error { text }).await,
        };
        let work = self.load(&mut slot, &settings).await;
        if work.session.pending_kind == PendingKind::None {
            let words = self.words();
            let text = say!(words, "agent-idle");
            return self.emit(AgentEvent::Stopped { text }).await;
        }
        self.withdraw_waiting(work).await;
        self.end_stopped(work).await;
        self.save(work);
        self.say_unsaved(work).await;
        self.status(AgentState::Idle).await;
    }

    /// `work` unless the user says stop first (or has already): then `None`, and `work` is dropped
    /// where it waits.
    pub(super) async fn unless_stopped<T>(&self, work: impl Future<Output = T>) -> Option<T> {
        let mut stopping = self.stopping.subscribe();
        if *stopping.borrow_and_update() {
            return None;
        }
        tokio::select! {
            biased;
            Ok(_) = stopping.wait_for(|stop| *stop) => None,
            done = work => Some(done),
        }
    }

    /// Whether the user has said stop since this run began.
    pub(super) fn stop_said(&self) -> bool {
        *self.stopping.borrow()
    }

    /// The agent waited for the user (a yes or no, or a step handed over): that is withdrawn, without
    /// words of its own ([`ClosedReason::Stopped`]: the stop is said once, by [`End::Stopped`]).
    async fn withdraw_waiting(&self, work: &mut Work) {
        let session = &mut work.session;
        let held = session.pending_action.take();
        match session.pending_kind {
            PendingKind::Confirm => {
                self.gate.withdraw(&self.inbox, ClosedReason::Stopped).await;
            }
            PendingKind::Manual => {
                if let Some(held) = &held {
                    let closed = QuestionClosed {
                        id: held.question,
                        reason: ClosedReason::Stopped,
                    };
                    let _ = self.outbox.send(ToExtension::QuestionClosed(closed)).await;
                }
            }
            PendingKind::None => {}
        }
        session.pending_kind = PendingKind::None;
        let what = held.map(|h| h.text).unwrap_or_default();
        session
            .conversation
            .push(prompt::stopped_instead_of_answering(&what));
    }

    /// The run (or the wait) ended by the user's stop: the session says so, the step log records it,
    /// and the user hears what was done so far.
    pub(super) async fn end_stopped(&self, work: &mut Work) -> AgentState {
        work.session.stop = Stop::Stopped;
        work.session.state = AgentState::Idle;
        let event = self.step_event(work, "stopped", steplog::now_ms());
        work.log.write(event);
        let text = wording::stopped(&self.words(), &work.session);
        self.emit(AgentEvent::Stopped { text }).await;
        AgentState::Idle
    }
}
