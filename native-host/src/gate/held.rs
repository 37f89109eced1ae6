//! Held actions and their questions: an action the gate will not run without the user's yes waits
//! here, with its pin, until the user answers, its page changes, nobody answers within
//! [`QUESTION_TTL`], or whoever asked stops waiting. One question is shown at a time; the others wait
//! their turn, oldest first, and a new one never replaces one the user is about to answer.
//!
//! A yes to an action on an element runs it only after a second look (`recheck.rs`): described again
//! on the pinned element, it must still do what the question said, or the user is asked again.
//!
//! Must not: run a held action anywhere but where it was judged, run it on anything but a yes to its
//! own question, run it when it would now do something else than its question said, or leave an
//! asker waiting for a question that was closed.

use std::collections::VecDeque;
use std::sync::{Arc, Weak};

use tokio::sync::mpsc;
use tokio::time::Instant;
use waymark_protocol::{
    Answer, ClosedReason, Effect, ErrorKind, PageTool, Question, QuestionClosed, QuestionKind, RequestId,
    ToExtension, ToolResult, UserTool,
};

use super::recheck::Recheck;
use super::request::Guarded;
use super::{question, Action, Decided, Gate, Gated, Requester, EXPIRY_TICK, MAX_WAITING, QUESTION_TTL};
use crate::mcp::external::External;

/// An action waiting for the user's yes.
#[derive(Debug)]
pub(super) struct Pending {
    pub(super) id: RequestId,
    /// Whom to tell once decided.
    requester: Requester,
    /// The exact action to run on yes.
    action: Action,
    /// The servers that run an external action.
    external: Option<Arc<External>>,
    /// The question as the user hears it.
    text: String,
    /// What the asker hears on no, when it is more than "you said no" (such as which tab to use).
    on_no: Option<String>,
    /// What `/details` says while the question is shown (the program a client is).
    detail: Option<String>,
    /// What the question described, for the second look at the yes (actions on an element).
    effect: Option<Effect>,
    asked_at: Instant,
}

impl Pending {
    /// The question as the panels show it: with its long form for `/details`, and the panel's own
    /// request it holds, if a panel asked (whichever panel the user answers in says its outcome).
    fn question(&self) -> Question {
        let request = match (&self.requester, &self.action) {
            (Requester::Panel(id), Action::Page { tool, .. }) => Some(UserTool {
                id: *id,
                tab_id: None,
                tool: tool.clone(),
            }),
            _ => None,
        };
        Question {
            id: self.id,
            kind: QuestionKind::Confirm,
            text: self.text.clone(),
            detail: self.detail.clone(),
            request,
        }
    }

    /// Whether the action was judged on a document of `tab` that a new document in `frame` replaces.
    fn on_page(&self, tab: i32, frame: i32) -> bool {
        match &self.action {
            // Opening an address the guard stopped is that request itself, whatever the tab shows
            // (the browser's "blocked" page arrives just after it).
            Action::Request {
                tool: PageTool::Navigate { .. },
                ..
            } => false,
            Action::Page { pin, .. } | Action::Request { pin, .. } => {
                pin.tab == tab && (frame == 0 || pin.frame == frame)
            }
            Action::External { .. } | Action::Admit { .. } => false,
        }
    }
}

/// What running a held action on the user's yes came to.
enum Held {
    /// It ran (or failed): its result, for whoever asked.
    Done(ToolResult),
    /// It ran guarded, and the page tried to send another request the user must allow first.
    Again {
        action: Action,
        question: String,
        on_no: String,
    },
}

/// The question shown and those waiting their turn, oldest first.
#[derive(Default)]
pub(super) struct Questions {
    shown: Option<Pending>,
    waiting: VecDeque<Pending>,
}

impl Gate {
    /// Holds `action` and asks the user `question` (naming an outside client that asked), with the
    /// long form `detail` says on `/details` while it is shown: shown now if no other question is,
    /// else after those before it. Never replaces a question already asked.
    pub(super) async fn hold(
        &self,
        requester: Requester,
        action: Action,
        external: Option<Arc<External>>,
        question: String,
        on_no: Option<String>,
        detail: Option<String>,
    ) -> Gated {
        let pending = self.pending(requester, action, question, detail);
        self.enqueue(Pending {
            external,
            on_no,
            ..pending
        })
        .await
    }

