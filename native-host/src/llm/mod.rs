//! The LLM client: one chat-completions call to any OpenAI-compatible endpoint (Ollama, LM Studio,
//! OpenRouter, vLLM, llama.cpp, OpenAI), and a lenient reading of what comes back.
//!
//! - [`Message`] is the conversation as the agent keeps it; [`Message::to_json`] gives OpenAI's shape.
//! - [`function_tool`] turns a tool's JSON schema into an OpenAI function tool that strict servers accept.
//! - [`LlmClient::complete`] sends one request (timeout on every attempt, backoff on 429 and 5xx) and
//!   returns a [`Completion`]: the [`ModelTurn`] (one tool call, a question, done, or text) and the
//!   assistant message to append to the history. The answer comes whole: nothing is said to the user
//!   before the model's turn is complete, so a stream would only add a second way to read it.
//! - [`parse_completion`] is the pure part: native `tool_calls` (arguments as a string or an object,
//!   missing ids), and the textual fallback for models without tools (`function_call: name=… args={…}`,
//!   a `{"mode": "act"|"ask"|"done", …}` object, fenced or inside prose).
//!
//! What it must not do: guess an action from broken output (that is [`LlmError::Invalid`], for a repair
//! turn), log prompts or answers (they carry page content), or let async-openai's types out: only
//! this module knows them, so the public API is plain Rust and `serde_json::Value`.

mod client;
mod parse;
#[cfg(test)]
mod real_server;
mod said;
mod schema;

pub(crate) use client::is_loopback;
pub use client::{Backoff, LlmClient};
pub use parse::parse_completion;
pub use schema::function_tool;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// One tool call the model asked for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    /// The server's call id, or one made up when the server sent none.
    pub id: String,
    pub name: String,
    /// Always a JSON object.
    pub args: Value,
    /// `true` for OpenAI `tool_calls`; `false` for the textual fallback, whose result goes back to the
    /// model as a user message (there is no call id to answer).
    pub native: bool,
}

/// What the model wants next.
#[derive(Debug, Clone, PartialEq)]
pub enum ModelTurn {
    /// Run this one tool; `progress` is the one-line text the model gave with it, if any.
    ToolCall {
        call: ToolCall,
        progress: Option<String>,
    },
    /// The model needs information from the user (`mode: ask`).
    Ask { question: String },
    /// The model says the task is finished (`mode: done`).
    Done { reason: String },
    /// A plain answer.
    Text(String),
}

/// A model's answer, read.
#[derive(Debug, Clone, PartialEq)]
pub struct Completion {
    pub turn: ModelTurn,
    /// The assistant message to append to the history (with only the call that will be run).
    pub assistant: Message,
    /// Names of further tool calls in the same answer, which are not run (one call per iteration).
    pub dropped_calls: Vec<String>,
}

/// One message of the conversation, in the agent's terms.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "role", rename_all = "snake_case")]
pub enum Message {
    System {
        text: String,
    },
    User {
        text: String,
        /// A PNG screenshot: a `data:` URL or bare base64. Sent only to models that take images.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        screenshot: Option<String>,
    },
    Assistant {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        text: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tool_call: Option<ToolCall>,
    },
    /// The result of a [`ToolCall`].
    ToolResult {
        call_id: String,
        name: String,
        native: bool,
        content: String,
    },
}

impl Message {
    pub fn system(text: impl Into<String>) -> Self {
        Message::System { text: text.into() }
    }

    pub fn user(text: impl Into<String>) -> Self {
        Message::User {
            text: text.into(),
            screenshot: None,
        }
    }

    /// A user message with a PNG screenshot (`data:image/png;base64,…` or bare base64).
    pub fn user_with_screenshot(text: impl Into<String>, png: impl Into<String>) -> Self {
        Message::User {
            text: text.into(),
            screenshot: Some(png.into()),
        }
    }

    /// The answer to `call`: a `tool` message for a native call, a user message for a textual one.
    pub fn tool_result(call: &ToolCall, content: impl Into<String>) -> Self {
        Message::ToolResult {
            call_id: call.id.clone(),
            name: call.name.clone(),
            native: call.native,
            content: content.into(),
        }
    }

