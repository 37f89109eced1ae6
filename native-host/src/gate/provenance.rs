//! Where data may go: the roads by which the agent or an outside client could carry what it read on
//! pages to another site — an address it opens (a navigation, a new tab), text it types into a field
//! of another origin (a frame is its own origin: a widget that sends every keystroke to its server),
//! a form it sends to another origin — and the origins each task may send to.
//!
//! Each task ([`Task`]: the agent's goal, each outside client) has an origin set: the origins the user
//! named (in their messages or their own commands, `shop.example` or an address) or acted in (their
//! own commands' pages, and the page a task first acted on: the one in front of the user), and those
//! the user said yes to sending to. "Linked from a page" or "visited before" is not "named by the
//! user". Text that is not the user's own, long enough to carry something ([`MIN_CARRIED`]), going to
//! an origin outside the set is asked about ([`Leaving`]), and a yes adds that origin to the task's set.
//!
//! "Not the user's own" is decided against what the user wrote, never by recognising page text: the
//! words of the text (runs of letters and digits, in any case) that the user never wrote are what it
//! carries, however the model re-cased, re-spaced or split them. A search for the user's own words goes
//! at once; a search form on a site of the set stays silent.
//!
//! It keeps only what it needs: the user's words (lower case, bounded), the sites they named and the
//! origins they acted in, and per task its origins. Never page text.

use std::collections::{HashMap, HashSet, VecDeque};

use waymark_protocol::text::form_decode;
use waymark_protocol::{ActKind, Effect, PageTool, RequestId};

use super::Requester;

/// How many of the user's words are remembered (the oldest go first).
const MAX_WORDS: usize = 4_000;
/// How many sites the user named, and origins they acted in, are remembered.
const MAX_SITES: usize = 1_000;
/// How many tasks keep their origins (outside clients come and go).
const MAX_TASKS: usize = 64;
/// How many questions about data leaving wait for their answer here.
const MAX_PENDING: usize = 16;
/// Text carrying fewer letters and digits than this that are not the user's words carries nothing
/// worth asking about (`q`, `en`, a page number).
pub const MIN_CARRIED: usize = 6;
/// How much of what would leave a question quotes.
const SHOWN_CHARS: usize = 60;

/// Parts of addresses that are structure, not content.
const STRUCTURE: &[&str] = &[
    "www", "http", "https", "html", "htm", "php", "asp", "aspx", "jsp", "index", "search", "query",
    "results", "wiki", "page", "pages", "lang", "utf", "amp", "ref", "src", "tab", "view", "web", "home",
];

/// Whose work an action is: each has its own origin set.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Task {
    /// The agent's current goal (a new goal starts a new set).
    Agent,
    /// An outside MCP client, by the name the gate knows it by (its program beside a shared name).
    Client(String),
}

impl Task {
    /// The task an action is for; the user's own commands in the panel are no task of this kind: what
    /// they carry is the user's.
    pub fn of(requester: &Requester) -> Option<Task> {
        match requester {
            Requester::Panel(_) => None,
            Requester::Agent(_) => Some(Task::Agent),
            Requester::Client { name, .. } => Some(Task::Client(name.clone())),
        }
    }
}

/// How data would leave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Carrier {
    /// In an address opened (a navigation, a new tab).
    Address,
    /// Typed into a field of another origin.
    Typing,
    /// In a form sent to another origin.
    Form,
}

/// Data that would leave for an origin outside the task's set: what (the words that are not the
/// user's, shortened), where (the host, with its port when it has one of its own, and the origin a yes
/// adds) and how.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leaving {
    pub carrier: Carrier,
    pub words: String,
    pub host: String,
    pub origin: String,
}

impl Leaving {
    /// The policy's reason, for the log (no page text: the carrier and the host).
    pub fn reason(&self) -> String {
        let how = match self.carrier {
            Carrier::Address => "its address carries",
            Carrier::Typing => "typing it sends",
            Carrier::Form => "the form sends",
        };
        format!(
            "{how} words that are not the user's to {}, outside the task's origins",
            self.host
        )
    }
}

/// One task's origins.
#[derive(Debug, Default)]
struct Origins {
    /// The origin of the page the task first acted on: the one in front of the user.
    home: Option<String>,
    /// Origins the user said yes to sending to.
    granted: HashSet<String>,
}

#[derive(Default)]
pub struct Provenance {
    /// Hosts the user named (a host stands for its subdomains too).
    named: Bounded,
    /// Origins the user acted in with their own commands.
    acted: Bounded,
    /// The user's own words.
    words: Bounded,
    tasks: HashMap<Task, Origins>,
    task_order: VecDeque<Task>,
    /// Questions about data leaving, by id: the task and the origin a yes adds.
    pending: VecDeque<(RequestId, Task, String)>,
}