    /// [`Gate::hold`] for an action on the page whose question described `effect`: at the yes it is
    /// described again and must still match.
    pub(super) async fn hold_described(
        &self,
        requester: Requester,
        action: Action,
        question: String,
        detail: Option<String>,
        effect: Effect,
    ) -> Gated {
        let pending = self.pending(requester, action, question, detail);
        self.enqueue(Pending {
            effect: Some(effect),
            ..pending
        })
        .await
    }

    /// A new held action with its question, in the words the user hears.
    fn pending(
        &self,
        requester: Requester,
        action: Action,
        question: String,
        detail: Option<String>,
    ) -> Pending {
        let text = match (&requester, &action) {
            // The user must know who wants this done in their browser.
            (
                Requester::Client { name, .. },
                Action::Page { .. } | Action::Request { .. } | Action::External { .. },
            ) => question::client_asks(&self.words(), name, &question),
            _ => question,
        };
        Pending {
            id: self.new_question_id(),
            requester,
            action,
            external: None,
            text,
            on_no: None,
            detail,
            effect: None,
            asked_at: Instant::now(),
        }
    }

    /// Shows `pending`'s question now if no other question is shown, else after those before it.
    async fn enqueue(&self, pending: Pending) -> Gated {
        let (id, text) = (pending.id, pending.text.clone());
        let asked = pending.question();
        let show = {
            let mut questions = self.lock();
            if questions.shown.is_none() {
                questions.shown = Some(pending);
                true
            } else if questions.waiting.len() < MAX_WAITING {
                questions.waiting.push_back(pending);
                false
            } else {
                return Gated::Ran(ToolResult::error(self.say("gate-too-many-questions")));
            }
        };
        if show {
            self.ask(asked).await;
        }
        Gated::Asked { id, question: text }
    }

    async fn ask(&self, question: Question) {
        let _ = self.outbox.send(ToExtension::Question(question)).await;
    }

    /// Shows the next waiting question, if none is shown.
    async fn show_next(&self) {
        let next = {
            let mut questions = self.lock();
            if questions.shown.is_some() {
                return;
            }
            let next = questions.waiting.pop_front();
            let shown = next.as_ref().map(Pending::question);
            questions.shown = next;
            shown
        };
        if let Some(question) = next {
            self.ask(question).await;
        }
    }

    /// Handles the user's yes or no to the question shown. An answer to any other question (an old
    /// one, a closed one) does nothing.
    pub async fn answer(self: Arc<Self>, answer: Answer) {
        let pending = {
            let mut questions = self.lock();
            match &questions.shown {
                Some(p) if p.id == answer.question => questions.shown.take(),
                _ => None,
            }
        };
        let Some(pending) = pending else {
            tracing::info!("an answer came for no question shown; ignored");
            return;
        };
        let result = if answer.yes {
            match self.look_again(&pending).await {
                Recheck::Same => {
                    // A yes to data leaving adds its origin to the task's set.
                    self.provenance().said_yes(pending.id);
                    match self.run_held(&pending).await {
                        Held::Done(result) => result,
                        // Running it, the page tried to send something else the user must allow: asked
                        // next, for the same asker, before any other question.
                        Held::Again {
                            action,
                            question,
                            on_no,
                        } => {
                            let Pending {
                                requester, detail, ..
                            } = pending;
                            let next = Pending {
                                on_no: Some(on_no),
                                ..self.pending(requester, action, question, detail)
                            };
                            self.lock().waiting.push_front(next);
                            return self.show_next().await;
                        }
                    }
                }
                Recheck::Gone(result) => result,
                Recheck::Changed {
                    effect,
                    tool,
                    question,
                } => {
                    // Nothing runs: the user hears what changed and is asked about what it would do now.
                    let Pending {
                        requester, detail, ..
                    } = pending;
                    let action = Action::Page {
                        tool,
                        pin: effect.pin.clone(),
                    };
                    self.hold_described(requester, action, question, detail, *effect)
                        .await;
                    self.show_next().await;
                    return;
                }
            }
        } else {
            ToolResult::failed(
                ErrorKind::Declined,
                pending
                    .on_no
                    .clone()
                    .unwrap_or_else(|| question::said_no(&self.words())),
            )
        };
        self.settle(pending, answer.yes, None, result).await;
        self.show_next().await;
    }

    /// The second look at a held action on an element, before its yes runs it.
    async fn look_again(&self, pending: &Pending) -> Recheck {
        match (&pending.action, &pending.effect) {
            (Action::Page { tool, pin }, Some(asked)) => self.recheck(tool, pin, asked).await,
            _ => Recheck::Same,
        }
    }

