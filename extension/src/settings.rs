//! The settings page (`settings.html`, also the manifest's options page): the LLM endpoint, model, API
//! key, step limit and banner budget, read from and saved into the host's config file, and the doctor's
//! checks.
//!
//! It talks to the host like the side panel does, through the service worker's `panel` port. What it
//! must not do: keep the API key anywhere. The key typed here goes to the host in one `save_settings`
//! and the field is cleared; the host answers only whether a key is set. Settings an environment
//! variable fixes are shown read-only with the variable's name, and never sent.
//!
//! Announcements: one polite status line ("Saved.", "Checks done: …"); a refused save moves the focus
//! to the first field at fault, whose error is linked with `aria-describedby`, so it is heard once. A
//! config file that does not parse is said when the page loads, with the defaults in the fields; saving
//! replaces it, and the status line says where the host kept the old file. Designed for listening: the
//! page opens with the focus in its first field (a screen reader reads no whole page first); where the
//! config file is and which settings the environment fixes, by which variable, are said on request,
//! under "Where these settings come from", while a fixed field's own hint only says that it is fixed.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use web_sys::{Document, HtmlElement, HtmlInputElement};

use waymark_protocol::{
    CheckStatus, ConnectionState, DoctorReport, GetSettings, PanelToWorker, RequestId, RunDoctor,
    SaveSettings, SettingsReply, SettingsView, ToExtension, ToHost, WorkerToPanel,
};

use crate::chrome;
use crate::wording;

/// The fields, by their config key (also the input's id).
const FIELDS: [&str; 5] = [
    "llm_base_url",
    "llm_model",
    "llm_api_key",
    "max_tool_steps",
    "banner_budget_ms",
];

struct Field {
    input: HtmlInputElement,
    hint: HtmlElement,
    /// The hint's text from the page, restored when the environment no longer fixes the field.
    base_hint: String,
    error: HtmlElement,
}

struct Page {
    document: Document,
    status: HtmlElement,
    source: HtmlElement,
    /// Under "Where these settings come from": one line per setting the environment fixes.
    overrides: HtmlElement,
    fields: BTreeMap<&'static str, Field>,
    clear_key: HtmlInputElement,
    checks: HtmlElement,
    checks_empty: HtmlElement,
    port: Option<chrome::Port>,
    /// Keeps the port's listeners alive as long as the page.
    _listeners: Vec<Closure<dyn FnMut(JsValue)>>,
    next_id: RequestId,
    awaiting_settings: Option<RequestId>,
    /// The settings awaited answer a save (else a load): a problem then means "not saved".
    saving: bool,
    awaiting_doctor: Option<RequestId>,
    /// Whether the settings were asked for on this connection already.
    loaded: bool,
    connected: bool,
}

type Shared = Rc<RefCell<Page>>;

/// Entry point, called by `settings.js`.
#[wasm_bindgen]
pub fn start_settings() -> Result<(), JsValue> {
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("the settings page has no document")?;
    // The page's own words first: the fields' hints are read from it below.
    crate::page_words::apply(&document, &wording::settings_page());
    let find = |id: &str| -> Result<HtmlElement, JsValue> {
        document
            .get_element_by_id(id)
            .ok_or_else(|| JsValue::from(format!("settings.html lacks #{id}")))?
            .dyn_into::<HtmlElement>()
            .map_err(|_| JsValue::from(format!("#{id} is not an HTML element")))
    };
    let input = |id: &str| -> Result<HtmlInputElement, JsValue> {
        find(id)?
            .dyn_into::<HtmlInputElement>()
            .map_err(|_| JsValue::from(format!("#{id} is not an input")))
    };
    let mut fields = BTreeMap::new();
    for key in FIELDS {
        let hint = find(&format!("{key}-hint"))?;
        fields.insert(
            key,
            Field {
                input: input(key)?,
                base_hint: hint.text_content().unwrap_or_default(),
                hint,
                error: find(&format!("{key}-error"))?,
            },
        );
    }
    let form = find("settings")?;
    let doctor = find("run-doctor")?;
    let page = Rc::new(RefCell::new(Page {
        status: find("status")?,
        source: find("source")?,
        overrides: find("overrides")?,
        fields,
        clear_key: input("clear_key")?,
        checks: find("checks")?,
        checks_empty: find("checks-empty")?,
        document,
        port: None,
        _listeners: Vec::new(),
        next_id: (js_sys::Math::random() * 1e12) as RequestId,
        awaiting_settings: None,
        saving: false,
        awaiting_doctor: None,
        loaded: false,
        connected: false,
    }));

    let on_submit = {
        let page = page.clone();
        Closure::<dyn FnMut(web_sys::Event)>::new(move |event: web_sys::Event| {
            event.prevent_default();
            save(&page);
        })
    };
    form.add_event_listener_with_callback("submit", on_submit.as_ref().unchecked_ref())?;
    on_submit.forget();
    let on_doctor = {
        let page = page.clone();
        Closure::<dyn FnMut()>::new(move || run_doctor(&page))
    };
    doctor.add_event_listener_with_callback("click", on_doctor.as_ref().unchecked_ref())?;
    on_doctor.forget();

    // The first field, where the page starts (`autofocus` may not hold for a tab opened behind).
    if let Some(first) = page.borrow().fields.get(FIELDS[0]) {
        let _ = first.input.focus();
    }
    connect(&page);
    Ok(())
}

