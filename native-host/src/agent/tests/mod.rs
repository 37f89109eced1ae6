//! The agent driven by a scripted model (`fake_llm`) and a fake extension that answers page tools from a
//! scripted page: the harness here, the tests by room (`run`, `resume`, `observe`, `record`, `prompt`).

mod observe;
mod prompt;
mod record;
mod resume;
mod run;
mod russian;
mod stop;

use std::time::Duration;

use fake_llm::{FakeLlm, Script, Step};
use serde_json::json;
use waymark_protocol::{
    BannerButton, Effect, ElementInfo, ErrorKind, Interactive, InteractiveList, PageTool, Pin, ToolDone,
    ToolResult,
};

use super::observe::LOOK_AGAIN_LIMIT;
use super::run::{MAX_NOTE_TURNS, SCREENSHOT_TOOL};
use super::*;
use crate::browser::Browser;
use crate::config::Config;
use crate::gate::Gate;
use crate::llm::Backoff;
use crate::session::{PendingKind, Session, Stop, Store};
use serde_json::Value;
use tokio::sync::mpsc;
use waymark_protocol::QuestionKind;
use waymark_protocol::{AgentEvent, Chat, ToExtension};

/// A page: its controls (number, role, name) and the start of its text.
struct Page {
    controls: Vec<(u32, &'static str, &'static str)>,
    snippet: &'static str,
    /// Banners still open, closed one per `close_banners` call (by the name of the button pressed).
    banners: std::cell::RefCell<Vec<&'static str>>,
}

fn shop() -> Page {
    Page {
        controls: vec![
            (1, "button", "Save draft"),
            (2, "button", "Pay €84.97"),
            (3, "link", "Help"),
        ],
        snippet: "Your basket: one kettle.",
        banners: Default::default(),
    }
}

fn answer(page: &Page, tool: &PageTool) -> ToolResult {
    let url = "https://shop.example/checkout";
    match tool {
        PageTool::ListInteractives { .. } => {
            let items: Vec<Interactive> = page
                .controls
                .iter()
                .map(|(index, role, name)| Interactive {
                    index: *index,
                    role: (*role).into(),
                    name: (*name).into(),
                    value: None,
                    states: vec![],
                    context: None,
                })
                .collect();
            let list = InteractiveList {
                url: url.into(),
                title: "Checkout".into(),
                total: u32::try_from(items.len()).unwrap(),
                offset: 0,
                items,
            };
            ToolResult::ok(serde_json::to_value(list).unwrap())
        }
        PageTool::Preview { action } => {
            let index = match action.as_ref() {
                PageTool::OverlayAct { index, .. }
                | PageTool::ActByIndex { index, .. }
                | PageTool::Upload { index, .. }
                | PageTool::ClickAndWaitDownload { index, .. }
                | PageTool::Press {
                    index: Some(index), ..
                } => Some(*index),
                _ => None,
            };
            let target = match index {
                Some(index) => match page.controls.iter().find(|c| c.0 == index) {
                    Some((index, role, name)) => Some(info(*index, role, name, url)),
                    None => return ToolResult::error(format!("There is no number {index}.")),
                },
                None => None,
            };
            let effect = Effect {
                pin: Pin {
                    tab: 7,
                    frame: 0,
                    document: "doc".into(),
                    element: index.map(|i| u64::from(i) + 100),
                },
                page_url: url.into(),
                site_name: None,
                focused: index.is_none() && target.is_some(),
                target,
                option: None,
                linked: false,
                resends: None,
                keys: None,
            };
            ToolResult::ok(serde_json::to_value(effect).unwrap())
        }
        PageTool::Extract => ToolResult::ok(json!({
            "title": "Checkout", "url": url, "headings": [], "snippet": page.snippet
        })),
        // A control named after a failure kind ("timed_out") fails that way, as the extension would.
        PageTool::OverlayAct { index, .. } => {
            let named = page.controls.iter().find(|c| c.0 == *index).map(|c| c.2);
            match named.and_then(|n| serde_json::from_value::<ErrorKind>(json!(n)).ok()) {
                Some(kind) => ToolResult::failed(kind, format!("it failed: {kind:?}")),
                None => ToolResult::ok(json!({"done": "click", "index": index})),
            }
        }
        // One banner at a time, as a page shows them: the gate judges its button, then presses it.
        PageTool::FindBanners => {
            let banners: Vec<BannerButton> = page
                .banners
                .borrow()
                .last()
                .map(|name| BannerButton {
                    pin: Pin {
                        tab: 7,
                        frame: 0,
                        document: "doc".into(),
                        element: Some(900),
                    },
                    kind: "cookie".into(),
                    choice: "reject".into(),
                    target: info(900, "button", name, url),
                })
                .into_iter()
                .collect();
            ToolResult::ok(json!({ "banners": banners }))
        }
        PageTool::PressBanners { .. } => {
            let closed: Vec<&str> = page.banners.borrow_mut().pop().into_iter().collect();
            ToolResult::ok(json!({"closed": closed, "pressed": closed.len()}))
        }
        PageTool::Screenshot => ToolResult::ok(json!({
            "mime": "image/jpeg", "base64": "/9j/SCREEN", "width": 1200, "height": 800
        })),
        _ => ToolResult::ok(json!({})),
    }
}

