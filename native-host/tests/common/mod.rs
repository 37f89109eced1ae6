//! What the integration tests share: the real `waymark-host` binary in native-messaging mode, driven
//! through its framing by a test that plays the extension against a scripted model, and the frames
//! themselves, read and written with the host's own codec ([`waymark_host::framing`]) so the tests and
//! the host cannot disagree about them.
#![allow(clippy::unwrap_used, dead_code)] // test code; not every test file uses every helper

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use bytes::{Bytes, BytesMut};
use fake_llm::FakeLlm;
use futures::StreamExt as _;
use serde_json::{json, Value};
use tokio::io::AsyncWriteExt;
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio_util::codec::{Decoder as _, Encoder as _, FramedRead};
use waymark_host::framing::{Frame, NativeMessagingCodec};
use waymark_protocol::{EXTENSION_ID, MAX_MESSAGE_FROM_BROWSER, MAX_MESSAGE_TO_BROWSER};

// The host's own test helpers for paths (test code, so not part of the library the tests link).
#[path = "../../src/test_paths.rs"]
pub mod test_paths;

/// The origin the browser passes when Waymark's own extension starts the host.
pub fn origin() -> String {
    format!("chrome-extension://{EXTENSION_ID}/")
}

/// The codec as the browser's side uses it: it reads what the host writes and writes what the host
/// reads, each up to the limit of its direction.
pub fn browser_codec() -> NativeMessagingCodec {
    NativeMessagingCodec::new(MAX_MESSAGE_TO_BROWSER, MAX_MESSAGE_FROM_BROWSER)
}

/// `message` as one frame, as the browser sends it.
pub fn frame(message: &Value) -> Vec<u8> {
    frame_bytes(message.to_string().into_bytes())
}

/// Any bytes (valid JSON or not) as one frame.
pub fn frame_bytes(body: Vec<u8>) -> Vec<u8> {
    let mut out = BytesMut::new();
    browser_codec().encode(Bytes::from(body), &mut out).unwrap();
    out.to_vec()
}

/// Every frame in `bytes` (what the host wrote), as JSON.
pub fn read_frames(bytes: &[u8]) -> Vec<Value> {
    let mut codec = browser_codec();
    let mut bytes = BytesMut::from(bytes);
    let mut out = Vec::new();
    while let Some(frame) = codec.decode_eof(&mut bytes).unwrap() {
        out.push(message_of(frame));
    }
    out
}

fn message_of(frame: Frame) -> Value {
    match frame {
        Frame::Message(body) => serde_json::from_slice(&body).unwrap(),
        Frame::Oversized { len } => panic!("the host wrote a frame of {len} bytes, over the limit"),
    }
}

/// The program `cargo test` builds from `examples/<name>.rs`, next to the host binary.
fn example(name: &str) -> PathBuf {
    let host = Path::new(env!("CARGO_BIN_EXE_waymark-host"));
    host.parent()
        .unwrap()
        .join("examples")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX))
}

/// The MCP server fixture (`examples/mcp_fixture.rs`).
pub fn mcp_fixture() -> PathBuf {
    example("mcp_fixture")
}

/// The stand-in client program (`examples/mcp_launcher.rs`): what it starts has it, not the test, as
/// its parent.
pub fn mcp_launcher() -> PathBuf {
    example("mcp_launcher")
}

/// Points a `waymark-host` command (or whatever starts one) at `state_dir`, with its config folder in
/// `state_dir/config` so no config file of the machine's user is read; in the C locale, so what it
/// says in the terminal's language is English whatever the machine's; piped stdin and stdout, no
/// stderr, killed with the test.
pub fn isolated<'a>(command: &'a mut Command, state_dir: &Path) -> &'a mut Command {
    command
        .env("WAYMARK_LOG", "warn")
        .env("LC_ALL", "C")
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
    /// The host's stdout, framed: bytes of a frame not yet whole stay in here, so a [`Host::recv`]
    /// dropped halfway (in a `select!` or a timeout) loses nothing.
    stdout: FramedRead<ChildStdout, NativeMessagingCodec>,
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
        Host::start_logging(env, state_dir, max_tool_steps, page, Stdio::null())
    }

    /// [`Host::start_with`], with the host's log (its stderr) going to `stderr`.
    pub fn start_logging(
        env: &[(&str, &str)],
        state_dir: &Path,
        max_tool_steps: u32,
        page: fn(&Value) -> Value,
        stderr: Stdio,
    ) -> Host {
        let mut child = isolated(&mut Command::new(env!("CARGO_BIN_EXE_waymark-host")), state_dir)
            .arg(origin())
            .envs(env.iter().copied())
            .env("WAYMARK_MAX_TOOL_STEPS", max_tool_steps.to_string())
            .stderr(stderr)
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = FramedRead::new(child.stdout.take().unwrap(), browser_codec());
        Host {
            child,
            stdin,
            stdout,
            ran: Vec::new(),
            page,
        }
    }

    pub async fn send(&mut self, message: Value) {
        self.stdin.write_all(&frame(&message)).await.unwrap();
        self.stdin.flush().await.unwrap();
    }

    /// The host's next message. Cancel-safe: see [`Host::stdout`].
    pub async fn recv(&mut self) -> Value {
        let frame = self
            .stdout
            .next()
            .await
            .expect("the host closed its stdout")
            .unwrap();
        message_of(frame)
    }

    /// Answers a `run_tool` from the scripted page; says whether `message` was one.
    async fn answer_tool(&mut self, message: &Value) -> bool {
        if message["type"] != "run_tool" {
            return false;
        }
        let result = (self.page)(&message["tool"]);
        self.send(json!({"type": "tool_result", "id": message["id"], "result": result}))
            .await;
        true
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
                let tool = &message["tool"];
                let gates_own = matches!(tool["tool"].as_str(), Some("preview" | "find_banners"))
                    || (tool["tool"] == "list_interactives" && tool["limit"] == 1);
                if message["type"] == "run_tool" && !gates_own {
                    self.ran.push(tool.clone());
                }
                if self.answer_tool(&message).await {
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

    /// Plays the extension until the model has had `n` requests. Cancel-safe: a message the host is
    /// halfway through writing when the model's request arrives stays for the next [`Host::recv`], and
    /// one read whole is answered before this returns.
    pub async fn until_requests(&mut self, llm: &FakeLlm, n: usize) {
        let run = async {
            loop {
                tokio::select! {
                    biased;
                    () = llm.until_requests(n) => break,
                    message = self.recv() => {
                        self.answer_tool(&message).await;
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
