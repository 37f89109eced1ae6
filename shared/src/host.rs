//! Messages between the extension's service worker and the native host, over native messaging.
//!
//! A request carries a [`RequestId`] chosen by the extension; its response carries the same id
//! ([`ToExtension::request_id`]), which is how the extension matches an answer to what it asked.

use serde::{Deserialize, Serialize};

/// Correlates a request with its response. Chosen by the extension; at most 2^53 so that JavaScript
/// numbers hold it exactly.
pub type RequestId = u64;

/// Extension → host.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToHost {
    Hello(Hello),
    Ping(Ping),
    /// The user asks for a tool (from the panel): it goes through the policy gate first.
    UserTool(UserTool),
    /// The user's answer to the pending [`Question`].
    Answer(Answer),
    /// The extension's result of a [`RunTool`].
    ToolResult(ToolDone),
    /// A chat message from the user, for the agent.
    Chat(Chat),
    /// The user says stop (`/stop`, "stop", Escape, the shortcut): the agent stops at once, a question
    /// it holds is withdrawn, and the goal is kept for "continue". Answered by
    /// [`AgentEvent::Stopped`].
    StopAgent(StopAgent),
    /// The settings page asks for the current settings; answered by [`ToExtension::Settings`].
    GetSettings(GetSettings),
    /// The settings page saves settings into the host's config file; answered by
    /// [`ToExtension::Settings`] (the saved values, or why they were refused).
    SaveSettings(SaveSettings),
    /// Run `waymark-host doctor`'s checks; answered by [`ToExtension::DoctorReport`].
    RunDoctor(RunDoctor),
    /// A frame of a tab started showing another document (a navigation, a reload): questions about
    /// actions on the old one are closed, since their yes could no longer do what was asked.
    PageChanged(PageChanged),
}

/// Host → extension.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToExtension {
    Welcome(Welcome),
    Pong(Pong),
    Error(ErrorReply),
    /// Run this tool in a tab; the gate has already allowed it. Answered by [`ToHost::ToolResult`].
    RunTool(RunTool),
    /// The final result of a [`UserTool`] (after any question).
    UserToolResult(ToolDone),
    /// A question that blocks work until the user answers (`/yes`, `/no`).
    Question(Question),
    /// A question is no longer asked: it expired, its page changed, or whoever asked stopped waiting.
    /// The panel takes it away and says why; an answer to it would do nothing.
    QuestionClosed(QuestionClosed),
    /// What the agent is doing or saying, while it works on a [`Chat`].
    AgentEvent(AgentUpdate),
    Activity(Activity),
    /// The settings as the host sees them (never the API key itself), or why saving failed.
    Settings(SettingsReply),
    /// The doctor's checks, one per line.
    DoctorReport(DoctorReport),
}

/// The first message on every new connection: who is calling, and which protocol it speaks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hello {
    pub protocol: u32,
    pub extension_version: String,
    /// The browser's UI language (BCP 47, from `chrome.i18n.getUILanguage()`): the host says its
    /// sentences (questions, the agent's events, errors) in it. Absent: English.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
}

/// The host's answer to [`Hello`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Welcome {
    pub protocol: u32,
    pub host_version: String,
    /// Process id of the host, so a person (or a test) can tell which process answered.
    pub pid: u32,
    /// What the host found wrong in its own setup when it started (a state directory it cannot write,
    /// a config file that does not load): the panel says each once, with the fix.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub faults: Vec<HostFault>,
}

/// Something wrong in the host's own setup that only the user can fix: where it is, and what. One
/// flat shape for every fault (the extension's wasm pays for each type it reads).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HostFault {
    pub kind: FaultKind,
    /// The folder or file at fault: the state folder that refused (or the file standing where a
    /// folder must be), the config file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// The key in the config file (`max_tool_steps`) or the environment variable
    /// (`WAYMARK_LLM_MODEL`) at fault.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// The system's or the config parser's own words: shown as they are, never interpreted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

