//! What the agent keeps: the session (read on first use, saved after every step, the model's working
//! notes applied to it) and the step log (one masked event per step).
//!
//! What it must not do: write page text, model text or what was typed into a field the gate handed to
//! the user into the step log (only the call with masked arguments, the policy's decision, the address
//! without its query, counts and roles), or keep that typed text in the session; a session that cannot
//! be written is never the step's failure, but never silent either: the user is told once (where, and
//! why), until a save succeeds again.

use serde_json::{json, Map, Value};
use waymark_protocol::{AgentEvent, ErrorKind, HostFault, InteractiveList, PageTool, ToolResult};

use super::{Agent, Settings, Unsaved, Work};
use crate::llm::{Message, ToolCall};
use crate::session::{Session, SessionError, Store};
use crate::steplog::{self, StepLog};

impl Agent {
    /// The session, read from the state directory the first time.
    pub(super) async fn load<'a>(&self, slot: &'a mut Option<Work>, settings: &Settings) -> &'a mut Work {
        let work = slot.get_or_insert_with(|| {
            let store = Store::new(&settings.state_dir);
            let log = StepLog::new(&settings.state_dir);
            let loaded = store.load();
            if loaded.notice.is_some() {
                log.write(steplog::event("session_reset", &loaded.session.id));
            }
            // After a restart the goal is still the user's own words (a search for it is theirs).
            if let Some(goal) = &loaded.session.current_goal {
                self.gate.note_user_words(goal);
            }
            Work {
                session: loaded.session,
                store,
                log,
                notice: loaded
                    .notice
                    .map(|(why, kept)| super::wording::session_reset(&self.words(), &why, kept.as_deref())),
                unsaved: Unsaved::Saved,
                screen: None,
            }
        });
        if let Some(text) = work.notice.take() {
            self.emit(AgentEvent::Message { text }).await;
        }
        work
    }

    /// Saves the session; a failure is noted for [`Agent::say_unsaved`], unless the user knows already.
    pub(super) fn save(&self, work: &mut Work) {
        match work.store.save(&work.session) {
            Ok(()) => work.unsaved = Unsaved::Saved,
            Err(e) => {
                tracing::warn!("{e}");
                if let (Unsaved::Saved, Some(fault)) = (&work.unsaved, fault_of(&work.store, &e)) {
                    work.unsaved = Unsaved::Untold(fault);
                }
            }
        }
    }

    /// Tells the user that the session could not be saved, if they have not been told.
    pub(super) async fn say_unsaved(&self, work: &mut Work) {
        match std::mem::take(&mut work.unsaved) {
            Unsaved::Untold(fault) => {
                work.unsaved = Unsaved::Told;
                self.emit(AgentEvent::NotSaved { fault }).await;
            }
            other => work.unsaved = other,
        }
    }

    /// A step event with the session and the step's timing.
    pub(super) fn step_event(&self, work: &Work, kind: &str, started: u64) -> Map<String, Value> {
        let ended = steplog::now_ms();
        let mut event = steplog::event(kind, &work.session.id);
        event.insert(
            "step".into(),
            json!({
                "n": work.session.counters.steps,
                "goal_steps": work.session.counters.goal_steps,
                "started_ms": started,
                "ended_ms": ended,
                "duration_ms": ended.saturating_sub(started),
            }),
        );
        event
    }

    /// Logs one browser step: the call (arguments masked), the policy's decision, and what the result
    /// says about the page (counts and roles, never names or text).
    pub(super) fn log_step(
        &self,
        work: &Work,
        call: &ToolCall,
        tool: Option<&PageTool>,
        result: &ToolResult,
        decision: &str,
        started: u64,
    ) {
        let mut event = self.step_event(work, "step", started);
        let sensitive = decision == "handoff";
        event.insert(
            "call".into(),
            json!({
                "tool": call.name,
                "args": steplog::masked_args(&call.args, sensitive),
                "status": if result.error.is_none() { "ok" } else { "error" },
                "error_class": result.kind.map(steplog::error_class),
                "retries": 0,
            }),
        );
        event.insert("policy".into(), json!({ "decision": decision }));
        if let Some(tool) = tool {
            add_result_groups(&mut event, tool, result);
        }
        work.log.write(event);
    }
}

/// Where and why the state directory refused a save (`None`: the session itself could not be encoded,
/// which no folder can fix).
fn fault_of(store: &Store, error: &SessionError) -> Option<HostFault> {
    let file = store.path();
    let (folder, source) = match error {
        SessionError::Folder { path, source } => (path.as_path(), source),
        SessionError::Write { path, source } => (path.parent().unwrap_or(path), source),
        SessionError::Encode(_) => return None,
    };
    // `<state_dir>/sessions/current.json`.
    let state_dir = file
        .parent()
        .and_then(|sessions| sessions.parent())
        .unwrap_or(folder);
    Some(crate::state_dir::explain(state_dir, folder, source))
}

