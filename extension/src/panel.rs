//! The side panel: a chat built for screen readers, designed for listening.
//!
//! The page (`sidepanel.html`) provides three live regions that exist, empty, from load: the
//! transcript (`role=log`, polite: finished messages are appended once), the status line (`role=status`,
//! polite: the connection state, then the agent's state and the progress of its steps; changed only when
//! its text changes), and an alert region (`role=alert`) for what blocks work: errors, a step handed to
//! the user, a withdrawn question, and the outcome of an answered question. A message said in the alert
//! region is also kept in the transcript for sighted helpers, hidden from screen readers there so it is
//! heard once. The user's own commands are shown, never spoken: key echo has already said them, and
//! reading them back would delay the answer.
//!
//! A question is a dialog (`#question-dialog`, `role=dialog`) named by the question's words, which
//! takes the focus itself: the screen reader says the question first; "No" is the next Tab stop, and
//! Enter or Escape in it answers no. It is not in a live region, so it is heard once; only when the
//! panel cannot take the focus (a side panel while the user reads the page) is it said through the
//! alert region too. Answers are short by default ("Pong,
//! 24 ms."), with the detail on `/details`; lists come ten at a time, with `/more`.
//!
//! The panel also runs in a tab and in Waymark's own window (`panel_window`); there, a shortcut's
//! outcome, a question or a step handed to the user brings it forward first, so nothing is said where
//! nobody listens (a background tab's live regions are not heard). The questions live in
//! `panel/question.rs`, the shortcuts in `panel/shortcuts.rs`, and which region says what in
//! `panel/speech.rs`.
//!
//! The panel talks only to the service worker (port `panel`), which relays to the host. If the worker
//! restarts, the port closes and the panel reconnects. Every sentence comes from `wording`.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use gloo_timers::callback::Timeout;
use wasm_bindgen::prelude::*;
use waymark_protocol::{
    Chat, ErrorKind, InteractiveList, PageTool, PanelToWorker, Ping, QuestionKind, RequestId, StopAgent,
    ToExtension, ToHost, ToolResult, ToolStatus, UserTool, WorkerToPanel,
};
use web_sys::{Document, HtmlElement, HtmlInputElement};

use crate::chrome::{self, Port};
use crate::commands::{self, Input};
use crate::wording;

mod events;
mod question;
mod shortcuts;
mod speech;
mod status;

use events::{agent_event, say_faults};
use question::{answer, answered_elsewhere, ask_user, manual_done, manual_step, question_closed};
use shortcuts::{say_shortcuts, say_unset_shortcuts, shortcut};
use speech::{alert, append, clear_alert, say, say_outcome, set_status};

const PING_TIMEOUT_S: u32 = 5;
const TOOL_TIMEOUT_S: u32 = 10;

/// Long enough for a person to hear a question and answer it.
const USER_TOOL_TIMEOUT_S: u32 = 600;
/// Controls per spoken list page: what a listener can hold; `/more` goes on, `/list all` reads them all.
const LIST_PAGE: u32 = 10;
/// Shortcuts whose absence the panel says when it opens: those that answer a question or open Waymark.
const KEY_SHORTCUTS: &[&str] = &["confirm", "reject", "manual-done", "open-window"];

/// What an unanswered request was for.
#[derive(Debug, Clone)]
enum Asked {
    Ping,
    /// A page tool: its answer is worded after the tool.
    Tool(PageTool),
}
const RECONNECT_MS: u32 = 200;

type Listener = Closure<dyn FnMut(JsValue)>;

