//! The service worker: owner of the one native-messaging port to the host, and relay between the host
//! and every open side panel.
//!
//! It connects when it starts (the browser starts it at launch because the loader listens for
//! `onStartup`), says hello, and reconnects with backoff (0.25 s doubling to 30 s) whenever the host is
//! missing, refuses us, or goes away. Every change of connection state is sent to every panel; a panel
//! that connects is told the current state first.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use gloo_timers::callback::Timeout;
use wasm_bindgen::prelude::*;
use waymark_protocol::{
    ConnectionState, Disconnection, FileData, FilePart, Hello, PageTool, PanelToWorker, RequestId, StopAgent,
    ToExtension, ToHost, ToolDone, ToolResult, WorkerToPanel, HOST_NAME, PROTOCOL_VERSION,
};

use crate::chrome::{self, Port};

mod disconnection;
mod questions;
use disconnection::{browser_reason, Gone};
use questions::OpenQuestions;

const FIRST_RETRY_MS: u32 = 250;
const MAX_RETRY_MS: u32 = 30_000;
/// A host that does not say `welcome` within this time is treated as broken and restarted.
const WELCOME_TIMEOUT_MS: u32 = 5_000;

type Listener = Closure<dyn FnMut(JsValue)>;

/// The live native port and the closures attached to it (dropped with it).
struct HostLink {
    port: Port,
    _listeners: [Listener; 2],
}

struct PanelLink {
    id: u32,
    kind: PanelKind,
    port: Port,
    _listeners: [Listener; 2],
}

struct Worker {
    host: Option<HostLink>,
    state: ConnectionState,
    /// Increases on every connection attempt; events of older attempts are ignored.
    attempt: u32,
    next_retry_ms: u32,
    retry: Option<Timeout>,
    welcome_timeout: Option<Timeout>,
    panels: Vec<PanelLink>,
    next_panel_id: u32,
    /// The host's questions not yet answered or closed, which every panel shows.
    questions: OpenQuestions,
}

type Shared = Rc<RefCell<Worker>>;

thread_local! {
    static WORKER: Shared = Rc::new(RefCell::new(Worker {
        host: None,
        state: ConnectionState::Connecting,
        attempt: 0,
        next_retry_ms: FIRST_RETRY_MS,
        retry: None,
        welcome_timeout: None,
        panels: Vec::new(),
        next_panel_id: 0,
        questions: OpenQuestions::default(),
    }));
}

fn shared() -> Shared {
    WORKER.with(Rc::clone)
}

thread_local! {
    /// Files of uploads on their way from the host, by request id: the pieces of `run_tool`
    /// messages with a `part`, joined in order until the request itself arrives.
    static STAGED: RefCell<HashMap<RequestId, Vec<FileData>>> = RefCell::new(HashMap::new());
}

/// Keeps one piece of an upload's file until its tool arrives.
fn stage(id: RequestId, part: FilePart) {
    STAGED.with_borrow_mut(|staged| {
        let files = staged.entry(id).or_default();
        let index = part.file as usize;
        while files.len() <= index {
            files.push(FileData {
                name: String::new(),
                mime: String::new(),
                base64: String::new(),
            });
        }
        let file = &mut files[index];
        file.name = part.name;
        file.mime = part.mime;
        file.base64.push_str(&part.base64);
    });
}

/// The files staged for request `id`, whole, in order; none are kept after.
fn take_staged(id: RequestId) -> Vec<FileData> {
    STAGED.with_borrow_mut(|staged| staged.remove(&id).unwrap_or_default())
}

/// Entry point, called once by `sw.js` after the module is instantiated.
#[wasm_bindgen]
pub fn start_service_worker() {
    chrome::report_panics();
    chrome::open_panel_on_action_click();
    wasm_bindgen_futures::spawn_local(crate::guard::clear_left_rules());
    connect_host(&shared());
}