    /// Runs a held action on the user's yes: exactly it, where it was judged.
    async fn run_held(&self, pending: &Pending) -> Held {
        let result = match (&pending.action, &pending.external) {
            (Action::Request { tool, pin, allow }, _) => {
                return match self.run_guarded(tool, pin, allow.clone()).await {
                    Guarded::Ran(result) => Held::Done(result),
                    Guarded::Ask {
                        question,
                        action,
                        on_no,
                    } => Held::Again {
                        action,
                        question,
                        on_no,
                    },
                };
            }
            (Action::Page { tool, pin }, _) => self.browser.run_pinned(pin, tool.clone()).await,
            (Action::External { name, args }, Some(external)) => external.call(name, args).await,
            (Action::External { .. }, None) => {
                ToolResult::failed(ErrorKind::Unreachable, self.say("gate-server-gone"))
            }
            (Action::Admit { .. }, _) => ToolResult::ok(serde_json::json!({"admitted": true})),
        };
        Held::Done(result)
    }

    /// Tells whoever asked for a held action what became of it.
    async fn settle(&self, pending: Pending, yes: bool, closed: Option<ClosedReason>, result: ToolResult) {
        match pending.requester {
            Requester::Panel(id) => self.reply(id, result).await,
            // The client's call reports the outcome (and the panel hears it as activity); the agent
            // picks it up as it handles the answer (`Agent::answer`), tells the user and goes on with
            // its task. If either is gone, nobody needs it.
            Requester::Client { inbox, .. } | Requester::Agent(inbox) => {
                let _ = inbox.send(Decided {
                    action: pending.action,
                    yes,
                    result,
                    closed,
                });
            }
        }
    }

    /// Closes the questions `matches` picks: the panel takes the shown one away and says why, and each
    /// asker hears that nothing was done. Returns how many were closed.
    async fn close(&self, reason: ClosedReason, matches: impl Fn(&Pending) -> bool) -> usize {
        let closed: Vec<Pending> = {
            let mut questions = self.lock();
            let mut closed = Vec::new();
            if questions.shown.as_ref().is_some_and(&matches) {
                closed.extend(questions.shown.take());
            }
            let (gone, kept): (Vec<Pending>, Vec<Pending>) =
                questions.waiting.drain(..).partition(|p| matches(p));
            questions.waiting = kept.into();
            closed.extend(gone);
            closed
        };
        let count = closed.len();
        for pending in closed {
            let _ = self
                .outbox
                .send(ToExtension::QuestionClosed(QuestionClosed {
                    id: pending.id,
                    reason,
                }))
                .await;
            let result = ToolResult::failed(ErrorKind::Unanswered, question::closed(&self.words(), reason));
            self.settle(pending, false, Some(reason), result).await;
        }
        if count > 0 {
            self.show_next().await;
        }
        count
    }

    /// Drops the question held for the client (or the agent) with this inbox (it stopped waiting, or
    /// the user stopped it: `reason`), if there is one. Returns whether one was dropped.
    pub async fn withdraw(&self, inbox: &mpsc::UnboundedSender<Decided>, reason: ClosedReason) -> bool {
        self.close(reason, |p| {
            p.requester.inbox().is_some_and(|held| held.same_channel(inbox))
        })
        .await
            > 0
    }

    /// A frame of a tab shows a new document: questions about actions judged on the old one are closed,
    /// since a yes could no longer do what was asked.
    pub async fn page_changed(&self, tab: i32, frame: i32) {
        let closed = self
            .close(ClosedReason::PageChanged, |p| p.on_page(tab, frame))
            .await;
        if closed > 0 {
            tracing::info!(closed, "questions closed: their page changed");
        }
    }

    /// Closes the questions nobody answered in time.
    async fn expire(&self, now: Instant) {
        self.close(ClosedReason::Expired, |p| {
            now.duration_since(p.asked_at) >= QUESTION_TTL
        })
        .await;
    }

    /// Whether an action waits for the user's yes or no.
    pub fn holds_a_question(&self) -> bool {
        let questions = self.lock();
        questions.shown.is_some() || !questions.waiting.is_empty()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Questions> {
        self.questions
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// Closes questions as they pass [`QUESTION_TTL`], while the gate lives.
pub(super) async fn expire_questions(gate: Weak<Gate>) {
    let mut tick = tokio::time::interval(EXPIRY_TICK);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let Some(gate) = gate.upgrade() else { return };
        gate.expire(Instant::now()).await;
    }
}