struct Panel {
    document: Document,
    transcript: HtmlElement,
    status: HtmlElement,
    /// The assertive region, for what blocks work.
    alert: HtmlElement,
    /// The question dialog, shown while a question waits, and the element holding its words.
    question_box: HtmlElement,
    question_text: HtmlElement,
    /// The long form of the last answer, for `/details`.
    detail: Option<String>,
    /// An answer was sent: the host's next word is its outcome, said assertively.
    awaiting_outcome: bool,
    /// The last page dialog said (`WorkerToPanel::PageDialog`): a tool's answer about it is not said
    /// again.
    dialog_said: u32,
    /// The panel is behind the window the user is in, where an answer key was pressed: what blocks
    /// work is said through the system's speech, and it stays behind (`speech`).
    aloud: bool,
    /// The browser has no voice for that (Chromium on Linux without `--enable-speech-dispatcher`): the
    /// panel comes forward instead.
    no_voice: bool,
    /// The agent's line on the status line, paced (`status`).
    status_line: status::StatusLine,
    /// The panel runs in Waymark's own window (`panel_window`): it brings itself forward for what the
    /// user must hear.
    own_window: bool,
    /// A shortcut to act on once connected (Waymark's window opened by a shortcut, `?command=`).
    pending_command: Option<String>,
    /// The question waiting for an answer, if any.
    question: Option<RequestId>,
    /// Its long form (which program an outside client is, the page's full address), for `/details`
    /// while it waits and no later answer has a detail of its own.
    question_detail: Option<String>,
    /// The last question shown that holds a panel's request (the question, the request, its tool): the
    /// view that answers it says the outcome, and the others let the request go.
    asked_for: Option<(RequestId, RequestId, PageTool)>,
    /// The step the agent left to the user (a manual question), waiting for their "done".
    manual: Option<RequestId>,
    /// The last list read out (`/list` or `/find`), to continue it with `/more`.
    last_list: Option<(PageTool, u32, u32)>,
    /// Whether the numbers are shown, as far as this panel knows (for the toggle shortcut).
    overlay_shown: bool,
    /// Chat mode (`/chat` … `/exit`): plain text goes to the agent.
    chat_mode: bool,
    /// Whether the agent is working, as its last status said: Escape then stops it.
    agent_running: bool,
    /// The faults in the host's setup this panel has said (each once, however often it reconnects).
    faults_said: Vec<waymark_protocol::HostFault>,
    /// The outside client whose reading was said last, and when (`events::client_activity`).
    last_read: Option<(String, f64)>,
    input: HtmlInputElement,
    worker: Option<(Port, [Listener; 2])>,
    /// Requests sent and not yet answered: id → (what, sent at, its timeout).
    pending: HashMap<RequestId, (Asked, f64, Timeout)>,
    /// The tab to work on when the panel runs as a tab itself (`sidepanel.html?tabId=N`); otherwise the
    /// worker picks the active tab.
    tab_id: Option<i32>,
    next_id: RequestId,
    reconnect: Option<Timeout>,
}

type Shared = Rc<RefCell<Panel>>;