/// Called by `sw.js` when a keyboard shortcut is pressed. `open-window` goes to Waymark's own window
/// (or back to the page from it); any other goes to one panel, which acts on it and says the outcome,
/// bringing itself forward if it is behind. With no panel open, Waymark's window opens and acts on it:
/// a shortcut is never silent.
#[wasm_bindgen]
pub fn on_command(command: String) {
    if command == "stop-agent" {
        // Stopping must not wait for a panel to open: the host hears it at once, and its answer (the
        // agent's `stopped` event) reaches every open panel.
        let worker = shared();
        let sent = {
            let w = worker.borrow();
            match (&w.state, &w.host) {
                (ConnectionState::Connected { .. }, Some(link)) => link
                    .port
                    .post_message(&chrome::to_js(&ToHost::StopAgent(StopAgent { id: 0 })))
                    .is_ok(),
                _ => false,
            }
        };
        if !sent {
            chrome::log("stop shortcut pressed while the host is not connected");
        }
        return;
    }
    if command == "open-window" {
        wasm_bindgen_futures::spawn_local(async {
            if let Err(e) = crate::panel_window::toggle().await {
                chrome::log(&format!("could not open Waymark's window: {e}"));
            }
        });
        return;
    }
    let worker = shared();
    let target = shortcut_target(&worker);
    let message = chrome::to_js(&WorkerToPanel::Shortcut {
        command: command.clone(),
    });
    // A panel closed a moment ago is still listed until the browser reports its port gone (late on a
    // busy machine); the message then fails, and the window opens as if no panel were there.
    match target {
        Some(port) if port.post_message(&message).is_ok() => {}
        _ => wasm_bindgen_futures::spawn_local(async move {
            if let Err(e) = crate::panel_window::open(Some(&command)).await {
                chrome::log(&format!(
                    "shortcut {command}: could not open Waymark's window: {e}"
                ));
            }
        }),
    }
}

/// The panel that answers a shortcut: the newest side panel (or panel tab), which is where the user
/// reads Waymark when one is open; otherwise the newest Waymark window. Only one, so a shortcut is
/// never answered twice.
fn shortcut_target(worker: &Shared) -> Option<Port> {
    let w = worker.borrow();
    [PanelKind::Side, PanelKind::Window].into_iter().find_map(|kind| {
        w.panels
            .iter()
            .rev()
            .find(|p| p.kind == kind)
            .map(|p| p.port.clone())
    })
}

/// The extension's own pages that may hold a `panel` port: the side panel and the settings page.
const PANEL_PAGES: &[&str] = &["sidepanel.html", "settings.html"];

/// Called by `sw.js` for every `chrome.runtime.onConnect`. Only the extension's own side panel and
/// settings page may open a `panel` port: a content script in a page (whose sender is the page) or
/// another extension never can, since the port speaks for the user (answers, commands, settings).
#[wasm_bindgen]
pub fn on_connect(port: Port) {
    if port.name() != "panel" {
        chrome::log(&format!("ignoring a port named {:?}", port.name()));
        return;
    }
    let sender = port.sender();
    let text = |key: &str| {
        js_sys::Reflect::get(&sender, &key.into())
            .ok()
            .and_then(|v| v.as_string())
            .unwrap_or_default()
    };
    let Some(kind) = own_page(&text("id"), &text("url"), &chrome::extension_id()) else {
        chrome::log("refused a panel port from outside the extension's own pages");
        port.disconnect();
        return;
    };
    if kind != PanelKind::Settings {
        // The tab the panel works on is in use from now on (`tabs/in_use.rs`).
        crate::tabs::in_use::panel_opened(&port, &text("url"));
    }
    add_panel(&shared(), port, kind);
}

/// Which of the extension's own pages holds a `panel` port.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PanelKind {
    /// The settings page: it shares the port for its own requests, and takes no shortcuts.
    Settings,
    /// The side panel, or the panel opened as a tab (`?tabId=`).
    Side,
    /// The panel in Waymark's own window (`?window=1`, see `panel_window`).
    Window,
}