/// What a [`HostFault`] is. The `state_*` kinds: sessions, the step log and the MCP socket cannot be
/// written, so nothing would be saved. The `config_*` kinds and `no_state_dir`: the configuration does
/// not load, so the agent cannot start a chat until it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FaultKind {
    /// A file stands where the state folder (or one of its folders) must be.
    StateNotAFolder,
    /// The state folder belongs to someone else (often left by a command run with `sudo`).
    StatePermissionDenied,
    /// The state folder is on a disk mounted read-only.
    StateReadOnly,
    /// The state folder refused for another reason; `detail` says which.
    StateUnwritable,
    /// The config file exists but cannot be read.
    ConfigUnreadable,
    /// The config file is not TOML, or holds a key Waymark does not know or a value of the wrong type.
    /// The settings page can replace it (keeping a copy).
    ConfigDoesNotParse,
    /// A key in the config file has a value out of range or of the wrong form.
    ConfigBadValue,
    /// An environment variable has a value of the wrong form.
    ConfigBadEnv,
    /// No folder for the state: neither `WAYMARK_STATE_DIR` nor a home folder.
    NoStateDir,
}

impl FaultKind {
    /// Whether the fault is the state directory's (else the configuration's).
    pub fn is_state_dir(self) -> bool {
        matches!(
            self,
            FaultKind::StateNotAFolder
                | FaultKind::StatePermissionDenied
                | FaultKind::StateReadOnly
                | FaultKind::StateUnwritable
        )
    }
}

/// A liveness check that goes all the way to the host process.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ping {
    pub id: RequestId,
}

/// The answer to [`Ping`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pong {
    pub id: RequestId,
    pub host_version: String,
    pub pid: u32,
}

/// A tool the user asked for, by number, in a tab (the active one unless named).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UserTool {
    pub id: RequestId,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<i32>,
    pub tool: crate::tools::PageTool,
}

/// A tool for the extension to run, on the host's behalf.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunTool {
    pub id: RequestId,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<i32>,
    pub tool: crate::tools::PageTool,
    /// Where the gate judged the tool: it runs there or not at all (see [`crate::Pin`]). Every
    /// page-changing tool carries one; `tab_id` then names the same tab.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pin: Option<crate::tools::Pin>,
    /// A piece of a file for this request's [`crate::tools::PageTool::Upload`]. The browser drops a
    /// message from the host over [`crate::MAX_MESSAGE_TO_BROWSER`], so the host sends an upload's files
    /// in pieces first, each as a `run_tool` with the same id and a `part`; such a message runs nothing.
    /// The `run_tool` without `part` that follows runs the tool, with the pieces joined as its `files`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub part: Option<FilePart>,
    /// For a page-changing tool: watch the requests its tab sends while it takes effect, and stop
    /// every one that may change something on a server unless `allow` covers it; the answer's
    /// `stopped` says what was stopped. Absent: the tool is not guarded (the user said yes to it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guard: Option<crate::request::Guard>,
}

/// One piece of a file on its way to a page's file input (see [`RunTool::part`]).
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FilePart {
    /// Which file of the upload, counting from 0; pieces of one file come in order.
    pub file: u32,
    /// The file name the page sees (no directories).
    pub name: String,
    /// The media type, such as `application/pdf`.
    pub mime: String,
    /// This piece of the file, base64-encoded. Every piece but a file's last holds a multiple of 3
    /// bytes, so the pieces' texts join into the whole file's base64 as they are.
    pub base64: String,
}

impl std::fmt::Debug for FilePart {
    // A file's contents must not reach a log through `{:?}`: only its size does.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FilePart")
            .field("file", &self.file)
            .field("name", &self.name)
            .field("mime", &self.mime)
            .field("base64_len", &self.base64.len())
            .finish()
    }
}

/// The result of a tool run: the answer to [`RunTool`] and to [`UserTool`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolDone {
    pub id: RequestId,
    pub result: crate::tools::ToolResult,
    /// The requests a guarded tool's tab tried to send and the guard stopped (see [`RunTool::guard`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stopped: Vec<crate::request::StoppedRequest>,
}

