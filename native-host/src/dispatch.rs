//! The one router of the host: every message from the extension ([`ToHost`]) goes to its handler
//! here — the hello and the ping answered at once, tool results to the [`Browser`] that waits for them,
//! the panel's tools and page changes to the policy [`Gate`], chats and answers to the [`Agent`], the
//! settings page's requests to [`crate::settings`].
//!
//! [`Dispatch`] owns what one connection serves with (the browser's pending tools, the gate, the
//! agent, the chats in progress) and stops it when the connection ends. What it must not do: read or
//! write frames (that is [`crate::connection`]'s), or wait on anything slow itself: a handler that may
//! take time (a question can wait minutes for the user) runs as a task, so pings and tool results keep
//! flowing.

use std::sync::Arc;

use tokio::sync::mpsc;
use tokio::task::JoinSet;
use waymark_protocol::{Hello, Ping, Pong, ToExtension, ToHost, Welcome, PROTOCOL_VERSION};

use crate::agent::{self, Agent};
use crate::browser::Browser;
use crate::gate::Gate;
use crate::language::Language;
use crate::mcp::server::ClientServers;

/// Facts about this host process that answers carry.
#[derive(Debug, Clone)]
pub struct HostInfo {
    pub version: &'static str,
    pub pid: u32,
    /// What was found wrong in the host's setup when it started; the welcome says it, in the language
    /// the hello names.
    pub faults: Vec<crate::setup_faults::SetupFault>,
}

impl HostInfo {
    /// This process, with its setup checked now.
    pub fn current() -> Self {
        Self {
            version: env!("CARGO_PKG_VERSION"),
            pid: std::process::id(),
            faults: crate::setup_faults::at_start(),
        }
    }
}

/// What one connection serves with, and where each message goes.
pub struct Dispatch {
    info: HostInfo,
    outbox: mpsc::Sender<ToExtension>,
    browser: Browser,
    gate: Arc<Gate>,
    agent: Arc<Agent>,
    /// The browser user's language, said in the hello; the gate and the agent speak it.
    language: Language,
    /// Chats (and the answers that resume them) in progress: stopped when the browser goes away, since
    /// nobody is left to hear them.
    chats: JoinSet<()>,
}

impl Dispatch {
    /// The host's parts for one connection; answers go to `outbox`, the agent's settings come from
    /// `setup`.
    pub fn new(info: HostInfo, outbox: mpsc::Sender<ToExtension>, setup: agent::Setup) -> Self {
        let language = Language::default();
        let browser = Browser::speaking(outbox.clone(), language.clone());
        let gate = Gate::speaking(browser.clone(), outbox.clone(), language.clone());
        let agent = Agent::new(gate.clone(), outbox.clone(), setup);
        Dispatch {
            info,
            outbox,
            browser,
            gate,
            agent,
            language,
            chats: JoinSet::new(),
        }
    }

    /// The browser user's language (English until the hello says otherwise).
    pub(crate) fn language(&self) -> Language {
        self.language.clone()
    }

    /// The browser tools as an MCP server for outside clients, behind this connection's gate.
    pub fn mcp_server(&self) -> ClientServers {
        ClientServers::new(self.gate.clone(), self.outbox.clone())
    }

    /// Sends `message` to its handler; returns the answers to send at once (the others reach the
    /// extension through the outbox when their handler is done).
    pub fn route(&mut self, message: ToHost) -> Vec<ToExtension> {
        match message {
            ToHost::Hello(hello) => {
                self.language.set(hello.language.as_deref());
                vec![welcome(&hello, &self.info, &self.language.words())]
            }
            ToHost::Ping(ping) => vec![pong(&ping, &self.info)],
            ToHost::ToolResult(done) => {
                self.browser.resolve(done);
                Vec::new()
            }
            ToHost::UserTool(request) => {
                tokio::spawn(self.gate.clone().user_tool(request));
                Vec::new()
            }
            // The agent may work for minutes: it runs as a task and reports with agent events.
            ToHost::Chat(chat) => {
                self.reap_chats();
                self.chats.spawn(self.agent.clone().chat(chat));
                Vec::new()
            }
            // The agent sees every answer first: "done" after a step it handed over is its own; a yes
            // or no goes on to the gate, and if the agent asked, it resumes with the outcome.
            ToHost::Answer(answer) => {
                self.reap_chats();
                self.chats.spawn(self.agent.clone().answer(answer));
                Vec::new()
            }
            // Stop: never behind the run it stops (that holds the session), so a task of its own.
            ToHost::StopAgent(_) => {
                self.reap_chats();
                self.chats.spawn(self.agent.clone().stop());
                Vec::new()
            }
            // A page changed: questions about the old one close (quickly, and never behind a chat).
            ToHost::PageChanged(changed) => {
                let gate = self.gate.clone();
                tokio::spawn(async move { gate.page_changed(changed.tab_id, changed.frame_id).await });
                Vec::new()
            }
            // The settings page: file reads and writes, and the doctor's network check, off the
            // reading loop.
            ToHost::GetSettings(request) => {
                let words = self.language.words();
                self.answer_blocking(move || ToExtension::Settings(crate::settings::get(request.id, &words)));
                Vec::new()
            }
            ToHost::SaveSettings(request) => {
                let words = self.language.words();
                self.answer_blocking(move || ToExtension::Settings(crate::settings::save(request, &words)));
                Vec::new()
            }
            ToHost::RunDoctor(request) => {
                let outbox = self.outbox.clone();
                let words = self.language.words();
                tokio::spawn(async move {
                    let report = crate::settings::run_doctor(request.id, &words).await;
                    let _ = outbox.send(ToExtension::DoctorReport(report)).await;
                });
                Vec::new()
            }
        }
    }