/// The kind of panel page a port's sender (`id`, `url`) is, or `None` when it is not one of the
/// extension's own panel pages.
fn own_page(id: &str, url: &str, own_id: &str) -> Option<PanelKind> {
    let rest = url.strip_prefix(&format!("chrome-extension://{own_id}/"))?;
    let (page, query) = rest.split_once('?').unwrap_or((rest, ""));
    let page = page.split('#').next().unwrap_or_default();
    if id != own_id || !PANEL_PAGES.contains(&page) {
        return None;
    }
    let window = query
        .split(['&', '#'])
        .any(|pair| pair == format!("{}=1", crate::panel_window::WINDOW_PARAM));
    Some(match (page, window) {
        ("settings.html", _) => PanelKind::Settings,
        (_, true) => PanelKind::Window,
        _ => PanelKind::Side,
    })
}

/// Called by `sw.js` when a frame of a tab commits a new document (`webNavigation.onCommitted`): the
/// host closes questions about the old one.
#[wasm_bindgen]
pub fn on_committed(details: JsValue) {
    let number = |key: &str| {
        js_sys::Reflect::get(&details, &key.into())
            .ok()
            .and_then(|v| v.as_f64())
    };
    let (Some(tab_id), Some(frame_id)) = (number("tabId"), number("frameId")) else {
        return;
    };
    if tab_id < 0.0 {
        // Prerendered and other tab-less documents.
        return;
    }
    let url = js_sys::Reflect::get(&details, &"url".into())
        .ok()
        .and_then(|u| u.as_string());
    crate::guard::committed(tab_id as i32, frame_id as i32, &url.unwrap_or_default());
    let message = ToHost::PageChanged(waymark_protocol::PageChanged {
        tab_id: tab_id as i32,
        frame_id: frame_id as i32,
    });
    let worker = shared();
    let w = worker.borrow();
    if let (ConnectionState::Connected { .. }, Some(link)) = (&w.state, &w.host) {
        let _ = link.port.post_message(&chrome::to_js(&message));
    }
}

fn connect_host(worker: &Shared) {
    // Request ids start again with a new host: pieces from the old one must not join a new upload.
    STAGED.with_borrow_mut(HashMap::clear);
    let attempt = {
        let mut w = worker.borrow_mut();
        w.attempt += 1;
        w.retry = None;
        w.host = None;
        // A new host has asked nothing yet.
        w.questions.clear();
        w.attempt
    };
    set_state(worker, ConnectionState::Connecting);

    let port = match chrome::connect_native(HOST_NAME) {
        Ok(port) => port,
        Err(e) => {
            host_gone(worker, attempt, Some(format!("{e:?}")).as_deref());
            return;
        }
    };

    let on_message = {
        let worker = worker.clone();
        Closure::<dyn FnMut(JsValue)>::new(move |message: JsValue| {
            match chrome::from_js::<ToExtension>(message) {
                Ok(m) => from_host(&worker, attempt, m),
                Err(e) => chrome::log(&format!("unreadable message from the host: {e}")),
            }
        })
    };
    let on_disconnect = {
        let worker = worker.clone();
        Closure::<dyn FnMut(JsValue)>::new(move |_port: JsValue| {
            // lastError is only readable inside this callback.
            host_gone(&worker, attempt, chrome::last_error_message().as_deref());
        })
    };
    port.on_message()
        .add_listener(on_message.as_ref().unchecked_ref());
    port.on_disconnect()
        .add_listener(on_disconnect.as_ref().unchecked_ref());

    let hello = ToHost::Hello(Hello {
        protocol: PROTOCOL_VERSION,
        extension_version: chrome::extension_version(),
        language: chrome::ui_language(),
    });
    if let Err(e) = port.post_message(&chrome::to_js(&hello)) {
        chrome::log(&format!("could not greet the host: {e:?}"));
    }

    let timeout = {
        let worker = worker.clone();
        Timeout::new(WELCOME_TIMEOUT_MS, move || {
            let stuck = {
                let w = worker.borrow();
                w.attempt == attempt && w.state == ConnectionState::Connecting
            };
            if stuck {
                // Our own disconnect() fires no onDisconnect here, so report it ourselves.
                if let Some(link) = worker.borrow_mut().host.take() {
                    link.port.disconnect();
                }
                went_away(
                    &worker,
                    attempt,
                    ConnectionState::Disconnected {
                        why: Disconnection::Silent {
                            seconds: WELCOME_TIMEOUT_MS / 1_000,
                        },
                        retry_in_ms: 0,
                    },
                );
            }
        })
    };
    let mut w = worker.borrow_mut();
    w.host = Some(HostLink {
        port,
        _listeners: [on_message, on_disconnect],
    });
    w.welcome_timeout = Some(timeout);
}