    /// OpenAI's chat-completions shape. Screenshots become an `image_url` part only when
    /// `supports_images`; otherwise they are left out.
    pub fn to_json(&self, supports_images: bool) -> Value {
        match self {
            Message::System { text } => json!({ "role": "system", "content": text }),
            Message::User { text, screenshot } => match screenshot {
                Some(png) if supports_images => json!({
                    "role": "user",
                    "content": [
                        { "type": "text", "text": text },
                        { "type": "image_url", "image_url": { "url": png_data_url(png) } },
                    ],
                }),
                _ => json!({ "role": "user", "content": text }),
            },
            Message::Assistant { text, tool_call } => match tool_call {
                // With a call and no text, content is "" rather than null: OpenAI takes either, but
                // llama-cpp-python, llama.cpp's server and LM Studio refuse the whole request over a
                // null (and some others over a missing) content.
                Some(call) if call.native => json!({
                    "role": "assistant",
                    "content": text.clone().unwrap_or_default(),
                    "tool_calls": [{
                        "id": call.id,
                        "type": "function",
                        "function": { "name": call.name, "arguments": call.args.to_string() },
                    }],
                }),
                _ => json!({ "role": "assistant", "content": text.clone().unwrap_or_default() }),
            },
            Message::ToolResult {
                call_id,
                name,
                native,
                content,
            } => {
                if *native {
                    json!({ "role": "tool", "tool_call_id": call_id, "content": content })
                } else {
                    json!({ "role": "user", "content": format!("Result of {name}:\n{content}") })
                }
            }
        }
    }
}

fn png_data_url(png: &str) -> String {
    if png.starts_with("data:") {
        png.to_owned()
    } else {
        format!("data:image/png;base64,{png}")
    }
}

/// What went wrong, worded for the person who has to fix it.
#[derive(Debug, thiserror::Error)]
pub enum LlmError {
    #[error("no LLM answered at {base_url}: is Ollama running? set WAYMARK_LLM_BASE_URL ({detail})")]
    Unreachable { base_url: String, detail: String },
    #[error(
        "the LLM at {base_url} refused the API key (HTTP {status}): set WAYMARK_LLM_API_KEY (or \
         OPENAI_API_KEY) to a valid key ({detail})"
    )]
    Auth {
        base_url: String,
        status: u16,
        detail: String,
    },
    #[error(
        "model {model} not found at {base_url} (HTTP 404): pull it (ollama pull {model}) or set \
         WAYMARK_LLM_MODEL; if it exists, check that WAYMARK_LLM_BASE_URL ends in /v1 ({detail})"
    )]
    ModelNotFound {
        model: String,
        base_url: String,
        detail: String,
    },
    #[error("model {model} does not accept tools; use a model with tool calling, or the textual fallback")]
    ToolsUnsupported { model: String },
    #[error(
        "the LLM at {base_url} is rate limiting (HTTP 429) and still was after {attempts} attempts: \
         wait a little, or check the plan of this API key ({detail})"
    )]
    RateLimited {
        base_url: String,
        attempts: u32,
        detail: String,
    },
    #[error("the LLM server at {base_url} failed (HTTP {status}) {attempts} times in a row ({detail})")]
    Server {
        base_url: String,
        status: u16,
        attempts: u32,
        detail: String,
    },
    #[error("the LLM at {base_url} rejected the request (HTTP {status}): {detail}")]
    Rejected {
        base_url: String,
        status: u16,
        detail: String,
    },
    #[error(
        "the LLM at {base_url} did not answer within {secs} s (a local model may still be loading; the \
         limit is WAYMARK_LLM_TIMEOUT_SECS or llm_timeout_secs in config.toml)"
    )]
    Timeout { base_url: String, secs: f64 },
    /// The request is longer than the model's context window: waiting or retrying cannot help.
    #[error(
        "the conversation is longer than the model at {base_url} can read ({detail}): give the model a \
         larger context (llama.cpp: --n_ctx or -c; Ollama: num_ctx), or use a model with a larger one"
    )]
    ContextOverflow { base_url: String, detail: String },
    /// The connection closed before a whole answer came: the server stopped, crashed or restarted.
    #[error(
        "the LLM server at {base_url} closed the connection before its answer was complete: did it stop \
         or crash? check that it still runs, and its log ({detail})"
    )]
    ConnectionLost { base_url: String, detail: String },
    #[error("talking to the LLM at {base_url} failed: {detail}")]
    Transport { base_url: String, detail: String },
    /// The server's answer is not a chat completion (not JSON, no choices): retrying may help.
    #[error(
        "the LLM server's answer is not a chat completion: {why} (answer began: {})",
        preview(raw)
    )]
    BadResponse { raw: String, why: String },
    /// The model's output can't be read as an action or an answer: send a repair turn; never act on it.
    #[error("the model's answer is not valid: {why} (answer began: {})", preview(raw))]
    Invalid { raw: String, why: String },
}

