//! External MCP servers from the config (`[[mcp_servers]]`): spawned by the host over stdio, their
//! tools offered to the agent under a namespaced name (`<server>__<tool>`), every call bounded by a
//! timeout, and every server stopped within a second when the host lets go of them.
//!
//! What it must not do: run a tool of an external server without the policy gate's say (the agent asks
//! [`External::read_only`] and the gate decides: `Gate::pass_external`), hang the agent on a server that does
//! not answer, or leave a child process behind when the host exits normally. A server that fails to
//! start is reported and left out; the others still work.

use std::process::Stdio;
use std::time::Duration;

use crate::policy::quoted;
use rmcp::model::{CallToolRequestParams, Tool};
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceExt as _};
use serde_json::{json, Value};
use tokio::process::{Child, Command};
use waymark_i18n::{say, Words};
use waymark_protocol::{ErrorKind, ToolResult};

use crate::config::McpServerConfig;

/// How long a server may take to start and list its tools.
pub const START_TIMEOUT: Duration = Duration::from_secs(20);
/// How long one tool call may take.
pub const CALL_TIMEOUT: Duration = Duration::from_secs(60);
/// How long a server has to exit by itself once its stdin closes, before it is killed.
const EXIT_GRACE: Duration = Duration::from_millis(500);
/// Between the server's name and the tool's in the namespaced name (function names allow `_` only).
const SEPARATOR: &str = "__";

/// One running external server.
struct Server {
    name: String,
    client: RunningService<RoleClient, ()>,
    child: tokio::sync::Mutex<Child>,
    pid: Option<u32>,
    tools: Vec<Tool>,
}

/// The external servers of one host.
#[derive(Default)]
pub struct External {
    servers: Vec<Server>,
}

impl std::fmt::Debug for External {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.servers.iter().map(|s| &s.name))
            .finish()
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ExternalError {
    #[error("the MCP server \"{name}\" could not be started ({command}): {source}")]
    Spawn {
        name: String,
        command: String,
        source: std::io::Error,
    },
    #[error("the MCP server \"{name}\" did not answer: {why}")]
    Handshake { name: String, why: String },
}