fn from_host(worker: &Shared, attempt: u32, message: ToExtension) {
    if worker.borrow().attempt != attempt {
        return;
    }
    match message {
        ToExtension::Welcome(welcome) if welcome.protocol == PROTOCOL_VERSION => {
            {
                let mut w = worker.borrow_mut();
                w.next_retry_ms = FIRST_RETRY_MS;
                w.welcome_timeout = None;
            }
            set_state(
                worker,
                ConnectionState::Connected {
                    host_version: welcome.host_version,
                    pid: welcome.pid,
                    faults: welcome.faults,
                },
            );
        }
        ToExtension::Welcome(welcome) => {
            // Speaking past each other is worse than not speaking: drop the link and retry slowly, in
            // case the user reinstalls.
            {
                let mut w = worker.borrow_mut();
                w.welcome_timeout = None;
                if let Some(link) = w.host.take() {
                    link.port.disconnect();
                }
            }
            set_state(
                worker,
                ConnectionState::Incompatible {
                    host_version: welcome.host_version,
                    host_protocol: welcome.protocol,
                },
            );
            schedule_retry(worker, MAX_RETRY_MS);
        }
        ToExtension::RunTool(run) => {
            if let Some(part) = run.part {
                stage(run.id, part);
                return;
            }
            let mut tool = run.tool;
            if let PageTool::Upload { files, .. } = &mut tool {
                files.extend(take_staged(run.id));
            }
            let worker = worker.clone();
            let pin = run.pin;
            wasm_bindgen_futures::spawn_local(async move {
                // The host's own request: its gate judged it, and sends a guard with what it allowed.
                let (result, stopped) = crate::guard::run(run.tab_id, tool, pin, run.guard).await;
                let done = ToHost::ToolResult(ToolDone {
                    id: run.id,
                    result,
                    stopped,
                });
                let w = worker.borrow();
                // The host may have gone meanwhile; the new one never asked.
                if let (true, Some(link)) = (w.attempt == attempt, &w.host) {
                    let _ = link.port.post_message(&chrome::to_js(&done));
                }
            });
        }
        other => {
            worker.borrow_mut().questions.heard(&other);
            broadcast(worker, &WorkerToPanel::FromHost { message: other });
        }
    }
}

/// The host port closed (or never opened): classify why, tell the panels, and try again later.
fn host_gone(worker: &Shared, attempt: u32, browser_said: Option<&str>) {
    let state = match browser_said.map(browser_reason) {
        Some(Gone::NotInstalled) => ConnectionState::NotInstalled { retry_in_ms: 0 },
        Some(Gone::Forbidden) => ConnectionState::Forbidden {
            retry_in_ms: 0,
            extension_id: chrome::extension_id(),
            browser: chrome::browser_brand(),
        },
        Some(Gone::Disconnected(why)) => ConnectionState::Disconnected { why, retry_in_ms: 0 },
        None => ConnectionState::Disconnected {
            why: Disconnection::Closed,
            retry_in_ms: 0,
        },
    };
    went_away(worker, attempt, state);
}