/// A blocking question to the user.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Question {
    /// Identifies the question; the [`Answer`] names it.
    pub id: RequestId,
    pub kind: QuestionKind,
    /// The question as it is spoken, naming the action, the element and the site.
    pub text: String,
    /// The long form, for `/details` while the question is shown: the full path of the program an
    /// outside MCP client runs as, and its user; for a question about a page, the page's full address
    /// (the question names only its site). Short words are for listening; this is for checking.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// The panel's request this question holds, when a panel asked: every view shows the question,
    /// and whichever the user answers in says the request's outcome (the asking view lets it go).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request: Option<UserTool>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QuestionKind {
    /// Yes or no before an action that cannot be undone.
    Confirm,
    /// A step the user does themselves (log in, solve a captcha, enter a code); they answer yes (`/done`,
    /// "done") when it is done, and the agent looks at the page again and goes on.
    Manual,
}

/// The user's answer to a [`Question`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Answer {
    /// The question answered. Always named: a yes meant for one question never answers another.
    pub question: RequestId,
    pub yes: bool,
}

/// Why a [`Question`] was taken back before it was answered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuestionClosed {
    pub id: RequestId,
    pub reason: ClosedReason,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClosedReason {
    /// Nobody answered in time.
    Expired,
    /// The tab (or frame) it was about shows another page now.
    PageChanged,
    /// Whoever asked stopped waiting (an MCP client cancelled, the user wrote something else).
    Withdrawn,
    /// The user stopped the agent that asked; [`AgentEvent::Stopped`] says so, so the panel says
    /// nothing of its own about the question.
    Stopped,
}

/// See [`ToHost::PageChanged`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PageChanged {
    pub tab_id: i32,
    /// The frame whose document changed (0: the tab's page itself, and with it every frame).
    pub frame_id: i32,
}

/// A message the user typed in chat mode: a task or an answer for the agent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chat {
    pub id: RequestId,
    /// The tab the agent works in (the active one unless named).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<i32>,
    pub text: String,
    /// The browser's UI language (`chrome.i18n.getUILanguage()`, a BCP 47 tag such as `ru` or
    /// `en-US`): the model is told to speak to the user in it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
}

/// See [`ToHost::StopAgent`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct StopAgent {
    pub id: RequestId,
}

/// Asks for the settings the settings page shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GetSettings {
    pub id: RequestId,
}

/// New values for the settings page's fields; an absent field stays as it is. The API key goes one
/// way only: the host stores it in its config file and never sends it back; `""` removes it.
#[derive(Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct SaveSettings {
    pub id: RequestId,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub llm_base_url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub llm_model: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub llm_api_key: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_tool_steps: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub banner_budget_ms: Option<u64>,
}

impl std::fmt::Debug for SaveSettings {
    // The key must not reach a log through `{:?}`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SaveSettings")
            .field("id", &self.id)
            .field("llm_base_url", &self.llm_base_url)
            .field("llm_model", &self.llm_model)
            .field("llm_api_key", &self.llm_api_key.as_ref().map(|_| "***"))
            .field("max_tool_steps", &self.max_tool_steps)
            .field("banner_budget_ms", &self.banner_budget_ms)
            .finish()
    }
}

/// Asks the host to run its doctor's checks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunDoctor {
    pub id: RequestId,
}

/// The settings as they are in effect, for the settings page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SettingsView {
    pub llm_base_url: String,
    pub llm_model: String,
    /// Whether an API key is set (file or environment); the key itself never leaves the host.
    pub api_key_set: bool,
    pub max_tool_steps: u32,
    pub banner_budget_ms: u64,
    /// The config file the host reads and writes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config_file: Option<String>,
    /// Settings an environment variable sets: shown read-only, since a saved value would not apply.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub from_env: Vec<EnvSetting>,
}

/// One setting fixed by the environment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EnvSetting {
    /// The setting's key, as in the config file: `llm_model`.
    pub key: String,
    /// The variable that sets it: `WAYMARK_LLM_MODEL`.
    pub variable: String,
}

/// Why settings could not be read or saved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SettingsProblem {
    /// The setting at fault (`llm_base_url`), when one is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// A sentence saying what is wrong and what is expected.
    pub message: String,
    /// The config file's own fault, when the file as it stands does not load (the page says what
    /// saving will do about it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config: Option<HostFault>,
}

