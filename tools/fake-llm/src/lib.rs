//! `fake-llm`: a scripted OpenAI-compatible chat-completions server for Waymark's tests.
//!
//! It answers `POST /v1/chat/completions` (also `/chat/completions`) from a [`Script`]: one [`Step`] per
//! request, in order. A step is a reply (any assistant message in OpenAI's JSON shape, or a convenient
//! tool call) or a misbehaviour (an HTTP status with an optional `Retry-After`, a body that is not JSON,
//! a tool call whose arguments are not JSON), optionally after a delay. When the script is exhausted it
//! answers 500 with a message saying so. Every request body is recorded, so a test can check what the
//! client sent ([`FakeLlm::requests`], or `GET /_fake/requests` for tests written in other languages).
//! `POST /_fake/steps` appends steps (a script's JSON) to what is left, for a test that learns them late.
//! `GET /v1/models` lists one model. Requests with `"stream": true` get server-sent events.
//!
//! What it must not do: listen anywhere but 127.0.0.1, or reach out to any network itself. It is a test
//! tool: nothing of Waymark's runtime depends on it.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use bytes::Bytes;
use http_body_util::{BodyExt as _, Full};
use hyper::body::Incoming;
use hyper::header::{HeaderValue, CONTENT_TYPE, RETRY_AFTER};
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tokio::net::TcpListener;
use tokio::task::{JoinHandle, JoinSet};

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

#[derive(Debug, thiserror::Error)]
pub enum FakeLlmError {
    #[error("cannot listen on 127.0.0.1:{port}: {source}")]
    Bind { port: u16, source: std::io::Error },
}

#[derive(Default)]
struct State {
    steps: VecDeque<Step>,
    requests: Vec<Value>,
    answered: usize,
    script_len: usize,
}

type Shared = Arc<Mutex<State>>;

fn lock(state: &Shared) -> std::sync::MutexGuard<'_, State> {
    state.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A running fake server; it stops when dropped.
pub struct FakeLlm {
    addr: SocketAddr,
    base_url: String,
    state: Shared,
    task: JoinHandle<()>,
}

impl FakeLlm {
    /// Starts serving `script` on 127.0.0.1 at a free port, on the current tokio runtime.
    pub async fn start(script: Script) -> Result<FakeLlm, FakeLlmError> {
        FakeLlm::start_on(script, 0).await
    }

    /// Starts serving `script` on 127.0.0.1:`port` (0: a free port).
    pub async fn start_on(script: Script, port: u16) -> Result<FakeLlm, FakeLlmError> {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, port))
            .await
            .map_err(|source| FakeLlmError::Bind { port, source })?;
        let addr = listener
            .local_addr()
            .map_err(|source| FakeLlmError::Bind { port, source })?;
        let state: Shared = Arc::new(Mutex::new(State {
            script_len: script.steps.len(),
            steps: script.steps.into(),
            ..State::default()
        }));
        let task = tokio::spawn(accept_loop(listener, state.clone()));
        Ok(FakeLlm {
            addr,
            base_url: format!("http://{addr}/v1"),
            state,
            task,
        })
    }

    /// `http://127.0.0.1:PORT/v1`: what a client takes as its base URL.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Every chat-completions request body received so far, in order (a body that was not JSON is kept
    /// as a JSON string).
    pub fn requests(&self) -> Vec<Value> {
        lock(&self.state).requests.clone()
    }

    /// How many steps are still unanswered.
    pub fn remaining(&self) -> usize {
        lock(&self.state).steps.len()
    }
}

