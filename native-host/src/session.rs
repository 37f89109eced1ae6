//! The agent's session and working state, and where it lives on disk: `sessions/current.json` under the
//! state directory, written atomically (a private temp file, then a rename) after every step, and read
//! back when the host starts again. A host killed mid-task loses nothing: the next chat message finds
//! the same goal, plan, facts and conversation.
//!
//! What it must not do: crash or refuse to work over a bad file (a corrupt or unreadable one is moved
//! aside and a fresh session starts, with a sentence saying so), keep page history, DOM or element
//! numbers as facts, or write anywhere but its own folder. The file holds the conversation, which carries
//! page content, so it is readable by the user alone (0600 on Unix).

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use waymark_protocol::{AgentState, PageTool, RequestId};

use crate::llm::Message;

/// The file format; a file of another version is set aside like a corrupt one.
pub const VERSION: u32 = 1;
/// Facts kept at most: the oldest go first.
const MAX_FACTS: usize = 30;
/// A fact longer than this is not a generalisation.
const MAX_FACT_CHARS: usize = 240;
/// The conversation is summarised when it has more messages than this …
const MAX_MESSAGES: usize = 40;
/// … or more characters than this.
const MAX_CHARS: usize = 60_000;
/// How many of the latest messages survive a summary as they are.
const KEEP_MESSAGES: usize = 12;

/// Command mode (the panel's own commands) or chat mode (messages go to the agent).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    Cmd,
    #[default]
    Chat,
}

/// What the session waits for from the user.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PendingKind {
    #[default]
    None,
    /// A yes or no about one held action.
    Confirm,
    /// The user does a step themselves (login, captcha, a code) and says "done".
    Manual,
}

/// The one action (or step) waiting for the user.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PendingAction {
    /// The question the user answers.
    pub question: RequestId,
    /// What the user was asked, or told to do.
    pub text: String,
    /// The page tool concerned, if there is one (as the session keeps it: [`PageTool::as_kept`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<PageTool>,
}

/// Where the plan stands.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    /// The plan step being worked on, from 1; 0 before there is a plan.
    pub current: usize,
    /// What has been done for the goal, step by step, in short.
    pub done: Vec<String>,
    /// What stands in the way, if something does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blocked: Option<String>,
}

/// One generalised finding ("the cheapest kettle is the Bosch one at €24.99").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fact {
    pub fact: String,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counters {
    /// Tool steps since the user's last message (the step limit counts these).
    pub steps: u32,
    /// Tool steps for the current goal.
    pub goal_steps: u32,
    /// Tool results that were errors, for the current goal.
    pub errors: u32,
    /// Times the plan was replaced, for the current goal.
    pub replans: u32,
    /// Model answers that could not be used, for the current goal.
    pub invalid: u32,
}

/// Why the last run stopped, so the next message knows what it answers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stop {
    /// Nothing ran yet, or the task ended (done, or a plain answer): the next message is a new goal.
    #[default]
    Finished,
    /// The step limit: the next message ("continue", or feedback) goes on with the same goal.
    StepLimit,
    /// The model asked the user something: the next message answers it.
    Asked,
    /// Waiting for the user (a question or a manual step).
    Waiting,
    /// An error (the model could not be reached, …): the next message retries the same goal.
    Failed,
    /// The loop was running. Found on disk, it means the host stopped mid-task: the next message
    /// continues the same goal.
    Working,
    /// The user stopped the agent: the next message ("continue", or what to do instead) goes on with
    /// the same goal.
    Stopped,
}

/// One step of the current run, for the step-limit summary.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepNote {
    pub what: String,
    pub ok: bool,
}

/// Everything the agent knows about the current chat.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Session {
    pub version: u32,
    /// Names the session in the step log (not secret, not personal).
    pub id: String,
    pub mode: Mode,
    pub state: AgentState,
    pub current_goal: Option<String>,
    /// 3–6 steps, the last one answering the user.
    pub plan: Vec<String>,
    pub progress: Progress,
    pub facts: Vec<Fact>,
    pub pending_action: Option<PendingAction>,
    pub pending_kind: PendingKind,
    pub counters: Counters,
    pub stop: Stop,
    /// The steps of the current run (since the user's last message).
    pub run: Vec<StepNote>,
    /// A short account of the last observation (what kind of page, how many controls): no page text.
    pub last_observation: Option<String>,
    /// The tab the agent works in.
    pub tab_id: Option<i32>,
    /// The user's language as their browser says it (a BCP 47 tag), for the model's words to them.
    #[serde(default)]
    pub language: Option<String>,
    /// Older parts of the conversation, summarised.
    pub summary: Option<String>,
    /// The conversation with the model, without the system prompt (made afresh each turn).
    pub conversation: Vec<Message>,
}

