//! The policy gate: the one road from "someone wants to act on the page" to the page. It describes the
//! element behind the number, asks [`crate::policy::classify`], and then acts, asks the user first, or
//! hands the step to the user. It runs in the host, whoever asked, so a model talked into anything by a
//! web page still cannot act destructively without the user's yes.
//!
//! The panel's tools ([`Gate::user_tool`]) and the agent's ([`Gate::pass`]) take the same road; what it
//! must not do is act on a page-changing tool any other way.
//!
//! At most one action waits for an answer at a time; a yes runs exactly that action, on exactly that
//! element (the content script refuses it as stale if the number now points elsewhere).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::mpsc;
use waymark_protocol::{
    ActKind, Answer, ElementInfo, PageTool, Question, QuestionKind, RequestId, ToExtension, ToolDone,
    ToolResult, UserTool,
};

use crate::browser::Browser;
use crate::mcp::external::External;
use crate::policy::{self, Verdict};

/// Who asked for an action, so the answer to a question reaches them.
#[derive(Debug, Clone)]
pub enum Requester {
    /// The panel's request with this id: answered with [`ToExtension::UserToolResult`].
    Panel(RequestId),
    /// The agent. It has stopped to wait for the user, so the gate tells the user the outcome itself
    /// (agent events) and leaves it in this inbox for the agent's next turn.
    Agent(mpsc::UnboundedSender<Decided>),
    /// An outside MCP client, by the name it gave: the question names it, and the outcome goes to this
    /// inbox, where its tool call waits for it.
    Client {
        name: String,
        inbox: mpsc::UnboundedSender<Decided>,
    },
}

/// An action the gate may hold for the user's yes.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// A page tool, pinned to the element it was judged on.
    Page(PageTool),
    /// A tool of an external MCP server: its namespaced name and the arguments.
    External { name: String, args: serde_json::Value },
}

impl Action {
    /// The page tool, when it is one.
    pub fn page(&self) -> Option<&PageTool> {
        match self {
            Action::Page(tool) => Some(tool),
            Action::External { .. } => None,
        }
    }

    /// The tool's name as the model and MCP clients know it.
    pub fn name(&self) -> &str {
        match self {
            Action::Page(tool) => crate::mcp::catalogue::name_of(tool),
            Action::External { name, .. } => name,
        }
    }
}

/// What became of an action the agent proposed and the user was asked about.
#[derive(Debug, Clone, PartialEq)]
pub struct Decided {
    pub action: Action,
    /// Whether the user said yes.
    pub yes: bool,
    /// The tool's result on yes; an error saying why nothing was done otherwise.
    pub result: ToolResult,
}

/// What the gate made of one tool.
#[derive(Debug, Clone, PartialEq)]
pub enum Gated {
    /// It ran (or failed, or the number was stale: then the result carries the fresh list).
    Ran(ToolResult),
    /// The user was asked this question; the action waits for the answer.
    Asked { question: String },
    /// The user does this step: the gate refused it with this message.
    HandedOver { message: String },
}

/// An approved-in-principle action waiting for the user's yes.
#[derive(Debug, Clone)]
struct Pending {
    question: RequestId,
    /// Whom to tell once decided.
    requester: Requester,
    tab_id: Option<i32>,
    /// The exact action to run on yes (a page tool pinned to the described element).
    action: Action,
    /// The servers that run an external action.
    external: Option<Arc<External>>,
    /// What the asker hears on no, when it is more than "you said no" (such as which tab to use).
    on_no: Option<String>,
}

pub struct Gate {
    browser: Browser,
    outbox: mpsc::Sender<ToExtension>,
    pending: Mutex<Option<Pending>>,
    next_question: AtomicU64,
}

impl Gate {
    pub fn new(browser: Browser, outbox: mpsc::Sender<ToExtension>) -> Arc<Self> {
        Arc::new(Self {
            browser,
            outbox,
            pending: Mutex::new(None),
            next_question: AtomicU64::new(1),
        })
    }

    /// Handles a tool the user asked for in the panel.
    pub async fn user_tool(self: Arc<Self>, request: UserTool) {
        let UserTool { id, tab_id, tool } = request;
        match self.pass(tab_id, tool, Requester::Panel(id)).await {
            Gated::Ran(result) => self.reply(id, result).await,
            Gated::HandedOver { message } => self.reply(id, ToolResult::error(message)).await,
            // The answer to the question finishes the request.
            Gated::Asked { .. } => {}
        }
    }

