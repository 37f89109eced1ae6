//! What the integration tests share: the real `waymark-host` binary in native-messaging mode, driven
//! through its framing by a test that plays the extension against a scripted model.
#![allow(clippy::unwrap_used, dead_code)] // test code; not every test file uses every helper

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use fake_llm::FakeLlm;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

pub const ORIGIN: &str = "chrome-extension://cefdccnmncoeemlgklbddcicjlldkfko/";

/// The MCP server fixture `cargo test` builds from `examples/mcp_fixture.rs`, next to the host binary.
pub fn mcp_fixture() -> PathBuf {
    let host = Path::new(env!("CARGO_BIN_EXE_waymark-host"));
    host.parent()
        .unwrap()
        .join("examples")
        .join(format!("mcp_fixture{}", std::env::consts::EXE_SUFFIX))
}

/// Points a `waymark-host` command (or whatever starts one) at `state_dir`, with its config folder in
/// `state_dir/config` so no config file of the machine's user is read; piped stdin and stdout, no
/// stderr, killed with the test.
pub fn isolated<'a>(command: &'a mut Command, state_dir: &Path) -> &'a mut Command {
    command
        .env("WAYMARK_LOG", "warn")
        .env("WAYMARK_STATE_DIR", state_dir)
        .env("XDG_CONFIG_HOME", state_dir.join("config"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
}

/// One running host.
pub struct Host {
    pub child: Child,
    pub stdin: ChildStdin,
    stdout: ChildStdout,
    /// Every tool the host asked the "extension" to run, other than the gate's own looks (`preview`,
    /// `find_banners`, and its renumbering after banners, `limit: 1`).
    pub ran: Vec<Value>,
    /// The scripted page: the result of each tool the host runs.
    page: fn(&Value) -> Value,
}

impl Host {
    /// Starts the host binary against the scripted model; its config folder is `state_dir/config`.
    pub fn start(llm: &FakeLlm, state_dir: &Path, max_tool_steps: u32, page: fn(&Value) -> Value) -> Host {
        let env = [
            ("WAYMARK_LLM_BASE_URL", llm.base_url()),
            ("WAYMARK_LLM_MODEL", "test-model"),
        ];
        Host::start_with(&env, state_dir, max_tool_steps, page)
    }

    /// Starts the host binary with these `WAYMARK_*` settings (a real server's address, model and
    /// timeout, say) in its environment.
    pub fn start_with(
        env: &[(&str, &str)],
        state_dir: &Path,
        max_tool_steps: u32,
        page: fn(&Value) -> Value,
    ) -> Host {
        let mut child = isolated(&mut Command::new(env!("CARGO_BIN_EXE_waymark-host")), state_dir)
            .arg(ORIGIN)
            .envs(env.iter().copied())
            .env("WAYMARK_MAX_TOOL_STEPS", max_tool_steps.to_string())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        Host {
            child,
            stdin,
            stdout,
            ran: Vec::new(),
            page,
        }
    }

    pub async fn send(&mut self, message: Value) {
        let body = message.to_string().into_bytes();
        let mut frame = u32::try_from(body.len()).unwrap().to_ne_bytes().to_vec();
        frame.extend(body);
        self.stdin.write_all(&frame).await.unwrap();
        self.stdin.flush().await.unwrap();
    }

    pub async fn recv(&mut self) -> Value {
        let mut len = [0_u8; 4];
        self.stdout.read_exact(&mut len).await.unwrap();
        let mut body = vec![0_u8; u32::from_ne_bytes(len) as usize];
        self.stdout.read_exact(&mut body).await.unwrap();
        serde_json::from_slice(&body).unwrap()
    }

    /// Plays the extension (answering `run_tool` from the scripted page) until the agent stops working;
    /// returns every other message.
    pub async fn until_stopped(&mut self) -> Vec<Value> {
        self.until_stopped_within(Duration::from_secs(30)).await
    }

    /// [`Host::until_stopped`], for an agent that may take up to `limit` (a real model).
    pub async fn until_stopped_within(&mut self, limit: Duration) -> Vec<Value> {
        let mut seen = Vec::new();
        let run = async {
            loop {
                let message = self.recv().await;
                if message["type"] == "run_tool" {
                    let tool = &message["tool"];
                    let gates_own = matches!(tool["tool"].as_str(), Some("preview" | "find_banners"))
                        || (tool["tool"] == "list_interactives" && tool["limit"] == 1);
                    if !gates_own {
                        self.ran.push(tool.clone());
                    }
                    let result = (self.page)(&message["tool"]);
                    self.send(json!({"type": "tool_result", "id": message["id"], "result": result}))
                        .await;
                    continue;
                }
                let state = message["event"]["state"].as_str().map(str::to_owned);
                seen.push(message);
                if state.is_some_and(|s| s != "running") {
                    break;
                }
            }
        };
        tokio::time::timeout(limit, run)
            .await
            .unwrap_or_else(|_| panic!("the agent did not stop within {} s", limit.as_secs()));
        seen
    }

    /// Plays the extension until the model has had `n` requests.
    pub async fn until_requests(&mut self, llm: &FakeLlm, n: usize) {
        let run = async {
            while llm.requests().len() < n {
                let next = tokio::time::timeout(Duration::from_millis(50), self.recv()).await;
                if let Ok(message) = next {
                    if message["type"] == "run_tool" {
                        let result = (self.page)(&message["tool"]);
                        self.send(json!({"type": "tool_result", "id": message["id"], "result": result}))
                            .await;
                    }
                }
            }
        };
        tokio::time::timeout(Duration::from_secs(30), run)
            .await
            .expect("the model was not asked in time");
    }

    pub async fn chat(&mut self, id: u64, text: &str) -> Vec<Value> {
        self.send(json!({"type": "chat", "id": id, "tab_id": 7, "text": text}))
            .await;
        self.until_stopped().await
    }
}
