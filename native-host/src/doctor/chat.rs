//! The doctor's chat check: one chat request of the shape the agent sends (system and user messages,
//! every browser tool with its real schema, no streaming) through the agent's own [`LlmClient`], so a
//! server that lists models but fails the real thing — HTTP 500, an answer that is not a chat
//! completion, a refusal of our tool schemas — is found before the user asks for anything.
//!
//! What it must not do: retry (a check says what happens now), send anything of the user's (the
//! messages are fixed), or judge the model's wording — only whether the server's answer can be read.

use std::time::Duration;

use serde_json::Value;
use waymark_i18n::{say, Words};

use super::{Check, Status};
use crate::config::Config;
use crate::llm::{function_tool, Backoff, LlmClient, LlmError, Message};
use crate::mcp::catalogue;

/// The longest the chat check waits: enough for a local model to read the tools, short enough for the
/// settings page's "Running checks…". The user's own `llm_timeout_secs` wins when it is shorter.
pub const CHAT_TIMEOUT: Duration = Duration::from_secs(30);

const NAME: &str = "chat";

/// Sends the agent's request shape to the configured endpoint and model, once.
pub async fn check_chat(config: &Config, words: &Words) -> Check {
    let limit = CHAT_TIMEOUT.min(Duration::from_secs(config.llm_timeout_secs.max(1)));
    check_chat_with(config, limit, words).await
}

pub(super) async fn check_chat_with(config: &Config, timeout: Duration, words: &Words) -> Check {
    let base = config.llm_base_url.trim_end_matches('/');
    let model = config.llm_model.as_str();
    let client = match LlmClient::new(config) {
        Ok(client) => client.with_timeout(timeout).with_backoff(Backoff {
            delays: Vec::new(),
            max_retry_after: Duration::ZERO,
        }),
        Err(e) => return problem(e.said(words), say!(words, "doctor-fix-chat-endpoint")),
    };
    let messages = [
        Message::system("This is a connection check. Do not call any tool. Answer with the single word: ok"),
        Message::user("Answer with the single word: ok"),
    ];
    match client.complete(&messages, &browser_tools()).await {
        // The model's words do not matter here, only that the server's answer could be read; a model
        // whose answer is unusable is asked again by the agent.
        Ok(_) | Err(LlmError::Invalid { .. }) => Check::new(
            NAME,
            Status::Ok,
            say!(words, "doctor-chat-ok", address = base, model = model),
            None,
        ),
        Err(LlmError::Server { status, detail, .. }) => problem(
            say!(
                words,
                "doctor-chat-server",
                address = base,
                status = status,
                detail = detail
            ),
            say!(words, "doctor-fix-chat-server"),
        ),
        Err(LlmError::BadResponse { why, .. }) => problem(
            say!(words, "doctor-chat-bad-response", address = base, detail = why),
            say!(words, "doctor-fix-chat-url"),
        ),
        Err(LlmError::ModelNotFound { .. }) => problem(
            say!(words, "doctor-chat-no-model", address = base, model = model),
            say!(words, "doctor-fix-chat-model", model = model),
        ),
        Err(LlmError::Rejected { status, detail, .. }) => problem(
            say!(
                words,
                "doctor-chat-rejected",
                address = base,
                status = status,
                detail = detail
            ),
            say!(words, "doctor-fix-chat-tools"),
        ),
        Err(LlmError::ToolsUnsupported { .. }) => Check::new(
            NAME,
            Status::Warning,
            say!(words, "doctor-chat-no-tools", address = base, model = model),
            Some(say!(words, "doctor-fix-chat-tool-model")),
        ),
        Err(LlmError::Timeout { secs, .. }) => Check::new(
            NAME,
            Status::Warning,
            say!(words, "doctor-chat-timeout", address = base, seconds = secs),
            Some(say!(words, "doctor-fix-chat-slow")),
        ),
        Err(LlmError::RateLimited { detail, .. }) => Check::new(
            NAME,
            Status::Warning,
            say!(words, "doctor-chat-rate-limited", address = base, detail = detail),
            Some(say!(words, "doctor-fix-chat-rate")),
        ),
        Err(LlmError::Auth { status, .. }) => problem(
            say!(words, "doctor-chat-auth", address = base, status = status),
            say!(words, "doctor-fix-api-key"),
        ),
        // Nothing answers, the connection broke, or a failure this check has no advice of its own
        // for: the client's own sentence says what happened.
        Err(other) => problem(other.said(words), say!(words, "doctor-fix-chat-other")),
    }
}

