//! The HTTP side of the LLM client, on async-openai's BYOT API (`serde_json::Value` in and out, so the
//! quirks of Ollama, LM Studio or OpenRouter never break deserialisation).
//!
//! async-openai's own retry layer is replaced by a plain HTTP service that turns every non-2xx answer
//! into a typed failure (status, `Retry-After`, body) and refuses bodies that are not JSON before
//! async-openai sees them; [`LlmClient::complete`] then retries 429 and 5xx with [`Backoff`], and puts
//! a timeout on every attempt. What it must not do: log what is sent or received (page content), or
//! let async-openai or reqwest types out of this module.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use async_openai::config::OpenAIConfig;
use async_openai::error::OpenAIError;
use async_openai::middleware::HttpRequestFactory;
use serde_json::{json, Value};

use super::{parse_completion, Completion, LlmError, Message};
use crate::config::Config;

/// How 429 and 5xx answers are retried: one delay per retry (so `delays.len()` retries at most), or the
/// server's `Retry-After` seconds when it sends them, capped at `max_retry_after`.
#[derive(Debug, Clone, PartialEq)]
pub struct Backoff {
    pub delays: Vec<Duration>,
    pub max_retry_after: Duration,
}

impl Default for Backoff {
    /// 0.5 s, 1 s, 2 s, 4 s; `Retry-After` up to a minute.
    fn default() -> Self {
        Backoff {
            delays: [500, 1000, 2000, 4000]
                .into_iter()
                .map(Duration::from_millis)
                .collect(),
            max_retry_after: Duration::from_secs(60),
        }
    }
}

/// A client for one OpenAI-compatible endpoint and model.
pub struct LlmClient {
    client: async_openai::Client<OpenAIConfig>,
    base_url: String,
    model: String,
    timeout: Duration,
    supports_images: bool,
    backoff: Backoff,
}

impl fmt::Debug for LlmClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // No API key here, ever.
        f.debug_struct("LlmClient")
            .field("base_url", &self.base_url)
            .field("model", &self.model)
            .field("timeout", &self.timeout)
            .field("supports_images", &self.supports_images)
            .field("backoff", &self.backoff)
            .finish_non_exhaustive()
    }
}

impl LlmClient {
    pub fn new(config: &Config) -> Result<LlmClient, LlmError> {
        let base_url = config.llm_base_url.trim_end_matches('/').to_owned();
        let timeout = Duration::from_secs(config.llm_timeout_secs.max(1));
        let openai = OpenAIConfig::new()
            .with_api_base(base_url.clone())
            .with_api_key(config.llm_api_key.clone().unwrap_or_default())
            // OpenAIConfig reads OPENAI_ORG_ID / OPENAI_PROJECT_ID: never send those to another server.
            .with_org_id("")
            .with_project_id("");
        let mut http = reqwest::Client::builder().connect_timeout(timeout.min(Duration::from_secs(10)));
        if is_loopback(&base_url) {
            // A system proxy must not swallow requests meant for a model on this machine.
            http = http.no_proxy();
        }
        let http = http.build().map_err(|e| LlmError::Transport {
            base_url: base_url.clone(),
            detail: error_chain(&e),
        })?;
        let client = async_openai::Client::with_config(openai).with_http_service(PlainHttp { http });
        Ok(LlmClient {
            client,
            base_url,
            model: config.llm_model.clone(),
            timeout,
            supports_images: config.llm_supports_images,
            backoff: Backoff::default(),
        })
    }

    /// Replaces the timeout of each attempt (tests use short ones).
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Replaces the retry delays (tests use short ones).
    #[must_use]
    pub fn with_backoff(mut self, backoff: Backoff) -> Self {
        self.backoff = backoff;
        self
    }

    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    pub fn model(&self) -> &str {
        &self.model
    }

    pub fn supports_images(&self) -> bool {
        self.supports_images
    }

