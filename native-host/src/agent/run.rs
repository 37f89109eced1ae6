//! The loop: a model turn, one tool through the gate, its result back to the model, until the run
//! ends. Each kind of turn has its own handler: the model's words ([`on_reply`]), a reply it could not
//! be read ([`on_model_error`]), the assistant's own tools (finish or ask, plan, hand a step over), an
//! external MCP server's tool, and a browser step, whose outcome is one of: it ran, its question is held
//! for the user's yes, or the gate handed it to the user. A handler either lets the loop go on
//! ([`ControlFlow::Continue`]) or ends the run with what to say ([`End`]).
//!
//! What it must not do: run a page tool except through [`Agent::execute`] (the gate), run a call it
//! could not read (one repair turn, then an error), run more than one call per turn, or go on past the
//! step limit (note turns are bounded too, so a model that only keeps notes still stops).

use std::ops::ControlFlow;
use std::sync::Arc;

use serde_json::{json, Value};
use waymark_i18n::{say, Words};
use waymark_protocol::{
    AgentEvent, AgentState, ErrorKind, PageTool, Question, QuestionKind, RequestId, ToExtension, ToolResult,
};

use super::observe::{observation, observation_of_list};
use super::record::{apply_plan, withhold_typed_text};
use super::{prompt, tools, wording, Agent, End, Settings, Work};
use crate::gate::Gated;
use crate::llm::{LlmError, Message, ModelTurn, ToolCall};
use crate::mcp::external::External;
use crate::mcp::link::AgentLink;
use crate::policy;
use crate::session::{PendingAction, PendingKind, StepNote, Stop};
use crate::steplog;

/// Model turns that are not browser steps (plan updates) allowed in a row before the model is told to
/// act: a model that only keeps notes would otherwise never reach the step limit.
pub(super) const MAX_NOTE_TURNS: u32 = 3;
/// Longest answer of the model said to the user.
const MODEL_WORDS_MAX: usize = 4_000;
/// Longest account of a step the model hands to the user.
const HANDOFF_WORDS_MAX: usize = 400;
/// Offered only to a model that takes images.
pub(super) const SCREENSHOT_TOOL: &str = "browser_screenshot";

/// A turn lets the loop go on, or ends the run.
type Flow = ControlFlow<End>;

/// What one run keeps from turn to turn.
#[derive(Default)]
struct Turns {
    /// The last answer could not be read and a repair was asked for: another one now is an error.
    repairing: bool,
    /// Note turns in a row, since the last browser step.
    notes_in_a_row: u32,
    /// Note turns in all: bounded like steps, so a model that only keeps notes still stops.
    notes: u32,
    /// Page actions that failed in a row: how far down the fallback ladder the next hint goes.
    failed_actions: u32,
}

impl Agent {
    /// Runs the loop and reports how it ended; the session is saved.
    pub(super) async fn go(&self, settings: &Settings, work: &mut Work) {
        self.go_on(settings, work, true).await;
    }

    /// [`Agent::go`], saying "running" unless the caller already did.
    pub(super) async fn go_on(&self, settings: &Settings, work: &mut Work, announce: bool) {
        work.session.state = AgentState::Running;
        // Until the run ends otherwise: if the host stops mid-task, the file says so.
        work.session.stop = Stop::Working;
        self.save(work);
        self.say_unsaved(work).await;
        if announce {
            self.status(AgentState::Running).await;
        }
        let end = self.run(settings, work).await;
        let state = match end {
            End::Say(text, state) => {
                self.emit(AgentEvent::Message { text }).await;
                state
            }
            End::Waiting => AgentState::WaitingUser,
            End::Failed(text) => {
                work.session.stop = Stop::Failed;
                self.emit(AgentEvent::Error { text }).await;
                AgentState::Error
            }
            End::Stopped => self.end_stopped(work).await,
        };
        work.session.state = state;
        self.save(work);
        self.say_unsaved(work).await;
        self.status(state).await;
    }

