//! The gate's second, independent judgement: at the request. An action the policy allowed runs with
//! its tab's requests guarded (the extension stops, from the action until the tab has been quiet for a
//! moment, every request that may change something on a server, that the judged effect does not cover,
//! and that could be asked about: a `fetch` posted to an address that says nothing the policy asks
//! about goes, since stopping it would show the application a failure — see the extension's
//! `guard/rules.rs`), and whatever was stopped is judged here as an effect of its own
//! ([`crate::policy::classify_request`]): by its method, its address and its fields' names and words.
//! Whatever road the page took — a plain "OK" whose script sends DELETE, a checkbox whose listener
//! posts, a chat box outside any form — the request is where it has to pass.
//!
//! - Harmless (adding to a cart, a search, an analytics beacon): the action runs again with exactly
//!   those requests let through once, with no question. The first run's requests never left, and the
//!   page saw them fail, so running again is what makes the action do what it did for a person; a
//!   beacon alone does not run it again (the page never hears a beacon's answer, and repeating an
//!   action to deliver analytics would repeat it for nothing the user wants).
//! - Otherwise: a question saying what the page tried to send, and where; a yes runs the action again
//!   with that request (method and address, once) let through, a no leaves it stopped and says so.
//! - A navigation the browser stopped (a link that redirects to an address that deletes): its frame
//!   shows the browser's "blocked" page, so what runs again is opening that address — a GET, the very
//!   same request. A form posted as the whole tab's navigation cannot be sent again that way: it is
//!   said, not asked (the frame an action lands in keeps its own forms back before they leave, so the
//!   page stays and the action can run again; this is the browser's block behind it).
//!
//! A navigation's requests happen on the page it opens, so running it again is reloading that page
//! (going back or forward twice would go elsewhere). Must not: run anything the user did not allow
//! that the policy calls more than harmless, quote a field's value, or put an address's query values in
//! a question (they may hold anything the page knows).

use waymark_i18n::{say, Words};
use waymark_protocol::secret::values::Redactor;
use waymark_protocol::{
    changes_state, AllowedRequest, Effect, ErrorKind, Guard, PageTool, Pin, RequestKind, StoppedRequest,
    ToolResult,
};

use super::{question, Action, Gate};
use crate::policy::{self, cleaned, RequestEffect, Verdict};

/// How many times one action runs, at most, to let harmless requests through.
const MAX_RUNS: usize = 3;
/// How many field names a question names.
const NAMED_FIELDS: usize = 5;

/// What a guarded run came to.
pub(super) enum Guarded {
    /// It ran, and nothing stopped needs the user (the result of its last run).
    Ran(ToolResult),
    /// The page tried to send what the user must allow first: the question, the action to run on yes,
    /// and what the asker hears on no.
    Ask {
        question: String,
        action: Action,
        on_no: String,
    },
}

/// What the judged effect itself sends, which the guard lets through: the form a click or Enter submits
/// (its address and method), as the gate judged and allowed it.
pub(super) fn covered(effect: &Effect) -> Vec<AllowedRequest> {
    effect
        .target
        .as_ref()
        .and_then(|t| t.submits.as_ref())
        .filter(|s| !s.action.is_empty() && !matches!(s.method.to_lowercase().as_str(), "get" | "dialog"))
        .map(|s| {
            let method = if s.method.is_empty() { "post" } else { &s.method };
            vec![AllowedRequest::new(method, &s.action)]
        })
        .unwrap_or_default()
}

impl Gate {
    /// Runs `tool` where it was judged (`pin`), guarded, with `allow` covered: see the module doc.
    pub(super) async fn run_guarded(
        &self,
        tool: &PageTool,
        pin: &Pin,
        mut allow: Vec<AllowedRequest>,
    ) -> Guarded {
        let words = self.words();
        let (mut tool, mut pin) = (tool.clone(), pin.clone());
        let mut result = None;
        for _ in 0..MAX_RUNS {
            let guard = Guard { allow: allow.clone() };
            let (ran, stopped) = self.browser.run_guarded(&pin, tool.clone(), guard).await;
            if stopped.is_empty() {
                return Guarded::Ran(ran);
            }
            let mut asked: Option<(StoppedRequest, Option<RequestEffect>)> = None;
            let mut again = false;
            // A navigation the rules stopped left its frame showing the browser's "blocked" page:
            // what runs again is opening that address (a GET, so the very same request).
            let mut opened = None;
            for request in stopped {
                let navigation = matches!(request.kind, RequestKind::Page | RequestKind::Form)
                    && !changes_state(&request.method);
                if request.kind == RequestKind::Page && !navigation {
                    tracing::info!("request guard: the page posted the tab away; the browser blocked it");
                    return Guarded::Ran(blocked(&words, &request, &self.browser.redactor()));
                }
                let judged = policy::classify_request(&request);
                tracing::info!(
                    decision = ?judged.decision,
                    kind = ?request.kind,
                    method = %request.method,
                    "request guard"
                );
                tracing::debug!(reason = %judged.reason, "request guard");
                if navigation {
                    opened.get_or_insert_with(|| request.url.clone());
                }
                if judged.decision != Verdict::Allow {
                    asked.get_or_insert((request, judged.effect));
                    continue;
                }
                again |= request.kind != RequestKind::Beacon;
                allow.push(AllowedRequest::new(&request.method, &request.url));
            }
            // A navigation's requests are its new page's: run again, that page is reloaded.
            if navigates(&tool) {
                tool = PageTool::Reload;
                pin = Pin {
                    document: String::new(),
                    element: None,
                    frame: 0,
                    ..pin
                };
            }
            if let Some(url) = opened {
                tool = PageTool::Navigate { url };
                pin = Pin {
                    document: String::new(),
                    element: None,
                    frame: 0,
                    ..pin
                };
            }
            if let Some((request, effect)) = asked {
                allow.push(AllowedRequest::new(&request.method, &request.url));
                return Guarded::Ask {
                    question: ask(&words, &request, effect.as_ref(), &self.browser.redactor()),
                    on_no: said_no(&words, &request),
                    action: Action::Request { tool, pin, allow },
                };
            }
            if !again {
                return Guarded::Ran(ran);
            }
            result = Some(ran);
        }
        Guarded::Ran(result.unwrap_or_else(|| ToolResult::error(say!(words, "gate-request-gave-up"))))
    }
}