/// A control as the fake extension describes it to the gate.
fn info(index: u32, role: &str, name: &str, url: &str) -> ElementInfo {
    let field = role == "textbox";
    ElementInfo {
        index: Some(index),
        role: role.into(),
        name: name.into(),
        tag: if field { "input" } else { "button" }.into(),
        input_type: field.then(|| {
            if name.contains("Password") {
                "password"
            } else {
                "email"
            }
            .to_string()
        }),
        editable: field,
        url: url.into(),
        ..Default::default()
    }
}

/// What the fake extension saw: every message other than `run_tool`, and the tools that ran with their
/// pins (other than the gate's previews and its own renumbering after banners, `limit: 1`).
struct Seen {
    messages: Vec<ToExtension>,
    ran: Vec<PageTool>,
    pins: Vec<Option<Pin>>,
}

impl Seen {
    fn events(&self) -> Vec<AgentEvent> {
        self.messages
            .iter()
            .filter_map(|m| match m {
                ToExtension::AgentEvent(update) => Some(update.event.clone()),
                _ => None,
            })
            .collect()
    }

    fn kinds(&self) -> Vec<String> {
        self.events()
            .iter()
            .map(|e| match e {
                AgentEvent::Status { state } => format!("status:{state:?}"),
                AgentEvent::Progress { .. } => "progress".into(),
                AgentEvent::Tool { name, ok, .. } => format!("tool:{name}:{ok}"),
                AgentEvent::Message { .. } => "message".into(),
                AgentEvent::Error { .. } => "error".into(),
                AgentEvent::Stopped { .. } => "stopped".into(),
                AgentEvent::NotSaved { .. } => "not_saved".into(),
            })
            .collect()
    }

    fn last_message(&self) -> String {
        self.events()
            .iter()
            .rev()
            .find_map(|e| match e {
                AgentEvent::Message { text } | AgentEvent::Error { text } => Some(text.clone()),
                _ => None,
            })
            .unwrap_or_default()
    }
}

fn settings(base_url: &str, max_tool_steps: u32, state_dir: &std::path::Path, images: bool) -> Setup {
    let base_url = base_url.to_owned();
    let state_dir = state_dir.to_string_lossy().into_owned();
    Arc::new(move |_: &waymark_i18n::Words| {
        let env = |name: &str| match name {
            "WAYMARK_LLM_BASE_URL" => Some(base_url.clone()),
            "WAYMARK_LLM_MODEL" => Some("test-model".to_owned()),
            "WAYMARK_STATE_DIR" => Some(state_dir.clone()),
            "WAYMARK_LLM_IMAGES" => Some(images.to_string()),
            _ => None,
        };
        let config = Config::load_from(&env, None).map_err(|e| e.to_string())?;
        let llm = LlmClient::new(&config)
            .map_err(|e| e.to_string())?
            .with_timeout(Duration::from_secs(5))
            .with_backoff(Backoff {
                delays: vec![Duration::from_millis(10)],
                max_retry_after: Duration::from_millis(10),
            });
        Ok(Settings {
            llm,
            max_tool_steps,
            state_dir: config.state_dir,
            mcp_servers: config.mcp_servers,
            banner_budget_ms: config.banner_budget_ms,
        })
    })
}

/// An agent with a scripted model and a fake extension serving `page`, keeping its state in `dir`.
struct Harness {
    dir: Arc<tempfile::TempDir>,
    llm: FakeLlm,
    agent: Arc<Agent>,
    stop: tokio::sync::oneshot::Sender<()>,
    extension: tokio::task::JoinHandle<Seen>,
}

impl Harness {
    async fn start(page: Page, steps: Vec<Step>, max_tool_steps: u32) -> Harness {
        let dir = Arc::new(tempfile::tempdir().unwrap());
        Harness::start_in(dir, page, steps, max_tool_steps).await
    }

    /// A harness whose model takes images.
    async fn start_seeing(page: Page, steps: Vec<Step>) -> Harness {
        let dir = Arc::new(tempfile::tempdir().unwrap());
        Harness::start_with(dir, page, steps, 10, true, "en").await
    }

    /// A harness whose browser speaks `language`.
    async fn start_speaking(language: &str, page: Page, steps: Vec<Step>, max_tool_steps: u32) -> Harness {
        let dir = Arc::new(tempfile::tempdir().unwrap());
        Harness::start_with(dir, page, steps, max_tool_steps, false, language).await
    }