impl Drop for FakeLlm {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn accept_loop(listener: TcpListener, state: Shared) {
    // Connections live in this set, so stopping the server (aborting this task) closes them too.
    let mut connections = JoinSet::new();
    loop {
        let Ok((stream, _peer)) = listener.accept().await else {
            // E.g. out of file descriptors: wait a little instead of spinning.
            tokio::time::sleep(Duration::from_millis(10)).await;
            continue;
        };
        while connections.try_join_next().is_some() {}
        let state = state.clone();
        connections.spawn(async move {
            let service = hyper::service::service_fn(move |request| handle(request, state.clone()));
            // A client that hangs up mid-answer (e.g. after its own timeout) is not an error here.
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

type Reply = Response<Full<Bytes>>;

async fn handle(request: Request<Incoming>, state: Shared) -> Result<Reply, Infallible> {
    let method = request.method().clone();
    let path = request.uri().path().trim_end_matches('/').to_owned();
    let reply = match (method, path.as_str()) {
        (Method::POST, "/v1/chat/completions" | "/chat/completions") => chat_completion(request, state).await,
        (Method::GET, "/v1/models" | "/models") => json_reply(
            StatusCode::OK,
            &json!({
                "object": "list",
                "data": [{ "id": "fake-model", "object": "model", "created": 0, "owned_by": "fake-llm" }]
            }),
        ),
        (Method::GET, "/_fake/requests") => {
            let requests = lock(&state).requests.clone();
            json_reply(StatusCode::OK, &Value::Array(requests))
        }
        // A test that learns what the model should say only once the page is open (the numbers of its
        // controls) adds the steps then: a script in the same JSON as `--script`, appended.
        (Method::POST, "/_fake/steps") => append_steps(request, state).await,
        (method, path) => error_reply(
            StatusCode::NOT_FOUND,
            "not_found",
            &format!("fake-llm serves POST /v1/chat/completions and GET /v1/models, not {method} {path}"),
        ),
    };
    Ok(reply)
}

async fn append_steps(request: Request<Incoming>, state: Shared) -> Reply {
    let body = match request.into_body().collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(e) => {
            return error_reply(
                StatusCode::BAD_REQUEST,
                "invalid_request_error",
                &format!("fake-llm could not read the steps: {e}"),
            )
        }
    };
    match serde_json::from_slice::<Script>(&body) {
        Ok(script) => {
            let mut state = lock(&state);
            state.script_len += script.steps.len();
            state.steps.extend(script.steps);
            json_reply(StatusCode::OK, &json!({"remaining": state.steps.len()}))
        }
        Err(e) => error_reply(
            StatusCode::BAD_REQUEST,
            "invalid_request_error",
            &format!("fake-llm: the steps are not a script: {e}"),
        ),
    }
}

async fn chat_completion(request: Request<Incoming>, state: Shared) -> Reply {
    let body = match request.into_body().collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(e) => {
            return error_reply(
                StatusCode::BAD_REQUEST,
                "invalid_request_error",
                &format!("fake-llm could not read the request body: {e}"),
            )
        }
    };
    let body: Value = serde_json::from_slice(&body)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&body).into_owned()));
    let stream = body.get("stream").and_then(Value::as_bool) == Some(true);
    let model = body
        .get("model")
        .and_then(Value::as_str)
        .unwrap_or("fake-model")
        .to_owned();