impl Default for Session {
    fn default() -> Self {
        Session {
            version: VERSION,
            id: new_id(),
            mode: Mode::Chat,
            state: AgentState::Idle,
            current_goal: None,
            plan: Vec::new(),
            progress: Progress::default(),
            facts: Vec::new(),
            pending_action: None,
            pending_kind: PendingKind::None,
            counters: Counters::default(),
            stop: Stop::Finished,
            run: Vec::new(),
            last_observation: None,
            tab_id: None,
            language: None,
            summary: None,
            conversation: Vec::new(),
        }
    }
}

fn new_id() -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("s{:x}{:x}", nanos, std::process::id())
}

/// Why a fact was not kept (said to the model, which can write it again).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FactError {
    #[error("a fact must not be empty")]
    Empty,
    #[error("a fact is a short generalisation: at most {MAX_FACT_CHARS} characters")]
    TooLong,
    #[error("a fact must not hold page markup: say what you learned in your own words")]
    Markup,
    #[error("a fact must not name control numbers: they change with the page; name the thing instead")]
    ElementNumber,
}

impl Session {
    /// Starts a new goal: the plan, progress, facts and counters of the old one go.
    pub fn new_goal(&mut self, goal: &str) {
        self.current_goal = Some(goal.to_string());
        self.plan.clear();
        self.progress = Progress::default();
        self.facts.clear();
        self.counters = Counters::default();
    }

    /// A new user message: fresh step counter and run notes, same goal.
    pub fn new_run(&mut self) {
        self.counters.steps = 0;
        self.run.clear();
    }

    /// Replaces the plan (3–6 steps). Returns whether it replaced an earlier one.
    pub fn set_plan(&mut self, steps: Vec<String>) -> Result<bool, String> {
        let steps: Vec<String> = steps
            .into_iter()
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect();
        if !(3..=6).contains(&steps.len()) {
            return Err(format!(
                "a plan has 3 to 6 steps, the last one answering the user; this one has {}",
                steps.len()
            ));
        }
        let replanned = !self.plan.is_empty() && self.plan != steps;
        if replanned {
            self.counters.replans += 1;
        }
        self.plan = steps;
        if self.progress.current == 0 || self.progress.current > self.plan.len() {
            self.progress.current = 1;
        }
        Ok(replanned)
    }

    /// Adds a generalised fact; the same fact twice is kept once, and the oldest go past [`MAX_FACTS`].
    pub fn add_fact(&mut self, fact: &str) -> Result<(), FactError> {
        let fact = check_fact(fact)?;
        let same = |f: &Fact| f.fact.to_lowercase() == fact.to_lowercase();
        if !self.facts.iter().any(same) {
            self.facts.push(Fact { fact });
        }
        if self.facts.len() > MAX_FACTS {
            let extra = self.facts.len() - MAX_FACTS;
            self.facts.drain(..extra);
        }
        Ok(())
    }

    /// The working state for the model: goal, plan with where it stands, facts, and what waits. Plain
    /// data: the caller puts it inside the data block.
    pub fn working_state(&self) -> serde_json::Value {
        let plan: Vec<String> = self
            .plan
            .iter()
            .enumerate()
            .map(|(i, step)| {
                let mark = match (i + 1).cmp(&self.progress.current) {
                    std::cmp::Ordering::Less => "done",
                    std::cmp::Ordering::Equal => "now",
                    std::cmp::Ordering::Greater => "next",
                };
                format!("{}. [{mark}] {step}", i + 1)
            })
            .collect();
        serde_json::json!({
            "goal": self.current_goal,
            "plan": plan,
            "done": self.progress.done.iter().rev().take(8).rev().collect::<Vec<_>>(),
            "blocked": self.progress.blocked,
            "facts": self.facts.iter().map(|f| f.fact.as_str()).collect::<Vec<_>>(),
            "last_observation": self.last_observation,
            "steps_this_message": self.counters.steps,
            "earlier_conversation": self.summary,
        })
    }