    /// The request body [`LlmClient::complete`] sends: model, messages, tools (when any), no streaming.
    pub fn request_body(&self, messages: &[Message], tools: &[Value]) -> Value {
        let messages: Vec<Value> = messages.iter().map(|m| m.to_json(self.supports_images)).collect();
        let mut body = json!({ "model": self.model, "messages": messages, "stream": false });
        if !tools.is_empty() {
            body["tools"] = Value::Array(tools.to_vec());
        }
        body
    }

    /// One model turn. `tools` are OpenAI function tools (see [`super::function_tool`]); a call to any
    /// other name is [`LlmError::Invalid`].
    pub async fn complete(&self, messages: &[Message], tools: &[Value]) -> Result<Completion, LlmError> {
        let body = self.send(&self.request_body(messages, tools)).await?;
        let names: Vec<&str> = tools
            .iter()
            .filter_map(|tool| tool.pointer("/function/name").and_then(Value::as_str))
            .collect();
        parse_completion(&body, &names)
    }

    /// Sends `request`, retrying 429 and 5xx; every attempt has the timeout.
    async fn send(&self, request: &Value) -> Result<Value, LlmError> {
        let mut retries = 0_usize;
        loop {
            let chat = self.client.chat();
            let attempt = chat.create_byot::<&Value, Value>(request);
            let error = match tokio::time::timeout(self.timeout, attempt).await {
                Ok(Ok(body)) => return Ok(body),
                Ok(Err(error)) => error,
                Err(_elapsed) => return Err(self.timeout_error()),
            };
            let (status, retry_after, detail) = match self.classify(error) {
                Failure::Final(error) => return Err(error),
                Failure::Retry {
                    status,
                    retry_after,
                    detail,
                } => (status, retry_after, detail),
            };
            let Some(delay) = self.backoff.delays.get(retries) else {
                let attempts = u32::try_from(retries + 1).unwrap_or(u32::MAX);
                return Err(if status == 429 {
                    LlmError::RateLimited {
                        base_url: self.base_url.clone(),
                        attempts,
                        detail,
                    }
                } else {
                    LlmError::Server {
                        base_url: self.base_url.clone(),
                        status,
                        attempts,
                        detail,
                    }
                });
            };
            let delay = retry_after.map_or(*delay, |d| d.min(self.backoff.max_retry_after));
            retries += 1;
            tracing::warn!(
                status,
                retry = retries,
                delay_ms = u64::try_from(delay.as_millis()).unwrap_or(u64::MAX),
                "the LLM server is busy or failing; retrying"
            );
            tokio::time::sleep(delay).await;
        }
    }

    fn timeout_error(&self) -> LlmError {
        LlmError::Timeout {
            base_url: self.base_url.clone(),
            secs: self.timeout.as_secs_f64(),
        }
    }

    fn classify(&self, error: OpenAIError) -> Failure {
        let base_url = self.base_url.clone();
        match error {
            OpenAIError::Boxed(boxed) => match boxed.downcast::<HttpFailure>() {
                Ok(failure) => match *failure {
                    HttpFailure::Status {
                        status,
                        retry_after,
                        body,
                    } => self.status_failure(status, retry_after, &body),
                    HttpFailure::NotJson { body, why } => Failure::Final(LlmError::BadResponse {
                        raw: body,
                        why: format!("the body is not JSON ({why})"),
                    }),
                },
                Err(other) => Failure::Final(LlmError::Transport {
                    base_url,
                    detail: other.to_string(),
                }),
            },
            OpenAIError::Reqwest(e) if e.is_connect() => Failure::Final(LlmError::Unreachable {
                base_url,
                detail: error_chain(&e),
            }),
            OpenAIError::Reqwest(e) if e.is_timeout() => Failure::Final(self.timeout_error()),
            OpenAIError::Reqwest(e) => Failure::Final(LlmError::Transport {
                base_url,
                detail: error_chain(&e),
            }),
            OpenAIError::JSONDeserialize(e, raw) => Failure::Final(LlmError::BadResponse {
                raw,
                why: format!("the body is not JSON ({e})"),
            }),
            // Not produced with `PlainHttp` in place; mapped the same way in case that changes.
            OpenAIError::ApiError(api) => {
                self.status_failure(api.status_code.as_u16(), None, &api.api_error.message)
            }
            other => Failure::Final(LlmError::Transport {
                base_url,
                detail: other.to_string(),
            }),
        }
    }