/// A name the model may use for a function: letters, digits, `_` and `-`.
fn sanitize(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

impl External {
    /// Starts every configured server; returns those that answered and a sentence for each that did
    /// not.
    pub async fn start(configs: &[McpServerConfig]) -> (Self, Vec<String>) {
        let mut external = External::default();
        let mut problems = Vec::new();
        for config in configs {
            match start_one(config).await {
                Ok(server) => {
                    tracing::info!(server = %server.name, pid = ?server.pid, tools = server.tools.len(), "external MCP server ready");
                    external.servers.push(server);
                }
                Err(e) => {
                    tracing::warn!("{e}");
                    problems.push(e.to_string());
                }
            }
        }
        (external, problems)
    }

    /// The servers' tools as OpenAI function tools, namespaced by server.
    pub fn definitions(&self) -> Vec<Value> {
        self.servers
            .iter()
            .flat_map(|server| {
                server.tools.iter().map(move |tool| {
                    let description = format!(
                        "(From the external tool server \"{}\".) {}",
                        server.name,
                        tool.description.as_deref().unwrap_or("")
                    );
                    crate::llm::function_tool(
                        &format!("{}{SEPARATOR}{}", server.name, tool.name),
                        description.trim(),
                        Value::Object((*tool.input_schema).clone()),
                    )
                })
            })
            .collect()
    }

    fn find(&self, name: &str) -> Option<(&Server, &Tool)> {
        let (server, tool) = name.split_once(SEPARATOR)?;
        let server = self.servers.iter().find(|s| s.name == server)?;
        let tool = server.tools.iter().find(|t| t.name == tool)?;
        Some((server, tool))
    }

    /// Whether `name` is one of these servers' tools.
    pub fn owns(&self, name: &str) -> bool {
        self.find(name).is_some()
    }

    /// Whether the server says the tool only reads (MCP's `readOnlyHint`). Without that hint a tool is
    /// taken to change something, as the MCP specification says.
    pub fn read_only(&self, name: &str) -> bool {
        self.find(name)
            .and_then(|(_, tool)| tool.annotations.as_ref())
            .and_then(|a| a.read_only_hint)
            .unwrap_or(false)
    }

    /// The question for a call, in the user's language: `Use "add_note" of the MCP server "notes"
    /// with what the assistant wrote (text: "milk")?` The arguments are the model's, so they
    /// are introduced as the assistant's and quoted (no control or bidi characters), never said in
    /// Waymark's own voice.
    pub fn question(&self, words: &Words, name: &str, args: &Value) -> String {
        let (server, tool) = name.split_once(SEPARATOR).unwrap_or(("?", name));
        let mut shown: Vec<String> = args
            .as_object()
            .into_iter()
            .flatten()
            .map(|(key, value)| match value {
                Value::String(text) => format!("{}: \"{}\"", quoted(key), quoted(text)),
                other => format!("{}: {}", quoted(key), quoted(&other.to_string())),
            })
            .collect();
        shown.sort();
        let mut shown = shown.join(", ");
        if shown.chars().count() > 200 {
            shown = shown.chars().take(200).collect::<String>() + "…";
        }
        let (tool, server) = (quoted(tool), quoted(server));
        if shown.is_empty() {
            say!(words, "question-external", tool = tool, server = server)
        } else {
            say!(
                words,
                "question-external-with",
                tool = tool,
                server = server,
                arguments = shown
            )
        }
    }

    /// Calls a namespaced tool, within [`CALL_TIMEOUT`]. The result keeps Waymark's shape: the
    /// server's text content in `data.text`, `status: error` when the server says so.
    pub async fn call(&self, name: &str, args: &Value) -> ToolResult {
        let Some((server, tool)) = self.find(name) else {
            return ToolResult::failed(
                ErrorKind::BadArguments,
                format!("{name} is not a tool of any configured MCP server"),
            );
        };
        let mut params = CallToolRequestParams::new(tool.name.clone());
        if let Some(args) = args.as_object() {
            params = params.with_arguments(args.clone());
        }
        let called = tokio::time::timeout(CALL_TIMEOUT, server.client.call_tool(params)).await;
        let result = match called {
            Err(_) => {
                return ToolResult::failed(
                    ErrorKind::TimedOut,
                    format!(
                        "the MCP server \"{}\" did not answer within {} seconds",
                        server.name,
                        CALL_TIMEOUT.as_secs()
                    ),
                )
            }
            Ok(Err(e)) => {
                return ToolResult::error(format!("the MCP server \"{}\" failed: {e}", server.name))
            }
            Ok(Ok(result)) => result,
        };
        let text: Vec<String> = result
            .content
            .iter()
            .filter_map(|block| block.as_text().map(|t| t.text.clone()))
            .collect();
        let text = text.join("\n");
        if result.is_error == Some(true) {
            ToolResult::error(format!("the MCP server \"{}\" says: {text}", server.name))
        } else {
            ToolResult::ok(json!({"server": server.name, "tool": tool.name, "text": text}))
        }
    }

    /// Stops every server: ends the MCP session (which closes its stdin), gives it [`EXIT_GRACE`] to
    /// exit, then kills it.
    pub async fn stop(&self) {
        for server in &self.servers {
            server.client.cancellation_token().cancel();
            let mut child = server.child.lock().await;
            if tokio::time::timeout(EXIT_GRACE, child.wait()).await.is_err() {
                let _ = child.kill().await;
            }
            tracing::info!(server = %server.name, "external MCP server stopped");
        }
    }
}

async fn start_one(config: &McpServerConfig) -> Result<Server, ExternalError> {
    let name = sanitize(config.name.trim());
    let mut child = Command::new(&config.command)
        .args(&config.args)
        .envs(&config.env)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        // The server's messages go to the host's stderr, which the browser keeps in its log.
        .stderr(Stdio::inherit())
        // If the host is torn down before `stop`, the child still does not outlive it.
        .kill_on_drop(true)
        .spawn()
        .map_err(|source| ExternalError::Spawn {
            name: name.clone(),
            command: config.command.clone(),
            source,
        })?;
    let handshake = |why: String| ExternalError::Handshake {
        name: name.clone(),
        why,
    };
    let (Some(stdout), Some(stdin)) = (child.stdout.take(), child.stdin.take()) else {
        return Err(handshake("its stdio could not be opened".into()));
    };
    let started = async {
        let client = ().serve((stdout, stdin)).await.map_err(|e| e.to_string())?;
        let tools = client.list_all_tools().await.map_err(|e| e.to_string())?;
        Ok::<_, String>((client, tools))
    };
    let (client, tools) = match tokio::time::timeout(START_TIMEOUT, started).await {
        Ok(Ok(ready)) => ready,
        Ok(Err(why)) => {
            let _ = child.kill().await;
            return Err(handshake(why));
        }
        Err(_) => {
            let _ = child.kill().await;
            return Err(handshake(format!(
                "no answer within {} seconds",
                START_TIMEOUT.as_secs()
            )));
        }
    };
    Ok(Server {
        name,
        client,
        pid: child.id(),
        child: tokio::sync::Mutex::new(child),
        tools,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fixture server built by `cargo test` from `examples/mcp_fixture.rs`.
    pub fn fixture_command() -> String {
        let exe = std::env::current_exe().unwrap();
        // target/<profile>/deps/<test binary> -> target/<profile>/examples/mcp_fixture
        let dir = exe.parent().and_then(|deps| deps.parent()).unwrap();
        dir.join("examples")
            .join(format!("mcp_fixture{}", std::env::consts::EXE_SUFFIX))
            .display()
            .to_string()
    }

    fn config(name: &str, env: &[(&str, &str)]) -> McpServerConfig {
        McpServerConfig {
            name: name.into(),
            command: fixture_command(),
            args: Vec::new(),
            env: env.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        }
    }

    /// Whether the fixture that wrote its liveness port to `file` still runs.
    pub fn alive(file: &std::path::Path) -> bool {
        let port: u16 = std::fs::read_to_string(file).unwrap().trim().parse().unwrap();
        std::net::TcpStream::connect(("127.0.0.1", port)).is_ok()
    }

    #[tokio::test]
    async fn tools_are_namespaced_called_and_the_servers_stopped_within_a_second() {
        let dir = tempfile::tempdir().unwrap();
        let notes = dir.path().join("notes.txt");
        let notes_env = notes.display().to_string();
        let alive_file = dir.path().join("alive");
        let alive_env = alive_file.display().to_string();
        let broken = McpServerConfig {
            name: "ghost".into(),
            command: "/nonexistent/mcp-server".into(),
            args: Vec::new(),
            env: Default::default(),
        };
        let (external, problems) = External::start(&[
            config(
                "note book",
                &[("NOTES_FILE", &notes_env), ("FIXTURE_ALIVE_FILE", &alive_env)],
            ),
            broken,
        ])
        .await;
        assert_eq!(problems.len(), 1);
        assert!(
            problems[0].contains("\"ghost\" could not be started"),
            "{problems:?}"
        );

        let names: Vec<String> = external
            .definitions()
            .iter()
            .map(|d| d["function"]["name"].as_str().unwrap().to_owned())
            .collect();
        assert_eq!(
            names,
            ["note_book__echo", "note_book__add_note", "note_book__sleep"]
        );
        assert!(external.read_only("note_book__echo"));
        assert!(
            !external.read_only("note_book__add_note"),
            "no hint means it may change things"
        );
        assert!(!external.owns("echo") && !external.owns("other__echo"));

        let echoed = external.call("note_book__echo", &json!({"text": "hi"})).await;
        assert_eq!(echoed.data.unwrap()["text"], "echo: hi");
        let noted = external
            .call("note_book__add_note", &json!({"text": "milk"}))
            .await;
        assert!(noted.error.is_none(), "{noted:?}");
        assert_eq!(std::fs::read_to_string(&notes).unwrap(), "milk\n");

        assert!(alive(&alive_file), "the server runs");
        let started = std::time::Instant::now();
        external.stop().await;
        assert!(
            started.elapsed() < Duration::from_secs(1),
            "{:?}",
            started.elapsed()
        );
        assert!(!alive(&alive_file), "the server process is gone");
    }

    // Unix only: on Windows tokio reads a child's pipes on blocking threads, and a blocking task that
    // waits (the fixture sleeps) keeps the paused clock from jumping, so this test would take an hour.
    #[cfg(unix)]
    #[tokio::test]
    async fn a_call_that_takes_too_long_is_an_error_and_not_a_hang() {
        let (external, _) = External::start(&[config("slow", &[])]).await;
        // From here the clock jumps whenever nothing else can happen: the timeout fires at once.
        tokio::time::pause();
        let args = json!({"ms": 3_600_000});
        let result = external.call("slow__sleep", &args).await;
        assert!(result.error.unwrap().contains("did not answer within 60 seconds"));
        external.stop().await;
    }
}
