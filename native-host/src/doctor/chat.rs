//! The doctor's chat check: one chat request of the shape the agent sends (system and user messages,
//! every browser tool with its real schema, no streaming) through the agent's own [`LlmClient`], so a
//! server that lists models but fails the real thing — HTTP 500, an answer that is not a chat
//! completion, a refusal of our tool schemas — is found before the user asks for anything.
//!
//! What it must not do: retry (a check says what happens now), send anything of the user's (the
//! messages are fixed), or judge the model's wording — only whether the server's answer can be read.

use std::time::Duration;

use serde_json::Value;

use super::{Check, Status};
use crate::config::Config;
use crate::llm::{function_tool, Backoff, LlmClient, LlmError, Message};
use crate::mcp::catalogue;

/// The longest the chat check waits: enough for a local model to read the tools, short enough for the
/// settings page's "Running checks…". The user's own `llm_timeout_secs` wins when it is shorter.
pub const CHAT_TIMEOUT: Duration = Duration::from_secs(30);

const NAME: &str = "chat";

/// Sends the agent's request shape to the configured endpoint and model, once.
pub async fn check_chat(config: &Config) -> Check {
    let limit = CHAT_TIMEOUT.min(Duration::from_secs(config.llm_timeout_secs.max(1)));
    check_chat_with(config, limit).await
}

pub(super) async fn check_chat_with(config: &Config, timeout: Duration) -> Check {
    let base = config.llm_base_url.trim_end_matches('/');
    let model = &config.llm_model;
    let client = match LlmClient::new(config) {
        Ok(client) => client.with_timeout(timeout).with_backoff(Backoff {
            delays: Vec::new(),
            max_retry_after: Duration::ZERO,
        }),
        Err(e) => return problem(e.to_string(), "check the endpoint URL on the settings page"),
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
            format!("{base} answers a chat request with Waymark's tools (model {model})"),
            None,
        ),
        Err(LlmError::Server { status, detail, .. }) => problem(
            format!("{base} failed a chat request with HTTP {status} ({detail})"),
            "the server itself failed: its log says why (often a model too large for the memory, or a \
             crashed worker); restart it or choose a smaller model",
        ),
        Err(LlmError::BadResponse { why, .. }) => problem(
            format!("{base} answered a chat request with something that is not a chat completion: {why}"),
            "check that the endpoint URL is the API's base, usually ending in /v1, and not a web page \
             or a proxy's error page",
        ),
        Err(LlmError::ModelNotFound { .. }) => problem(
            format!("{base} has no model {model} (HTTP 404 to a chat request)"),
            &format!(
                "pull it (ollama pull {model}) or set the model on the settings page or in \
                 WAYMARK_LLM_MODEL; if it exists, check that the URL ends in /v1"
            ),
        ),
        Err(LlmError::Rejected { status, detail, .. }) => problem(
            format!("{base} refused Waymark's chat request with HTTP {status} ({detail})"),
            "the server or the model may not take tool definitions: its log says which part it \
             refused; try a model with tool calling",
        ),
        Err(LlmError::ToolsUnsupported { .. }) => Check::new(
            NAME,
            Status::Warning,
            format!("model {model} at {base} does not take tools; Waymark falls back to asking for JSON"),
            Some("for better results choose a model with tool calling".to_owned()),
        ),
        Err(LlmError::Timeout { secs, .. }) => Check::new(
            NAME,
            Status::Warning,
            format!("{base} did not answer a chat request within {secs} s"),
            Some(
                "a local model may still be loading: run the checks again in a minute; if it stays \
                 this slow, raise llm_timeout_secs or choose a smaller model"
                    .to_owned(),
            ),
        ),
        Err(LlmError::RateLimited { detail, .. }) => Check::new(
            NAME,
            Status::Warning,
            format!("{base} is rate limiting (HTTP 429: {detail})"),
            Some("wait a little, or check the plan of this API key".to_owned()),
        ),
        Err(LlmError::Auth { status, .. }) => problem(
            format!("{base} refused the API key for a chat request (HTTP {status})"),
            "set the right key on the settings page or in WAYMARK_LLM_API_KEY",
        ),
        // Nothing answers, the connection broke, or a failure this check has no advice of its own
        // for: the client's own sentence says what happened.
        Err(other) => problem(other.to_string(), "check that the server runs, and its log"),
    }
}

/// Every browser tool as the agent offers it to the model.
fn browser_tools() -> Vec<Value> {
    catalogue::ENTRIES
        .iter()
        .map(|entry| function_tool(entry.name, entry.description, (entry.schema)()))
        .collect()
}

fn problem(detail: String, fix: &str) -> Check {
    Check::new(NAME, Status::Problem, detail, Some(fix.to_owned()))
}

#[cfg(test)]
mod tests {
    use fake_llm::{FakeLlm, Script, Step};
    use serde_json::json;

    use super::*;
    use crate::doctor::tests::config_with;

    async fn check_against(step: Step) -> (Check, Vec<Value>) {
        let llm = FakeLlm::start(Script::new([step])).await.unwrap();
        let check = check_chat_with(&config_with(llm.base_url(), None), Duration::from_secs(5)).await;
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
        assert_eq!(names.len(), catalogue::ENTRIES.len());
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
        let check = check_chat_with(&config_with(llm.base_url(), None), Duration::from_millis(300)).await;
        assert_eq!(check.status, Status::Warning, "{check:?}");
        assert!(
            check.detail.contains("did not answer a chat request within"),
            "{check:?}"
        );
    }
}
