//! The fake server itself: it listens on 127.0.0.1, routes each request (`POST /v1/chat/completions`,
//! `GET /v1/models`, and the test's own `GET /_fake/requests` and `POST /_fake/steps`), records every
//! chat-completions body, and answers each with the script's next step ([`crate::reply`]) or, once the
//! script is used up, a 500 that says so.
//!
//! What it must not do: listen anywhere but 127.0.0.1, or outlive its [`FakeLlm`] (dropping it stops
//! the server and closes its connections).

use std::collections::VecDeque;
use std::convert::Infallible;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use http_body_util::BodyExt as _;
use hyper::body::Incoming;
use hyper::{Method, Request, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::{json, Value};
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::{JoinHandle, JoinSet};

use crate::reply::{error_reply, json_reply, Reply};
use crate::script::{Script, Step};

#[derive(Debug, thiserror::Error)]
pub enum FakeLlmError {
    #[error("cannot listen on 127.0.0.1:{port}: {source}")]
    Bind { port: u16, source: std::io::Error },
}

struct State {
    steps: VecDeque<Step>,
    requests: Vec<Value>,
    /// How many requests have arrived, for whoever waits for one ([`FakeLlm::until_requests`]).
    received: watch::Sender<usize>,
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
            requests: Vec::new(),
            received: watch::channel(0).0,
            answered: 0,
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

    /// Waits until at least `n` chat-completions requests have arrived (at once if they have). It only
    /// watches a count, so a test may drop it halfway (in a `select!` or a timeout) and lose nothing.
    pub async fn until_requests(&self, n: usize) {
        let mut received = lock(&self.state).received.subscribe();
        // The sender lives in the state this server holds, so it outlives the wait: no error to see.
        let _ = received.wait_for(|&count| count >= n).await;
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
    let model = body
        .get("model")
        .and_then(Value::as_str)
        .unwrap_or("fake-model")
        .to_owned();

    let (step, number, script_len) = {
        let mut state = lock(&state);
        state.requests.push(body);
        state.received.send_replace(state.requests.len());
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
    crate::reply::answer(step.action, number, &model)
}

#[cfg(test)]
mod tests {
    use super::*;

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
            Step::text("a plain answer"),
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

        let (status, head, body) = http(addr, "POST", path, "{}").await;
        assert_eq!(status, 200);
        assert!(head.contains("application/json"), "{head}");
        let body: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(body["choices"][0]["message"]["content"], "a plain answer");

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
    async fn a_wait_for_requests_ends_when_they_arrive_and_may_be_dropped_halfway() {
        let fake = FakeLlm::start(Script::new([Step::text("one"), Step::text("two")]))
            .await
            .unwrap();
        fake.until_requests(0).await;
        let early = tokio::time::timeout(Duration::from_millis(20), fake.until_requests(1)).await;
        assert!(early.is_err(), "no request has arrived yet");
        let path = "/v1/chat/completions";
        let (ask, ()) = tokio::join!(http(fake.addr(), "POST", path, "{}"), fake.until_requests(1));
        assert_eq!(ask.0, 200);
        http(fake.addr(), "POST", path, "{}").await;
        fake.until_requests(2).await;
        assert_eq!(fake.requests().len(), 2);
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