/// Whether `tool` moves the tab to another page.
fn navigates(tool: &PageTool) -> bool {
    matches!(
        tool,
        PageTool::Navigate { .. } | PageTool::Back | PageTool::Forward | PageTool::Reload
    )
}

/// The question about a stopped request: what it does, where it goes, its method and address (query
/// values left out) and the names of its fields.
fn ask(
    words: &Words,
    request: &StoppedRequest,
    effect: Option<&RequestEffect>,
    redactor: &Redactor,
) -> String {
    let site = question::site_of(&request.url).to_owned();
    let method = cleaned(&request.method, 12);
    let address = shown_address(&request.url, redactor);
    let names: Vec<String> = request
        .fields
        .iter()
        .filter(|f| !f.name.is_empty())
        .map(|f| cleaned(&f.name, 32))
        .fold(Vec::new(), |mut names, name| {
            if !names.contains(&name) {
                names.push(name);
            }
            names
        });
    let fields = if names.is_empty() {
        String::new()
    } else {
        let shown: Vec<&str> = names.iter().take(NAMED_FIELDS).map(String::as_str).collect();
        say!(words, "question-request-fields", names = shown.join(", "))
    };
    // Every question names where, how and what; the one about what it does also says the word that
    // says so.
    let args = |word: Option<&str>| {
        let args = waymark_i18n::Args::new()
            .with("site", site.clone())
            .with("method", method.clone())
            .with("address", address.clone())
            .with("fields", fields.clone());
        match word {
            Some(word) => args.with("word", policy::quoted(word)),
            None => args,
        }
    };
    match effect {
        Some(RequestEffect::Deletes { word }) => words.say("question-request-deletes", &args(Some(word))),
        Some(RequestEffect::Pays { word }) => words.say("question-request-pays", &args(Some(word))),
        Some(RequestEffect::Sends { word }) => words.say("question-request-sends", &args(Some(word))),
        Some(RequestEffect::Unknown) | None => words.say("question-request-unknown", &args(None)),
    }
}

/// What the asker hears when the user says no to a request: the action ran, its request did not leave.
fn said_no(words: &Words, request: &StoppedRequest) -> String {
    say!(
        words,
        "question-request-said-no",
        site = question::site_of(&request.url).to_owned()
    )
}

/// The refusal when the page posted the whole tab away and only the browser could stop it.
fn blocked(words: &Words, request: &StoppedRequest, redactor: &Redactor) -> ToolResult {
    let address = format!(
        "{}{}",
        question::site_of(&request.url),
        shown_address(&request.url, redactor)
    );
    ToolResult::failed(
        ErrorKind::Blocked,
        say!(words, "gate-request-blocked", address = address),
    )
}

/// An address's path, with its query's names but not their values: `/api/items/4?confirm=…`; a
/// secret value or card number in its path is taken out too (`redactor`).
fn shown_address(url: &str, redactor: &Redactor) -> String {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let path = rest.find(['/', '?']).map_or("/", |i| &rest[i..]);
    let path = waymark_protocol::request::without_fragment(path);
    let shown = match path.split_once('?') {
        None => path.to_owned(),
        Some((path, query)) => {
            let names: Vec<String> = query
                .split('&')
                .filter(|pair| !pair.is_empty())
                .map(|pair| match pair.split_once('=') {
                    Some((name, _)) => format!("{name}=…"),
                    None => pair.to_owned(),
                })
                .collect();
            format!("{path}?{}", names.join("&"))
        }
    };
    let shown = redactor.text(&shown).unwrap_or(shown);
    cleaned(&shown, 100)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_is_shown_without_its_query_values() {
        let none = Redactor::new(Vec::<String>::new());
        assert_eq!(
            shown_address(
                "https://mail.example/api/messages/42?confirm=yes&token=s3cr3t#x",
                &none
            ),
            "/api/messages/42?confirm=…&token=…"
        );
        assert_eq!(shown_address("https://mail.example", &none), "/");
        assert_eq!(shown_address("https://mail.example?x", &none), "?x");
    }

    #[test]
    fn an_address_is_shown_without_a_secret_value_or_card_number_in_its_path() {
        let known = Redactor::new(["hunter2x"]);
        assert_eq!(
            shown_address("https://bank.example/reset/hunter2x/4111111111111111", &known),
            "/reset/•••/•••"
        );
    }
}