/// Entry point, called by `sidepanel.js`.
#[wasm_bindgen]
pub fn start_panel() -> Result<(), JsValue> {
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("the side panel has no document")?;
    // The page's own words in the user's language before anything is said or focused.
    crate::page_words::apply(&document, &wording::side_panel());
    let find = |id: &str| -> Result<HtmlElement, JsValue> {
        document
            .get_element_by_id(id)
            .ok_or_else(|| JsValue::from(format!("sidepanel.html lacks #{id}")))?
            .dyn_into::<HtmlElement>()
            .map_err(|_| JsValue::from(format!("#{id} is not an HTML element")))
    };
    let transcript = find("transcript")?;
    let status = find("status")?;
    let input: HtmlInputElement = find("message")?
        .dyn_into()
        .map_err(|_| "#message is not an input")?;
    let form = find("composer")?;
    let alert = find("alert")?;
    let question_box = find("question")?;
    let question_text = find("question-text")?;
    let yes = find("yes")?;
    let no = find("no")?;
    let dialog = find(question::QUESTION_DIALOG)?;

    // Ids start at a random point so two panels never share one (the worker forwards both).
    let next_id = (js_sys::Math::random() * 1e12) as RequestId;
    let params = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .and_then(|q| web_sys::UrlSearchParams::new_with_str(&q).ok());
    let param = |key: &str| params.as_ref().and_then(|p| p.get(key));
    let tab_id = param("tabId").and_then(|t| t.parse().ok());
    let own_window = param(crate::panel_window::WINDOW_PARAM).is_some();
    let panel = Rc::new(RefCell::new(Panel {
        document: document.clone(),
        transcript,
        status,
        alert,
        question_box: question_box.clone(),
        question_text,
        detail: None,
        awaiting_outcome: false,
        dialog_said: 0,
        aloud: false,
        no_voice: false,
        status_line: status::StatusLine::default(),
        own_window,
        pending_command: param("command"),
        question: None,
        question_detail: None,
        asked_for: None,
        manual: None,
        last_list: None,
        overlay_shown: true,
        chat_mode: false,
        agent_running: false,
        faults_said: Vec::new(),
        last_read: None,
        input,
        worker: None,
        pending: HashMap::new(),
        tab_id,
        next_id,
        reconnect: None,
    }));

    let on_submit = {
        let panel = panel.clone();
        Closure::<dyn FnMut(web_sys::Event)>::new(move |event: web_sys::Event| {
            event.prevent_default();
            submit(&panel);
        })
    };
    form.add_event_listener_with_callback("submit", on_submit.as_ref().unchecked_ref())?;
    // The form lives as long as the page.
    on_submit.forget();
    // Escape anywhere in the panel while the agent works stops it (a screen reader passes Escape on in
    // forms mode, where the user is when typing to the agent).
    let on_key = {
        let panel = panel.clone();
        Closure::<dyn FnMut(web_sys::KeyboardEvent)>::new(move |event: web_sys::KeyboardEvent| {
            if event.key() == "Escape" && panel.borrow().agent_running {
                event.prevent_default();
                stop(&panel);
            }
        })
    };
    document.add_event_listener_with_callback("keydown", on_key.as_ref().unchecked_ref())?;
    on_key.forget();
    for (button, yes) in [(yes, true), (no, false)] {
        let panel = panel.clone();
        let on_click = Closure::<dyn FnMut()>::new(move || answer(&panel, yes));
        button.add_event_listener_with_callback("click", on_click.as_ref().unchecked_ref())?;
        on_click.forget();
    }
    // Escape in the question answers no: the safe way out is the quickest. So does Enter on the dialog
    // itself, where the question puts the focus (Enter on a button is that button's click).
    let on_key = {
        let panel = panel.clone();
        Closure::<dyn FnMut(web_sys::KeyboardEvent)>::new(move |event: web_sys::KeyboardEvent| {
            let on_dialog = event
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .is_some_and(|e| e.id() == question::QUESTION_DIALOG);
            if event.key() == "Escape" || (event.key() == "Enter" && on_dialog) {
                event.prevent_default();
                answer(&panel, false);
            }
        })
    };
    question_box.add_event_listener_with_callback("keydown", on_key.as_ref().unchecked_ref())?;
    on_key.forget();
    // Chromium gives a focusable element without a click handler of its own the "click ancestor"
    // action, which Orca 43 says as "clickable" after the question (0.6 s more to hear); a handler of
    // its own, which does nothing, takes that word away.
    let on_click = Closure::<dyn FnMut()>::new(|| {});
    dialog.add_event_listener_with_callback("click", on_click.as_ref().unchecked_ref())?;
    on_click.forget();
    // The system's speech is joined now, not when the first sentence must be said from behind.
    chrome::tts::prepare();

    // The user came to this window or tab: it speaks through its live regions again.
    let on_focus = {
        let panel = panel.clone();
        Closure::<dyn FnMut()>::new(move || panel.borrow_mut().aloud = false)
    };
    if let Some(window) = web_sys::window() {
        window.add_event_listener_with_callback("focus", on_focus.as_ref().unchecked_ref())?;
    }
    on_focus.forget();

    connect_worker(&panel);
    say_unset_shortcuts(&panel);
    Ok(())
}

