//! The policy gate: the one road from "someone wants to act on the page" to the page. Before any
//! page-changing tool runs, whoever asked (the user's panel, the agent, an outside MCP client), it asks
//! the extension what the tool would do (`PageTool::Preview`: the element it reaches — by number, or
//! the focused one for a key —, the form it would submit, where a link goes, the option a choice makes,
//! and where all that is), asks [`crate::policy::classify`] about that effect, and then runs the tool
//! pinned to exactly what was judged, asks the user first, or hands the step to the user. A model
//! talked into anything by a web page still cannot act destructively without the user's yes.
//!
//! Every page-changing tool runs pinned ([`waymark_protocol::Pin`]): in the tab, frame, document and on
//! the element that were judged, or not at all. One the policy allows runs guarded (`request.rs`): a
//! request its tab tries to send meanwhile that the judged effect does not cover is stopped and judged
//! again, as an effect of its own. A held action keeps its pin, so a yes acts exactly there, after a
//! second look: described again at the yes, it must still do what its question said (`recheck.rs`),
//! or nothing runs and the user is asked again. Its question closes when that page changes, when
//! nobody answers within [`QUESTION_TTL`], or when whoever asked stops waiting. Questions are asked
//! one at a time: a new one waits its turn and never replaces one the user is about to answer.
//!
//! What it must not do: let a page-changing tool reach a page any other way; decide from the name of
//! a tool or the words of a message (outcomes are typed); let page text in a question pass unquoted.

mod banners;
mod consent;
mod held;
mod judge;
mod provenance;
mod question;
mod recheck;
mod request;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::mpsc;
use waymark_protocol::{
    ActKind, AllowedRequest, ClosedReason, Effect, ErrorKind, PageTool, Pin, RequestId, SecretKind,
    ToExtension, ToolDone, ToolResult, UserTool,
};

use waymark_i18n::{say, Words};

use crate::browser::Browser;
use crate::language::Language;
use crate::mcp::external::External;
use crate::policy::{Handoff, Verdict};

pub use banners::LIST_LIMIT as BANNERS_LIST_LIMIT;
pub use consent::Client;
use held::{expire_questions, Questions};
use provenance::{Provenance, Task};
pub use waymark_protocol::Road;

/// How long a question waits for its answer before it is closed and nothing is done.
pub const QUESTION_TTL: Duration = Duration::from_secs(300);
/// How often held questions are checked for their age.
const EXPIRY_TICK: Duration = Duration::from_secs(5);
/// How many questions may wait behind the one shown; more are refused at once.
const MAX_WAITING: usize = 8;

/// Who asked for an action, so the answer to a question reaches them.
#[derive(Debug, Clone)]
pub enum Requester {
    /// The panel's request with this id: answered with [`ToExtension::UserToolResult`].
    Panel(RequestId),
    /// The agent. It has stopped to wait for the user, so the gate tells the user the outcome itself
    /// (agent events) and leaves it in this inbox for the agent's next turn.
    Agent(mpsc::UnboundedSender<Decided>),
    /// An outside MCP client, by its (sanitised) name, with its program beside it where another
    /// program gives the same name ([`Gate::client_label`]): the question names it, and the outcome
    /// goes to this inbox, where its tool call waits for it.
    Client {
        name: String,
        inbox: mpsc::UnboundedSender<Decided>,
    },
}

impl Requester {
    fn inbox(&self) -> Option<&mpsc::UnboundedSender<Decided>> {
        match self {
            Requester::Panel(_) => None,
            Requester::Agent(inbox) | Requester::Client { inbox, .. } => Some(inbox),
        }
    }
}

/// An action the gate may hold for the user's yes.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// A page tool, and where it runs: exactly what was judged.
    Page { tool: PageTool, pin: Pin },
    /// A page tool whose tab tried to send a request the user is asked about: on yes it runs again
    /// there, guarded, with `allow` (that request, and what the policy let through) covered once.
    Request {
        tool: PageTool,
        pin: Pin,
        allow: Vec<AllowedRequest>,
    },
    /// A tool of an external MCP server: its namespaced name and the arguments.
    External { name: String, args: serde_json::Value },
    /// Letting an outside MCP client use the browser at all.
    Admit { client: String },
}

impl Action {
    /// The page tool, when it is one.
    pub fn page(&self) -> Option<&PageTool> {
        match self {
            Action::Page { tool, .. } | Action::Request { tool, .. } => Some(tool),
            Action::External { .. } | Action::Admit { .. } => None,
        }
    }