    /// Judges and runs any page tool for `requester`: reading tools run at once; page-changing ones run
    /// only if the policy allows them, are held for the user's yes (the question is sent here), or are
    /// refused as the user's step. This is the only way the agent reaches a page.
    pub async fn pass(&self, tab_id: Option<i32>, tool: PageTool, requester: Requester) -> Gated {
        if !tool.changes_page() {
            // Reading tools change nothing: no judgement needed.
            return Gated::Ran(self.browser.run(tab_id, tool).await);
        }
        // The user's own tabs: the agent and outside clients ask before they reuse a pinned tab or open
        // a second tab on a site that is already open. (The panel's commands are the user's own choice.)
        if !matches!(requester, Requester::Panel(_)) {
            if let Some((question, on_no)) = self.tab_rule(tab_id, &tool).await {
                tracing::info!("policy gate: a tab rule asks the user");
                let action = Action::Page(tool);
                return self.hold(requester, tab_id, action, None, question, on_no).await;
            }
        }
        let judged = match self.judge(tab_id, tool).await {
            Ok(judged) => judged,
            // A stale or missing number comes back with the page's words and the fresh list.
            Err(result) => return Gated::Ran(result),
        };
        tracing::info!(decision = ?judged.decision.decision, reason = %judged.decision.reason, "policy gate");
        match judged.decision.decision {
            Verdict::Allow => Gated::Ran(self.browser.run(tab_id, judged.tool).await),
            Verdict::Handoff => Gated::HandedOver {
                message: format!(
                    "Waymark leaves this step to you: {}. Do it yourself in the page, then carry on.",
                    judged.decision.reason.trim_end_matches('.')
                ),
            },
            Verdict::Confirm => {
                let action = Action::Page(judged.tool);
                self.hold(requester, tab_id, action, None, judged.question, None)
                    .await
            }
        }
    }

    /// The tab rules (seed 004): navigating in a pinned tab, or opening a new tab on a site another tab
    /// already shows, is asked first. Returns the question and what to say on no.
    async fn tab_rule(&self, tab_id: Option<i32>, tool: &PageTool) -> Option<(String, Option<String>)> {
        if !matches!(tool, PageTool::Navigate { .. } | PageTool::OpenInNewTab { .. }) {
            return None;
        }
        let listed = self.browser.run(tab_id, PageTool::ListTabs).await;
        let tabs: Vec<TabInfo> = listed
            .data
            .as_ref()
            .and_then(|d| d.get("tabs"))
            .and_then(|t| serde_json::from_value(t.clone()).ok())
            .unwrap_or_default();
        match tool {
            PageTool::Navigate { url } => {
                let here = tabs.iter().find(|t| match tab_id {
                    Some(id) => t.tab_id == Some(f64::from(id)),
                    None => t.active,
                })?;
                here.pinned.then(|| {
                    let question = format!(
                        "Open {url} in your pinned tab {}, \"{}\", replacing what it shows? Yes or no.",
                        here.index, here.title
                    );
                    (question, None)
                })
            }
            PageTool::OpenInNewTab { url } => {
                let site = site_of(url);
                let open = tabs
                    .iter()
                    .find(|t| !site.is_empty() && site_of(&t.url) == site)?;
                let question = format!(
                    "Tab {}, \"{}\", already shows {site}. Open {url} in a new tab anyway? Say no to use \
                     the open tab.",
                    open.index, open.title
                );
                let on_no = format!(
                    "Not done: the user prefers the open tab {} (\"{}\", {}): switch to it with \
                     browser_switch_tab.",
                    open.index, open.title, open.url
                );
                Some((question, Some(on_no)))
            }
            _ => None,
        }
    }

    /// Judges a tool of an external MCP server: one the server marks read-only runs at once; any other
    /// may change something outside the browser that Waymark cannot see, so it waits for the user's yes.
    pub async fn pass_external(
        &self,
        external: Arc<External>,
        name: &str,
        args: serde_json::Value,
        requester: Requester,
    ) -> Gated {
        if external.read_only(name) {
            return Gated::Ran(external.call(name, &args).await);
        }
        tracing::info!(
            tool = name,
            "policy gate: an external tool that may change things"
        );
        let question = format!("{}? Yes or no.", external.describe(name, &args));
        let action = Action::External {
            name: name.to_owned(),
            args,
        };
        self.hold(requester, None, action, Some(external), question, None)
            .await
    }