fn connect_worker(panel: &Shared) {
    let info = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&info, &"name".into(), &"panel".into());
    let port = chrome::connect(&info);
    let on_message = {
        let panel = panel.clone();
        Closure::<dyn FnMut(JsValue)>::new(move |message: JsValue| {
            match chrome::from_js::<WorkerToPanel>(message) {
                Ok(m) => from_worker(&panel, m),
                Err(e) => chrome::log(&format!("unreadable message from the service worker: {e}")),
            }
        })
    };
    let on_disconnect = {
        let panel = panel.clone();
        Closure::<dyn FnMut(JsValue)>::new(move |_port: JsValue| {
            // The service worker was stopped or restarted: connect again (this wakes it).
            let link = panel.borrow_mut().worker.take();
            wasm_bindgen_futures::spawn_local(async move { drop(link) });
            let timer = {
                let panel = panel.clone();
                Timeout::new(RECONNECT_MS, move || connect_worker(&panel))
            };
            panel.borrow_mut().reconnect = Some(timer);
        })
    };
    port.on_message()
        .add_listener(on_message.as_ref().unchecked_ref());
    port.on_disconnect()
        .add_listener(on_disconnect.as_ref().unchecked_ref());
    panel.borrow_mut().worker = Some((port, [on_message, on_disconnect]));
}

fn from_worker(panel: &Shared, message: WorkerToPanel) {
    match message {
        WorkerToPanel::Connection { state } => {
            set_status(panel, &wording::connection_status(&state));
            if let waymark_protocol::ConnectionState::Connected { faults, .. } = &state {
                say_faults(panel, faults);
            }
            // Waymark's window opened by a shortcut acts on it once it can reach the host.
            if matches!(state, waymark_protocol::ConnectionState::Connected { .. }) {
                let command = panel.borrow_mut().pending_command.take();
                if let Some(command) = command {
                    shortcut(panel, &command);
                }
            }
        }
        WorkerToPanel::FromHost { message } => from_host(panel, message),
        WorkerToPanel::NotDelivered { id, reason } => {
            if let Some(id) = id {
                panel.borrow_mut().pending.remove(&id);
            }
            alert(panel, &wording::not_delivered(&reason));
        }
        WorkerToPanel::Shortcut { command } => shortcut(panel, &command),
        WorkerToPanel::Answered { question } => answered_elsewhere(panel, question),
        WorkerToPanel::AnswerRefused { question } => {
            question::let_request_go(panel, question);
            panel.borrow_mut().awaiting_outcome = false;
            alert(panel, &wording::answer_refused());
        }
        WorkerToPanel::PageDialog { result } => {
            if let (Some(id), Some(words)) = (raised_dialog(&result), &result.error) {
                panel.borrow_mut().dialog_said = id;
                alert(panel, words);
            }
        }
        WorkerToPanel::ToolResult { id, result } => {
            let asked = panel.borrow_mut().pending.remove(&id);
            if let Some((asked, _, _timeout)) = asked {
                tool_answered(panel, asked, result);
            }
        }
    }
}