    /// The tool's name as the model and MCP clients know it.
    pub fn name(&self) -> &str {
        match self {
            Action::Page { tool, .. } | Action::Request { tool, .. } => tool.mcp_name(),
            Action::External { name, .. } => name,
            Action::Admit { .. } => "admit_client",
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
    /// Set when nobody answered: the question was closed (it expired, its page changed, its asker
    /// stopped waiting). `None` when the user said yes or no.
    pub closed: Option<ClosedReason>,
}

/// What the gate made of one tool.
#[derive(Debug, Clone, PartialEq)]
pub enum Gated {
    /// It ran (or failed, or the number was stale: then the result carries the fresh list).
    Ran(ToolResult),
    /// The user was asked this question (`id`); the action waits for the answer.
    Asked { id: RequestId, question: String },
    /// The user does this step: the gate refused it with this message.
    HandedOver { message: String },
}

impl Gated {
    /// The verdict as a tool's result, as the agent's model and outside clients receive it: the kind
    /// says what happened (`waiting_for_user` with the question's id, `handed_over`), the words say it
    /// to a person.
    pub fn into_result(self, words: &Words) -> ToolResult {
        match self {
            Gated::Ran(result) => result,
            Gated::Asked { id, question } => ToolResult {
                question: Some(id),
                data: Some(serde_json::json!({ "question": question })),
                ..ToolResult::failed(
                    ErrorKind::WaitingForUser,
                    say!(words, "gate-waiting", question = question.as_str()),
                )
            },
            Gated::HandedOver { message } => ToolResult::failed(ErrorKind::HandedOver, message),
        }
    }

    /// The verdict back from a result ([`Gated::into_result`]), by its kind, never by its words.
    pub fn from_result(result: ToolResult) -> Self {
        match result.kind {
            Some(ErrorKind::WaitingForUser) => Gated::Asked {
                id: result.question.unwrap_or_default(),
                question: result
                    .data
                    .as_ref()
                    .and_then(|d| d.get("question"))
                    .and_then(serde_json::Value::as_str)
                    .unwrap_or_default()
                    .to_owned(),
            },
            Some(ErrorKind::HandedOver) => Gated::HandedOver {
                message: result.error.unwrap_or_default(),
            },
            _ => Gated::Ran(result),
        }
    }
}

pub struct Gate {
    browser: Browser,
    outbox: mpsc::Sender<ToExtension>,
    questions: Mutex<Questions>,
    next_question: AtomicU64,
    provenance: Mutex<Provenance>,
    /// Whether outside MCP clients may use the browser, by program, for this browser session.
    consents: consent::Shared,
    /// The browser user's language: questions and refusals are said in it.
    language: Language,
}

impl Gate {
    /// A gate that speaks English (tests).
    #[cfg(test)]
    pub fn new(browser: Browser, outbox: mpsc::Sender<ToExtension>) -> Arc<Self> {
        Self::speaking(browser, outbox, Language::default())
    }

    /// The gate of one connection, whose user speaks `language`.
    pub fn speaking(browser: Browser, outbox: mpsc::Sender<ToExtension>, language: Language) -> Arc<Self> {
        // Question ids are unique across host restarts (a step handed to the user keeps its id in the
        // saved session): they count up from the start time in thousandths of a millisecond, below
        // 2^53 so JavaScript numbers hold them exactly.
        let start = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis() as u64)
            .unwrap_or(0)
            .saturating_mul(1_000);
        let gate = Arc::new(Self {
            browser,
            outbox,
            questions: Mutex::new(Questions::default()),
            next_question: AtomicU64::new(start.max(1)),
            provenance: Mutex::new(Provenance::default()),
            consents: consent::Shared::default(),
            language,
        });
        tokio::spawn(expire_questions(Arc::downgrade(&gate)));
        gate
    }

    /// The words to say to the browser's user now, in their language.
    pub fn words(&self) -> Arc<Words> {
        self.language.words()
    }

    /// Message `id` (one without values) in the user's language.
    fn say(&self, id: &str) -> String {
        self.words().say(id, &waymark_i18n::Args::new())
    }

    /// A new question id: the one allocator for every question (the gate's and the agent's hand-overs).
    pub fn new_question_id(&self) -> RequestId {
        self.next_question.fetch_add(1, Ordering::Relaxed)
    }

    /// The user's own words (a chat message, a goal): text that carries them is theirs, and the sites
    /// they name join every task's origins.
    pub fn note_user_words(&self, text: &str) {
        self.provenance().note_user_text(text);
    }

    /// The agent begins a new goal: the origins its data may go to are found again (the user's named
    /// sites stay).
    pub fn new_agent_task(&self) {
        self.provenance().new_task(&Task::Agent);
    }

    /// Handles a tool the user asked for in the panel.
    pub async fn user_tool(self: Arc<Self>, request: UserTool) {
        let UserTool { id, tab_id, tool } = request;
        match self.pass(tab_id, tool, Requester::Panel(id)).await {
            Gated::Ran(result) => self.reply(id, result).await,
            Gated::HandedOver { message } => {
                self.reply(id, ToolResult::failed(ErrorKind::HandedOver, message))
                    .await
            }
            // The answer to the question finishes the request.
            Gated::Asked { .. } => {}
        }
    }

    /// Judges and runs any page tool for `requester`: reading tools run at once; page-changing ones are
    /// described by the extension first and run (pinned to what was described) only if the policy
    /// allows their effect, are held for the user's yes (the question is sent here), or are refused as
    /// the user's step. This is the only way the agent and outside clients reach a page.
    pub async fn pass(&self, tab_id: Option<i32>, tool: PageTool, requester: Requester) -> Gated {
        match tool.spec().road {
            Road::Read => Gated::Ran(self.browser.run(tab_id, tool).await),
            Road::Banners { budget_ms } => Gated::Ran(self.close_banners(tab_id, budget_ms).await),
            Road::Internal => Gated::Ran(ToolResult::failed(
                ErrorKind::NotAllowed,
                self.say("gate-internal-step"),
            )),
            Road::Act => self.act(tab_id, tool, requester).await,
        }
    }

    /// A page-changing tool: previewed, judged on its effect, then run pinned, held, or handed over.
    async fn act(&self, tab_id: Option<i32>, tool: PageTool, requester: Requester) -> Gated {
        // Files that are not there are refused before anyone is asked.
        if let PageTool::Upload { paths, .. } = &tool {
            if let Err(why) = crate::transfer::check(paths) {
                return Gated::Ran(ToolResult::failed(
                    ErrorKind::BadArguments,
                    why.say(&self.words()),
                ));
            }
        }
        let effect = match self.preview(tab_id, &tool).await {
            Ok(effect) => effect,
            // A stale or missing number comes back with the page's words and the fresh list; a page
            // that cannot be described is not acted on.
            Err(result) => return Gated::Ran(result),
        };
        let words = self.words();
        if let Some(refusal) = question::not_a_file_field(&words, &tool, &effect) {
            // Nothing to ask about: the upload could not happen.
            return Gated::Ran(ToolResult::failed(ErrorKind::BadArguments, refusal));
        }
        let panel = matches!(requester, Requester::Panel(_));
        let task = Task::of(&requester);
        let mut judged = judge::judge(&words, tool, &effect);
        let mut leaving = None;
        match &task {
            // The user's own command: the page they act in is theirs, and so is a site they open.
            None => {
                let mut provenance = self.provenance();
                provenance.note_user_acted(&effect.page_url);
                if let PageTool::Navigate { url } | PageTool::OpenInNewTab { url } = &judged.tool {
                    provenance.note_user_text(url);
                }
            }
            Some(task) => {
                let mut provenance = self.provenance();
                provenance.acting(task, &effect.page_url);
                // Data that is not the user's own, leaving for an origin outside the task's set.
                if judged.decision.decision == Verdict::Allow {
                    leaving = provenance.leaving(task, &judged.tool, &effect);
                }
            }
        }
        if let Some(leaving) = &leaving {
            judged.ask(
                leaving.reason(),
                question::data_leaves(&words, &judged.tool, &effect, leaving),
            );
        }
        tracing::info!(decision = ?judged.decision.decision, "policy gate");
        tracing::debug!(reason = %judged.decision.reason, "policy gate");
        // The user's own tabs: the agent and outside clients ask before they reuse a pinned tab or open
        // a second tab on a site that is already open. (The panel's commands are the user's own choice.)
        if !panel && judged.decision.decision != Verdict::Handoff {
            if let Some((question, on_no)) = self.tab_rule(&judged.tool, &effect).await {
                tracing::info!("policy gate: a tab rule asks the user");
                let detail = question::page_detail(&words, &effect);
                let action = Action::Page {
                    tool: judged.tool,
                    pin: effect.pin,
                };
                return self.hold(requester, action, None, question, on_no, detail).await;
            }
        }
        match judged.decision.decision {
            // Allowed: it runs with its tab's requests guarded, the form it was judged to send covered.
            Verdict::Allow => match self
                .run_guarded(&judged.tool, &effect.pin, request::covered(&effect))
                .await
            {
                request::Guarded::Ran(result) => Gated::Ran(result),
                request::Guarded::Ask {
                    question,
                    action,
                    on_no,
                } => {
                    self.hold(requester, action, None, question, Some(on_no), None)
                        .await
                }
            },
            Verdict::Handoff => {
                // What a caller wanted typed into a secret field is a secret: whatever echoes it
                // later is cleaned of it (`Browser::resolve`).
                if let PageTool::OverlayAct {
                    action: ActKind::Type,
                    text: Some(text),
                    ..
                }
                | PageTool::ActByIndex {
                    action: ActKind::Type,
                    text: Some(text),
                    ..
                } = &judged.tool
                {
                    self.browser.keep_secret(text);
                }
                Gated::HandedOver {
                    message: handed_over(&words, judged.decision.handoff),
                }
            }
            Verdict::Confirm => {
                let detail = question::page_detail(&words, &effect);
                let action = Action::Page {
                    tool: judged.tool,
                    pin: effect.pin.clone(),
                };
                // At the yes it is described again, and must still be what this question says.
                let gated = self
                    .hold_described(requester, action, judged.question, detail, effect)
                    .await;
                // A yes to data leaving adds its origin to the task's set.
                if let (Gated::Asked { id, .. }, Some(task), Some(leaving)) = (&gated, task, &leaving) {
                    self.provenance().asked(*id, task, leaving);
                }
                gated
            }
        }
    }

    /// What `tool` would do, as the extension describes it.
    async fn preview(&self, tab_id: Option<i32>, tool: &PageTool) -> Result<Effect, ToolResult> {
        let preview = PageTool::Preview {
            action: Box::new(tool.clone()),
        };
        let described = self.browser.run(tab_id, preview).await;
        if described.error.is_some() {
            return Err(described);
        }
        described
            .data
            .and_then(|d| serde_json::from_value::<Effect>(d).ok())
            .ok_or_else(|| ToolResult::error(self.say("gate-preview-unreadable")))
    }

    /// The tab rules (`docs/requirements.md` "Tabs"): navigating in a pinned tab, or opening a new tab
    /// on a site another tab already shows, is asked first. Returns the question and what to say on no.
    async fn tab_rule(&self, tool: &PageTool, effect: &Effect) -> Option<(String, Option<String>)> {
        if !matches!(tool, PageTool::Navigate { .. } | PageTool::OpenInNewTab { .. }) {
            return None;
        }
        let listed = self.browser.run(Some(effect.pin.tab), PageTool::ListTabs).await;
        let tabs: Vec<question::TabInfo> = listed
            .data
            .as_ref()
            .and_then(|d| d.get("tabs"))
            .and_then(|t| serde_json::from_value(t.clone()).ok())
            .unwrap_or_default();
        match tool {
            PageTool::Navigate { url } => {
                let here = tabs
                    .iter()
                    .find(|t| t.tab_id == Some(f64::from(effect.pin.tab)))?;
                here.pinned
                    .then(|| (question::pinned_tab(&self.words(), url, here), None))
            }
            PageTool::OpenInNewTab { url } => {
                let site = question::site_of(url);
                let open = tabs
                    .iter()
                    .find(|t| !site.is_empty() && question::site_of(&t.url) == site)?;
                Some(question::second_tab(&self.words(), url, open))
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
        let question = external.question(&self.words(), name, &args);
        let action = Action::External {
            name: name.to_owned(),
            args,
        };
        self.hold(requester, action, Some(external), question, None, None)
            .await
    }

    async fn reply(&self, id: RequestId, result: ToolResult) {
        let _ = self
            .outbox
            .send(ToExtension::UserToolResult(ToolDone {
                id,
                result,
                stopped: Vec::new(),
            }))
            .await;
    }

    fn provenance(&self) -> std::sync::MutexGuard<'_, Provenance> {
        self.provenance
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// The sentence that leaves a step to the user, saying why (`why`: the policy's typed reason).
fn handed_over(words: &Words, why: Option<Handoff>) -> String {
    let secret = |kind: SecretKind| match kind {
        SecretKind::Password => "password",
        SecretKind::OneTimeCode => "code",
        SecretKind::Pin => "pin",
        SecretKind::Card => "card",
    };
    match why {
        Some(Handoff::Captcha) => say!(words, "gate-handoff-captcha"),
        Some(Handoff::Type(kind)) => say!(words, "gate-handoff-type", secret = secret(kind)),
        Some(Handoff::Choose(kind)) => say!(words, "gate-handoff-choose", secret = secret(kind)),
        Some(Handoff::CardNumber) => say!(words, "gate-handoff-card-number"),
        None => say!(words, "gate-handoff"),
    }
}

#[cfg(test)]
mod tests;