/// The connection of `attempt` ended as `state` says (its `retry_in_ms` is filled in here): forget the
/// link, say why, and try again after the next backoff delay.
fn went_away(worker: &Shared, attempt: u32, mut state: ConnectionState) {
    let delay = {
        let mut w = worker.borrow_mut();
        if w.attempt != attempt {
            return;
        }
        if let Some(link) = w.host.take() {
            // We may be running inside one of its listeners: free it after this turn.
            wasm_bindgen_futures::spawn_local(async move { drop(link) });
        }
        w.welcome_timeout = None;
        let delay = w.next_retry_ms;
        w.next_retry_ms = (delay * 2).min(MAX_RETRY_MS);
        delay
    };
    chrome::log(&format!("host connection lost: {state:?}"));
    match &mut state {
        ConnectionState::NotInstalled { retry_in_ms }
        | ConnectionState::Forbidden { retry_in_ms, .. }
        | ConnectionState::Disconnected { retry_in_ms, .. } => *retry_in_ms = delay,
        _ => {}
    }
    set_state(worker, state);
    schedule_retry(worker, delay);
}

fn schedule_retry(worker: &Shared, delay_ms: u32) {
    let timer = {
        let worker = worker.clone();
        Timeout::new(delay_ms, move || connect_host(&worker))
    };
    worker.borrow_mut().retry = Some(timer);
}

fn set_state(worker: &Shared, state: ConnectionState) {
    worker.borrow_mut().state = state.clone();
    broadcast(worker, &WorkerToPanel::Connection { state });
}

/// Tells every open panel `message` (what the worker heard on its own: a page's dialog).
pub fn tell_panels(message: &WorkerToPanel) {
    broadcast(&shared(), message);
}

fn broadcast(worker: &Shared, message: &WorkerToPanel) {
    let value = chrome::to_js(message);
    for panel in &worker.borrow().panels {
        // A panel closing races with us; its onDisconnect removes it.
        let _ = panel.port.post_message(&value);
    }
}

fn add_panel(worker: &Shared, port: Port, kind: PanelKind) {
    let id = {
        let mut w = worker.borrow_mut();
        w.next_panel_id += 1;
        w.next_panel_id
    };
    let on_message = {
        let worker = worker.clone();
        let port = port.clone();
        Closure::<dyn FnMut(JsValue)>::new(move |message: JsValue| {
            match chrome::from_js::<PanelToWorker>(message) {
                Ok(m) => from_panel(&worker, id, &port, m),
                Err(e) => chrome::log(&format!("unreadable message from a panel: {e}")),
            }
        })
    };
    let on_disconnect = {
        let worker = worker.clone();
        Closure::<dyn FnMut(JsValue)>::new(move |_port: JsValue| {
            // Dropping the link drops these closures; defer so we are not freed while running.
            let worker = worker.clone();
            wasm_bindgen_futures::spawn_local(async move {
                worker.borrow_mut().panels.retain(|p| p.id != id);
            });
        })
    };
    port.on_message()
        .add_listener(on_message.as_ref().unchecked_ref());
    port.on_disconnect()
        .add_listener(on_disconnect.as_ref().unchecked_ref());
    // The questions every other panel shows, first: a window opened by an answer's shortcut acts on it
    // once connected, and by then it knows the question.
    if kind != PanelKind::Settings {
        for question in worker.borrow().questions.all() {
            let message = ToExtension::Question(question.clone());
            let _ = port.post_message(&chrome::to_js(&WorkerToPanel::FromHost { message }));
        }
    }
    let state = worker.borrow().state.clone();
    let _ = port.post_message(&chrome::to_js(&WorkerToPanel::Connection { state }));
    worker.borrow_mut().panels.push(PanelLink {
        id,
        kind,
        port,
        _listeners: [on_message, on_disconnect],
    });
}