fn tool_answered(panel: &Shared, asked: Asked, result: ToolResult) {
    if result.is(ErrorKind::PageDialog) && raised_dialog(&result) == Some(panel.borrow().dialog_said) {
        // The dialog that stopped this command has just been said, once.
        panel.borrow_mut().awaiting_outcome = false;
        return;
    }
    if result.status == ToolStatus::Error {
        panel.borrow_mut().awaiting_outcome = false;
        let error = result.error.unwrap_or_else(wording::page_reported_error);
        // A stale number comes with the fresh list: read it, so the user can choose again.
        let fresh = result
            .data
            .and_then(|d| serde_json::from_value::<InteractiveList>(d).ok());
        alert(panel, &wording::tool_failed(&error));
        if let Some(mut list) = fresh {
            // Read a page of it, as /list would, and let /more go on.
            list.items.truncate(LIST_PAGE as usize);
            let shown = list.offset + list.items.len() as u32;
            let tool = PageTool::ListInteractives {
                limit: Some(LIST_PAGE),
                offset: None,
                scope: None,
            };
            panel.borrow_mut().last_list = Some((tool, shown, list.total));
            say(panel, &wording::interactive_list(&list));
        }
        return;
    }
    let Asked::Tool(tool) = asked else { return };
    if let Some(list) = result
        .data
        .as_ref()
        .and_then(|d| serde_json::from_value::<InteractiveList>(d.clone()).ok())
    {
        if matches!(tool, PageTool::ListInteractives { .. } | PageTool::Find { .. }) {
            let shown = list.offset + list.items.len() as u32;
            panel.borrow_mut().last_list = Some((tool.clone(), shown, list.total));
        }
    }
    match tool {
        PageTool::OverlayShow => panel.borrow_mut().overlay_shown = true,
        PageTool::OverlayHide => panel.borrow_mut().overlay_shown = false,
        _ => {}
    }
    let text = wording::tool_answer(&tool, result.data.as_ref());
    say_outcome(panel, &text);
}

/// Which page dialog a `page_dialog` result is about, when the tool is the one that raised it.
fn raised_dialog(result: &ToolResult) -> Option<u32> {
    let data = result.data.as_ref()?;
    if data.get("raised")?.as_bool() != Some(true) {
        return None;
    }
    u32::try_from(data.get("dialog")?.get("id")?.as_u64()?).ok()
}

fn from_host(panel: &Shared, message: ToExtension) {
    match message {
        ToExtension::Pong(pong) => {
            let sent = panel.borrow_mut().pending.remove(&pong.id);
            // A pong for another panel's ping (or one that already timed out) is not ours to report.
            if let Some((_, sent_at, _timeout)) = sent {
                let elapsed = chrome::now_ms() - sent_at;
                say(panel, &wording::pong(elapsed));
                panel.borrow_mut().detail = Some(wording::pong_detail(&pong, elapsed));
            }
        }
        ToExtension::Error(error) => {
            let ours = error
                .id
                .is_some_and(|id| panel.borrow_mut().pending.remove(&id).is_some());
            if ours || error.id.is_none() {
                alert(panel, &wording::host_error(&error));
            }
        }
        ToExtension::UserToolResult(done) => {
            let asked = panel.borrow_mut().pending.remove(&done.id);
            if let Some((asked, _, _timeout)) = asked {
                tool_answered(panel, asked, done.result);
            }
        }
        ToExtension::Question(question) if question.kind == QuestionKind::Manual => {
            manual_step(panel, question.id, &question.text);
        }
        ToExtension::Question(question) => ask_user(panel, &question),
        ToExtension::QuestionClosed(closed) => question_closed(panel, closed.id, closed.reason),
        ToExtension::AgentEvent(update) => agent_event(panel, update.event),
        // Someone other than the user acts in their browser: they hear who and what, once.
        ToExtension::Activity(activity) => events::client_activity(panel, &activity),
        // Tool runs are the worker's business; the handshake too. Settings and checks answer the settings
        // page (it shares the worker's `panel` port), not this panel.
        ToExtension::RunTool(_)
        | ToExtension::Welcome(_)
        | ToExtension::Settings(_)
        | ToExtension::DoctorReport(_) => {}
    }
}

/// Tells the host to stop the agent. No timeout and nothing said here: the host answers with the
/// agent's `stopped` event, which says what was done.
fn stop(panel: &Shared) {
    let id = {
        let mut p = panel.borrow_mut();
        p.next_id += 1;
        p.next_id
    };
    post(
        panel,
        id,
        PanelToWorker::ToHost {
            message: ToHost::StopAgent(StopAgent { id }),
        },
    );
}

