//! How a step is answered over HTTP, in OpenAI's chat-completions shape: a completion, an error body
//! like OpenAI's for a status, or the scripted body verbatim.
//!
//! What it must not do: decide which step comes next or keep anything (that is [`crate::server`]'s
//! job); every function here is pure but for the clock in `created`.

use std::time::{SystemTime, UNIX_EPOCH};

use bytes::Bytes;
use http_body_util::Full;
use hyper::header::{HeaderValue, CONTENT_TYPE, RETRY_AFTER};
use hyper::{Response, StatusCode};
use serde_json::{json, Value};

use crate::script::Action;

/// An HTTP answer with its whole body.
pub(crate) type Reply = Response<Full<Bytes>>;

/// The answer to request `number` (counted from 1), whose step is `action`. `model` is echoed back as
/// OpenAI does.
pub(crate) fn answer(action: Action, number: usize, model: &str) -> Reply {
    let id = format!("chatcmpl-fake-{number}");
    let id = id.as_str();
    match action {
        Action::Reply { message } => completion(id, model, normalise_message(message)),
        Action::ToolCall {
            name,
            arguments,
            id: call_id,
            content,
        } => {
            let arguments = match arguments {
                Value::String(s) => s,
                other => other.to_string(),
            };
            let message = json!({
                "role": "assistant",
                "content": content,
                "tool_calls": [{
                    "id": call_id.unwrap_or_else(|| format!("call_{number}")),
                    "type": "function",
                    "function": { "name": name, "arguments": arguments },
                }],
            });
            completion(id, model, message)
        }
        Action::BrokenToolCall { name, arguments } => {
            let message = json!({
                "role": "assistant",
                "content": null,
                "tool_calls": [{
                    "id": format!("call_{number}"),
                    "type": "function",
                    "function": { "name": name, "arguments": arguments },
                }],
            });
            completion(id, model, message)
        }
        Action::Status {
            status,
            retry_after_secs,
            body,
        } => {
            let code = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
            let mut reply = match body {
                Some(body) => raw_reply(code, "application/json", body),
                None => {
                    let kind = match status {
                        429 => "rate_limit_exceeded",
                        401 | 403 => "invalid_api_key",
                        404 => "model_not_found",
                        500..=599 => "server_error",
                        _ => "invalid_request_error",
                    };
                    error_reply(code, kind, &format!("fake-llm scripted status {status}"))
                }
            };
            if let Some(secs) = retry_after_secs {
                reply.headers_mut().insert(RETRY_AFTER, HeaderValue::from(secs));
            }
            reply
        }
        Action::Garbage { body } => raw_reply(StatusCode::OK, "application/json", body),
    }
}

/// `role` defaults to assistant and `content` to null, as OpenAI always sends both.
fn normalise_message(message: Value) -> Value {
    match message {
        Value::Object(mut map) => {
            map.entry("role").or_insert_with(|| json!("assistant"));
            map.entry("content").or_insert(Value::Null);
            Value::Object(map)
        }
        Value::String(text) => json!({ "role": "assistant", "content": text }),
        other => other,
    }
}

fn has_tool_calls(message: &Value) -> bool {
    message
        .get("tool_calls")
        .and_then(Value::as_array)
        .is_some_and(|calls| !calls.is_empty())
}

fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

fn completion(id: &str, model: &str, message: Value) -> Reply {
    let finish_reason = if has_tool_calls(&message) {
        "tool_calls"
    } else {
        "stop"
    };
    json_reply(
        StatusCode::OK,
        &json!({
            "id": id,
            "object": "chat.completion",
            "created": now_secs(),
            "model": model,
            "choices": [{ "index": 0, "message": message, "finish_reason": finish_reason }],
            "usage": { "prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0 },
        }),
    )
}

pub(crate) fn raw_reply(status: StatusCode, content_type: &'static str, body: String) -> Reply {
    let mut reply = Response::new(Full::new(Bytes::from(body)));
    *reply.status_mut() = status;
    reply
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    reply
}

pub(crate) fn json_reply(status: StatusCode, body: &Value) -> Reply {
    raw_reply(status, "application/json", body.to_string())
}

pub(crate) fn error_reply(status: StatusCode, kind: &str, message: &str) -> Reply {
    json_reply(
        status,
        &json!({ "error": { "message": message, "type": kind, "param": null, "code": null } }),
    )
}