/// Every browser tool as the agent offers it to the model.
fn browser_tools() -> Vec<Value> {
    catalogue::entries()
        .iter()
        .map(|entry| function_tool(entry.name(), entry.about.description, entry.schema()))
        .collect()
}

fn problem(detail: String, fix: String) -> Check {
    Check::new(NAME, Status::Problem, detail, Some(fix))
}

#[cfg(test)]
mod tests {
    use fake_llm::{FakeLlm, Script, Step};
    use serde_json::json;

    use super::*;
    use crate::doctor::tests::{config_with, english};

    async fn check_against(step: Step) -> (Check, Vec<Value>) {
        let llm = FakeLlm::start(Script::new([step])).await.unwrap();
        let check = check_chat_with(
            &config_with(llm.base_url(), None),
            Duration::from_secs(5),
            &english(),
        )
        .await;
        (check, llm.requests())
    }

    #[tokio::test]
    async fn a_server_that_answers_passes_and_was_sent_the_agents_tools() {
        let (check, requests) = check_against(Step::text("ok")).await;
        assert_eq!(check.status, Status::Ok, "{check:?}");
        assert!(check.detail.contains("answers a chat request"), "{check:?}");
        assert_eq!(requests.len(), 1, "one request, no retry");
        let names: Vec<&str> = requests[0]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|t| t.pointer("/function/name").and_then(Value::as_str))
            .collect();
        assert_eq!(names.len(), catalogue::entries().len());
        assert!(names.contains(&"browser_list_interactives"), "{names:?}");
        assert_eq!(requests[0]["stream"], json!(false));

        // A model that calls a tool anyway, or answers badly, still shows the server works.
        let (check, _) = check_against(Step::tool_call("browser_list_interactives", json!({}))).await;
        assert_eq!(check.status, Status::Ok, "{check:?}");
        let (check, _) = check_against(Step::broken_tool_call("browser_list_interactives")).await;
        assert_eq!(check.status, Status::Ok, "{check:?}");
    }

    #[tokio::test]
    async fn http_500_is_a_problem_with_the_fix() {
        let (check, requests) = check_against(Step::status(500)).await;
        assert_eq!(check.status, Status::Problem, "{check:?}");
        assert!(check.detail.contains("HTTP 500"), "{check:?}");
        assert!(check.fix.as_deref().unwrap_or("").contains("log"), "{check:?}");
        assert_eq!(requests.len(), 1, "a check does not retry");
    }

    #[tokio::test]
    async fn garbage_is_a_problem_that_points_at_the_url() {
        let (check, _) = check_against(Step::garbage()).await;
        assert_eq!(check.status, Status::Problem, "{check:?}");
        assert!(check.detail.contains("not a chat completion"), "{check:?}");
        assert!(check.fix.as_deref().unwrap_or("").contains("/v1"), "{check:?}");
    }

    #[tokio::test]
    async fn a_missing_model_a_refusal_and_a_slow_server_are_told_apart() {
        let (check, _) = check_against(Step::status(404)).await;
        assert_eq!(check.status, Status::Problem, "{check:?}");
        assert!(
            check.fix.as_deref().unwrap_or("").contains("ollama pull"),
            "{check:?}"
        );

        let (check, _) = check_against(Step::status(400)).await;
        assert_eq!(check.status, Status::Problem, "{check:?}");
        assert!(
            check
                .detail
                .contains("refused Waymark's chat request with HTTP 400"),
            "{check:?}"
        );

        let llm = FakeLlm::start(Script::new([Step::text("ok").delayed(2_000)]))
            .await
            .unwrap();
        let check = check_chat_with(
            &config_with(llm.base_url(), None),
            Duration::from_millis(300),
            &english(),
        )
        .await;
        assert_eq!(check.status, Status::Warning, "{check:?}");
        assert!(
            check.detail.contains("did not answer a chat request within"),
            "{check:?}"
        );
    }
}
