//! Where the user's words reach the agent: a chat message (a new goal, "continue" after the step
//! limit, whatever answers a step handed to them) and an answer to a question (the gate's yes or no,
//! "done" after a hand-over). Each sets the session up for what it means, tells the model what
//! happened in a note ([`prompt`]) and starts the loop again ([`Agent::go`]).
//!
//! What it must not do: run a held action the user did not say yes to (a message written instead of
//! an answer drops it; an answer to a question lost in a restart runs nothing), or start a second run
//! while one is working (one task at a time: the session's lock).

use serde_json::json;
use waymark_i18n::say;
use waymark_protocol::{AgentEvent, AgentState, Answer, Chat, PageTool, MAX_CHAT_CHARS};

use super::observe::{attach, observation};
use super::record::{add_result_groups, push_done};
use super::{prompt, tools, wording, Agent, Settings, Work};
use crate::gate::{Action, Decided};
use crate::llm::Message;
use crate::session::{PendingKind, StepNote, Stop};
use crate::steplog;

impl Agent {
    /// Handles one chat message: a new goal, "continue" after the step limit, an answer to the model's
    /// question, or "done" after a step handed to the user. Runs the loop until it ends.
    pub async fn chat(self: std::sync::Arc<Self>, chat: Chat) {
        let length = chat.text.chars().count();
        if length > MAX_CHAT_CHARS {
            let text = wording::too_long(&self.words(), length);
            return self.emit(AgentEvent::Message { text }).await;
        }
        let Ok(mut slot) = self.work.try_lock() else {
            let words = self.words();
            let text = say!(words, "agent-busy");
            return self.emit(AgentEvent::Message { text }).await;
        };
        // A stop said before this message was for the run before it.
        self.stopping.send_replace(false);
        let settings = match (self.setup)(&self.words()) {
            Ok(settings) => settings,
            Err(text) => {
                self.emit(AgentEvent::Error { text }).await;
                return self.status(AgentState::Error).await;
            }
        };
        let work = self.load(&mut slot, &settings).await;
        // The user's own words: a navigation that carries them (a search) is theirs, not a page's.
        self.gate.note_user_words(&chat.text);
        let session = &mut work.session;
        if chat.tab_id.is_some() {
            session.tab_id = chat.tab_id;
        }
        if let Some(language) = chat.language.as_deref().and_then(prompt::language_tag) {
            session.language = Some(language);
        }
        match session.pending_kind {
            PendingKind::Manual => {
                // Whatever the user writes now answers the step handed to them ("done", "готово", …).
                session.conversation.push(Message::user(chat.text));
                return self.manual_done(&settings, work, true).await;
            }
            PendingKind::Confirm => {
                // They wrote instead of answering: the held action is dropped, never run later.
                self.gate
                    .withdraw(&self.inbox, waymark_protocol::ClosedReason::Withdrawn)
                    .await;
                let what = session.pending_action.take().map(|p| p.text).unwrap_or_default();
                session.pending_kind = PendingKind::None;
                session
                    .conversation
                    .push(prompt::wrote_instead_of_answering(&what));
            }
            PendingKind::None => {}
        }
        match session.stop {
            Stop::Finished => {
                session.new_goal(&chat.text);
                self.gate.new_agent_task();
            }
            Stop::StepLimit => session.conversation.push(prompt::answers_the_step_limit()),
            Stop::Working => session.conversation.push(prompt::started_again()),
            Stop::Stopped => session.conversation.push(prompt::answers_the_stop()),
            Stop::Asked | Stop::Waiting | Stop::Failed => {
                if session.current_goal.is_none() {
                    session.new_goal(&chat.text);
                    self.gate.new_agent_task();
                }
            }
        }
        session.new_run();
        session.conversation.push(Message::user(chat.text));
        self.go(&settings, work).await;
    }

    /// Handles the user's answer to a question: "done" for a step the agent handed over (then the agent
    /// looks at the page and goes on), or yes/no for the gate (then, if the agent asked, it goes on with
    /// the outcome).
    pub async fn answer(self: std::sync::Arc<Self>, answer: Answer) {
        // While the agent runs it is not waiting for a manual step: the answer is the gate's.
        if let Ok(mut slot) = self.work.try_lock() {
            self.stopping.send_replace(false);
            if let Ok(settings) = (self.setup)(&self.words()) {
                let work = self.load(&mut slot, &settings).await;
                let session = &mut work.session;
                let manual = session.pending_kind == PendingKind::Manual
                    && session
                        .pending_action
                        .as_ref()
                        .is_some_and(|p| answer.question == p.question);
                if manual {
                    if !answer.yes {
                        session.conversation.push(prompt::will_not_do_the_step());
                    }
                    return self.manual_done(&settings, work, answer.yes).await;
                }
            }
        }
        self.gate.clone().answer(answer).await;
        let decided = self.drain_decided();
        if decided.is_empty() {
            // The question was the panel's or an outside client's, or the agent's action is no longer
            // held: the host started again since it asked, and a held action never outlives its gate.
            self.forget_lost_question().await;
            return;
        }
        let mut slot = self.work.lock().await;
        self.stopping.send_replace(false);
        let settings = match (self.setup)(&self.words()) {
            Ok(settings) => settings,
            Err(text) => {
                self.emit(AgentEvent::Error { text }).await;
                return self.status(AgentState::Error).await;
            }
        };
        let work = self.load(&mut slot, &settings).await;
        for decided in &decided {
            self.decided_event(work, decided).await;
        }
        work.session.pending_kind = PendingKind::None;
        work.session.pending_action = None;
        self.go(&settings, work).await;
    }