    fn status_failure(&self, status: u16, retry_after: Option<Duration>, body: &str) -> Failure {
        let detail = error_detail(body);
        let base_url = self.base_url.clone();
        match status {
            // OpenAI's 429 for an exhausted quota will not get better by waiting.
            429 if body.contains("insufficient_quota") => Failure::Final(LlmError::RateLimited {
                base_url,
                attempts: 1,
                detail,
            }),
            429 | 500..=599 => Failure::Retry {
                status,
                retry_after,
                detail,
            },
            401 | 403 => Failure::Final(LlmError::Auth {
                base_url,
                status,
                detail,
            }),
            404 => Failure::Final(LlmError::ModelNotFound {
                model: self.model.clone(),
                base_url,
                detail,
            }),
            400 if detail.to_ascii_lowercase().contains("does not support tools") => {
                Failure::Final(LlmError::ToolsUnsupported {
                    model: self.model.clone(),
                })
            }
            _ => Failure::Final(LlmError::Rejected {
                base_url,
                status,
                detail,
            }),
        }
    }
}

enum Failure {
    Retry {
        status: u16,
        retry_after: Option<Duration>,
        detail: String,
    },
    Final(LlmError),
}

/// The server's own words: `error.message` of an OpenAI-style error body, else the body's beginning.
fn error_detail(body: &str) -> String {
    let parsed: Option<Value> = serde_json::from_str(body).ok();
    let message = parsed.as_ref().and_then(|v| {
        v.pointer("/error/message")
            .or_else(|| v.get("error"))
            .or_else(|| v.get("message"))
            .and_then(Value::as_str)
    });
    let text = message.unwrap_or(body).trim();
    if text.is_empty() {
        return "no details".to_owned();
    }
    let mut out: String = text.chars().take(300).collect();
    if text.chars().count() > 300 {
        out.push('…');
    }
    out
}

/// An error and its sources, e.g. "error sending request …: tcp connect error: Connection refused".
fn error_chain(error: &dyn std::error::Error) -> String {
    let mut out = error.to_string();
    let mut source = error.source();
    while let Some(e) = source {
        let text = e.to_string();
        if !out.contains(&text) {
            out.push_str(": ");
            out.push_str(&text);
        }
        source = e.source();
    }
    out
}

fn is_loopback(base_url: &str) -> bool {
    let rest = base_url
        .strip_prefix("http://")
        .or_else(|| base_url.strip_prefix("https://"))
        .unwrap_or(base_url);
    let authority = rest.split('/').next().unwrap_or(rest);
    let host = match authority.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(v6),
        None => authority.split(':').next().unwrap_or(authority),
    };
    host.eq_ignore_ascii_case("localhost")
        || host.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// Why an HTTP exchange did not give a usable body; travels inside `OpenAIError::Boxed`.
#[derive(Debug, thiserror::Error)]
enum HttpFailure {
    #[error("HTTP {status}")]
    Status {
        status: u16,
        retry_after: Option<Duration>,
        body: String,
    },
    #[error("the body is not JSON: {why}")]
    NotJson { body: String, why: String },
}

/// The HTTP service under async-openai: plain reqwest, no retries (the client does its own), and a
/// typed [`HttpFailure`] for every non-2xx status or non-JSON body.
#[derive(Clone)]
struct PlainHttp {
    http: reqwest::Client,
}

type HttpFuture = Pin<Box<dyn Future<Output = Result<reqwest::Response, OpenAIError>> + Send>>;