    let (step, number, script_len) = {
        let mut state = lock(&state);
        state.requests.push(body);
        state.answered += 1;
        (state.steps.pop_front(), state.answered, state.script_len)
    };
    let Some(step) = step else {
        return error_reply(
            StatusCode::INTERNAL_SERVER_ERROR,
            "script_exhausted",
            &format!(
                "fake-llm: the script has {script_len} step(s), all used; request {number} was not expected"
            ),
        );
    };
    if step.delay_ms > 0 {
        tokio::time::sleep(Duration::from_millis(step.delay_ms)).await;
    }
    let id = format!("chatcmpl-fake-{number}");
    match step.action {
        Action::Reply { message } => completion(&id, &model, normalise_message(message), stream),
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
            completion(&id, &model, message, stream)
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
            completion(&id, &model, message, stream)
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

fn raw_reply(status: StatusCode, content_type: &'static str, body: String) -> Reply {
    let mut reply = Response::new(Full::new(Bytes::from(body)));
    *reply.status_mut() = status;
    reply
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    reply
}

fn json_reply(status: StatusCode, body: &Value) -> Reply {
    raw_reply(status, "application/json", body.to_string())
}

fn error_reply(status: StatusCode, kind: &str, message: &str) -> Reply {
    json_reply(
        status,
        &json!({ "error": { "message": message, "type": kind, "param": null, "code": null } }),
    )
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

    /// A minimal HTTP/1.1 exchange: (status, lower-cased head, body).
    async fn http(addr: SocketAddr, method: &str, path: &str, body: &str) -> (u16, String, String) {
        use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
        let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).await.unwrap();
        let (head, body) = answer.split_once("\r\n\r\n").unwrap();
        let status = head.split(' ').nth(1).unwrap().parse().unwrap();
        (status, head.to_ascii_lowercase(), body.to_owned())
    }

    #[tokio::test]
    async fn serves_steps_in_order_and_records_requests() {
        let fake = FakeLlm::start(Script::new([
            Step::tool_call("browser_click", json!({"index": 3})),
            Step::status(429).with_retry_after(2),
            Step::garbage(),
            Step::broken_tool_call("browser_click"),
            Step::text("streamed answer"),
        ]))
        .await
        .unwrap();
        assert!(fake.base_url().starts_with("http://127.0.0.1:"));
        assert!(fake.base_url().ends_with("/v1"));
        let addr = fake.addr();
        let path = "/v1/chat/completions";

        let (status, _, body) = http(addr, "POST", path, r#"{"model":"m","messages":[]}"#).await;
        assert_eq!(status, 200);
        let body: Value = serde_json::from_str(&body).unwrap();
        let call = &body["choices"][0]["message"]["tool_calls"][0];
        assert_eq!(call["function"]["name"], "browser_click");
        assert_eq!(call["function"]["arguments"], "{\"index\":3}");
        assert_eq!(body["choices"][0]["finish_reason"], "tool_calls");
        assert_eq!(body["model"], "m");

        let (status, head, body) = http(addr, "POST", path, "{}").await;
        assert_eq!(status, 429);
        assert!(head.contains("retry-after: 2"), "{head}");
        assert!(body.contains("rate_limit_exceeded"), "{body}");

        let (status, _, body) = http(addr, "POST", path, "not json either").await;
        assert_eq!(status, 200);
        assert!(serde_json::from_str::<Value>(&body).is_err());

        let (_, _, body) = http(addr, "POST", path, "{}").await;
        let body: Value = serde_json::from_str(&body).unwrap();
        let arguments = body["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"]
            .as_str()
            .unwrap();
        assert!(serde_json::from_str::<Value>(arguments).is_err());

        let (status, head, body) = http(addr, "POST", path, r#"{"stream": true}"#).await;
        assert_eq!(status, 200);
        assert!(head.contains("text/event-stream"), "{head}");
        assert!(
            body.contains("answer") && body.trim_end().ends_with("data: [DONE]"),
            "{body}"
        );

        let (status, _, body) = http(addr, "POST", path, "{}").await;
        assert_eq!(status, 500);
        assert!(body.contains("all used; request 6 was not expected"), "{body}");
        assert_eq!(fake.remaining(), 0);

        let requests = fake.requests();
        assert_eq!(requests.len(), 6);
        assert_eq!(requests[0]["model"], "m");
        assert_eq!(requests[2], json!("not json either"));

        let (status, _, body) = http(addr, "GET", "/_fake/requests", "").await;
        assert_eq!(status, 200);
        assert_eq!(
            serde_json::from_str::<Value>(&body).unwrap(),
            Value::Array(requests)
        );
        let (status, _, body) = http(addr, "GET", "/v1/models", "").await;
        assert_eq!(status, 200);
        assert!(body.contains("fake-model"));
        let (status, _, _) = http(addr, "GET", "/elsewhere", "").await;
        assert_eq!(status, 404);
    }

    #[tokio::test]
    async fn steps_added_later_are_answered_after_the_script() {
        let fake = FakeLlm::start(Script::new([Step::text("first")])).await.unwrap();
        let steps =
            r#"{"steps": [{"kind": "tool_call", "name": "browser_find", "arguments": {"text": "x"}}]}"#;
        let (status, _, body) = http(fake.addr(), "POST", "/_fake/steps", steps).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(fake.remaining(), 2);
        let path = "/v1/chat/completions";
        let (_, _, body) = http(fake.addr(), "POST", path, "{}").await;
        assert!(body.contains("first"), "{body}");
        let (_, _, body) = http(fake.addr(), "POST", path, "{}").await;
        assert!(body.contains("browser_find"), "{body}");
        let (status, _, _) = http(fake.addr(), "POST", "/_fake/steps", "[{\"kind\": \"nonsense\"}]").await;
        assert_eq!(status, 400);
    }

    #[tokio::test]
    async fn a_delayed_step_answers_late() {
        let fake = FakeLlm::start(Script::new([Step::text("late").delayed(150)]))
            .await
            .unwrap();
        let started = std::time::Instant::now();
        let (status, _, _) = http(fake.addr(), "POST", "/v1/chat/completions", "{}").await;
        assert_eq!(status, 200);
        assert!(started.elapsed() >= Duration::from_millis(150));
    }
}