/// The answer to [`GetSettings`] and [`SaveSettings`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SettingsReply {
    pub id: RequestId,
    /// Whether this answers a save that was written.
    #[serde(default)]
    pub saved: bool,
    /// The settings now in effect (absent when the config cannot be read at all).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settings: Option<SettingsView>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub problem: Option<SettingsProblem>,
    /// A save replaced a config file that did not parse: where the old file was kept, private.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kept_copy: Option<String>,
}

/// How one doctor check went.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckStatus {
    Ok,
    /// Worth knowing, not broken.
    Warning,
    /// Waymark cannot work until this is fixed.
    Problem,
}

/// One line of the doctor's report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DoctorCheck {
    /// `config`, `llm`, `manifest:chrome`, `browser`.
    pub name: String,
    pub status: CheckStatus,
    pub detail: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
}

/// The answer to [`RunDoctor`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DoctorReport {
    pub id: RequestId,
    pub checks: Vec<DoctorCheck>,
}

/// What an outside MCP client (not the agent, not the panel) did in the browser, for the panel's
/// activity view and a short announcement. The user is told who acts in their browser.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Activity {
    /// Who asked: the MCP client's name from its `initialize`, such as "Claude Desktop"; for a client
    /// refused for calling itself Waymark, its program ("node client.mjs").
    pub source: String,
    /// The tool, such as `browser_overlay_act`.
    pub tool: String,
    pub ok: bool,
    /// Whether the tool could change the page: the panel announces those (and failures); reading
    /// tools only go to the activity view.
    #[serde(default)]
    pub changes_page: bool,
    /// One finished sentence: what was done, or why not.
    pub summary: String,
}

/// One [`AgentEvent`] on its way to the panel.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentUpdate {
    pub event: AgentEvent,
}

/// What the agent tells the panel. Finished sentences only: nothing is streamed token by token, so a
/// screen reader hears each one once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AgentEvent {
    /// The agent's state changed.
    Status { state: AgentState },
    /// The one-line progress of the step being taken.
    Progress { text: String },
    /// A tool's result, in short.
    Tool { name: String, ok: bool, summary: String },
    /// The agent's answer, or its question, to the user.
    Message { text: String },
    /// Why the agent stopped, in words for the user.
    Error { text: String },
    /// The user stopped the agent: what it had done so far, and how to go on. Said once, assertively.
    Stopped { text: String },
    /// The session (what the agent is doing, for a restart) could not be saved: said once, until a
    /// save succeeds again.
    NotSaved { fault: HostFault },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AgentState {
    Running,
    Idle,
    /// Waiting for the user: an answer to a question, or a step handed over.
    WaitingUser,
    Error,
}

/// Something the host could not do, in words a person can act on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorReply {
    /// The request this answers, when the host could tell which one it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<RequestId>,
    pub code: ErrorCode,
    pub message: String,
}

/// Machine-readable kind of an [`ErrorReply`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The frame was not UTF-8 JSON.
    MalformedFrame,
    /// The frame was larger than [`crate::MAX_MESSAGE_FROM_BROWSER`]; it was skipped.
    OversizedFrame,
    /// The JSON was well formed but not a message this host knows.
    UnknownMessage,
    /// The two sides speak different protocol versions.
    ProtocolMismatch,
    /// The answer would have exceeded [`crate::MAX_MESSAGE_TO_BROWSER`] and was not sent.
    ReplyTooLarge,
}

impl ToExtension {
    /// The request this message answers, if it answers one.
    pub fn request_id(&self) -> Option<RequestId> {
        match self {
            ToExtension::Welcome(_) => None,
            ToExtension::Pong(p) => Some(p.id),
            ToExtension::Error(e) => e.id,
            ToExtension::RunTool(r) => Some(r.id),
            ToExtension::UserToolResult(r) => Some(r.id),
            ToExtension::Settings(r) => Some(r.id),
            ToExtension::DoctorReport(r) => Some(r.id),
            ToExtension::Question(_)
            | ToExtension::QuestionClosed(_)
            | ToExtension::AgentEvent(_)
            | ToExtension::Activity(_) => None,
        }
    }
}
