//! The questions the host asked that nobody has answered or closed yet, as the service worker relays
//! them: one truth for every view of Waymark. Every open panel (side panel, panel tab, Waymark's
//! window) shows the same questions, and a panel that opens later is shown them too; an answer given in
//! one panel takes its question away from the others at once; an answer to a question that is no
//! longer open is refused instead of reaching the host.
//!
//! Must not: decide anything about a question (the host does), word anything (the panels do), or hold a
//! question past the connection that asked it.

use waymark_protocol::{
    AgentEvent, AgentState, Question, QuestionKind, RequestId, ToExtension, WorkerToPanel,
};

use super::Shared;
use crate::chrome::{self, Port};

/// The open questions, oldest first.
#[derive(Debug, Default)]
pub(super) struct OpenQuestions {
    open: Vec<Question>,
}

impl OpenQuestions {
    /// Follows what the host says about its questions: one asked, one closed, or the agent working
    /// again, which ends a step it had left to the user (as it does in the panel).
    pub(super) fn heard(&mut self, message: &ToExtension) {
        match message {
            ToExtension::Question(question) => {
                self.open.retain(|q| q.id != question.id);
                self.open.push(question.clone());
            }
            ToExtension::QuestionClosed(closed) => self.open.retain(|q| q.id != closed.id),
            ToExtension::AgentEvent(update) => {
                if let AgentEvent::Status {
                    state: AgentState::Running,
                } = update.event
                {
                    self.open.retain(|q| q.kind != QuestionKind::Manual);
                }
            }
            _ => {}
        }
    }

    /// An answer to `id` came from a panel: whether that question was open. It is no longer.
    pub(super) fn answered(&mut self, id: RequestId) -> bool {
        let open = self.open.iter().any(|q| q.id == id);
        self.open.retain(|q| q.id != id);
        open
    }

    /// The open questions, for a panel that connects.
    pub(super) fn all(&self) -> &[Question] {
        &self.open
    }

    /// The host went away: its questions went with it.
    pub(super) fn clear(&mut self) {
        self.open.clear();
    }
}

/// A panel answered `question`: whether it was still open. If it was, every other panel takes it
/// away now (the user answered it here); if not (answered in another view meanwhile, or closed), this
/// panel hears that its answer came too late, and the host never sees it.
pub(super) fn answered(worker: &Shared, panel_id: u32, panel: &Port, question: RequestId) -> bool {
    if !worker.borrow_mut().questions.answered(question) {
        let _ = panel.post_message(&chrome::to_js(&WorkerToPanel::AnswerRefused { question }));
        return false;
    }
    let gone = chrome::to_js(&WorkerToPanel::Answered { question });
    for other in worker.borrow().panels.iter().filter(|p| p.id != panel_id) {
        let _ = other.port.post_message(&gone);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use waymark_protocol::{AgentUpdate, ClosedReason, QuestionClosed};

    fn asked(id: RequestId, kind: QuestionKind) -> ToExtension {
        ToExtension::Question(Question {
            id,
            kind,
            text: format!("question {id}"),
            detail: None,
            request: None,
        })
    }

    #[test]
    fn an_answered_or_closed_question_is_no_longer_open_and_a_second_answer_is_refused() {
        let mut open = OpenQuestions::default();
        open.heard(&asked(1, QuestionKind::Confirm));
        open.heard(&asked(2, QuestionKind::Confirm));
        assert_eq!(open.all().iter().map(|q| q.id).collect::<Vec<_>>(), [1, 2]);
        assert!(open.answered(1));
        assert!(!open.answered(1), "the same question answered twice");
        assert!(!open.answered(7), "a question never asked");
        open.heard(&ToExtension::QuestionClosed(QuestionClosed {
            id: 2,
            reason: ClosedReason::PageChanged,
        }));
        assert!(open.all().is_empty());
        assert!(!open.answered(2));
    }

    #[test]
    fn the_agent_working_again_ends_the_step_it_left_to_the_user_but_not_a_question() {
        let mut open = OpenQuestions::default();
        open.heard(&asked(1, QuestionKind::Manual));
        open.heard(&asked(2, QuestionKind::Confirm));
        open.heard(&ToExtension::AgentEvent(AgentUpdate {
            event: AgentEvent::Status {
                state: AgentState::Running,
            },
        }));
        assert_eq!(open.all().iter().map(|q| q.id).collect::<Vec<_>>(), [2]);
        open.clear();
        assert!(open.all().is_empty());
    }
}