    /// If the session waits for a yes or no that the gate no longer holds (the host started again since
    /// it asked), says that nothing was done and lets the next message go on with the goal.
    async fn forget_lost_question(&self) {
        let Ok(mut slot) = self.work.try_lock() else {
            return;
        };
        let Some(work) = slot.as_mut() else { return };
        if work.session.pending_kind != PendingKind::Confirm || self.gate.holds_a_question() {
            return;
        }
        work.session.pending_kind = PendingKind::None;
        work.session.pending_action = None;
        work.session.stop = Stop::Failed;
        work.session.conversation.push(prompt::question_lost());
        self.save(work);
        self.say_unsaved(work).await;
        let words = self.words();
        let text = say!(words, "agent-question-lost");
        self.emit(AgentEvent::Message { text }).await;
    }

    /// The user finished the step handed to them (`did`), or will not: look at the page again and go on.
    async fn manual_done(&self, settings: &Settings, work: &mut Work, did: bool) {
        let session = &mut work.session;
        let what = session.pending_action.take().map(|p| p.text).unwrap_or_default();
        session.pending_kind = PendingKind::None;
        if did {
            push_done(
                session,
                format!("the user did a step themselves: {}", clip(&what, 120)),
            );
        }
        self.status(AgentState::Running).await;
        let words = self.words();
        self.emit(AgentEvent::Progress {
            text: say!(words, "agent-progress-look-again"),
        })
        .await;
        let tool = PageTool::ListInteractives {
            scope: None,
            limit: None,
            offset: None,
        };
        let tab_id = work.session.tab_id;
        let started = steplog::now_ms();
        // Reading tools always run; anything else becomes its result all the same.
        let result = self
            .execute(tab_id, tool.clone())
            .await
            .into_result(&self.gate.words());
        let summary = tools::summary(&words, &tool, &result);
        self.tool_event("browser_list_interactives", result.error.is_none(), &summary)
            .await;
        work.session.last_observation = observation(&tool, &result);
        let mut event = self.step_event(work, "manual_done", started);
        event.insert("ask".into(), json!({"manual": true, "user_did_it": did}));
        add_result_groups(&mut event, &tool, &result);
        work.log.write(event);
        let page = tools::result_message(&result);
        work.session
            .conversation
            .push(prompt::after_the_users_step(did, &page));
        self.go_on(settings, work, false).await;
    }

    /// Tells the panel (and the model, through the conversation) what became of a held action.
    pub(super) async fn decided_event(&self, work: &mut Work, decided: &Decided) {
        let ok = decided.result.error.is_none();
        let words = self.words();
        let said = match &decided.result.error {
            None => say!(words, "agent-summary-said-yes"),
            Some(error) => error.clone(),
        };
        self.tool_event(decided.action.name(), ok, &said).await;
        let what = match &decided.action {
            Action::Page { tool, .. } | Action::Request { tool, .. } => tools::progress(&words, tool),
            Action::External { name, .. } => say!(words, "agent-progress-external", tool = name.as_str()),
            Action::Admit { client } => say!(words, "agent-progress-admit", client = client.as_str()),
        };
        let session = &mut work.session;
        if decided.yes && ok {
            push_done(session, format!("{what} (the user said yes)"));
        }
        session.run.push(StepNote {
            what: say!(words, "agent-summary-step", step = what.as_str(), outcome = said),
            ok,
        });
        // A page action changed the page: the model gets it numbered again, as after any action.
        let mut outcome = decided.clone();
        if decided.yes && ok && decided.action.page().is_some() {
            let tab_id = work.session.tab_id;
            if let Some(after) = self.look_again(tab_id).await {
                attach(&mut outcome.result, "page_after", after);
            }
        }
        work.session.conversation.push(prompt::decided_note(&outcome));
        let mut event = self.step_event(work, "decided", steplog::now_ms());
        event.insert(
            "policy".into(),
            json!({"decision": "confirm", "user_said": if decided.yes { "yes" } else { "no" }, "ran_ok": decided.yes && ok}),
        );
        work.log.write(event);
    }
}

/// At most `max` characters of `text`, with an ellipsis when cut.
fn clip(text: &str, max: usize) -> String {
    let mut clipped: String = text.chars().take(max).collect();
    if clipped.len() < text.len() {
        clipped.push('…');
    }
    clipped
}