/// A set that forgets its oldest entries past a bound.
#[derive(Default)]
struct Bounded {
    set: HashSet<String>,
    order: VecDeque<String>,
}

impl Bounded {
    fn insert(&mut self, item: String, bound: usize) {
        if self.set.insert(item.clone()) {
            self.order.push_back(item);
            if self.order.len() > bound {
                if let Some(old) = self.order.pop_front() {
                    self.set.remove(&old);
                }
            }
        }
    }

    fn contains(&self, item: &str) -> bool {
        self.set.contains(item)
    }
}

impl Provenance {
    /// The user wrote this (a message, a goal, an address in their own command): its words are theirs,
    /// and the sites it names (`shop.example`, an address) are sites they named.
    pub fn note_user_text(&mut self, text: &str) {
        for word in words_of(text) {
            self.words.insert(word, MAX_WORDS);
        }
        for token in text.split_whitespace() {
            let token = token.trim_matches(|c: char| !c.is_alphanumeric());
            if let Some(host) = host_of(token).or_else(|| bare_host(token)) {
                self.named.insert(host, MAX_SITES);
            }
        }
    }

    /// The user acted in the page at `url` with their own command: its origin is theirs.
    pub fn note_user_acted(&mut self, url: &str) {
        if let Some(origin) = origin_of(url) {
            self.acted.insert(origin, MAX_SITES);
        }
    }

    /// The agent starts a new goal: its origins are found again.
    pub fn new_task(&mut self, task: &Task) {
        self.tasks.remove(task);
    }

    /// A question `id` was asked about `leaving` for `task`: a yes adds its origin to the task's set.
    pub fn asked(&mut self, id: RequestId, task: Task, leaving: &Leaving) {
        self.pending.push_back((id, task, leaving.origin.clone()));
        if self.pending.len() > MAX_PENDING {
            self.pending.pop_front();
        }
    }

    /// The user said yes to question `id`: if it was about data leaving, its origin joins the task's set.
    pub fn said_yes(&mut self, id: RequestId) {
        if let Some(at) = self.pending.iter().position(|(asked, ..)| *asked == id) {
            if let Some((_, task, origin)) = self.pending.remove(at) {
                self.origins(&task).granted.insert(origin);
            }
        }
    }

    /// `task` acts on the page at `page_url`: the first page a task acts on (the one in front of the
    /// user when it began) is the task's own.
    pub fn acting(&mut self, task: &Task, page_url: &str) {
        let page = origin_of(page_url);
        let origins = self.origins(task);
        if origins.home.is_none() {
            origins.home = page;
        }
    }

    /// Whether `tool`, judged on `effect` for `task`, would carry words that are not the user's to an
    /// origin outside the task's set, and which.
    pub fn leaving(&self, task: &Task, tool: &PageTool, effect: &Effect) -> Option<Leaving> {
        let (carrier, destination, text) = carried(tool, effect)?;
        let parsed = url::Url::parse(&destination).ok()?;
        let host = parsed.host_str()?.to_lowercase();
        let origin = parsed.origin().ascii_serialization();
        if !parsed.origin().is_tuple() || self.in_set(task, &host, &origin) {
            return None;
        }
        let words = match carrier {
            Carrier::Address => self.not_the_users(&text, &words_of(&host).collect::<HashSet<_>>()),
            Carrier::Typing | Carrier::Form => self.not_the_users(&text, &HashSet::new()),
        }?;
        // Named as people see it in the address bar: with its port when it has one of its own.
        let shown = match parsed.port() {
            Some(port) => format!("{host}:{port}"),
            None => host,
        };
        Some(Leaving {
            carrier,
            words,
            host: shown,
            origin,
        })
    }

    fn origins(&mut self, task: &Task) -> &mut Origins {
        if !self.tasks.contains_key(task) {
            self.task_order.push_back(task.clone());
            if self.task_order.len() > MAX_TASKS {
                if let Some(old) = self.task_order.pop_front() {
                    self.tasks.remove(&old);
                }
            }
        }
        self.tasks.entry(task.clone()).or_default()
    }

    /// Whether an origin is in the task's set: named by the user (its host or a part of it), acted in
    /// by the user, the page the task began on, or said yes to.
    fn in_set(&self, task: &Task, host: &str, origin: &str) -> bool {
        let task_has = self
            .tasks
            .get(task)
            .is_some_and(|o| o.home.as_deref() == Some(origin) || o.granted.contains(origin));
        task_has || self.acted.contains(origin) || self.named.order.iter().any(|site| same_site(site, host))
    }