/// Sends a chat message to the agent. No timeout: the agent may work for minutes, and says when it
/// stops.
fn chat(panel: &Shared, text: String) {
    let (id, tab_id) = {
        let mut p = panel.borrow_mut();
        p.next_id += 1;
        (p.next_id, p.tab_id)
    };
    post(
        panel,
        id,
        PanelToWorker::ToHost {
            message: ToHost::Chat(Chat {
                id,
                tab_id,
                text,
                language: chrome::ui_language(),
            }),
        },
    );
}

fn submit(panel: &Shared) {
    let text = {
        let p = panel.borrow();
        let text = p.input.value();
        p.input.set_value("");
        let _ = p.input.focus();
        text
    };
    let input = commands::parse(&text);
    if input == Input::Empty {
        return;
    }
    // Shown for a sighted helper, never spoken: key echo has said it already.
    append(panel, "user", &wording::you_said(text.trim()), true);
    // What the alert region said belongs to what came before, and so does an answer's outcome still
    // awaited (a client's question has none to come): what follows is this command's, said politely.
    clear_alert(panel);
    panel.borrow_mut().awaiting_outcome = false;
    match input {
        Input::Ping => ping(panel),
        Input::List { all } => tool(
            panel,
            PageTool::ListInteractives {
                limit: Some(if all { u32::MAX } else { LIST_PAGE }),
                offset: None,
                scope: None,
            },
        ),
        Input::Details => {
            let detail = {
                let p = panel.borrow();
                p.detail.clone().or_else(|| p.question_detail.clone())
            };
            say(panel, &detail.unwrap_or_else(wording::no_details));
        }
        Input::Keys => say_shortcuts(panel),
        Input::Window if panel.borrow().own_window => say(panel, &wording::already_window()),
        Input::Window => {
            // Shown, not said: the window taking the focus is what the screen reader says, and a
            // message here would be cut by it.
            append(panel, "waymark", &wording::opening_window(), true);
            wasm_bindgen_futures::spawn_local(async {
                if let Err(e) = crate::panel_window::open(None).await {
                    chrome::log(&format!("could not open Waymark's window: {e}"));
                }
            });
        }
        Input::More => more(panel),
        Input::Overlay(true) => tool(panel, PageTool::OverlayShow),
        Input::Overlay(false) => tool(panel, PageTool::OverlayHide),
        Input::OverlayUsage => say(panel, &wording::overlay_usage()),
        Input::Usage(usage) => say(panel, &wording::usage(usage)),
        Input::Answer(yes) => answer(panel, yes),
        Input::Done => manual_done(panel),
        Input::Stop => stop(panel),
        // "stop", "стоп", … on its own stops the agent, in chat mode or not.
        Input::Chat(text) if commands::is_stop_word(&text) => stop(panel),
        // "done", "готово", … while a step waits for the user: that step is done.
        Input::Chat(text) if panel.borrow().manual.is_some() && commands::is_done_word(&text) => {
            manual_done(panel);
        }
        Input::Act { index, action, text } => tool(panel, PageTool::OverlayAct { index, action, text }),
        Input::Tool(page_tool) => tool(panel, page_tool),
        Input::Help => say(panel, &wording::help()),
        Input::Settings => {
            chrome::open_options_page();
            // Shown, not said, for the same reason: the settings tab takes the focus.
            append(panel, "waymark", &wording::opening_settings(), true);
        }
        Input::Unknown { name, suggestion } => say(panel, &wording::unknown_command(&name, suggestion)),
        Input::ChatMode(on) => {
            panel.borrow_mut().chat_mode = on;
            say(panel, &wording::chat_mode(on));
        }
        Input::Chat(text) if panel.borrow().chat_mode => chat(panel, text),
        Input::Chat(_) => say(panel, &wording::chat_unavailable()),
        Input::Empty => {}
    }
}