    /// The loop: model turn, one tool through the gate, its result back to the model.
    async fn run(&self, settings: &Settings, work: &mut Work) -> End {
        let link = match self.link().await {
            Ok(link) => link,
            Err(why) => return End::Failed(why),
        };
        let external = self.external(&settings.mcp_servers).await;
        let definitions = definitions(settings, link, &external);
        let mut turns = Turns::default();
        loop {
            for decided in self.drain_decided() {
                self.decided_event(work, &decided).await;
            }
            if self.stop_said() {
                return End::Stopped;
            }
            if let Flow::Break(end) = self.before_turn(settings, work, &mut turns) {
                return end;
            }
            let messages = prompt::prompt(&work.session, work.screen.as_deref());
            // A stop drops the model call where it waits: its HTTP request is cancelled.
            let answer = self.unless_stopped(settings.llm.complete(&messages, &definitions));
            let completion = match answer.await {
                None => return End::Stopped,
                Some(Ok(completion)) => completion,
                Some(Err(error)) => match on_model_error(&self.words(), work, error, &mut turns) {
                    Flow::Continue(()) => continue,
                    Flow::Break(end) => return end,
                },
            };
            turns.repairing = false;
            if !completion.dropped_calls.is_empty() {
                tracing::info!(dropped = ?completion.dropped_calls, "extra tool calls in one answer not run");
            }
            work.session.conversation.push(completion.assistant);
            let flow = match completion.turn {
                ModelTurn::Done { reason } => on_reply(work, Stop::Finished, &reason, AgentState::Idle),
                ModelTurn::Ask { question } => {
                    on_reply(work, Stop::Asked, &question, AgentState::WaitingUser)
                }
                ModelTurn::Text(text) => on_reply(work, Stop::Finished, &text, AgentState::Idle),
                ModelTurn::ToolCall { call, progress } => {
                    self.on_tool_call(settings, work, &external, call, progress, &mut turns)
                        .await
                }
            };
            if let Flow::Break(end) = flow {
                return end;
            }
        }
    }

    /// Before each model turn: the step limit (steps, or notes without end), the conversation kept
    /// short, and a nudge after a few turns of notes only.
    fn before_turn(&self, settings: &Settings, work: &mut Work, turns: &mut Turns) -> Flow {
        let notes_exhausted = turns.notes > settings.max_tool_steps.saturating_add(MAX_NOTE_TURNS);
        if work.session.counters.steps >= settings.max_tool_steps || notes_exhausted {
            work.session.stop = Stop::StepLimit;
            let mut event = self.step_event(work, "step_limit", steplog::now_ms());
            event.insert("step".into(), json!({"n": work.session.counters.steps}));
            work.log.write(event);
            let summary = wording::step_limit(&self.words(), &work.session, settings.max_tool_steps);
            return Flow::Break(End::Say(summary, AgentState::Idle));
        }
        if work.session.compact() {
            tracing::info!("the conversation was summarised");
        }
        if turns.notes_in_a_row >= MAX_NOTE_TURNS {
            turns.notes_in_a_row = 0;
            work.session.conversation.push(prompt::act_now());
        }
        Flow::Continue(())
    }

    /// A tool call: the assistant's own tools are handled here; any other is a step (an external
    /// server's tool, or a browser tool through the gate), counted against the step limit.
    async fn on_tool_call(
        &self,
        settings: &Settings,
        work: &mut Work,
        external: &Arc<External>,
        call: ToolCall,
        progress: Option<String>,
        turns: &mut Turns,
    ) -> Flow {
        let started = steplog::now_ms();
        match call.name.as_str() {
            tools::DONE | tools::ASK => return Flow::Break(self.on_finish(work, &call, started)),
            tools::PLAN => {
                self.on_plan(work, &call, started, turns);
                return Flow::Continue(());
            }
            tools::HANDOFF => return Flow::Break(self.on_handoff(work, &call, started).await),
            _ => {}
        }
        turns.notes_in_a_row = 0;
        work.session.counters.steps += 1;
        work.session.counters.goal_steps += 1;
        if external.owns(&call.name) {
            return self
                .on_external_step(work, external.clone(), &call, started)
                .await;
        }
        self.on_page_step(settings, work, &call, progress, started, turns)
            .await
    }