/// Applies an `assistant_plan` call: the plan, the current step, what was finished, new facts.
pub(super) fn apply_plan(session: &mut Session, args: &Value) -> ToolResult {
    let mut problems = Vec::new();
    if let Some(steps) = args.get("steps").and_then(Value::as_array) {
        let steps = steps
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect();
        if let Err(why) = session.set_plan(steps) {
            problems.push(why);
        }
    }
    if let Some(current) = args.get("current").and_then(Value::as_u64) {
        match usize::try_from(current) {
            Ok(n) if (1..=session.plan.len()).contains(&n) => session.progress.current = n,
            _ => problems.push(format!("there is no step {current} in the plan")),
        }
    }
    if let Some(goal) = args
        .get("goal")
        .and_then(Value::as_str)
        .filter(|g| !g.trim().is_empty())
    {
        // The user changed the task: the plan and facts stay until the model changes them.
        session.current_goal = Some(goal.trim().to_string());
    }
    if let Some(done) = args
        .get("done")
        .and_then(Value::as_str)
        .filter(|d| !d.trim().is_empty())
    {
        push_done(session, done.trim().to_string());
    }
    if let Some(blocked) = args.get("blocked").and_then(Value::as_str) {
        session.progress.blocked = Some(blocked.trim().to_string()).filter(|b| !b.is_empty());
    }
    if let Some(facts) = args.get("facts").and_then(Value::as_array) {
        for fact in facts.iter().filter_map(Value::as_str) {
            if let Err(why) = session.add_fact(fact) {
                problems.push(format!("fact not kept ({why})"));
            }
        }
    }
    let state = session.working_state();
    if problems.is_empty() {
        ToolResult::ok(json!({"plan": state["plan"], "facts": state["facts"]}))
    } else {
        let mut result = ToolResult::failed(ErrorKind::BadArguments, problems.join("; "));
        result.data = Some(json!({"plan": state["plan"], "facts": state["facts"]}));
        result
    }
}

/// Keeps the last few things done for the goal.
pub(super) fn push_done(session: &mut Session, what: String) {
    session.progress.done.push(what);
    if session.progress.done.len() > 20 {
        session.progress.done.remove(0);
    }
}

/// Takes out of the latest assistant tool call, the call of `tool`, what the session does not keep of
/// that tool ([`PageTool::as_kept`]: the text the model meant to type; the gate handed the field to
/// the user).
pub(super) fn withhold_typed_text(conversation: &mut [Message], tool: &PageTool) {
    let last_call = conversation.iter_mut().rev().find_map(|m| match m {
        Message::Assistant {
            tool_call: Some(call),
            ..
        } => Some(call),
        _ => None,
    });
    let (Some(call), Ok(whole), Ok(kept)) = (
        last_call,
        serde_json::to_value(tool),
        serde_json::to_value(tool.as_kept()),
    ) else {
        return;
    };
    for (name, value) in call.args.as_object_mut().into_iter().flatten() {
        if whole.get(name) != kept.get(name) {
            *value = kept.get(name).cloned().unwrap_or(Value::Null);
        }
    }
}

/// The seed's `page`, `enumerate` and `find` groups from a result: the address without its query,
/// counts and roles (names are page text, so they are not logged).
pub(super) fn add_result_groups(event: &mut Map<String, Value>, tool: &PageTool, result: &ToolResult) {
    let Some(data) = result.data.as_ref() else {
        return;
    };
    if let Some(url) = data.get("url").and_then(Value::as_str) {
        event.insert(
            "page".into(),
            json!({"url": steplog::mask(&steplog::without_query(url))}),
        );
    }
    if let Some(closed) = data.get("banners_closed").and_then(Value::as_array) {
        event.insert(
            "banners".into(),
            json!({"auto_close_started": true, "closed_count": closed.len()}),
        );
    }
    // Waymark's own look after an action (or after it failed): the page was numbered again.
    let after = data.get("page_after").or_else(|| data.get("fresh_list"));
    if let Some(list) = after.and_then(|a| serde_json::from_value::<InteractiveList>(a.clone()).ok()) {
        let roles: Vec<&str> = list.items.iter().take(5).map(|i| i.role.as_str()).collect();
        event.insert(
            "enumerate".into(),
            json!({"did_refresh": true, "items_count": list.total, "roles_top5": roles, "after_action": true}),
        );
        return;
    }
    let Ok(list) = serde_json::from_value::<InteractiveList>(data.clone()) else {
        return;
    };
    let roles: Vec<&str> = list.items.iter().take(5).map(|i| i.role.as_str()).collect();
    match tool {
        PageTool::ListInteractives { .. } => {
            event.insert(
                "enumerate".into(),
                json!({"did_refresh": true, "items_count": list.total, "roles_top5": roles}),
            );
        }
        PageTool::Find { role, .. } => {
            event.insert(
                "find".into(),
                json!({"role": role, "count": list.total, "roles_top3": &roles[..roles.len().min(3)]}),
            );
        }
        _ => {}
    }
}