impl LlmError {
    /// For [`LlmError::Invalid`]: a user message asking the model to answer again, correctly.
    pub fn repair_message(&self) -> Option<Message> {
        match self {
            LlmError::Invalid { why, .. } => Some(Message::user(format!(
                "Your last answer could not be used: {why}. Nothing was done. Answer again with exactly \
                 one tool call whose arguments are a valid JSON object, or with one JSON object \
                 {{\"mode\": \"act\", \"tool\": \"…\", \"args\": {{…}}}}, {{\"mode\": \"ask\", \
                 \"question\": \"…\"}} or {{\"mode\": \"done\", \"reason\": \"…\"}}."
            ))),
            _ => None,
        }
    }
}

/// Whether a server's error text says the request did not fit the model's context window. Servers word
/// it differently: OpenAI, vLLM and llama-cpp-python (`context_length_exceeded`, "maximum context
/// length"), llama.cpp's own server (`exceed_context_size_error`, "exceeds the available context size"),
/// LM Studio ("context … overflows").
pub(crate) fn is_context_overflow(text: &str) -> bool {
    let text = text.to_ascii_lowercase();
    [
        "context_length_exceeded",
        "exceed_context_size",
        "maximum context length",
        "context window",
        "context length",
        "context size",
    ]
    .iter()
    .any(|words| text.contains(words))
        || (text.contains("context") && text.contains("overflow"))
}

/// The first 200 characters, on one line.
fn preview(raw: &str) -> String {
    let mut out: String = raw
        .chars()
        .take(200)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if raw.chars().count() > 200 {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(native: bool) -> ToolCall {
        ToolCall {
            id: "call_1".into(),
            name: "browser_click".into(),
            args: json!({"index": 3}),
            native,
        }
    }

    #[test]
    fn messages_take_openai_shape() {
        assert_eq!(
            Message::system("be brief").to_json(true),
            json!({"role": "system", "content": "be brief"})
        );
        let with_png = Message::user_with_screenshot("the page", "iVBORw0KGgo=");
        assert_eq!(
            with_png.to_json(true),
            json!({"role": "user", "content": [
                {"type": "text", "text": "the page"},
                {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
            ]})
        );
        assert_eq!(
            with_png.to_json(false),
            json!({"role": "user", "content": "the page"})
        );
        let native = Message::Assistant {
            text: None,
            tool_call: Some(call(true)),
        };
        assert_eq!(
            native.to_json(true),
            json!({"role": "assistant", "content": "", "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "browser_click", "arguments": "{\"index\":3}"}}
            ]})
        );
        assert_eq!(
            Message::tool_result(&call(true), "ok").to_json(true),
            json!({"role": "tool", "tool_call_id": "call_1", "content": "ok"})
        );
        assert_eq!(
            Message::tool_result(&call(false), "ok").to_json(true),
            json!({"role": "user", "content": "Result of browser_click:\nok"})
        );
        let textual = Message::Assistant {
            text: Some("function_call: name=browser_click args={\"index\": 3}".into()),
            tool_call: Some(call(false)),
        };
        assert_eq!(textual.to_json(true)["tool_calls"], Value::Null);
    }

    #[test]
    fn messages_round_trip_through_serde_for_the_session_file() {
        let messages = vec![
            Message::system("s"),
            Message::user_with_screenshot("u", "data:image/png;base64,AA=="),
            Message::Assistant {
                text: Some("p".into()),
                tool_call: Some(call(true)),
            },
            Message::tool_result(&call(true), "r"),
        ];
        let text = serde_json::to_string(&messages).unwrap();
        let back: Vec<Message> = serde_json::from_str(&text).unwrap();
        assert_eq!(back, messages);
    }

    #[test]
    fn only_invalid_output_gets_a_repair_message() {
        let invalid = LlmError::Invalid {
            raw: "{".into(),
            why: "the arguments are not JSON".into(),
        };
        assert!(invalid.repair_message().is_some());
        let timeout = LlmError::Timeout {
            base_url: "http://x".into(),
            secs: 1.0,
        };
        assert!(timeout.repair_message().is_none());
    }
}