    /// `assistant_done` or `assistant_ask`: the run ends with the model's words.
    fn on_finish(&self, work: &mut Work, call: &ToolCall, started: u64) -> End {
        // Answer the call, so the conversation stays valid for the next message.
        work.session
            .conversation
            .push(Message::tool_result(call, r#"{"status":"ok"}"#));
        let done = call.name == tools::DONE;
        let words = self.words();
        let (key, state, fallback) = if done {
            ("reason", AgentState::Idle, say!(words, "agent-done"))
        } else {
            ("question", AgentState::WaitingUser, say!(words, "agent-ask"))
        };
        work.session.stop = if done { Stop::Finished } else { Stop::Asked };
        let text = arg_text(call, key).map_or(fallback, str::to_owned);
        let mut event = self.step_event(work, if done { "done" } else { "ask" }, started);
        event.insert("call".into(), json!({"tool": call.name, "status": "ok"}));
        if !done {
            event.insert("ask".into(), json!({"asked": true}));
        }
        work.log.write(event);
        End::Say(text, state)
    }

    /// `assistant_plan`: the model's working notes are kept, and the loop goes on.
    fn on_plan(&self, work: &mut Work, call: &ToolCall, started: u64, turns: &mut Turns) {
        turns.notes_in_a_row += 1;
        turns.notes += 1;
        let result = apply_plan(&mut work.session, &call.args);
        work.session
            .conversation
            .push(Message::tool_result(call, tools::result_message(&result)));
        let mut event = self.step_event(work, "plan", started);
        event.insert(
            "plan".into(),
            json!({
                "ok": result.error.is_none(),
                "steps": work.session.plan.len(),
                "current": work.session.progress.current,
                "facts": work.session.facts.len(),
                "replans": work.session.counters.replans,
            }),
        );
        work.log.write(event);
        self.save(work);
    }

    /// `assistant_handoff`: the model leaves a step to the user.
    async fn on_handoff(&self, work: &mut Work, call: &ToolCall, started: u64) -> End {
        // The model's words go to the alert region: introduced as the assistant's, never in Waymark's
        // own voice.
        let words = self.words();
        let what = match arg_text(call, "what") {
            Some(what) => say!(
                words,
                "agent-handoff-model",
                what = policy::cleaned(what, HANDOFF_WORDS_MAX)
            ),
            None => say!(words, "agent-handoff-unsaid"),
        };
        let waiting = ToolResult::ok(json!({"waiting_for": "the user"}));
        answer_call(work, call, &waiting);
        let mut event = self.step_event(work, "handoff", started);
        event.insert("call".into(), json!({"tool": call.name, "status": "ok"}));
        event.insert("ask".into(), json!({"manual": true}));
        work.log.write(event);
        self.hand_over(work, what, None).await
    }

    /// A browser tool: through the gate, which runs it, holds it for the user's yes, or hands it over.
    async fn on_page_step(
        &self,
        settings: &Settings,
        work: &mut Work,
        call: &ToolCall,
        progress: Option<String>,
        started: u64,
        turns: &mut Turns,
    ) -> Flow {
        let tool = match tools::page_tool(&call.name, &call.args) {
            Ok(tool) => tool,
            Err(why) => {
                self.on_unusable(work, call, why, started).await;
                return Flow::Continue(());
            }
        };
        let progress = progress
            .filter(|p| !p.trim().is_empty())
            .unwrap_or_else(|| tools::progress(&self.words(), &tool));
        self.emit(AgentEvent::Progress { text: progress }).await;
        let tab_id = work.session.tab_id;
        let Some(gated) = self.unless_stopped(self.execute(tab_id, tool.clone())).await else {
            self.on_stopped_step(work, call, Some(&tool), started);
            return Flow::Break(End::Stopped);
        };
        match gated {
            Gated::Ran(result) => {
                self.on_ran(settings, work, call, &tool, result, started, turns)
                    .await;
                Flow::Continue(())
            }
            Gated::Asked { id, question } => {
                Flow::Break(self.hold(work, call, Some(&tool), id, question, started).await)
            }
            Gated::HandedOver { message } => {
                Flow::Break(self.on_handed_over(work, call, &tool, message, started).await)
            }
        }
    }

    /// The user stopped the agent while a step was on its way: the call is answered (the conversation
    /// stays valid) with what is known — nothing about its outcome — and recorded as stopped.
    fn on_stopped_step(&self, work: &mut Work, call: &ToolCall, tool: Option<&PageTool>, started: u64) {
        let words = self.words();
        let result = ToolResult::failed(ErrorKind::Stopped, say!(words, "agent-step-stopped-result"));
        let step = match tool {
            Some(tool) => tools::progress(&words, tool),
            None => say!(words, "agent-progress-external", tool = call.name.as_str()),
        };
        work.session.run.push(StepNote {
            what: say!(words, "agent-summary-stopped", step = step),
            ok: false,
        });
        answer_call(work, call, &result);
        self.log_step(work, call, tool, &result, "stopped", started);
    }

    /// A call whose arguments do not make a browser tool: refused, said to the model, and the loop goes
    /// on.
    async fn on_unusable(&self, work: &mut Work, call: &ToolCall, why: String, started: u64) {
        work.session.counters.errors += 1;
        self.tool_event(&call.name, false, &why).await;
        let result = ToolResult::failed(ErrorKind::BadArguments, why);
        let words = self.words();
        work.session.run.push(StepNote {
            what: say!(words, "agent-summary-unusable", step = call.name.as_str()),
            ok: false,
        });
        answer_call(work, call, &result);
        self.log_step(work, call, None, &result, "refused", started);
        self.save(work);
    }

    /// A browser step ran (or failed in the page): Waymark looks at the page again after a change, and
    /// the result goes back to the model, with a hint one rung down the ladder when an action failed.
    #[allow(clippy::too_many_arguments)] // one handler's whole context; splitting it would hide nothing
    async fn on_ran(
        &self,
        settings: &Settings,
        work: &mut Work,
        call: &ToolCall,
        tool: &PageTool,
        mut result: ToolResult,
        started: u64,
        turns: &mut Turns,
    ) {
        let words = self.words();
        let summary = tools::summary(&words, tool, &result);
        let ok = result.error.is_none();
        self.tool_event(&call.name, ok, &summary).await;
        // After the page changed, and when an action failed, Waymark renumbers the page itself, so the
        // model's next choice is made on fresh numbers.
        let sees = settings.llm.supports_images();
        // A stop during the look leaves the result as it came; the loop ends before the next turn.
        let look = self.look_after_step(work, tool, &mut result, settings.banner_budget_ms, sees);
        let looked = self.unless_stopped(look).await.flatten();
        let mut hint = String::new();
        if tool.changes_page() {
            turns.failed_actions = if ok { 0 } else { turns.failed_actions + 1 };
            if !ok {
                hint = prompt::ladder_hint(turns.failed_actions);
            }
        }
        let session = &mut work.session;
        if !ok {
            session.counters.errors += 1;
        }
        if let Some(seen) = observation(tool, &result) {
            session.last_observation = Some(seen);
        }
        if let Some(after) = &looked {
            session.last_observation = observation_of_list(after);
        }
        session.run.push(StepNote {
            what: say!(
                words,
                "agent-summary-step",
                step = tools::progress(&words, tool),
                outcome = summary
            ),
            ok,
        });
        let mut content = tools::result_message(&result);
        content.push_str(&hint);
        session.conversation.push(Message::tool_result(call, content));
        self.log_step(work, call, Some(tool), &result, "allow", started);
        self.save(work);
    }

    /// The gate holds the step (a browser tool, or an external one: `tool` is `None`) for the user's
    /// yes: the session waits for the answer, which resumes the loop.
    async fn hold(
        &self,
        work: &mut Work,
        call: &ToolCall,
        tool: Option<&PageTool>,
        id: RequestId,
        question: String,
        started: u64,
    ) -> End {
        let waiting = Gated::Asked {
            id,
            question: question.clone(),
        }
        .into_result(&self.gate.words());
        answer_call(work, call, &waiting);
        let session = &mut work.session;
        session.pending_kind = PendingKind::Confirm;
        session.pending_action = Some(PendingAction {
            question: id,
            text: question,
            tool: tool.map(PageTool::as_kept),
        });
        session.stop = Stop::Waiting;
        let words = self.words();
        self.tool_event(&call.name, false, &say!(words, "agent-summary-waiting"))
            .await;
        self.log_step(work, call, tool, &waiting, "confirm", started);
        End::Waiting
    }

    /// The gate left the step to the user (a password, a code, a card number): what the model meant to
    /// type is withheld, and the user is asked to do it.
    async fn on_handed_over(
        &self,
        work: &mut Work,
        call: &ToolCall,
        tool: &PageTool,
        message: String,
        started: u64,
    ) -> End {
        let refused = ToolResult::failed(ErrorKind::HandedOver, &message);
        // What the model meant to type into a password, code or card field is not kept.
        withhold_typed_text(&mut work.session.conversation, tool);
        answer_call(work, call, &refused);
        self.tool_event(&call.name, false, &message).await;
        self.log_step(work, call, Some(tool), &refused, "handoff", started);
        self.hand_over(work, message, Some(tool)).await
    }

    /// Runs an external MCP server's tool for the model, through the gate (read-only tools run; others
    /// wait for the user's yes), and reports it like any step.
    async fn on_external_step(
        &self,
        work: &mut Work,
        external: Arc<External>,
        call: &ToolCall,
        started: u64,
    ) -> Flow {
        let words = self.words();
        self.emit(AgentEvent::Progress {
            text: say!(words, "agent-progress-external", tool = call.name.as_str()),
        })
        .await;
        let passed = self
            .gate
            .pass_external(external, &call.name, call.args.clone(), self.requester());
        let Some(gated) = self.unless_stopped(passed).await else {
            self.on_stopped_step(work, call, None, started);
            return Flow::Break(End::Stopped);
        };
        match gated {
            Gated::Ran(result) => {
                let ok = result.error.is_none();
                let step = say!(words, "agent-progress-external", tool = call.name.as_str());
                let summary = match &result.error {
                    Some(error) => error.clone(),
                    None => say!(words, "agent-summary-done", step = step.as_str()),
                };
                self.tool_event(&call.name, ok, &summary).await;
                if !ok {
                    work.session.counters.errors += 1;
                }
                work.session.run.push(StepNote {
                    what: if ok {
                        say!(words, "agent-summary-done", step = step)
                    } else {
                        say!(words, "agent-summary-failed", step = step)
                    },
                    ok,
                });
                answer_call(work, call, &result);
                self.log_step(work, call, None, &result, "allow", started);
                self.save(work);
                Flow::Continue(())
            }
            Gated::Asked { id, question } => {
                Flow::Break(self.hold(work, call, None, id, question, started).await)
            }
            // External tools are never handed over; the gate only allows or asks for them.
            Gated::HandedOver { message } => Flow::Break(End::Failed(message)),
        }
    }

    /// Leaves a step to the user: the session waits (manual), and the panel gets a manual question.
    async fn hand_over(&self, work: &mut Work, what: String, tool: Option<&PageTool>) -> End {
        let question = self.gate.new_question_id();
        let session = &mut work.session;
        let words = self.words();
        let text = say!(words, "agent-handoff-say-done", what = what.trim_end());
        session.pending_kind = PendingKind::Manual;
        session.pending_action = Some(PendingAction {
            question,
            text: what,
            tool: tool.map(PageTool::as_kept),
        });
        session.stop = Stop::Waiting;
        self.save(work);
        let _ = self
            .outbox
            .send(ToExtension::Question(Question {
                id: question,
                kind: QuestionKind::Manual,
                text,
                detail: None,
                request: None,
            }))
            .await;
        End::Waiting
    }
}

/// One tool surface: the browser tools as the MCP server lists them to every client (without the
/// screenshot for a model that cannot see it), the external servers' tools, and the assistant's own.
fn definitions(settings: &Settings, link: &AgentLink, external: &External) -> Vec<Value> {
    let mut definitions = link.definitions();
    if !settings.llm.supports_images() {
        definitions.retain(|d| d["function"]["name"] != SCREENSHOT_TOOL);
    }
    definitions.extend(external.definitions());
    definitions.extend(tools::definitions());
    definitions
}

/// The model answered in words (done, a question, plain text): they end the run and reach the user
/// without control or bidi characters, which could make them read as something else.
fn on_reply(work: &mut Work, stop: Stop, words: &str, state: AgentState) -> Flow {
    work.session.stop = stop;
    Flow::Break(End::Say(policy::cleaned(words, MODEL_WORDS_MAX), state))
}

/// The model's answer could not be used: the first time it is asked to repair it, a second time in a
/// row (or any other failure of the model) ends the run.
fn on_model_error(words: &Words, work: &mut Work, error: LlmError, turns: &mut Turns) -> Flow {
    match error {
        error @ LlmError::Invalid { .. } if !turns.repairing => {
            tracing::info!("the model's answer was not valid; asking it to repair");
            turns.repairing = true;
            work.session.counters.invalid += 1;
            if let Some(repair) = error.repair_message() {
                work.session.conversation.push(repair);
            }
            Flow::Continue(())
        }
        error => Flow::Break(End::Failed(error.said(words))),
    }
}

/// Answers `call` in the conversation with `result` (inside the data block).
fn answer_call(work: &mut Work, call: &ToolCall, result: &ToolResult) {
    work.session
        .conversation
        .push(Message::tool_result(call, tools::result_message(result)));
}

/// A non-blank text argument of a call.
fn arg_text<'a>(call: &'a ToolCall, key: &str) -> Option<&'a str> {
    call.args
        .get(key)
        .and_then(Value::as_str)
        .filter(|t| !t.trim().is_empty())
}