fn connect(page: &Shared) {
    let info = chrome::object(&[("name", "panel".into())]);
    let port = chrome::connect(&info);
    let on_message = {
        let page = page.clone();
        Closure::<dyn FnMut(JsValue)>::new(move |message: JsValue| {
            match chrome::from_js::<WorkerToPanel>(message) {
                Ok(m) => from_worker(&page, m),
                Err(e) => chrome::log(&format!("unreadable message from the service worker: {e}")),
            }
        })
    };
    let on_disconnect = {
        let page = page.clone();
        Closure::<dyn FnMut(JsValue)>::new(move |_port: JsValue| {
            // The worker restarted: connect again after a moment (this wakes it).
            let page = page.clone();
            let timer = gloo_timers::callback::Timeout::new(500, move || {
                page.borrow_mut().port = None;
                connect(&page);
            });
            timer.forget();
        })
    };
    port.on_message()
        .add_listener(on_message.as_ref().unchecked_ref());
    port.on_disconnect()
        .add_listener(on_disconnect.as_ref().unchecked_ref());
    let mut p = page.borrow_mut();
    p.port = Some(port);
    p.connected = false;
    p.loaded = false;
    p._listeners = vec![on_message, on_disconnect];
}

fn from_worker(page: &Shared, message: WorkerToPanel) {
    match message {
        WorkerToPanel::Connection { state } => {
            let connected = matches!(state, ConnectionState::Connected { .. });
            page.borrow_mut().connected = connected;
            if connected {
                if !page.borrow().loaded {
                    page.borrow_mut().loaded = true;
                    let id = next_id(page);
                    page.borrow_mut().awaiting_settings = Some(id);
                    page.borrow_mut().saving = false;
                    send(page, ToHost::GetSettings(GetSettings { id }));
                }
            } else if !matches!(state, ConnectionState::Connecting) {
                set_status(
                    page,
                    &wording::settings_not_connected(&wording::connection_status(&state)),
                );
            }
        }
        WorkerToPanel::FromHost { message } => match message {
            ToExtension::Settings(reply) if page.borrow().awaiting_settings == Some(reply.id) => {
                page.borrow_mut().awaiting_settings = None;
                settings_reply(page, reply);
            }
            ToExtension::DoctorReport(report) if page.borrow().awaiting_doctor == Some(report.id) => {
                page.borrow_mut().awaiting_doctor = None;
                doctor_report(page, report);
            }
            ToExtension::Error(error) => {
                let ours = error.id.is_some_and(|id| {
                    [page.borrow().awaiting_settings, page.borrow().awaiting_doctor].contains(&Some(id))
                });
                if ours {
                    set_status(page, &wording::host_error(&error));
                }
            }
            _ => {}
        },
        WorkerToPanel::NotDelivered { id: Some(id), reason } => {
            let ours = [page.borrow().awaiting_settings, page.borrow().awaiting_doctor].contains(&Some(id));
            if ours {
                set_status(page, &wording::not_delivered(&reason));
            }
        }
        _ => {}
    }
}

fn next_id(page: &Shared) -> RequestId {
    let mut p = page.borrow_mut();
    p.next_id += 1;
    p.next_id
}

fn send(page: &Shared, message: ToHost) {
    let p = page.borrow();
    let delivered = p.port.as_ref().is_some_and(|port| {
        port.post_message(&chrome::to_js(&PanelToWorker::ToHost { message }))
            .is_ok()
    });
    drop(p);
    if !delivered {
        set_status(page, &wording::settings_worker_unreachable());
    }
}