    /// Holds `action` as the one pending action and asks the user `question` (naming an outside client
    /// that asked). A question already waiting is dropped: its asker hears so.
    async fn hold(
        &self,
        requester: Requester,
        tab_id: Option<i32>,
        action: Action,
        external: Option<Arc<External>>,
        question: String,
        on_no: Option<String>,
    ) -> Gated {
        let id = self.next_question.fetch_add(1, Ordering::Relaxed);
        let text = match &requester {
            // The user must know who wants this done in their browser.
            Requester::Client { name, .. } => format!("{name} asks: {question}"),
            _ => question,
        };
        let pending = Pending {
            question: id,
            requester,
            tab_id,
            action,
            external,
            on_no,
        };
        let replaced = self.lock().replace(pending);
        if let Some(old) = replaced {
            let dropped = ToolResult::error("Not done: a newer action replaced the question.");
            self.settle(old, false, dropped).await;
        }
        let message = ToExtension::Question(Question {
            id,
            kind: QuestionKind::Confirm,
            text: text.clone(),
        });
        let _ = self.outbox.send(message).await;
        Gated::Asked { question: text }
    }

    /// Classifies a page-changing tool: describes its element when it has one, and returns the decision,
    /// the exact tool to run if allowed (pinned to the described element), and the question to ask.
    async fn judge(&self, tab_id: Option<i32>, tool: PageTool) -> Result<Judged, ToolResult> {
        let (kind, index, text) = match &tool {
            PageTool::OverlayAct {
                index, action, text, ..
            }
            | PageTool::ActByIndex {
                index, action, text, ..
            } => (action_kind(*action), Some(*index), text.clone()),
            PageTool::ClickAndWaitDownload { index, .. } => (policy::ActionKind::Click, Some(*index), None),
            // Judged like typing into the field; an upload is then always asked about (below). Files
            // that are not there are refused before anyone is asked.
            PageTool::Upload { index, paths, .. } => {
                if let Err(why) = crate::transfer::check(paths) {
                    return Err(ToolResult::error(why.to_string()));
                }
                (policy::ActionKind::Type, Some(*index), None)
            }
            // On the seeds' whitelist: closing a consent or newsletter banner, preferring "reject".
            PageTool::CloseBanners { .. } => {
                let decision = policy::Decision {
                    decision: Verdict::Allow,
                    reason: "closing banners".into(),
                };
                return Ok(Judged {
                    decision,
                    tool,
                    question: String::new(),
                });
            }
            PageTool::Press { key, index } => (policy::ActionKind::Press, *index, Some(key.clone())),
            PageTool::Navigate { url } | PageTool::OpenInNewTab { url } => {
                let proposed = policy::ProposedAction {
                    action: Some(policy::ActionKind::Navigate),
                    url: Some(url.clone()),
                    ..Default::default()
                };
                let question = format!("Open {url}? Yes or no.");
                return Ok(Judged {
                    decision: policy::classify(&proposed),
                    tool,
                    question,
                });
            }
            // Moving through history or reloading cannot pay, send or delete by itself (the browser asks
            // before it resubmits a form).
            _ => {
                let decision = policy::Decision {
                    decision: Verdict::Allow,
                    reason: "history navigation".into(),
                };
                return Ok(Judged {
                    decision,
                    tool,
                    question: String::new(),
                });
            }
        };
        let Some(index) = index else {
            let proposed = policy::ProposedAction {
                action: Some(kind),
                key: text,
                ..Default::default()
            };
            let question = format!("{}? Yes or no.", verb_phrase(&tool));
            return Ok(Judged {
                decision: policy::classify(&proposed),
                tool,
                question,
            });
        };
        let described = self.browser.run(tab_id, PageTool::Describe { index }).await;
        let info = match described.data.clone().map(serde_json::from_value::<ElementInfo>) {
            Some(Ok(info)) if described.error.is_none() => info,
            _ => return Err(described),
        };
        if matches!(tool, PageTool::Upload { .. }) && info.input_type.as_deref() != Some("file") {
            // Nothing to ask about: the upload could not happen.
            return Err(ToolResult::error(format!(
                "Number {index} is not a file field (it is {} \"{}\"): upload into the field that \
                 chooses files.",
                info.role, info.name
            )));
        }
        let mut proposed = proposed(&info, kind, text.as_deref());
        if kind == policy::ActionKind::Press {
            proposed.key = text;
            proposed.text = None;
        }
        // The action is pinned to the element the user (or the gate) looked at.
        let tool = tool.pinned_to(info.id);
        let question = question_text(&verb_phrase(&tool), &info);
        let mut decision = policy::classify(&proposed);
        // An upload sends files from this computer to a web site: the user always says yes first,
        // whoever asked (a page could talk a model into sending a private file).
        if matches!(tool, PageTool::Upload { .. }) && decision.decision == Verdict::Allow {
            decision = policy::Decision {
                decision: Verdict::Confirm,
                reason: "an upload sends files from this computer to the site".into(),
            };
        }
        Ok(Judged {
            decision,
            tool,
            question,
        })
    }

