//! How a step is answered over HTTP, in OpenAI's chat-completions shape: a completion (or the same as
//! server-sent events when the request asked for a stream), an error body like OpenAI's for a status,
//! or the scripted body verbatim.
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
/// OpenAI does; `stream` asks for server-sent events.
pub(crate) fn answer(action: Action, number: usize, model: &str, stream: bool) -> Reply {
    let id = format!("chatcmpl-fake-{number}");
    let id = id.as_str();
    match action {
        Action::Reply { message } => completion(id, model, normalise_message(message), stream),
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
            completion(id, model, message, stream)
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
            completion(id, model, message, stream)
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

fn completion(id: &str, model: &str, message: Value, stream: bool) -> Reply {
    let finish_reason = if has_tool_calls(&message) {
        "tool_calls"
    } else {
        "stop"
    };
    if stream {
        return raw_reply(
            StatusCode::OK,
            "text/event-stream",
            sse_body(id, model, &message, finish_reason),
        );
    }
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

/// The same answer as `chat.completion.chunk` events: role, content in two pieces, each tool call as a
/// header chunk (id, name) and an arguments chunk, the finish reason, then `[DONE]`.
fn sse_body(id: &str, model: &str, message: &Value, finish_reason: &str) -> String {
    let created = now_secs();
    let chunk = |delta: Value, finish: Option<&str>| {
        let chunk = json!({
            "id": id,
            "object": "chat.completion.chunk",
            "created": created,
            "model": model,
            "choices": [{ "index": 0, "delta": delta, "finish_reason": finish }],
        });
        format!("data: {chunk}\n\n")
    };
    let mut out = chunk(json!({ "role": "assistant", "content": "" }), None);
    if let Some(content) = message.get("content").and_then(Value::as_str) {
        let middle = content
            .char_indices()
            .map(|(i, _)| i)
            .nth(content.chars().count() / 2)
            .unwrap_or(0);
        let (first, second) = content.split_at(middle);
        for piece in [first, second] {
            if !piece.is_empty() {
                out.push_str(&chunk(json!({ "content": piece }), None));
            }
        }
    }
    if let Some(calls) = message.get("tool_calls").and_then(Value::as_array) {
        for (index, call) in calls.iter().enumerate() {
            let function = call.get("function").cloned().unwrap_or(Value::Null);
            let arguments = match function.get("arguments") {
                Some(Value::String(s)) => s.clone(),
                Some(other) => other.to_string(),
                None => String::new(),
            };
            out.push_str(&chunk(
                json!({ "tool_calls": [{
                    "index": index,
                    "id": call.get("id").cloned().unwrap_or(Value::Null),
                    "type": "function",
                    "function": { "name": function.get("name").cloned().unwrap_or(Value::Null), "arguments": "" },
                }] }),
                None,
            ));
            out.push_str(&chunk(
                json!({ "tool_calls": [{ "index": index, "function": { "arguments": arguments } }] }),
                None,
            ));
        }
    }
    out.push_str(&chunk(json!({}), Some(finish_reason)));
    out.push_str("data: [DONE]\n\n");
    out
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stream_body_carries_content_tool_call_and_done() {
        let message = json!({"role": "assistant", "content": "héllo", "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "browser_back", "arguments": "{}"}}
        ]});
        let body = sse_body("x", "m", &message, "tool_calls");
        let events: Vec<&str> = body
            .split("\n\n")
            .filter(|e| !e.is_empty())
            .map(|e| e.trim_start_matches("data: "))
            .collect();
        assert_eq!(events.last(), Some(&"[DONE]"));
        let chunks: Vec<Value> = events[..events.len() - 1]
            .iter()
            .map(|e| serde_json::from_str(e).unwrap())
            .collect();
        let text: String = chunks
            .iter()
            .filter_map(|c| c["choices"][0]["delta"]["content"].as_str())
            .collect();
        assert_eq!(text, "héllo");
        assert!(chunks
            .iter()
            .any(|c| c["choices"][0]["delta"]["tool_calls"][0]["function"]["name"] == "browser_back"));
        assert_eq!(
            chunks.last().unwrap()["choices"][0]["finish_reason"],
            "tool_calls"
        );
    }
}