/// The polite status line; said again even when the words repeat (cleared first).
fn set_status(page: &Shared, text: &str) {
    let p = page.borrow();
    p.status.set_text_content(None);
    let status = p.status.clone();
    let text = text.to_owned();
    // A separate task so the screen reader sees the emptying and the new text as two changes.
    wasm_bindgen_futures::spawn_local(async move { status.set_text_content(Some(&text)) });
}

fn settings_reply(page: &Shared, reply: SettingsReply) {
    clear_errors(page);
    if let Some(view) = &reply.settings {
        fill(page, view);
    }
    let saving = page.borrow().saving;
    let Some(problem) = reply.problem else {
        let said = match (reply.saved, reply.kept_copy) {
            (true, Some(copy)) => wording::saved_keeping_copy(&copy),
            (true, None) => wording::settings_saved(),
            (false, _) => wording::settings_loaded(),
        };
        return set_status(page, &said);
    };
    let field = problem
        .field
        .as_deref()
        .and_then(|f| FIELDS.iter().find(|k| **k == f));
    match (field, problem.config) {
        (Some(key), _) => show_errors(page, &[(key, problem.message)], saving),
        // The file as it stands does not load: what it means for this page, and what saving does.
        (None, Some(fault)) if !saving => set_status(page, &wording::settings_not_loaded(&fault)),
        (None, _) => set_status(page, &wording::settings_refused(&problem.message)),
    }
}

/// Shows the settings in the fields; environment-fixed ones read-only, saying which variable.
fn fill(page: &Shared, view: &SettingsView) {
    let p = page.borrow();
    let values = [
        ("llm_base_url", view.llm_base_url.clone()),
        ("llm_model", view.llm_model.clone()),
        ("llm_api_key", String::new()),
        ("max_tool_steps", view.max_tool_steps.to_string()),
        ("banner_budget_ms", view.banner_budget_ms.to_string()),
    ];
    for (key, value) in values {
        let Some(field) = p.fields.get(key) else { continue };
        field.input.set_value(&value);
        let fixed = view.from_env.iter().find(|e| e.key == key);
        field.input.set_read_only(fixed.is_some());
        let hint = match (fixed, key) {
            (Some(_), _) => wording::settings_hint_env(),
            (None, "llm_api_key") => wording::settings_hint_key(view.api_key_set),
            (None, _) => field.base_hint.clone(),
        };
        field.hint.set_text_content(Some(&hint));
    }
    p.clear_key.set_checked(false);
    p.clear_key
        .set_disabled(!view.api_key_set || view.from_env.iter().any(|e| e.key == "llm_api_key"));
    let source = wording::settings_source(view.config_file.as_deref());
    p.source.set_text_content(Some(&source));
    p.overrides.set_text_content(None);
    // The page's own settings; what else the environment sets is the doctor's to say.
    for env in view.from_env.iter().filter(|e| FIELDS.contains(&e.key.as_str())) {
        let label = p
            .document
            .get_element_by_id(&format!("{}-label", env.key))
            .and_then(|l| l.text_content())
            .unwrap_or_else(|| env.key.clone());
        let Ok(item) = p.document.create_element("li") else {
            continue;
        };
        item.set_text_content(Some(&wording::settings_override(&label, &env.variable)));
        let _ = p.overrides.append_child(&item);
    }
}

fn clear_errors(page: &Shared) {
    let p = page.borrow();
    for field in p.fields.values() {
        field.error.set_text_content(None);
        let _ = field.input.remove_attribute("aria-invalid");
    }
}

/// Marks the fields at fault and moves the focus to the first: its description carries the error, so
/// a screen reader says it once, with the field.
fn show_errors(page: &Shared, errors: &[(&str, String)], saving: bool) {
    let p = page.borrow();
    let mut first = None;
    for (key, message) in errors {
        if let Some(field) = p.fields.get(key) {
            field.error.set_text_content(Some(message));
            let _ = field.input.set_attribute("aria-invalid", "true");
            first.get_or_insert(field.input.clone());
        }
    }
    drop(p);
    if saving {
        set_status(page, &wording::settings_problems(errors.len()));
    } else {
        set_status(page, &wording::config_file_problems(errors.len()));
    }
    if let Some(input) = first {
        let _ = input.focus();
    }
}

