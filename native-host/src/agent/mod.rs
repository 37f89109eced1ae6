//! The agent in chat mode: a user's message becomes a loop of model turns, one tool call per turn, each
//! page tool taken through the policy gate, until the model is done, asks the user, answers in plain
//! text, hands a step to the user, or reaches the step limit. It reports to the panel with
//! [`AgentEvent`]s (finished sentences).
//!
//! The working state (goal, plan, progress, facts, what waits for the user, counters, the conversation)
//! is a [`Session`], saved to the state directory after every step and read back when the host starts,
//! so a host killed mid-task continues the same goal with the same facts. A yes or no to the gate's
//! question, and "done" after a step handed to the user, resume the loop by themselves; after the step
//! limit, the next chat message does.
//!
//! Its rooms, one job each: this file holds the [`Agent`] itself, what a chat is set up with, and the
//! one road to the page ([`Agent::execute`]); [`resume`] takes the user's messages and answers (a new
//! goal, "continue", a yes or no, "done" after a hand-over) and starts the loop; [`run`] is the loop,
//! one handler per kind of turn; [`observe`] looks at the page after a step (banners, a fresh list,
//! the screen); [`record`] keeps the session and the step log; [`prompt`] is every word Waymark says
//! to the model; [`tools`] the assistant's own tools and the data block; [`stop`] is the user's stop
//! (the run ends at its next wait, a held question is withdrawn, the goal is kept).
//!
//! What it must not do: reach a page except through [`Agent::execute`] (which is [`Gate::pass`]: a
//! model talked into anything by a page still cannot act destructively without the user's yes), let
//! page text reach the model outside the delimited data block ([`tools::data_block`]), act on output it
//! could not read (that gets one repair turn, then an error), or log what the model or the page said
//! (the step log, [`crate::steplog`], is masked).

mod observe;
mod prompt;
mod record;
mod resume;
mod run;
mod stop;
pub(crate) mod tools;
mod wording;

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use serde_json::Value;
use tokio::sync::mpsc;
use waymark_protocol::{AgentEvent, AgentState, AgentUpdate, ErrorKind, PageTool, ToExtension, ToolResult};

use waymark_i18n::{say, Words};

use crate::config::{Config, McpServerConfig};
use crate::gate::{Decided, Gate, Gated, Requester};
use crate::llm::LlmClient;
use crate::mcp::external::External;
use crate::mcp::link::AgentLink;
use crate::session::{Session, Store};
use crate::steplog::StepLog;

/// What one chat needs from the configuration.
pub struct Settings {
    pub llm: LlmClient,
    pub max_tool_steps: u32,
    /// Where the session (`sessions/`) and the step log (`logs/`) live.
    pub state_dir: PathBuf,
    /// External MCP servers whose tools the agent may use (started at the first chat).
    pub mcp_servers: Vec<McpServerConfig>,
    /// Milliseconds closing banners may take after one page-changing step (`docs/requirements.md`
    /// "Closing banners"); 0: never.
    pub banner_budget_ms: u64,
}

/// Makes the [`Settings`] for a chat, or says why it cannot, to the user, in their words.
pub type Setup = Arc<dyn Fn(&Words) -> Result<Settings, String> + Send + Sync>;

/// Settings from `Config::load()`, read again for every chat so a fixed config file takes effect
/// without restarting the browser. A configuration that does not load is said with its fix.
pub fn from_config() -> Setup {
    Arc::new(|words: &Words| {
        let config = Config::load().map_err(|e| {
            tracing::warn!("the chat cannot start: {e}");
            cannot_start(&e, words)
        })?;
        let llm = LlmClient::new(&config).map_err(|e| {
            tracing::warn!("the chat cannot start: {e}");
            e.said(words)
        })?;
        Ok(Settings {
            llm,
            max_tool_steps: config.max_tool_steps,
            state_dir: config.state_dir,
            mcp_servers: config.mcp_servers,
            banner_budget_ms: config.banner_budget_ms,
        })
    })
}

/// What the panel hears when the configuration does not load: what is wrong, and the fix.
pub(crate) fn cannot_start(error: &crate::config::ConfigError, words: &Words) -> String {
    say!(
        words,
        "config-chat-cannot-start",
        detail = error.said(words),
        fix = error.fix(words)
    )
}

pub struct Agent {
    gate: Arc<Gate>,
    outbox: mpsc::Sender<ToExtension>,
    setup: Setup,
    /// The session, read from disk on first use. Locked while the agent works: one task at a time.
    work: tokio::sync::Mutex<Option<Work>>,
    /// Where the gate leaves the outcome of a question asked on the agent's behalf.
    inbox: mpsc::UnboundedSender<Decided>,
    decided: Mutex<mpsc::UnboundedReceiver<Decided>>,
    /// The browser tools, reached over the in-memory MCP link (joined at first use).
    link: tokio::sync::OnceCell<AgentLink>,
    /// External MCP servers' tools, started at the first chat.
    external: tokio::sync::OnceCell<Arc<External>>,
    /// Set when the user says stop while a run holds the session; the run ends at its next wait, and
    /// the next message or answer clears it ([`stop`]).
    stopping: tokio::sync::watch::Sender<bool>,
}