    /// Summarises the conversation when it has grown past its bounds: the latest messages stay as they
    /// are; older ones become a few lines (the user's words, the tools called and whether they
    /// worked), and their tool results (page content) are dropped. Goal, plan and facts live outside
    /// the conversation, so they survive. Returns whether it summarised.
    pub fn compact(&mut self) -> bool {
        let chars: usize = self.conversation.iter().map(message_chars).sum();
        if self.conversation.len() <= MAX_MESSAGES && chars <= MAX_CHARS {
            return false;
        }
        // Keep the tail from a user message, so no tool result is left without the call it answers.
        let mut cut = self.conversation.len().saturating_sub(KEEP_MESSAGES);
        while cut > 0 && !matches!(self.conversation.get(cut), Some(Message::User { .. })) {
            cut -= 1;
        }
        if cut == 0 {
            // No user message to cut at: cut before an assistant message instead.
            cut = self.conversation.len().saturating_sub(KEEP_MESSAGES);
            while cut < self.conversation.len()
                && !matches!(self.conversation.get(cut), Some(Message::Assistant { .. }))
            {
                cut += 1;
            }
        }
        if cut == 0 || cut >= self.conversation.len() {
            return false;
        }
        let old: Vec<Message> = self.conversation.drain(..cut).collect();
        let mut lines: Vec<String> = self.summary.take().into_iter().collect();
        for message in &old {
            match message {
                Message::User { text, .. } if !text.starts_with(NOTE_PREFIX) => {
                    lines.push(format!("user said: {}", clip(text, 200)));
                }
                Message::Assistant {
                    tool_call: Some(call),
                    ..
                } => lines.push(format!("called {}", call.name)),
                Message::ToolResult { content, .. } => {
                    let ok = content.contains(r#""status":"ok""#);
                    lines.push(format!("  → {}", if ok { "ok" } else { "error" }));
                }
                _ => {}
            }
        }
        // The summary itself is bounded: the oldest lines go first.
        let keep_from = lines.len().saturating_sub(60);
        self.summary = Some(lines[keep_from..].join("\n"));
        true
    }
}

/// Waymark's own notes in the conversation start with this, so they are told apart from the user.
pub const NOTE_PREFIX: &str = "(Note from Waymark";

fn message_chars(message: &Message) -> usize {
    match message {
        Message::System { text } | Message::User { text, .. } => text.len(),
        Message::Assistant { text, tool_call } => {
            text.as_ref().map_or(0, String::len) + tool_call.as_ref().map_or(0, |c| c.args.to_string().len())
        }
        Message::ToolResult { content, .. } => content.len(),
    }
}

fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut clipped: String = text.chars().take(max).collect();
    clipped.push('…');
    clipped
}

/// A fact as kept, or why not: short, in words, without markup or control numbers.
pub fn check_fact(fact: &str) -> Result<String, FactError> {
    let fact = fact.split_whitespace().collect::<Vec<_>>().join(" ");
    if fact.is_empty() {
        return Err(FactError::Empty);
    }
    if fact.chars().count() > MAX_FACT_CHARS {
        return Err(FactError::TooLong);
    }
    let lower = fact.to_lowercase();
    if (lower.contains('<') && lower.contains('>')) || lower.contains("</") {
        return Err(FactError::Markup);
    }
    if names_an_element_number(&lower) {
        return Err(FactError::ElementNumber);
    }
    Ok(fact)
}

/// "number 12", "button 4", "#7", "index 3", "[5]": numbers that only mean something in one listing.
fn names_an_element_number(lower: &str) -> bool {
    const WORDS: [&str; 12] = [
        "number", "no.", "index", "element", "control", "button", "link", "field", "item", "eid", "checkbox",
        "textbox",
    ];
    let words: Vec<&str> = lower.split_whitespace().collect();
    for pair in words.windows(2) {
        let number = pair[1].trim_end_matches([',', '.', ':', ';', ')']);
        if WORDS.contains(&pair[0]) && !number.is_empty() && number.chars().all(|c| c.is_ascii_digit()) {
            return true;
        }
    }
    words.iter().any(|w| {
        let w = w.trim_end_matches([',', '.', ':', ';']);
        let inner = w
            .strip_prefix('#')
            .or_else(|| w.strip_prefix('[').and_then(|r| r.strip_suffix(']')));
        inner.is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
    })
}

/// What went wrong with the session file, for the person reading the host's log or the panel.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    #[error("could not create the session folder {path}: {source}")]
    Folder { path: PathBuf, source: std::io::Error },
    #[error("could not write the session to {path}: {source}")]
    Write { path: PathBuf, source: std::io::Error },
    #[error("could not turn the session into JSON: {0}")]
    Encode(#[from] serde_json::Error),
}

