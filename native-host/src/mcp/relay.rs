//! The client's MCP session as `waymark-host mcp` ([`super::proxy`]) keeps it across the servers that
//! answer it in turn: a browser's host, or, while none is there, [`super::offline`]. Messages pass
//! through unchanged (one JSON-RPC message a line, as MCP's stdio transport sends them); this module
//! only remembers what a new server must hear to take the session over (the client's `initialize`
//! and `notifications/initialized`, replayed to it with the answer kept from the client, who already
//! has one), and which requests the current server has not answered, so that when it goes away each
//! of them gets an answer instead of silence.
//!
//! What it must not do: change what the client and a server say to each other, or answer for a server
//! that is still there. It does no I/O, so it is tested without any.

use std::collections::HashMap;

use serde_json::{json, Value};
use waymark_i18n::{say, Words};
use waymark_protocol::{ErrorKind, ToolResult};

use super::{catalogue, server, wording};

/// The id the replayed `initialize` goes under: no client's id, so its answer is recognised.
const REPLAY_ID: &str = "waymark-mcp-replay";

/// JSON-RPC's code for a server error, for requests other than tool calls whose server went away.
const SERVER_GONE: i64 = -32000;

/// A request the current server has not answered yet.
#[derive(Debug, Clone)]
struct Pending {
    id: Value,
    /// The tool, when the request is `tools/call`.
    tool: Option<String>,
}

#[derive(Debug, Default)]
pub struct Relay {
    initialize: Option<Value>,
    initialized: Option<Value>,
    /// Keyed by the id's JSON text, since an id may be a number or a text.
    pending: HashMap<String, Pending>,
    /// Whether the answer to a replayed `initialize` is still to be kept from the client.
    replaying: bool,
}

fn key(id: &Value) -> String {
    id.to_string()
}

/// The JSON-RPC messages of a line: one, or the members of a batch (older protocol versions).
fn messages(line: &str) -> Vec<Value> {
    match serde_json::from_str::<Value>(line) {
        Ok(Value::Array(batch)) => batch,
        Ok(message) => vec![message],
        Err(_) => Vec::new(),
    }
}

/// A request's or answer's id, when it has one that is not null.
fn id_of(message: &Value) -> Option<&Value> {
    message.get("id").filter(|id| !id.is_null())
}

impl Relay {
    /// Notes what the client sends; the line goes to the current server as it is.
    pub fn client_said(&mut self, line: &str) {
        for message in messages(line) {
            let method = message.get("method").and_then(Value::as_str);
            let id = id_of(&message);
            match (method, id) {
                (Some("initialize"), Some(_)) => self.initialize = Some(message.clone()),
                (Some("notifications/initialized"), None) => self.initialized = Some(message.clone()),
                (Some("notifications/cancelled"), None) => {
                    // A cancelled request gets no answer (MCP), so none is owed when its server goes.
                    if let Some(id) = message.pointer("/params/requestId") {
                        self.pending.remove(&key(id));
                    }
                }
                _ => {}
            }
            if let (Some(method), Some(id)) = (method, id) {
                let tool = (method == "tools/call")
                    .then(|| message.pointer("/params/name").and_then(Value::as_str))
                    .flatten()
                    .map(str::to_owned);
                self.pending.insert(key(id), Pending { id: id.clone(), tool });
            }
        }
    }

    /// What of a server's line reaches the client: all of it, but the answer to a replayed
    /// `initialize`.
    pub fn server_said(&mut self, line: &str) -> Option<String> {
        let mut messages = messages(line);
        for message in &messages {
            if message.get("method").is_none() {
                if let Some(id) = id_of(message) {
                    self.pending.remove(&key(id));
                }
            }
        }
        let replayed = |m: &Value| m.get("method").is_none() && m.get("id") == Some(&json!(REPLAY_ID));
        if self.replaying && messages.iter().any(replayed) {
            self.replaying = false;
            messages.retain(|m| !replayed(m));
            return match messages.len() {
                0 => None,
                1 => Some(messages[0].to_string()),
                _ => Some(Value::Array(messages).to_string()),
            };
        }
        Some(line.to_owned())
    }

    /// Whether the current server owes no answer (so it may be replaced without loss).
    pub fn idle(&self) -> bool {
        self.pending.is_empty() && !self.replaying
    }

    /// The lines a new server hears before the client's next message: the client's `initialize`
    /// (under [`REPLAY_ID`]) and `notifications/initialized`, as far as the client has sent them.
    pub fn replay(&mut self) -> Vec<String> {
        let mut lines = Vec::new();
        if let Some(initialize) = &self.initialize {
            let mut again = initialize.clone();
            again["id"] = json!(REPLAY_ID);
            lines.push(again.to_string());
            self.replaying = true;
        }
        if let Some(initialized) = &self.initialized {
            lines.push(initialized.to_string());
        }
        lines
    }

    /// The server went away: an answer for each request it had not answered. A tool call gets a tool
    /// error of kind `unreachable` saying whether the page may have changed; anything else a
    /// JSON-RPC error. Both can simply be tried again once a browser is back.
    pub fn lost(&mut self, words: &Words) -> Vec<String> {
        self.replaying = false;
        self.pending
            .drain()
            .map(|(_, pending)| match pending.tool {
                Some(tool) => {
                    // A tool not in the catalogue changes nothing: it is never run.
                    let changes_page = catalogue::entry(&tool).is_some_and(|e| !e.read_only());
                    let said = wording::host_gone(words, &tool, changes_page);
                    let result = server::content(&ToolResult::failed(ErrorKind::Unreachable, said));
                    json!({"jsonrpc": "2.0", "id": pending.id, "result": result}).to_string()
                }
                None => json!({"jsonrpc": "2.0", "id": pending.id, "error": {
                    "code": SERVER_GONE,
                    "message": say!(words, "mcp-host-gone-request"),
                }})
                .to_string(),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"Claude Desktop","version":"1"}}}"#;
    const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

