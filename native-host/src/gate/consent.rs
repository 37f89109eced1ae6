//! Whether an outside MCP client may use the browser at all: the user's answer, remembered per
//! program ([`ProgramKey`]: its executable, an interpreter's script, its user — read from the socket's
//! peer, [`crate::mcp::identity`]) for this browser session, never per the name a client gives
//! itself. Another program with an allowed client's name is asked about anew.
//!
//! Asking never holds anyone up: the answers are kept under a short lock that is never held across
//! a wait, so an allowed client's calls go on while a new client's question waits. The call that
//! raised the question waits for the answer only [`ADMIT_WAIT`] (well within the 5 s after which
//! some clients give up); then, and for any call while the question is open, the client hears at once,
//! as a retryable error of kind `awaiting_consent`, that the user is being asked. The question stays
//! for the user whether or not the client still waits: a yes given later admits the program for its
//! next call.
//!
//! What it must not do: decide by a client's own words, or let a question that closed unanswered
//! count as an answer (it is asked again on the next call).

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{mpsc, oneshot};
use waymark_i18n::say;
use waymark_protocol::{ErrorKind, ToolResult};

use super::{question, Action, Decided, Gate, Gated, Requester};
use crate::mcp::identity::{Program, ProgramKey};

/// How long the call that raised a consent question waits for the answer before it is told to try
/// again.
pub const ADMIT_WAIT: Duration = Duration::from_secs(3);

/// An outside MCP client: the name it gives (cleaned, never Waymark's) and the program it is.
#[derive(Debug, Clone)]
pub struct Client {
    pub said: String,
    pub program: Program,
}

/// The user's answer about one program.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Allowed,
    Refused,
    /// The user is being asked.
    Asking,
}

#[derive(Debug)]
struct Entry {
    state: State,
    /// Every name the program gave itself, for telling it apart from another program with one.
    names: BTreeSet<String>,
}

/// The answers of this browser session, by program.
#[derive(Debug, Default)]
pub(super) struct Consents {
    programs: HashMap<ProgramKey, Entry>,
}

/// The answers, shared with the tasks that wait for the user's yes or no.
pub(super) type Shared = Arc<Mutex<Consents>>;

fn lock(consents: &Shared) -> std::sync::MutexGuard<'_, Consents> {
    consents.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Gate {
    /// Whether the outside MCP client may use the browser. The first time its program asks, the user
    /// is asked in the panel; `Err` is the tool result the client gets instead of running its call:
    /// `not_allowed` when the user said no, `awaiting_consent` while the question is open.
    pub async fn admit(
        &self,
        client: &Client,
        cancelled: tokio_util::sync::CancellationToken,
    ) -> Result<(), ToolResult> {
        let key = client.program.key.clone();
        let found = {
            let mut consents = lock(&self.consents);
            let entry = consents.programs.entry(key.clone()).or_insert_with(|| Entry {
                state: State::Asking,
                names: BTreeSet::new(),
            });
            let new = entry.names.is_empty();
            entry.names.insert(client.said.clone());
            (!new).then_some(entry.state)
        };
        match found {
            Some(State::Allowed) => return Ok(()),
            Some(State::Refused) => return Err(self.refused(client)),
            Some(State::Asking) => return Err(self.awaiting(client)),
            None => {}
        }
        let (inbox, decided) = mpsc::unbounded_channel();
        let requester = Requester::Client {
            name: client.said.clone(),
            inbox,
        };
        let action = Action::Admit {
            client: client.said.clone(),
        };
        let (text, detail) = question::admit_client(&self.words(), client);
        let gated = self.hold(requester, action, None, text, None, Some(detail)).await;
        if let Gated::Ran(refused) = gated {
            // Not asked (too many questions wait): the next call asks again.
            lock(&self.consents).programs.remove(&key);
            return Err(refused);
        }
        let (tell, told) = oneshot::channel();
        tokio::spawn(record(self.consents.clone(), key, decided, tell));
        let decision = tokio::select! {
            decision = told => decision.ok().flatten(),
            () = tokio::time::sleep(ADMIT_WAIT) => return Err(self.awaiting(client)),
            // The client gave up: the question stays for the user.
            () = cancelled.cancelled() => return Err(self.awaiting(client)),
        };
        match decision {
            Some(decision) if decision.yes => Ok(()),
            Some(decision) if decision.closed.is_none() => Err(self.refused(client)),
            Some(decision) => Err(decision.result),
            None => Err(ToolResult::failed(
                ErrorKind::Unanswered,
                self.say("gate-host-stopping"),
            )),
        }
    }

    /// How an allowed client is named in the questions its actions ask: by the name it gives, with its
    /// program beside it when another program of this session gives the same name.
    pub fn client_label(&self, client: &Client) -> String {
        let shared = {
            let consents = lock(&self.consents);
            consents
                .programs
                .iter()
                .any(|(key, entry)| *key != client.program.key && entry.names.contains(&client.said))
        };
        if shared {
            question::client_with_program(&self.words(), client)
        } else {
            client.said.clone()
        }
    }

    fn refused(&self, client: &Client) -> ToolResult {
        ToolResult::failed(
            ErrorKind::NotAllowed,
            question::client_refused(&self.words(), &client.said),
        )
    }

    fn awaiting(&self, client: &Client) -> ToolResult {
        let words = self.words();
        ToolResult::failed(
            ErrorKind::AwaitingConsent,
            say!(words, "gate-awaiting-consent", client = client.said.as_str()),
        )
    }
}

/// Keeps the user's answer about `key` when it comes, whether or not a call still waits for it, and
/// tells the one that asked if it does. A question closed unanswered (it expired) is forgotten, so
/// the next call asks again.
async fn record(
    consents: Shared,
    key: ProgramKey,
    mut decided: mpsc::UnboundedReceiver<Decided>,
    tell: oneshot::Sender<Option<Decided>>,
) {
    let decision = decided.recv().await;
    let state = match &decision {
        Some(decision) if decision.yes => Some(State::Allowed),
        Some(decision) if decision.closed.is_none() => Some(State::Refused),
        _ => None,
    };
    {
        let mut consents = lock(&consents);
        match state {
            Some(state) => {
                if let Some(entry) = consents.programs.get_mut(&key) {
                    entry.state = state;
                }
            }
            None => {
                consents.programs.remove(&key);
            }
        }
    }
    let _ = tell.send(decision);
}

#[cfg(test)]
mod tests;