/// The session and where it is kept.
struct Work {
    session: Session,
    store: Store,
    log: StepLog,
    /// Said to the user once: the saved session could not be read.
    notice: Option<String>,
    /// The session could not be saved: said to the user once, until a save succeeds again.
    unsaved: Unsaved,
    /// The latest picture of the screen (a `data:` URL), for a model that takes images. Only the latest
    /// one is sent, and it is never written to disk.
    screen: Option<String>,
}

/// Whether the user knows that the session is not being saved.
#[derive(Debug, Default)]
enum Unsaved {
    /// The last save went well (or there was none yet).
    #[default]
    Saved,
    /// A save failed and the user has not been told yet.
    Untold(waymark_protocol::HostFault),
    /// The user has been told; saves still fail.
    Told,
}

/// How one run of the loop ended.
enum End {
    /// Say this; the state after it.
    Say(String, AgentState),
    /// The user was asked (a yes or no, or a step handed over); the question is on its way.
    Waiting,
    Failed(String),
    /// The user said stop.
    Stopped,
}

impl Agent {
    pub fn new(gate: Arc<Gate>, outbox: mpsc::Sender<ToExtension>, setup: Setup) -> Arc<Self> {
        let (inbox, decided) = mpsc::unbounded_channel();
        Arc::new(Agent {
            gate,
            outbox,
            setup,
            work: tokio::sync::Mutex::new(None),
            inbox,
            decided: Mutex::new(decided),
            link: tokio::sync::OnceCell::new(),
            external: tokio::sync::OnceCell::new(),
            stopping: tokio::sync::watch::Sender::new(false),
        })
    }

    /// The agent's MCP link to the browser tools, joined on first use.
    async fn link(&self) -> Result<&AgentLink, String> {
        self.link
            .get_or_try_init(|| {
                AgentLink::connect(self.gate.clone(), self.outbox.clone(), self.inbox.clone())
            })
            .await
            .map_err(|e| e.to_string())
    }

    /// The external MCP servers, started on first use; a server that fails is said once.
    async fn external(&self, configs: &[McpServerConfig]) -> Arc<External> {
        self.external
            .get_or_init(|| async {
                let (external, problems) = External::start(configs).await;
                let words = self.words();
                for problem in problems {
                    let text = say!(words, "agent-mcp-server-failed", problem = problem.to_string());
                    self.emit(AgentEvent::Error { text }).await;
                }
                Arc::new(external)
            })
            .await
            .clone()
    }

    /// Stops what the agent started (external MCP servers) when the browser goes away.
    pub async fn shutdown(&self) {
        if let Some(external) = self.external.get() {
            external.stop().await;
        }
    }

    /// The one road from the agent to the page: the browser tools' MCP server over the in-memory link,
    /// which takes every call through the policy gate ([`Gate::pass`]) on the agent's behalf.
    async fn execute(&self, tab_id: Option<i32>, tool: PageTool) -> Gated {
        let link = match self.link().await {
            Ok(link) => link,
            Err(why) => return Gated::Ran(ToolResult::failed(ErrorKind::Unreachable, why)),
        };
        let name = tool.mcp_name();
        let mut args = serde_json::to_value(&tool).unwrap_or(Value::Null);
        if let Some(object) = args.as_object_mut() {
            object.remove("tool");
        }
        link.call(tab_id, name, &args).await
    }

    /// Who asks the gate for an external tool: the agent, whose inbox hears the user's answer.
    fn requester(&self) -> Requester {
        Requester::Agent(self.inbox.clone())
    }

    /// The outcomes of questions the gate asked on the agent's behalf since the last look.
    fn drain_decided(&self) -> Vec<Decided> {
        let mut receiver = self
            .decided
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        std::iter::from_fn(|| receiver.try_recv().ok()).collect()
    }

    /// The words to say to the user now, in their language (the connection's, kept by the gate).
    fn words(&self) -> Arc<Words> {
        self.gate.words()
    }

    async fn tool_event(&self, name: &str, ok: bool, summary: &str) {
        self.emit(AgentEvent::Tool {
            name: name.to_string(),
            ok,
            summary: summary.to_string(),
        })
        .await;
    }

    async fn status(&self, state: AgentState) {
        self.emit(AgentEvent::Status { state }).await;
    }

    async fn emit(&self, event: AgentEvent) {
        let _ = self
            .outbox
            .send(ToExtension::AgentEvent(AgentUpdate { event }))
            .await;
    }
}

#[cfg(test)]
mod tests;