    /// Handles the user's yes or no.
    pub async fn answer(self: Arc<Self>, answer: Answer) {
        let pending = {
            let mut slot = self.lock();
            match (&*slot, answer.question) {
                (Some(p), Some(q)) if p.question != q => None,
                _ => slot.take(),
            }
        };
        let Some(pending) = pending else {
            tracing::info!("an answer came with no matching question; ignored");
            return;
        };
        let result = if answer.yes {
            match (&pending.action, &pending.external) {
                (Action::Page(tool), _) => self.browser.run(pending.tab_id, tool.clone()).await,
                (Action::External { name, args }, Some(external)) => external.call(name, args).await,
                (Action::External { .. }, None) => ToolResult::error("Not done: the tool's server is gone."),
            }
        } else {
            ToolResult::error(
                pending
                    .on_no
                    .clone()
                    .unwrap_or_else(|| "Not done: you said no.".into()),
            )
        };
        self.settle(pending, answer.yes, result).await;
    }

    /// Tells whoever asked for a held action what became of it.
    async fn settle(&self, pending: Pending, yes: bool, result: ToolResult) {
        match pending.requester {
            Requester::Panel(id) => self.reply(id, result).await,
            // The client's call reports the outcome (and the panel hears it as activity).
            Requester::Client { inbox, .. } => {
                let _ = inbox.send(Decided {
                    action: pending.action,
                    yes,
                    result,
                });
            }
            // The agent picks the outcome up as it handles the answer (`Agent::answer`), tells the user
            // and goes on with its task; if it is gone, nobody needs it.
            Requester::Agent(inbox) => {
                let _ = inbox.send(Decided {
                    action: pending.action,
                    yes,
                    result,
                });
            }
        }
    }

    /// Drops the question held for the client (or the agent) with this inbox (it stopped waiting), if
    /// there is one. Returns whether one was dropped.
    pub fn withdraw(&self, inbox: &mpsc::UnboundedSender<Decided>) -> bool {
        let mut slot = self.lock();
        let theirs = matches!(&*slot, Some(Pending { requester: Requester::Client { inbox: held, .. } | Requester::Agent(held), .. })
            if held.same_channel(inbox));
        if theirs {
            *slot = None;
        }
        theirs
    }

    /// Whether an action waits for the user's yes or no.
    pub fn holds_a_question(&self) -> bool {
        self.lock().is_some()
    }