/// The session file in a state directory.
#[derive(Debug, Clone)]
pub struct Store {
    dir: PathBuf,
}

/// A session read from disk, and why it was started afresh when it could not be read (said to the user).
#[derive(Debug)]
pub struct Loaded {
    pub session: Session,
    /// Why it could not be read, and where the file was kept (if it could be moved).
    pub notice: Option<(Unreadable, Option<PathBuf>)>,
}

/// What was wrong with a saved session; the details are the reader's own (English) words.
#[derive(Debug, Clone, PartialEq)]
pub enum Unreadable {
    Read(String),
    Version(u32),
    Content(String),
}

impl Store {
    /// The store under `state_dir` (`sessions/current.json`).
    pub fn new(state_dir: &Path) -> Self {
        Store {
            dir: state_dir.join("sessions"),
        }
    }

    pub fn path(&self) -> PathBuf {
        self.dir.join("current.json")
    }

    /// Reads the session. No file is a fresh session; a file that cannot be read or understood is
    /// moved aside (`current.json.bad-<time>`) and a fresh session starts, with a notice saying so.
    pub fn load(&self) -> Loaded {
        let path = self.path();
        let text = match fs::read(&path) {
            Ok(bytes) => bytes,
            // No folder (or a file where it must be: nothing was ever saved there, and the first save
            // says why it cannot be).
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
                ) =>
            {
                return Loaded {
                    session: Session::default(),
                    notice: None,
                }
            }
            Err(e) => return self.fresh(Unreadable::Read(e.to_string())),
        };
        match serde_json::from_slice::<Session>(&text) {
            Ok(session) if session.version == VERSION => Loaded {
                session,
                notice: None,
            },
            Ok(session) => self.fresh(Unreadable::Version(session.version)),
            Err(e) => self.fresh(Unreadable::Content(e.to_string())),
        }
    }

    fn fresh(&self, why: Unreadable) -> Loaded {
        let path = self.path();
        let stamp = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let aside = self.dir.join(format!("current.json.bad-{stamp}"));
        let kept = fs::rename(&path, &aside).ok().map(|()| aside);
        tracing::warn!(path = %path.display(), "the saved session was set aside: {why:?}");
        Loaded {
            session: Session::default(),
            notice: Some((why, kept)),
        }
    }

    /// Writes the session atomically: a private temp file in the same folder, flushed, then renamed
    /// over the old one, so a crash leaves the old file or the new one, never half of one.
    pub fn save(&self, session: &Session) -> Result<(), SessionError> {
        fs::create_dir_all(&self.dir).map_err(|source| SessionError::Folder {
            path: self.dir.clone(),
            source,
        })?;
        let json = serde_json::to_vec_pretty(session)?;
        let path = self.path();
        crate::atomic_file::write_private(&path, &json).map_err(|source| SessionError::Write { path, source })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::ToolCall;
    use serde_json::json;

    #[test]
    fn a_saved_session_comes_back_the_same() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::new(dir.path());
        let mut session = Session::default();
        session.new_goal("Find the cheapest kettle");
        session
            .set_plan(vec!["Search".into(), "Compare".into(), "Answer the user".into()])
            .unwrap();
        session.add_fact("The cheapest kettle costs €19.99").unwrap();
        session
            .conversation
            .push(Message::user("Find the cheapest kettle"));
        store.save(&session).unwrap();
        let loaded = store.load();
        assert_eq!(loaded.notice, None);
        assert_eq!(loaded.session, session);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(store.path()).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        // No temp file is left behind.
        let names: Vec<_> = fs::read_dir(dir.path().join("sessions")).unwrap().collect();
        assert_eq!(names.len(), 1);
    }

    #[test]
    fn a_corrupt_file_is_set_aside_and_a_fresh_session_starts() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::new(dir.path());
        fs::create_dir_all(dir.path().join("sessions")).unwrap();
        fs::write(store.path(), b"{\"version\": 1, \"current_goal\": ").unwrap();
        let loaded = store.load();
        assert_eq!(loaded.session.current_goal, None);
        let notice = loaded.notice.unwrap();
        assert!(matches!(notice.0, Unreadable::Content(_)), "{notice:?}");
        assert!(!store.path().exists());
        let aside: Vec<String> = fs::read_dir(dir.path().join("sessions"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(aside.len(), 1);
        assert!(aside[0].starts_with("current.json.bad-"), "{aside:?}");
        // The fresh session can be saved over it.
        store.save(&loaded.session).unwrap();
        assert_eq!(store.load().notice, None);
    }

    #[test]
    fn plans_have_three_to_six_steps_and_a_new_one_counts_as_a_replan() {
        let mut session = Session::default();
        assert!(session.set_plan(vec!["a".into(), "b".into()]).is_err());
        assert!(session.set_plan(vec!["x".into(); 7]).is_err());
        assert_eq!(
            session.set_plan(vec!["a".into(), "b".into(), "c".into()]),
            Ok(false)
        );
        assert_eq!(session.progress.current, 1);
        assert_eq!(
            session.set_plan(vec!["a".into(), "d".into(), "c".into()]),
            Ok(true)
        );
        assert_eq!(session.counters.replans, 1);
    }

    #[test]
    fn facts_are_generalisations_without_markup_or_control_numbers() {
        let mut session = Session::default();
        assert_eq!(
            session.add_fact("Button 12 adds to the cart"),
            Err(FactError::ElementNumber)
        );
        assert_eq!(session.add_fact("click #7 to pay"), Err(FactError::ElementNumber));
        assert_eq!(
            session.add_fact("<div class=price>€3</div>"),
            Err(FactError::Markup)
        );
        assert_eq!(session.add_fact("  "), Err(FactError::Empty));
        assert_eq!(
            session.add_fact(&"a".repeat(MAX_FACT_CHARS + 1)),
            Err(FactError::TooLong)
        );
        session.add_fact(&"a".repeat(MAX_FACT_CHARS)).unwrap();
        session.facts.clear();
        session.add_fact("The shop delivers in 2 days").unwrap();
        session.add_fact("the shop  delivers in 2 days").unwrap();
        assert_eq!(session.facts.len(), 1, "the same fact is kept once");
        let added = MAX_FACTS + 10;
        for i in 0..added {
            session.add_fact(&format!("Finding {i}")).unwrap();
        }
        assert_eq!(session.facts.len(), MAX_FACTS);
        assert_eq!(session.facts[0].fact, format!("Finding {}", added - MAX_FACTS));
        assert_eq!(
            session.facts.last().unwrap().fact,
            format!("Finding {}", added - 1)
        );
    }

    #[test]
    fn a_long_conversation_is_summarised_and_tool_results_are_dropped() {
        let mut session = Session::default();
        session.new_goal("Compare kettles");
        session.add_fact("Kettles start at €19").unwrap();
        session.conversation.push(Message::user("Compare kettles"));
        // Each round adds two messages: enough rounds to pass the limit by half again.
        for i in 0..MAX_MESSAGES * 3 / 4 {
            let call = ToolCall {
                id: format!("c{i}"),
                name: "browser_extract".into(),
                args: json!({}),
                native: true,
            };
            session.conversation.push(Message::Assistant {
                text: None,
                tool_call: Some(call.clone()),
            });
            session.conversation.push(Message::tool_result(
                &call,
                format!(r#"{{"status":"ok","data":{{"snippet":"page text {i}"}}}}"#),
            ));
            if i % 10 == 9 {
                session.conversation.push(Message::user("go on"));
            }
        }
        assert!(session.compact());
        assert!(session.conversation.len() <= MAX_MESSAGES);
        assert!(
            matches!(session.conversation[0], Message::User { .. }),
            "cut at a user message"
        );
        let summary = session.summary.clone().unwrap();
        assert!(summary.contains("user said: Compare kettles"), "{summary}");
        assert!(summary.contains("called browser_extract"), "{summary}");
        assert!(
            !summary.contains("page text"),
            "tool results are dropped: {summary}"
        );
        // Goal and facts are outside the conversation: untouched.
        assert_eq!(session.current_goal.as_deref(), Some("Compare kettles"));
        assert_eq!(session.facts.len(), 1);
        assert!(!session.compact(), "nothing more to do");
    }

    #[test]
    fn typed_text_is_not_kept_for_a_pending_action() {
        let tool = PageTool::OverlayAct {
            index: 2,
            action: waymark_protocol::ActKind::Type,
            text: Some("hunter2".into()),
        };
        let kept = serde_json::to_string(&tool.as_kept()).unwrap();
        assert!(!kept.contains("hunter2"), "{kept}");
    }
}