impl tower::Service<HttpRequestFactory> for PlainHttp {
    type Response = reqwest::Response;
    type Error = OpenAIError;
    type Future = HttpFuture;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, factory: HttpRequestFactory) -> Self::Future {
        let http = self.http.clone();
        Box::pin(async move {
            let request = factory.build().await?;
            let response = http.execute(request).await.map_err(OpenAIError::Reqwest)?;
            let status = response.status();
            let retry_after = response
                .headers()
                .get(reqwest::header::RETRY_AFTER)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.trim().parse::<u64>().ok())
                .map(Duration::from_secs);
            let bytes = response.bytes().await.map_err(OpenAIError::Reqwest)?;
            let text = || String::from_utf8_lossy(&bytes).into_owned();
            if !status.is_success() {
                return Err(OpenAIError::Boxed(Box::new(HttpFailure::Status {
                    status: status.as_u16(),
                    retry_after,
                    body: text(),
                })));
            }
            if let Err(e) = serde_json::from_slice::<serde::de::IgnoredAny>(&bytes) {
                return Err(OpenAIError::Boxed(Box::new(HttpFailure::NotJson {
                    body: text(),
                    why: e.to_string(),
                })));
            }
            let mut rebuilt = http::Response::new(bytes);
            *rebuilt.status_mut() = status;
            Ok(reqwest::Response::from(rebuilt))
        })
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use fake_llm::{FakeLlm, Script, Step};

    use super::*;
    use crate::llm::{function_tool, ModelTurn};
    use crate::test_paths::abs;

    fn config(base_url: &str) -> Config {
        let env = |name: &str| match name {
            "WAYMARK_LLM_BASE_URL" => Some(base_url.to_owned()),
            "WAYMARK_LLM_MODEL" => Some("test-model".to_owned()),
            "WAYMARK_LLM_API_KEY" => Some("sk-test-secret".to_owned()),
            "WAYMARK_LLM_IMAGES" => Some("true".to_owned()),
            "WAYMARK_STATE_DIR" => Some(abs("/tmp/waymark-test-state")),
            _ => None,
        };
        Config::load_from(&env, None).unwrap()
    }

    const SHORT: Duration = Duration::from_millis(20);

    fn client(base_url: &str) -> LlmClient {
        LlmClient::new(&config(base_url))
            .unwrap()
            .with_timeout(Duration::from_millis(1500))
            .with_backoff(Backoff {
                delays: vec![SHORT; 4],
                max_retry_after: Duration::from_millis(200),
            })
    }

    fn tools() -> Vec<Value> {
        vec![
            function_tool(
                "browser_click",
                "Click the element with this overlay number",
                json!({"$schema": "x", "type": "object", "properties": {"index": {"type": "integer", "format": "uint32"}}, "required": ["index"]}),
            ),
            function_tool("browser_back", "Go back", json!({"type": "object"})),
        ]
    }

    async fn start(steps: Vec<Step>) -> FakeLlm {
        FakeLlm::start(Script::new(steps)).await.unwrap()
    }

    #[tokio::test]
    async fn tool_call_round_trip_sends_tools_and_the_screenshot() {
        let fake = start(vec![
            Step::tool_call("browser_click", json!({"index": 3})),
            Step::text("The search results are open."),
        ])
        .await;
        let llm = client(fake.base_url());
        let mut history = vec![
            Message::system("You help a blind user."),
            Message::user_with_screenshot("Search for kettles. Elements: 3 button Search", "iVBORw0KGgo="),
        ];
        let completion = llm.complete(&history, &tools()).await.unwrap();
        let ModelTurn::ToolCall { call, .. } = &completion.turn else {
            panic!("{completion:?}")
        };
        assert_eq!(
            (call.name.as_str(), &call.args),
            ("browser_click", &json!({"index": 3}))
        );
        assert!(call.native);
        let call = call.clone();
        history.push(completion.assistant);
        history.push(Message::tool_result(&call, r#"{"status":"ok"}"#));
        let completion = llm.complete(&history, &tools()).await.unwrap();
        assert_eq!(
            completion.turn,
            ModelTurn::Text("The search results are open.".into())
        );

        let requests = fake.requests();
        assert_eq!(requests.len(), 2);
        let first = &requests[0];
        assert_eq!(first["model"], "test-model");
        assert_eq!(first["stream"], false);
        assert_eq!(first["tools"][0]["function"]["name"], "browser_click");
        assert_eq!(
            first["tools"][0]["function"]["parameters"]["properties"]["index"],
            json!({"type": "integer"})
        );
        assert_eq!(first["messages"][1]["content"][1]["type"], "image_url");
        assert_eq!(
            first["messages"][1]["content"][1]["image_url"]["url"],
            "data:image/png;base64,iVBORw0KGgo="
        );
        // The second request answers the call by its id.
        let second = &requests[1];
        assert_eq!(second["messages"][2]["tool_calls"][0]["id"], call.id);
        assert_eq!(second["messages"][3]["role"], "tool");
        assert_eq!(second["messages"][3]["tool_call_id"], call.id);
        // The key is a header, never part of the body.
        assert!(!second.to_string().contains("sk-test-secret"));
    }

    #[tokio::test]
    async fn no_image_part_for_models_without_images() {
        let fake = start(vec![Step::text("ok")]).await;
        let mut config = config(fake.base_url());
        config.llm_supports_images = false;
        let llm = LlmClient::new(&config).unwrap();
        llm.complete(&[Message::user_with_screenshot("look", "AAAA")], &[])
            .await
            .unwrap();
        let request = &fake.requests()[0];
        assert_eq!(request["messages"][0]["content"], "look");
        assert!(request.get("tools").is_none());
    }

    #[tokio::test]
    async fn rate_limit_is_retried_after_a_backoff() {
        let fake = start(vec![Step::status(429), Step::text("ok")]).await;
        let started = Instant::now();
        let completion = client(fake.base_url())
            .complete(&[Message::user("hi")], &[])
            .await
            .unwrap();
        assert_eq!(completion.turn, ModelTurn::Text("ok".into()));
        assert!(started.elapsed() >= SHORT);
        assert_eq!(fake.requests().len(), 2);
    }

    #[tokio::test]
    async fn retry_after_is_honoured_up_to_the_cap() {
        let fake = start(vec![Step::status(429).with_retry_after(1), Step::text("ok")]).await;
        let started = Instant::now();
        client(fake.base_url())
            .complete(&[Message::user("hi")], &[])
            .await
            .unwrap();
        // Retry-After: 1 s, capped at 200 ms in this client: longer than the 20 ms backoff.
        let elapsed = started.elapsed();
        assert!(elapsed >= Duration::from_millis(200), "{elapsed:?}");
        assert!(elapsed < Duration::from_millis(900), "{elapsed:?}");
    }

    #[tokio::test]
    async fn server_errors_give_up_after_four_retries() {
        let fake = start(vec![Step::status(500); 6]).await;
        let err = client(fake.base_url())
            .complete(&[Message::user("hi")], &[])
            .await
            .unwrap_err();
        assert!(
            matches!(
                err,
                LlmError::Server {
                    status: 500,
                    attempts: 5,
                    ..
                }
            ),
            "{err:?}"
        );
        let text = err.to_string();
        assert!(text.contains("HTTP 500") && text.contains("5 times"), "{text}");
        assert_eq!(fake.requests().len(), 5);
        assert_eq!(fake.remaining(), 1);
    }

    #[tokio::test]
    async fn a_slow_answer_times_out() {
        let fake = start(vec![Step::text("too late").delayed(2000)]).await;
        let started = Instant::now();
        let err = client(fake.base_url())
            .with_timeout(Duration::from_millis(300))
            .complete(&[Message::user("hi")], &[])
            .await
            .unwrap_err();
        assert!(started.elapsed() < Duration::from_millis(1500));
        assert!(matches!(err, LlmError::Timeout { .. }), "{err:?}");
        assert!(err.to_string().contains("within 0.3 s"), "{err}");
        assert_eq!(fake.requests().len(), 1, "a timeout is not retried");
    }

    #[tokio::test]
    async fn a_body_that_is_not_json_is_a_bad_response() {
        let fake = start(vec![Step::garbage()]).await;
        let err = client(fake.base_url())
            .complete(&[Message::user("hi")], &[])
            .await
            .unwrap_err();
        assert!(matches!(err, LlmError::BadResponse { .. }), "{err:?}");
        assert!(err.to_string().contains("not JSON"), "{err}");
        assert!(err.repair_message().is_none());
    }

    #[tokio::test]
    async fn broken_tool_call_arguments_are_invalid() {
        let fake = start(vec![Step::broken_tool_call("browser_click")]).await;
        let err = client(fake.base_url())
            .complete(&[Message::user("click 3")], &tools())
            .await
            .unwrap_err();
        assert!(matches!(err, LlmError::Invalid { .. }), "{err:?}");
        assert!(err.repair_message().is_some());
    }

    #[tokio::test]
    async fn key_and_model_problems_say_what_to_fix() {
        let fake = start(vec![Step::status(401), Step::status(404)]).await;
        let llm = client(fake.base_url());
        let err = llm.complete(&[Message::user("hi")], &[]).await.unwrap_err();
        assert!(matches!(err, LlmError::Auth { status: 401, .. }), "{err:?}");
        assert!(err.to_string().contains("WAYMARK_LLM_API_KEY"), "{err}");
        assert!(!err.to_string().contains("sk-test-secret"), "{err}");
        let err = llm.complete(&[Message::user("hi")], &[]).await.unwrap_err();
        assert!(matches!(err, LlmError::ModelNotFound { .. }), "{err:?}");
        assert!(err.to_string().contains("model test-model not found"), "{err}");
        assert_eq!(fake.requests().len(), 2, "neither is retried");
    }

    #[tokio::test]
    async fn a_model_without_tools_is_reported_as_such() {
        let body = r#"{"error":{"message":"registry.ollama.ai/library/gemma:2b does not support tools","type":"api_error"}}"#;
        let fake = start(vec![Step {
            delay_ms: 0,
            action: fake_llm::Action::Status {
                status: 400,
                retry_after_secs: None,
                body: Some(body.into()),
            },
        }])
        .await;
        let err = client(fake.base_url())
            .complete(&[Message::user("hi")], &tools())
            .await
            .unwrap_err();
        assert!(matches!(err, LlmError::ToolsUnsupported { .. }), "{err:?}");
    }

    #[tokio::test]
    async fn connection_refused_asks_whether_ollama_runs() {
        let port = {
            let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
            listener.local_addr().unwrap().port()
        };
        let base_url = format!("http://127.0.0.1:{port}/v1");
        let err = client(&base_url)
            .complete(&[Message::user("hi")], &[])
            .await
            .unwrap_err();
        assert!(matches!(err, LlmError::Unreachable { .. }), "{err:?}");
        let text = err.to_string();
        assert!(
            text.starts_with(&format!("no LLM answered at {base_url}: is Ollama running?")),
            "{text}"
        );
    }

    #[test]
    fn loopback_hosts() {
        for url in [
            "http://127.0.0.1:11434/v1",
            "http://localhost:1234/v1",
            "http://[::1]:8080/v1",
            "http://127.0.0.2/v1",
        ] {
            assert!(is_loopback(url), "{url}");
        }
        for url in ["https://openrouter.ai/api/v1", "http://10.0.0.5:11434/v1"] {
            assert!(!is_loopback(url), "{url}");
        }
    }

    #[test]
    fn error_details_come_from_the_body() {
        assert_eq!(
            error_detail(r#"{"error":{"message":"model \"x\" not found, try pulling it first"}}"#),
            "model \"x\" not found, try pulling it first"
        );
        assert_eq!(error_detail(r#"{"error":"bad key"}"#), "bad key");
        assert_eq!(error_detail("  "), "no details");
        assert_eq!(error_detail("Bad Gateway"), "Bad Gateway");
    }

    #[test]
    fn debug_shows_no_key() {
        let llm = LlmClient::new(&config("http://127.0.0.1:9/v1")).unwrap();
        let shown = format!("{llm:?}");
        assert!(!shown.contains("sk-test-secret"), "{shown}");
        assert!(shown.contains("test-model"), "{shown}");
    }
}