    fn parsed(line: &str) -> Value {
        serde_json::from_str(line).unwrap()
    }

    #[test]
    fn a_new_server_hears_the_clients_handshake_and_its_answer_is_kept_from_the_client() {
        let mut relay = Relay::default();
        assert!(
            relay.replay().is_empty(),
            "nothing to replay before the client spoke"
        );
        relay.client_said(INITIALIZE);
        assert!(!relay.idle(), "the initialize is owed an answer");
        let welcome = r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18"}}"#;
        assert_eq!(relay.server_said(welcome).as_deref(), Some(welcome));
        relay.client_said(INITIALIZED);
        assert!(relay.idle());

        let replayed = relay.replay();
        assert_eq!(replayed.len(), 2);
        let again = parsed(&replayed[0]);
        assert_eq!(again["method"], "initialize");
        assert_eq!(
            again["params"]["clientInfo"]["name"], "Claude Desktop",
            "the client's own name"
        );
        assert_ne!(again["id"], 1);
        assert_eq!(parsed(&replayed[1]), parsed(INITIALIZED));
        assert!(!relay.idle());
        let answer = json!({"jsonrpc": "2.0", "id": again["id"], "result": {}}).to_string();
        assert_eq!(relay.server_said(&answer), None);
        assert!(relay.idle());
        // Anything else passes, also what looks like an answer once the replay is answered.
        assert_eq!(relay.server_said(&answer).as_deref(), Some(answer.as_str()));
    }

    #[test]
    fn what_a_server_leaves_unanswered_is_answered_when_it_goes() {
        let mut relay = Relay::default();
        relay.client_said(r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"browser_overlay_act","arguments":{"index":2,"action":"click"}}}"#);
        relay.client_said(
            r#"{"jsonrpc":"2.0","id":"r8","method":"tools/call","params":{"name":"browser_extract"}}"#,
        );
        relay.client_said(r#"{"jsonrpc":"2.0","id":9,"method":"tools/list"}"#);
        relay.client_said(
            r#"{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"browser_wait"}}"#,
        );
        relay
            .client_said(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":10}}"#);
        relay.server_said(r#"{"jsonrpc":"2.0","id":9,"result":{"tools":[]}}"#);
        assert!(!relay.idle());

        let mut answers: Vec<Value> = relay.lost(&Words::english()).iter().map(|l| parsed(l)).collect();
        answers.sort_by_key(|a| a["id"].is_string());
        assert_eq!(
            answers.len(),
            2,
            "answered and cancelled requests are owed nothing: {answers:?}"
        );
        let said = |answer: &Value| -> ToolResult {
            assert_eq!(answer["result"]["isError"], true);
            serde_json::from_str(answer["result"]["content"][0]["text"].as_str().unwrap()).unwrap()
        };
        let click = said(&answers[0]);
        assert_eq!(answers[0]["id"], 7);
        assert_eq!(click.kind, Some(ErrorKind::Unreachable));
        assert!(click.error.unwrap().contains("whether it was done is unknown"));
        let read = said(&answers[1]);
        assert_eq!(answers[1]["id"], "r8");
        assert_eq!(read.kind, Some(ErrorKind::Unreachable));
        assert!(read.error.unwrap().contains("changes nothing on the page"));
        assert!(relay.idle());
        assert!(relay.lost(&Words::english()).is_empty());
    }

    #[test]
    fn other_requests_get_a_json_rpc_error_and_a_batch_is_followed_member_by_member() {
        let mut relay = Relay::default();
        relay.client_said(
            r#"[{"jsonrpc":"2.0","id":1,"method":"tools/list"},{"jsonrpc":"2.0","id":2,"method":"ping"}]"#,
        );
        relay.server_said(r#"[{"jsonrpc":"2.0","id":2,"result":{}}]"#);
        let answers = relay.lost(&Words::english());
        assert_eq!(answers.len(), 1);
        let answer = parsed(&answers[0]);
        assert_eq!(answer["id"], 1);
        assert_eq!(answer["error"]["code"], SERVER_GONE);
        // A line that is not JSON is the server's to refuse; nothing is owed for it here.
        relay.client_said("{not json");
        assert!(relay.idle());
    }

    /// The proxy of a Russian terminal answers what the host owed in Russian.
    #[test]
    fn what_the_host_owed_is_answered_in_the_terminals_language() {
        let mut relay = Relay::default();
        relay.client_said(
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"browser_overlay_act"}}"#,
        );
        relay.client_said(
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"browser_extract"}}"#,
        );
        relay.client_said(r#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#);
        let answers = relay.lost(&Words::new("ru"));
        assert_eq!(answers.len(), 3);
        for answer in answers.iter().map(|a| parsed(a)) {
            let said = match answer["result"]["content"][0]["text"].as_str() {
                Some(text) => serde_json::from_str::<ToolResult>(text).unwrap().error.unwrap(),
                None => answer["error"]["message"].as_str().unwrap().to_owned(),
            };
            let values = [
                "browser_overlay_act",
                "browser_extract",
                "browser_list_interactives",
            ];
            assert_eq!(
                crate::language::latin_words(&said, &values),
                Vec::<String>::new(),
                "{said}"
            );
            assert!(said.starts_with("Хост Waymark в браузере пропал"), "{said}");
        }
    }
}