    /// The words of `text` that the user never wrote (and that are not `also_theirs`, nor the
    /// structure of an address), joined by spaces and shortened, when they carry at least
    /// [`MIN_CARRIED`] letters and digits.
    fn not_the_users(&self, text: &str, also_theirs: &HashSet<String>) -> Option<String> {
        let foreign: Vec<String> = words_of(text)
            .filter(|w| {
                !self.words.contains(w) && !also_theirs.contains(w) && !STRUCTURE.contains(&w.as_str())
            })
            .collect();
        let carried: usize = foreign.iter().map(|w| w.chars().count()).sum();
        (carried >= MIN_CARRIED).then(|| {
            let joined = foreign.join(" ");
            match joined.char_indices().nth(SHOWN_CHARS) {
                Some((cut, _)) => format!("{}…", &joined[..cut]),
                None => joined,
            }
        })
    }
}

/// What `tool` would send and where: the carrier, the address it goes to, and the text it carries.
fn carried(tool: &PageTool, effect: &Effect) -> Option<(Carrier, String, String)> {
    let target = effect.target.as_ref();
    // Where a field's text goes: its own frame's origin (a frame without one, such as `about:blank`,
    // is its page's).
    let frame = || {
        target
            .map(|t| t.url.clone())
            .filter(|u| origin_of(u).is_some())
            .unwrap_or_else(|| effect.page_url.clone())
    };
    let form = || {
        let submits = target?.submits.as_ref()?;
        let action = if submits.action.is_empty() {
            frame()
        } else {
            submits.action.clone()
        };
        Some((Carrier::Form, action, submits.carries.join(" ")))
    };
    match tool {
        PageTool::Navigate { url } | PageTool::OpenInNewTab { url } => {
            let parsed = url::Url::parse(url).ok()?;
            let text = [
                parsed.path(),
                parsed.query().unwrap_or_default(),
                parsed.fragment().unwrap_or_default(),
            ]
            // `%XX` and `+` decoded, so "cheap+flights" and "cheap%20flights" give the same words.
            .map(form_decode)
            .join(" ");
            Some((Carrier::Address, url.clone(), text))
        }
        PageTool::OverlayAct {
            action: ActKind::Type,
            text: Some(text),
            ..
        }
        | PageTool::ActByIndex {
            action: ActKind::Type,
            text: Some(text),
            ..
        } => {
            // A line break sends the field's form with the text in it.
            if text.contains(['\n', '\r']) {
                if let Some((carrier, action, held)) = form() {
                    return Some((carrier, action, format!("{held} {text}")));
                }
            }
            Some((Carrier::Typing, frame(), text.clone()))
        }
        PageTool::OverlayAct {
            action: ActKind::Click,
            ..
        }
        | PageTool::ActByIndex {
            action: ActKind::Click,
            ..
        }
        | PageTool::ClickAndWaitDownload { .. }
        | PageTool::Press { .. } => form(),
        _ => None,
    }
}

/// Whether two hosts are the same site: equal, or one a subdomain of the other.
fn same_site(a: &str, b: &str) -> bool {
    a == b || a.ends_with(&format!(".{b}")) || b.ends_with(&format!(".{a}"))
}

/// The host of an absolute address, lower case.
fn host_of(url: &str) -> Option<String> {
    let parsed = url::Url::parse(url).ok()?;
    let host = parsed.host_str()?.to_lowercase();
    (!host.is_empty()).then_some(host)
}

/// The origin of an absolute address (`https://shop.example:8443`); none for `about:`, `data:` and
/// the like.
fn origin_of(url: &str) -> Option<String> {
    let origin = url::Url::parse(url).ok()?.origin();
    origin.is_tuple().then(|| origin.ascii_serialization())
}

/// A bare host as people write one ("shop.example", "www.amazon.de"): letters, digits, dots and dashes,
/// with a dot and a top-level part of letters.
fn bare_host(token: &str) -> Option<String> {
    let token = token.to_lowercase();
    let (_, top) = token.rsplit_once('.')?;
    let plausible = top.len() >= 2
        && top.chars().all(|c| c.is_ascii_alphabetic())
        && token
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-')
        && !token.starts_with('.');
    plausible.then_some(token)
}

/// The words of a text: runs of letters and digits, in lower case.
fn words_of(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
}

#[cfg(test)]
mod tests;