    /// Stops what this connection started: tools still in flight fail at once (nobody will answer
    /// them), chats stop, and the agent's external MCP servers must not outlive the connection.
    pub async fn close(mut self) {
        self.browser.disconnect();
        self.chats.abort_all();
        while self.chats.join_next().await.is_some() {}
        self.agent.shutdown().await;
    }

    /// Forgets the chats that have ended.
    fn reap_chats(&mut self) {
        while self.chats.try_join_next().is_some() {}
    }

    /// Runs `answer` (file I/O) on the blocking pool and sends what it returns.
    fn answer_blocking(&self, answer: impl FnOnce() -> ToExtension + Send + 'static) {
        let outbox = self.outbox.clone();
        tokio::spawn(async move {
            if let Ok(reply) = tokio::task::spawn_blocking(answer).await {
                let _ = outbox.send(reply).await;
            }
        });
    }
}

/// The answer to the extension's hello: our protocol, whichever it speaks.
fn welcome(hello: &Hello, info: &HostInfo, words: &waymark_i18n::Words) -> ToExtension {
    if hello.protocol != PROTOCOL_VERSION {
        // The extension compares versions and tells the user; the host only notes it.
        tracing::warn!(
            extension = hello.protocol,
            host = PROTOCOL_VERSION,
            "extension speaks another protocol version"
        );
    } else {
        tracing::info!(extension_version = %hello.extension_version, "extension connected");
    }
    ToExtension::Welcome(Welcome {
        protocol: PROTOCOL_VERSION,
        host_version: info.version.to_string(),
        pid: info.pid,
        faults: info.faults.iter().map(|f| f.said(words)).collect(),
    })
}

fn pong(ping: &Ping, info: &HostInfo) -> ToExtension {
    ToExtension::Pong(Pong {
        id: ping.id,
        host_version: info.version.to_string(),
        pid: info.pid,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use waymark_protocol::{AgentEvent, Chat, HostFault, PageTool, ToolDone, ToolResult};

    fn fault() -> HostFault {
        HostFault {
            kind: waymark_protocol::FaultKind::StateReadOnly,
            path: Some("state".into()),
            key: None,
            detail: None,
        }
    }

    fn info() -> HostInfo {
        HostInfo {
            version: "1.2.3",
            pid: 9,
            faults: vec![crate::setup_faults::SetupFault::State(fault())],
        }
    }

    /// A dispatch whose agent cannot be set up (no message here reaches a model).
    fn dispatch() -> (Dispatch, mpsc::Receiver<ToExtension>) {
        let (outbox, queue) = mpsc::channel(16);
        let setup: agent::Setup = Arc::new(|_: &waymark_i18n::Words| Err("no model in this test".into()));
        (Dispatch::new(info(), outbox, setup), queue)
    }

    #[tokio::test]
    async fn hello_is_welcomed_with_our_protocol_and_the_setup_faults_even_on_mismatch() {
        let (mut dispatch, _queue) = dispatch();
        for protocol in [PROTOCOL_VERSION, PROTOCOL_VERSION + 1] {
            let out = dispatch.route(ToHost::Hello(Hello {
                protocol,
                extension_version: "x".into(),
                language: None,
            }));
            assert_eq!(
                out,
                vec![ToExtension::Welcome(Welcome {
                    protocol: PROTOCOL_VERSION,
                    host_version: "1.2.3".into(),
                    pid: 9,
                    faults: vec![fault()],
                })]
            );
        }
    }

    #[tokio::test]
    async fn ping_echoes_the_id() {
        let (mut dispatch, _queue) = dispatch();
        let out = dispatch.route(ToHost::Ping(Ping { id: 42 }));
        assert!(matches!(&out[..], [ToExtension::Pong(p)] if p.id == 42 && p.pid == 9));
    }

    #[tokio::test]
    async fn a_tool_result_reaches_the_tool_that_waits_for_it() {
        let (mut dispatch, mut queue) = dispatch();
        let browser = dispatch.browser.clone();
        let waiting = tokio::spawn(async move { browser.run(Some(1), PageTool::Extract).await });
        let Some(ToExtension::RunTool(run)) = queue.recv().await else {
            panic!("the tool was not sent")
        };
        let result = ToolResult::ok(serde_json::json!({"title": "Shop"}));
        let out = dispatch.route(ToHost::ToolResult(ToolDone {
            id: run.id,
            result: result.clone(),
            stopped: Vec::new(),
        }));
        assert!(out.is_empty());
        assert_eq!(waiting.await.unwrap(), result);
    }

    #[tokio::test]
    async fn a_chat_goes_to_the_agent_which_answers_through_the_outbox() {
        let (mut dispatch, mut queue) = dispatch();
        let out = dispatch.route(ToHost::Chat(Chat {
            id: 1,
            tab_id: None,
            text: "Hi".into(),
            language: None,
        }));
        assert!(out.is_empty());
        let Some(ToExtension::AgentEvent(update)) = queue.recv().await else {
            panic!("the agent did not answer")
        };
        assert_eq!(
            update.event,
            AgentEvent::Error {
                text: "no model in this test".into()
            }
        );
        dispatch.close().await;
    }
}
