//! The HTTP side of the LLM client, on async-openai's BYOT API (`serde_json::Value` in and out, so the
//! quirks of Ollama, LM Studio or OpenRouter never break deserialisation).
//!
//! async-openai's own retry layer is replaced by a plain HTTP service that turns every non-2xx answer
//! into a typed failure (status, `Retry-After`, body) and refuses bodies that are not JSON before
//! async-openai sees them; [`LlmClient::complete`] then retries 429 and 5xx with [`Backoff`], and puts
//! a timeout on every attempt. Answers come whole (`"stream": false`). What it must not do: log what
//! is sent or received (page content), or let async-openai or reqwest types out of this module.

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use async_openai::config::OpenAIConfig;
use async_openai::error::OpenAIError;
use async_openai::middleware::HttpRequestFactory;
use serde_json::{json, Value};

use super::{is_context_overflow, parse_completion, Completion, LlmError, Message};
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

    /// The request body [`LlmClient::complete`] sends: model, messages, no stream, and the tools (when
    /// any) with `tool_choice: "auto"`. No `max_tokens`: OpenAI's reasoning models refuse it, and a
    /// tool call cut short is of no use; a local model that rambles on is stopped by the timeout.
    pub fn request_body(&self, messages: &[Message], tools: &[Value]) -> Value {
        let messages: Vec<Value> = messages.iter().map(|m| m.to_json(self.supports_images)).collect();
        let mut body = json!({ "model": self.model, "messages": messages, "stream": false });
        if !tools.is_empty() {
            body["tools"] = Value::Array(tools.to_vec());
            // "auto" is OpenAI's default when tools are given, so saying it changes nothing there; but
            // llama-cpp-python takes a missing tool_choice for "none" and leaves the tools out of the
            // prompt (and its grammar), so without it the model never learns it has any.
            body["tool_choice"] = json!("auto");
        }
        body
    }

    /// One model turn. `tools` are OpenAI function tools (see [`super::function_tool`]); a call to any
    /// other name is [`LlmError::Invalid`].
    pub async fn complete(&self, messages: &[Message], tools: &[Value]) -> Result<Completion, LlmError> {
        self.complete_request(&self.request_body(messages, tools)).await
    }

    /// One model turn for `request`, a [`LlmClient::request_body`] a test changed first (a named
    /// `tool_choice`, a `max_tokens` cap: what the checks against a real server ask for and the agent
    /// never does). The model may call only the tool `tool_choice` names, else any tool offered.
    #[cfg(test)]
    pub(crate) async fn complete_edited(&self, request: &Value) -> Result<Completion, LlmError> {
        self.complete_request(request).await
    }

    async fn complete_request(&self, request: &Value) -> Result<Completion, LlmError> {
        let names: Vec<&str> = match request
            .pointer("/tool_choice/function/name")
            .and_then(Value::as_str)
        {
            Some(named) => vec![named],
            None => request["tools"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|tool| tool.pointer("/function/name").and_then(Value::as_str))
                .collect(),
        };
        let body = self.send(request).await?;
        parse_completion(&body, &names)
    }

    /// Sends `request`, retrying 429 and 5xx; every attempt has the timeout.
    async fn send(&self, request: &Value) -> Result<Value, LlmError> {
        let mut retries = 0_usize;
        loop {
            let error = match self.attempt(request).await {
                Ok(body) => return Ok(body),
                Err(Attempt::Final(error)) => return Err(error),
                Err(Attempt::Http(error)) => error,
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

    /// One request: the whole body within the timeout.
    async fn attempt(&self, request: &Value) -> Result<Value, Attempt> {
        let chat = self.client.chat();
        let attempt = chat.create_byot::<&Value, Value>(request);
        match tokio::time::timeout(self.timeout, attempt).await {
            Ok(Ok(body)) => Ok(body),
            Ok(Err(error)) => Err(Attempt::Http(error)),
            Err(_elapsed) => Err(Attempt::Final(self.timeout_error())),
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
            OpenAIError::Reqwest(e) if connection_lost(&e) => Failure::Final(LlmError::ConnectionLost {
                base_url,
                detail: error_chain(&e),
            }),
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
            400 | 413 if is_context_overflow(body) => {
                Failure::Final(LlmError::ContextOverflow { base_url, detail })
            }
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

/// How one attempt failed: an HTTP exchange to classify (and perhaps retry), or a final error.
enum Attempt {
    Http(OpenAIError),
    Final(LlmError),
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

/// Whether the server closed the connection before a whole answer came (it stopped, crashed or
/// restarted mid-request), as opposed to never accepting it. hyper words this "connection closed
/// before message completed"; a reset or an early end of the body are the same event.
fn connection_lost(error: &reqwest::Error) -> bool {
    if error.is_body() || error.is_decode() {
        return true;
    }
    let chain = error_chain(error).to_ascii_lowercase();
    [
        "connection closed before message completed",
        "connection reset",
        "unexpected eof",
        "broken pipe",
    ]
    .iter()
    .any(|words| chain.contains(words))
}

pub(crate) fn is_loopback(base_url: &str) -> bool {
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
mod tests;