    /// A harness on an existing state directory: a host started again.
    async fn start_in(
        dir: Arc<tempfile::TempDir>,
        page: Page,
        steps: Vec<Step>,
        max_tool_steps: u32,
    ) -> Harness {
        Harness::start_with(dir, page, steps, max_tool_steps, false, "en").await
    }

    async fn start_with(
        dir: Arc<tempfile::TempDir>,
        page: Page,
        steps: Vec<Step>,
        max_tool_steps: u32,
        images: bool,
        language: &str,
    ) -> Harness {
        let llm = FakeLlm::start(Script::new(steps)).await.unwrap();
        let (outbox, mut from_host) = mpsc::channel::<ToExtension>(64);
        let browser = Browser::new(outbox.clone());
        let language = crate::language::Language::of(language);
        let gate = Gate::speaking(browser.clone(), outbox.clone(), language);
        let setup = settings(llm.base_url(), max_tool_steps, dir.path(), images);
        let agent = Agent::new(gate, outbox, setup);
        let (stop, mut stopped) = tokio::sync::oneshot::channel::<()>();
        let extension = tokio::spawn(async move {
            let mut seen = Seen {
                messages: Vec::new(),
                ran: Vec::new(),
                pins: Vec::new(),
            };
            loop {
                let message = tokio::select! {
                    // Everything already sent is read before the stop is noticed.
                    biased;
                    m = from_host.recv() => m,
                    _ = &mut stopped => None,
                };
                let Some(message) = message else { break };
                match message {
                    ToExtension::RunTool(run) => {
                        // Listings are counted, the gate's own included: one per step.
                        let gates_own = matches!(run.tool, PageTool::Preview { .. });
                        if !gates_own {
                            seen.ran.push(run.tool.clone());
                            seen.pins.push(run.pin.clone());
                        }
                        let result = answer(&page, &run.tool);
                        browser.resolve(ToolDone {
                            id: run.id,
                            result,
                            stopped: Vec::new(),
                        });
                    }
                    other => seen.messages.push(other),
                }
            }
            seen
        });
        Harness {
            dir,
            llm,
            agent,
            stop,
            extension,
        }
    }

    async fn chat(&self, text: &str) {
        self.agent
            .clone()
            .chat(Chat {
                id: 1,
                tab_id: Some(7),
                text: text.into(),
                language: None,
            })
            .await;
    }

    /// Stops the fake extension; returns what it saw and the model's requests.
    async fn finish(self) -> (Seen, Vec<Value>) {
        let _ = self.stop.send(());
        let seen = self.extension.await.unwrap();
        (seen, self.llm.requests())
    }
}

/// Runs one chat against `steps` on `page`; returns what the extension saw and the model's requests.
async fn run_chat(page: Page, steps: Vec<Step>, max_tool_steps: u32, text: &str) -> (Seen, Vec<Value>) {
    let harness = Harness::start(page, steps, max_tool_steps).await;
    harness.chat(text).await;
    harness.finish().await
}

fn click(index: u32) -> Step {
    Step::tool_call("browser_overlay_act", json!({"index": index, "action": "click"}))
}

fn list() -> Step {
    Step::tool_call("browser_list_interactives", json!({}))
}

fn done(reason: &str) -> Step {
    Step::tool_call(tools::DONE, json!({ "reason": reason }))
}

fn login() -> Page {
    Page {
        controls: vec![
            (1, "textbox", "Email"),
            (2, "textbox", "Password"),
            (3, "button", "Log in"),
        ],
        snippet: "Log in to see your orders.",
        banners: Default::default(),
    }
}

fn type_into(index: u32, text: &str) -> Step {
    Step::tool_call(
        "browser_overlay_act",
        json!({"index": index, "action": "type", "text": text}),
    )
}

fn plan(steps: &[&str], facts: &[&str]) -> Step {
    Step::tool_call(tools::PLAN, json!({"steps": steps, "current": 1, "facts": facts}))
}

impl Harness {
    async fn answer(&self, question: u64, yes: bool) {
        self.agent
            .clone()
            .answer(waymark_protocol::Answer { question, yes })
            .await;
    }

    fn session(&self) -> Session {
        Store::new(self.dir.path()).load().session
    }

    fn log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("logs/steps.jsonl")).unwrap_or_default()
    }
}

impl Seen {
    fn said(&self) -> Vec<String> {
        self.events()
            .into_iter()
            .filter_map(|e| match e {
                AgentEvent::Message { text } => Some(text),
                _ => None,
            })
            .collect()
    }

    fn questions(&self) -> Vec<waymark_protocol::Question> {
        self.messages
            .iter()
            .filter_map(|m| match m {
                ToExtension::Question(q) => Some(q.clone()),
                _ => None,
            })
            .collect()
    }
}

/// The content of the last message of a request to the model.
fn last_content(request: &Value) -> String {
    let messages = request["messages"].as_array().unwrap();
    messages.last().unwrap()["content"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

fn system_prompt(request: &Value) -> String {
    request["messages"][0]["content"].as_str().unwrap().to_string()
}
