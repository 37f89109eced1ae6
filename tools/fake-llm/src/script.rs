//! The script a fake server follows: one [`Step`] per chat-completions request, in order, each a reply
//! (any assistant message in OpenAI's JSON shape, or a convenient tool call) or a misbehaviour (an HTTP
//! status with an optional `Retry-After`, a body that is not JSON, a tool call whose arguments are not
//! JSON), optionally after a delay. Written in Rust with the builders on [`Step`], or as JSON (the
//! `--script` file, `POST /_fake/steps`), where each step's `kind` names its [`Action`].
//!
//! What it must not do: answer anything itself (that is [`crate::reply`]'s job) or hold state: a script
//! is plain data.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// What the server answers, one step per chat-completions request.
///
/// In JSON either a bare array of steps or `{"steps": [...]}`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(from = "ScriptRepr")]
pub struct Script {
    pub steps: Vec<Step>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum ScriptRepr {
    Bare(Vec<Step>),
    Wrapped { steps: Vec<Step> },
}

impl From<ScriptRepr> for Script {
    fn from(repr: ScriptRepr) -> Self {
        match repr {
            ScriptRepr::Bare(steps) | ScriptRepr::Wrapped { steps } => Script { steps },
        }
    }
}

impl Script {
    pub fn new(steps: impl IntoIterator<Item = Step>) -> Self {
        Script {
            steps: steps.into_iter().collect(),
        }
    }

    /// Parses a script from its JSON text.
    pub fn from_json(text: &str) -> Result<Self, serde_json::Error> {
        serde_json::from_str(text)
    }
}

impl FromIterator<Step> for Script {
    fn from_iter<I: IntoIterator<Item = Step>>(iter: I) -> Self {
        Script::new(iter)
    }
}

/// One answer: an [`Action`], optionally after `delay_ms` milliseconds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Step {
    /// Sleep this long before answering (to test the client's timeouts).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub delay_ms: u64,
    #[serde(flatten)]
    pub action: Action,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// What a step answers. In JSON the variant is the `kind` field.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Action {
    /// 200 with this assistant message (`content`, `tool_calls`, anything else a server might send, such
    /// as `reasoning_content`) as `choices[0].message`, exactly as given; `role` defaults to
    /// `assistant`.
    Reply { message: Value },
    /// 200 with one well-formed tool call: `arguments` is any JSON value (sent as a JSON string, as
    /// OpenAI does); `id` defaults to `call_N`; `content` goes beside the call.
    ToolCall {
        name: String,
        #[serde(default = "empty_object")]
        arguments: Value,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        content: Option<String>,
    },
    /// 200 with a tool call whose `arguments` string is not valid JSON.
    BrokenToolCall {
        name: String,
        #[serde(default = "broken_arguments")]
        arguments: String,
    },
    /// This HTTP status (429, 500, 401, 404, …) with an OpenAI-style error body, or `body` verbatim.
    Status {
        status: u16,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        retry_after_secs: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        body: Option<String>,
    },
    /// 200 with a body that is not JSON.
    Garbage {
        #[serde(default = "garbage_body")]
        body: String,
    },
}

fn empty_object() -> Value {
    json!({})
}

fn broken_arguments() -> String {
    r#"{"index": 3,"#.to_owned()
}

fn garbage_body() -> String {
    "<html><body>502 Bad Gateway (not JSON)</body></html>".to_owned()
}

impl Step {
    fn new(action: Action) -> Self {
        Step { delay_ms: 0, action }
    }

    /// A reply with this assistant message, as given.
    pub fn reply(message: Value) -> Self {
        Step::new(Action::Reply { message })
    }

    /// A plain text answer.
    pub fn text(content: impl Into<String>) -> Self {
        Step::reply(json!({ "role": "assistant", "content": content.into() }))
    }

    /// A well-formed tool call with these arguments.
    pub fn tool_call(name: impl Into<String>, arguments: Value) -> Self {
        Step::new(Action::ToolCall {
            name: name.into(),
            arguments,
            id: None,
            content: None,
        })
    }

    /// A tool call whose arguments are not JSON.
    pub fn broken_tool_call(name: impl Into<String>) -> Self {
        Step::new(Action::BrokenToolCall {
            name: name.into(),
            arguments: broken_arguments(),
        })
    }

    /// An HTTP error status with an OpenAI-style error body.
    pub fn status(status: u16) -> Self {
        Step::new(Action::Status {
            status,
            retry_after_secs: None,
            body: None,
        })
    }

    /// A 200 whose body is not JSON.
    pub fn garbage() -> Self {
        Step::new(Action::Garbage { body: garbage_body() })
    }

    /// Adds `Retry-After: secs` (meaningful on a [`Step::status`]).
    #[must_use]
    pub fn with_retry_after(mut self, secs: u64) -> Self {
        if let Action::Status { retry_after_secs, .. } = &mut self.action {
            *retry_after_secs = Some(secs);
        }
        self
    }

    /// Answers only after `ms` milliseconds.
    #[must_use]
    pub fn delayed(mut self, ms: u64) -> Self {
        self.delay_ms = ms;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_parses_from_both_shapes_and_every_kind() {
        let text = r#"{"steps": [
            {"kind": "reply", "message": {"content": "Hello"}},
            {"kind": "tool_call", "name": "browser_click", "arguments": {"index": 3}, "content": "Clicking 3"},
            {"kind": "broken_tool_call", "name": "browser_click"},
            {"kind": "status", "status": 429, "retry_after_secs": 1},
            {"kind": "status", "status": 500, "body": "overloaded"},
            {"kind": "garbage"},
            {"kind": "reply", "message": {"content": "late"}, "delay_ms": 2000}
        ]}"#;
        let script = Script::from_json(text).unwrap();
        assert_eq!(script.steps.len(), 7);
        assert_eq!(script.steps[3], Step::status(429).with_retry_after(1));
        assert_eq!(script.steps[6].delay_ms, 2000);
        let bare = Script::from_json(r#"[{"kind": "garbage"}]"#).unwrap();
        assert_eq!(bare.steps, vec![Step::garbage()]);
        assert!(Script::from_json(r#"[{"kind": "nonsense"}]"#).is_err());
    }
}