    async fn reply(&self, id: RequestId, result: ToolResult) {
        let _ = self
            .outbox
            .send(ToExtension::UserToolResult(ToolDone { id, result }))
            .await;
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Pending>> {
        self.pending
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// One tab of `list_tabs`, as far as the tab rules need it.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
struct TabInfo {
    index: u32,
    title: String,
    url: String,
    active: bool,
    pinned: bool,
    tab_id: Option<f64>,
}

/// The gate's verdict on one tool.
struct Judged {
    decision: policy::Decision,
    /// The tool to run if allowed, pinned to the described element where it has one.
    tool: PageTool,
    /// The question to ask if the decision is to confirm.
    question: String,
}

fn action_kind(action: ActKind) -> policy::ActionKind {
    match action {
        ActKind::Click => policy::ActionKind::Click,
        ActKind::Type => policy::ActionKind::Type,
        ActKind::Select => policy::ActionKind::Select,
    }
}

/// The start of a question: "Click", "Press Enter on", …
fn verb_phrase(tool: &PageTool) -> String {
    match tool {
        // The question is about what happens, not how (act_by_index is only another way to do it).
        PageTool::OverlayAct { action, .. } | PageTool::ActByIndex { action, .. } => match action {
            ActKind::Click => "Click",
            ActKind::Type => "Type into",
            ActKind::Select => "Change",
        }
        .into(),
        PageTool::ClickAndWaitDownload { .. } => "Click to download from".into(),
        PageTool::Upload { paths, .. } => {
            let names: Vec<&str> = paths
                .iter()
                .map(|p| p.rsplit(['/', '\\']).next().unwrap_or(p))
                .collect();
            format!("Upload {} from this computer into", names.join(", "))
        }
        PageTool::Press { key, index: Some(_) } => format!("Press {key} on"),
        PageTool::Press { key, index: None } => format!("Press {key}"),
        _ => "Do this".into(),
    }
}

/// What the classifier needs, from what the content script described.
fn proposed(info: &ElementInfo, kind: policy::ActionKind, text: Option<&str>) -> policy::ProposedAction {
    let action = kind;
    let some = |s: &str| (!s.is_empty()).then(|| s.to_string());
    policy::ProposedAction {
        action: Some(kind),
        element: Some(policy::Element {
            role: some(&info.role),
            name: some(&info.name),
            tag: some(&info.tag),
            input_type: info.input_type.clone(),
            // For a select, the option asked for is what the control will say.
            value: if action == policy::ActionKind::Select {
                text.map(str::to_string)
            } else {
                info.value.clone()
            },
            text_around: some(&info.text_around),
            form: info.form.as_ref().map(|f| policy::FormContext {
                action: some(&f.action),
                method: some(&f.method),
                ..Default::default()
            }),
            autocomplete: info.autocomplete.clone(),
            in_dialog: info.in_dialog,
            id_hints: None,
            secret: info.secret,
        }),
        url: some(&info.url),
        text: text.map(str::to_string),
        key: None,
    }
}

/// "Click button 'Pay €84.97' on shop.example? Yes or no."
fn question_text(verb: &str, info: &ElementInfo) -> String {
    let site = site_of(&info.url);
    let on = if site.is_empty() {
        String::new()
    } else {
        format!(" on {site}")
    };
    format!("{verb} {} '{}'{on}? Yes or no.", info.role, info.name)
}

/// The host part of a URL ("https://shop.example:8080/a" → "shop.example:8080").
fn site_of(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    rest.split(['/', '?', '#']).next().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn info(name: &str) -> ElementInfo {
        ElementInfo {
            id: 17,
            index: 3,
            role: "button".into(),
            name: name.into(),
            tag: "button".into(),
            url: "https://shop.example/checkout?step=2".into(),
            ..Default::default()
        }
    }

    /// A fake extension: answers `describe` with `described` and records every other tool it is asked.
    struct Fake {
        gate: Arc<Gate>,
        out: mpsc::Receiver<ToExtension>,
        stop: tokio::sync::oneshot::Sender<()>,
        task: tokio::task::JoinHandle<Vec<PageTool>>,
    }

    impl Fake {
        /// Stops the fake and returns the tools that ran (other than `describe`).
        async fn ran(self) -> Vec<PageTool> {
            let _ = self.stop.send(());
            self.task.await.unwrap()
        }
    }

    fn extension(described: ElementInfo) -> Fake {
        let (to_ext, mut from_gate) = mpsc::channel(16);
        let (to_test, out) = mpsc::channel(16);
        let (stop, mut stopped) = tokio::sync::oneshot::channel::<()>();
        let browser = Browser::new(to_ext.clone());
        let gate = Gate::new(browser.clone(), to_ext);
        let task = tokio::spawn(async move {
            let mut ran = Vec::new();
            loop {
                let message = tokio::select! {
                    m = from_gate.recv() => m,
                    _ = &mut stopped => None,
                };
                let Some(message) = message else { break };
                match message {
                    ToExtension::RunTool(run) => {
                        let result = match &run.tool {
                            PageTool::Describe { .. } => {
                                ToolResult::ok(serde_json::to_value(&described).unwrap())
                            }
                            // The user's tabs: a pinned mail tab (active) and a news tab.
                            PageTool::ListTabs => ToolResult::ok(json!({"tabs": [
                                {"index": 1, "title": "Inbox", "url": "https://mail.example/inbox", "active": true, "pinned": true, "tab_id": 1},
                                {"index": 2, "title": "News", "url": "https://news.example/", "active": false, "pinned": false, "tab_id": 2},
                            ]})),
                            other => {
                                ran.push(other.clone());
                                ToolResult::ok(json!({"done": "click"}))
                            }
                        };
                        browser.resolve(ToolDone { id: run.id, result });
                    }
                    other => {
                        if to_test.send(other).await.is_err() {
                            break;
                        }
                    }
                }
            }
            ran
        });
        Fake {
            gate,
            out,
            stop,
            task,
        }
    }

    fn click(id: RequestId) -> UserTool {
        UserTool {
            id,
            tab_id: Some(1),
            tool: PageTool::OverlayAct {
                index: 3,
                action: ActKind::Click,
                text: None,
                expect: None,
            },
        }
    }

    #[tokio::test]
    async fn a_harmless_click_runs_at_once_pinned_to_the_described_element() {
        let mut fake = extension(info("Save draft"));
        fake.gate.clone().user_tool(click(1)).await;
        let Some(ToExtension::UserToolResult(done)) = fake.out.recv().await else {
            panic!()
        };
        assert_eq!((done.id, done.result.error), (1, None));
        let ran = fake.ran().await;
        assert_eq!(
            ran,
            vec![PageTool::OverlayAct {
                index: 3,
                action: ActKind::Click,
                text: None,
                expect: Some(17)
            }]
        );
    }

    #[tokio::test]
    async fn a_payment_asks_first_and_yes_runs_it_exactly_once() {
        let mut fake = extension(info("Pay €84.97"));
        fake.gate.clone().user_tool(click(2)).await;
        let Some(ToExtension::Question(q)) = fake.out.recv().await else {
            panic!()
        };
        assert_eq!(q.text, "Click button 'Pay €84.97' on shop.example? Yes or no.");
        fake.gate
            .clone()
            .answer(Answer {
                question: Some(q.id),
                yes: true,
            })
            .await;
        let Some(ToExtension::UserToolResult(done)) = fake.out.recv().await else {
            panic!()
        };
        assert_eq!((done.id, done.result.error), (2, None));
        // A second yes finds nothing pending: nothing runs twice.
        fake.gate
            .clone()
            .answer(Answer {
                question: Some(q.id),
                yes: true,
            })
            .await;
        assert_eq!(fake.ran().await.len(), 1);
    }

    #[tokio::test]
    async fn no_drops_the_action() {
        let mut fake = extension(info("Delete account"));
        fake.gate.clone().user_tool(click(5)).await;
        let Some(ToExtension::Question(q)) = fake.out.recv().await else {
            panic!()
        };
        fake.gate
            .clone()
            .answer(Answer {
                question: Some(q.id),
                yes: false,
            })
            .await;
        let Some(ToExtension::UserToolResult(done)) = fake.out.recv().await else {
            panic!()
        };
        assert_eq!(done.result.error.as_deref(), Some("Not done: you said no."));
        assert!(fake.ran().await.is_empty(), "nothing ran");
    }

    #[tokio::test]
    async fn a_password_field_is_handed_to_the_user() {
        let mut field = info("Password");
        field.role = "textbox".into();
        field.tag = "input".into();
        field.input_type = Some("password".into());
        let mut fake = extension(field);
        let request = UserTool {
            id: 9,
            tab_id: None,
            tool: PageTool::OverlayAct {
                index: 3,
                action: ActKind::Type,
                text: Some("hunter2".into()),
                expect: None,
            },
        };
        fake.gate.clone().user_tool(request).await;
        let Some(ToExtension::UserToolResult(done)) = fake.out.recv().await else {
            panic!()
        };
        let error = done.result.error.unwrap();
        assert!(error.starts_with("Waymark leaves this step to you"), "{error}");
        assert!(!error.contains("hunter2"));
        assert!(fake.ran().await.is_empty());
    }

    #[tokio::test]
    async fn for_the_agent_a_yes_runs_once_and_the_outcome_reaches_the_agent() {
        let mut fake = extension(info("Pay €84.97"));
        let (inbox, mut decided) = mpsc::unbounded_channel();
        let tool = click(0).tool;
        let gated = fake.gate.pass(Some(1), tool, Requester::Agent(inbox)).await;
        let Gated::Asked { question } = gated else {
            panic!("{gated:?}")
        };
        let Some(ToExtension::Question(q)) = fake.out.recv().await else {
            panic!()
        };
        assert_eq!(q.text, question);
        fake.gate
            .clone()
            .answer(Answer {
                question: Some(q.id),
                yes: true,
            })
            .await;
        let outcome = decided.try_recv().unwrap();
        assert!(outcome.yes && outcome.result.error.is_none());
        // The agent tells the user and goes on: the gate sends nothing more itself.
        assert!(fake.out.try_recv().is_err());
        assert_eq!(fake.ran().await.len(), 1);
    }

    /// Asks `gate` on the agent's behalf, expects a question containing `expected`, answers `yes`, and
    /// returns what the agent hears.
    async fn tab_question(
        fake: &mut Fake,
        tab_id: Option<i32>,
        tool: PageTool,
        expected: &str,
        yes: bool,
    ) -> Decided {
        let (inbox, mut decided) = mpsc::unbounded_channel();
        let gated = fake.gate.pass(tab_id, tool, Requester::Agent(inbox)).await;
        let Gated::Asked { question } = gated else {
            panic!("{gated:?}")
        };
        assert!(question.contains(expected), "{question}");
        let Some(ToExtension::Question(q)) = fake.out.recv().await else {
            panic!()
        };
        fake.gate
            .clone()
            .answer(Answer {
                question: Some(q.id),
                yes,
            })
            .await;
        decided.try_recv().unwrap()
    }

    #[tokio::test]
    async fn the_agent_asks_before_it_reuses_a_pinned_tab() {
        let mut fake = extension(info("unused"));
        let go = PageTool::Navigate {
            url: "https://shop.example/".into(),
        };
        let decided = tab_question(&mut fake, None, go.clone(), "pinned tab 1, \"Inbox\"", false).await;
        assert_eq!(decided.result.error.as_deref(), Some("Not done: you said no."));
        // In the unpinned tab it just goes; and the user's own /go never asks.
        let (inbox, _decided) = mpsc::unbounded_channel();
        let gated = fake.gate.pass(Some(2), go.clone(), Requester::Agent(inbox)).await;
        assert!(
            matches!(gated, Gated::Ran(ref r) if r.error.is_none()),
            "{gated:?}"
        );
        let own = UserTool {
            id: 9,
            tab_id: Some(1),
            tool: go.clone(),
        };
        fake.gate.clone().user_tool(own).await;
        let ran = fake.ran().await;
        assert_eq!(ran, vec![go.clone(), go], "the no ran nothing");
    }

    #[tokio::test]
    async fn the_agent_asks_before_a_second_tab_on_an_open_site_and_no_points_at_that_tab() {
        let mut fake = extension(info("unused"));
        let open = PageTool::OpenInNewTab {
            url: "https://news.example/today".into(),
        };
        let decided = tab_question(
            &mut fake,
            Some(1),
            open.clone(),
            "Tab 2, \"News\", already shows news.example",
            false,
        )
        .await;
        let said = decided.result.error.unwrap();
        assert!(
            said.contains("prefers the open tab 2") && said.contains("browser_switch_tab"),
            "{said}"
        );
        let decided = tab_question(
            &mut fake,
            Some(1),
            open.clone(),
            "Open https://news.example/today in a new tab anyway?",
            true,
        )
        .await;
        assert!(decided.yes && decided.result.error.is_none());
        let ran = fake.ran().await;
        assert_eq!(
            ran.iter().filter(|t| **t == open).count(),
            1,
            "opened once, on yes: {ran:?}"
        );
    }

    #[test]
    fn site_is_the_host_part() {
        assert_eq!(site_of("https://shop.example:8080/a?b"), "shop.example:8080");
        assert_eq!(site_of("file:///tmp/x.html"), "");
        assert_eq!(site_of("about:blank"), "about:blank");
    }
}