fn ping(panel: &Shared) {
    let id = ask(
        panel,
        Asked::Ping,
        PING_TIMEOUT_S,
        wording::ping_timeout(PING_TIMEOUT_S),
    );
    post(
        panel,
        id,
        PanelToWorker::ToHost {
            message: ToHost::Ping(Ping { id }),
        },
    );
}

/// Runs a page tool. Anything that may change the page goes through the host and its policy gate (and
/// may wait for the user's answer); reading tools go straight to the worker.
fn tool(panel: &Shared, tool: PageTool) {
    let tab_id = panel.borrow().tab_id;
    if tool.changes_page() {
        let id = ask(
            panel,
            Asked::Tool(tool.clone()),
            USER_TOOL_TIMEOUT_S,
            wording::tool_timeout(USER_TOOL_TIMEOUT_S),
        );
        post(
            panel,
            id,
            PanelToWorker::ToHost {
                message: ToHost::UserTool(UserTool { id, tab_id, tool }),
            },
        );
    } else {
        let id = ask(
            panel,
            Asked::Tool(tool.clone()),
            TOOL_TIMEOUT_S,
            wording::tool_timeout(TOOL_TIMEOUT_S),
        );
        post(panel, id, PanelToWorker::Tool { id, tab_id, tool });
    }
}

/// `/more`: the next part of the last list or search.
fn more(panel: &Shared) {
    let last = panel.borrow().last_list.clone();
    let next = match last {
        Some((_, shown, total)) if shown >= total => return say(panel, &wording::no_more()),
        Some((PageTool::ListInteractives { limit, scope, .. }, shown, _)) => PageTool::ListInteractives {
            limit,
            offset: Some(shown),
            scope,
        },
        Some((
            PageTool::Find {
                text, role, limit, ..
            },
            shown,
            _,
        )) => PageTool::Find {
            text,
            role,
            limit,
            offset: Some(shown),
        },
        _ => return say(panel, &wording::nothing_to_continue()),
    };
    tool(panel, next);
}

/// Registers a request and the sentence to say if no answer comes in time; returns its id.
fn ask(panel: &Shared, asked: Asked, timeout_s: u32, on_timeout: String) -> RequestId {
    let id = {
        let mut p = panel.borrow_mut();
        p.next_id += 1;
        p.next_id
    };
    register(panel, id, asked, timeout_s, on_timeout);
    id
}

/// Waits for the answer to request `id` (this panel's, or another view's whose question the user
/// answered here), saying `on_timeout` if none comes in time.
fn register(panel: &Shared, id: RequestId, asked: Asked, timeout_s: u32, on_timeout: String) {
    let timeout = {
        let panel = panel.clone();
        Timeout::new(timeout_s * 1000, move || {
            if panel.borrow_mut().pending.remove(&id).is_some() {
                alert(&panel, &on_timeout);
            }
        })
    };
    panel
        .borrow_mut()
        .pending
        .insert(id, (asked, chrome::now_ms(), timeout));
}

/// The user answered, here, a question that holds another view's request `id` for `tool`: its
/// outcome is said here, where they are.
fn adopt(panel: &Shared, id: RequestId, tool: PageTool) {
    if panel.borrow().pending.contains_key(&id) {
        return;
    }
    register(
        panel,
        id,
        Asked::Tool(tool),
        USER_TOOL_TIMEOUT_S,
        wording::tool_timeout(USER_TOOL_TIMEOUT_S),
    );
}

fn post(panel: &Shared, id: RequestId, message: PanelToWorker) {
    let message = chrome::to_js(&message);
    let sent = panel
        .borrow()
        .worker
        .as_ref()
        .is_some_and(|(port, _)| port.post_message(&message).is_ok());
    if !sent {
        panel.borrow_mut().pending.remove(&id);
        alert(panel, &wording::worker_reconnecting());
    }
}