fn from_panel(worker: &Shared, panel_id: u32, panel: &Port, message: PanelToWorker) {
    let message = match message {
        PanelToWorker::ToHost { message } => message,
        PanelToWorker::Tool { id, tab_id, tool } => {
            let panel = panel.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let result = run_panel_tool(tab_id, tool).await;
                let _ = panel.post_message(&chrome::to_js(&WorkerToPanel::ToolResult { id, result }));
            });
            return;
        }
    };
    let id = match &message {
        ToHost::Ping(p) => Some(p.id),
        ToHost::UserTool(u) => Some(u.id),
        ToHost::Chat(c) => Some(c.id),
        ToHost::StopAgent(s) => Some(s.id),
        ToHost::GetSettings(r) => Some(r.id),
        ToHost::SaveSettings(r) => Some(r.id),
        ToHost::RunDoctor(r) => Some(r.id),
        ToHost::Answer(answer) => {
            if !questions::answered(worker, panel_id, panel, answer.question) {
                return;
            }
            None
        }
        ToHost::Hello(_) | ToHost::ToolResult(_) | ToHost::PageChanged(_) => {
            // Only the worker greets the host and reports tool results; a panel must not pose as either.
            let reply = WorkerToPanel::NotDelivered {
                id: None,
                reason: crate::wording::workers_message(),
            };
            let _ = panel.post_message(&chrome::to_js(&reply));
            return;
        }
    };
    let delivered = {
        let w = worker.borrow();
        match (&w.state, &w.host) {
            (ConnectionState::Connected { .. }, Some(link)) => {
                link.port.post_message(&chrome::to_js(&message)).is_ok()
            }
            _ => false,
        }
    };
    if !delivered {
        let reason = crate::wording::connection_status(&worker.borrow().state);
        let reply = WorkerToPanel::NotDelivered { id, reason };
        let _ = panel.post_message(&chrome::to_js(&reply));
    }
}

/// Runs a page tool a side panel asked for directly: only tools that do not change the page (the host
/// runs the others, after its policy gate, through `guard::run`).
async fn run_panel_tool(tab_id: Option<i32>, tool: PageTool) -> ToolResult {
    if tool.changes_page() {
        return ToolResult::failed(
            waymark_protocol::ErrorKind::NotAllowed,
            crate::wording::not_through_gate(),
        );
    }
    crate::tabs::run(tab_id, tool, None).await
}

#[cfg(test)]
mod tests {
    use super::{own_page, PanelKind};

    fn is_own_page(id: &str, url: &str, own_id: &str) -> bool {
        own_page(id, url, own_id).is_some()
    }

    #[test]
    fn only_the_extensions_own_panel_pages_may_hold_a_panel_port() {
        let id = "cefdccnmncoeemlgklbddcicjlldkfko";
        let own = |path: &str| format!("chrome-extension://{id}/{path}");
        assert_eq!(own_page(id, &own("sidepanel.html"), id), Some(PanelKind::Side));
        assert_eq!(
            own_page(id, &own("sidepanel.html?tabId=3"), id),
            Some(PanelKind::Side)
        );
        assert_eq!(
            own_page(id, &own("sidepanel.html?window=1&command=reject"), id),
            Some(PanelKind::Window)
        );
        assert_eq!(own_page(id, &own("settings.html"), id), Some(PanelKind::Settings));
        // A content script's port carries the page's address; another extension its own id.
        assert!(!is_own_page(id, "https://evil.example/sidepanel.html", id));
        assert!(!is_own_page(
            "abcdefghijklmnopabcdefghijklmnop",
            &own("sidepanel.html"),
            id
        ));
        assert!(!is_own_page(id, &own("pkg/extension.js"), id));
        assert!(!is_own_page(id, "", id));
    }
}