/// Checks the form (the host checks again), then sends only what may change.
fn save(page: &Shared) {
    clear_errors(page);
    let (request, errors) = {
        let p = page.borrow();
        let value = |key: &str| -> Option<String> {
            p.fields
                .get(key)
                .filter(|f| !f.input.read_only())
                .map(|f| f.input.value().trim().to_owned())
        };
        let mut errors: Vec<(&str, String)> = Vec::new();
        let base_url = value("llm_base_url");
        if let Some(url) = &base_url {
            if let Err(e) = check_url(url) {
                errors.push(("llm_base_url", e));
            }
        }
        let model = value("llm_model");
        if model.as_deref() == Some("") {
            errors.push(("llm_model", wording::settings_error_model()));
        }
        let key = value("llm_api_key");
        let key = if p.clear_key.checked() && !p.clear_key.disabled() {
            Some(String::new())
        } else {
            match key {
                Some(k) if k.is_empty() => None,
                Some(k) if !k.bytes().all(|b| b.is_ascii_graphic()) => {
                    errors.push(("llm_api_key", wording::settings_error_key()));
                    None
                }
                other => other,
            }
        };
        let steps = value("max_tool_steps").map(|v| check_number(&v, 1, 1000, wording::settings_error_steps));
        let steps = match steps {
            Some(Err(e)) => {
                errors.push(("max_tool_steps", e));
                None
            }
            Some(Ok(n)) => Some(n),
            None => None,
        };
        let budget =
            value("banner_budget_ms").map(|v| check_number(&v, 0, 30_000, wording::settings_error_budget));
        let budget = match budget {
            Some(Err(e)) => {
                errors.push(("banner_budget_ms", e));
                None
            }
            Some(Ok(n)) => Some(n),
            None => None,
        };
        let request = SaveSettings {
            id: 0,
            llm_base_url: base_url,
            llm_model: model,
            llm_api_key: key,
            max_tool_steps: steps,
            banner_budget_ms: budget,
        };
        (request, errors)
    };
    if !errors.is_empty() {
        show_errors(page, &errors, true);
        return;
    }
    if !page.borrow().connected {
        set_status(page, &wording::settings_save_not_connected());
        return;
    }
    let id = next_id(page);
    page.borrow_mut().awaiting_settings = Some(id);
    page.borrow_mut().saving = true;
    // The key leaves the page now; the field does not keep it.
    if let Some(field) = page.borrow().fields.get("llm_api_key") {
        field.input.set_value("");
    }
    set_status(page, &wording::settings_saving());
    send(page, ToHost::SaveSettings(SaveSettings { id, ..request }));
}

/// The same rule as the host's: an http or https URL with a host.
fn check_url(url: &str) -> Result<(), String> {
    let rest = url
        .strip_prefix("http://")
        .or_else(|| url.strip_prefix("https://"));
    match rest {
        Some(rest) if !rest.is_empty() && !rest.starts_with('/') && !url.contains(char::is_whitespace) => {
            Ok(())
        }
        _ => Err(wording::settings_error_url()),
    }
}

/// A whole number from `min` to `max`, or the error `refusal` words for that range.
fn check_number(raw: &str, min: u64, max: u64, refusal: fn(u64, u64) -> String) -> Result<u64, String> {
    match raw.parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(refusal(min, max)),
    }
}

fn run_doctor(page: &Shared) {
    if !page.borrow().connected {
        set_status(page, &wording::checks_not_connected());
        return;
    }
    let id = next_id(page);
    page.borrow_mut().awaiting_doctor = Some(id);
    set_status(page, &wording::checks_running());
    send(page, ToHost::RunDoctor(RunDoctor { id }));
}

/// The checks as a list, one item per check, and one status sentence with the count of problems.
fn doctor_report(page: &Shared, report: DoctorReport) {
    let p = page.borrow();
    p.checks.set_text_content(None);
    p.checks_empty.set_hidden(true);
    let mut problems = 0;
    for check in &report.checks {
        let class = match check.status {
            CheckStatus::Ok => "check-ok",
            CheckStatus::Warning => "check-warning",
            CheckStatus::Problem => {
                problems += 1;
                "check-problem"
            }
        };
        let Ok(item) = p.document.create_element("li") else {
            continue;
        };
        let Ok(mark) = p.document.create_element("span") else {
            continue;
        };
        mark.set_class_name(class);
        mark.set_text_content(Some(&wording::check_mark(check.status)));
        let _ = item.append_child(&mark);
        let text = wording::check_line(&check.name, &check.detail, check.fix.as_deref());
        // A space between the mark and the line: two words, whatever the language.
        let _ = item.append_with_str_1(&format!(" {text}"));
        let _ = p.checks.append_child(&item);
    }
    drop(p);
    set_status(page, &wording::checks_done(problems));
}
