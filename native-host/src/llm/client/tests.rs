//! Tests of the LLM client against the scripted fake-llm server: requests, retries, timeouts, and
//! the errors worded for the user. It must not reach anything but 127.0.0.1.

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

#[tokio::test]
async fn tools_are_offered_with_tool_choice_auto() {
    let fake = start(vec![Step::text("ok"), Step::text("ok")]).await;
    let llm = client(fake.base_url());
    llm.complete(&[Message::user("hi")], &tools()).await.unwrap();
    llm.complete(&[Message::user("hi")], &[]).await.unwrap();
    let requests = fake.requests();
    // llama-cpp-python leaves the tools out of the prompt unless tool_choice says "auto".
    assert_eq!(requests[0]["tool_choice"], "auto");
    assert!(requests[1].get("tool_choice").is_none(), "{}", requests[1]);
    assert!(requests[1].get("tools").is_none(), "{}", requests[1]);
}

#[tokio::test]
async fn an_edited_request_goes_as_edited_and_takes_only_the_tool_it_names() {
    // What the checks against a real server send: a named tool and a cap on the answer.
    let fake = start(vec![
        Step::tool_call("browser_back", json!({})),
        Step::tool_call("browser_click", json!({"index": 1})),
    ])
    .await;
    let llm = client(fake.base_url());
    let mut request = llm.request_body(&[Message::user("back")], &tools());
    request["tool_choice"] = json!({"type": "function", "function": {"name": "browser_back"}});
    request["max_tokens"] = json!(64);
    let completion = llm.complete_edited(&request).await.unwrap();
    assert!(matches!(completion.turn, ModelTurn::ToolCall { .. }));
    // Another tool than the one named is not taken.
    let err = llm.complete_edited(&request).await.unwrap_err();
    assert!(matches!(err, LlmError::Invalid { .. }), "{err:?}");
    let request = &fake.requests()[0];
    assert_eq!(
        request["tool_choice"],
        json!({"type": "function", "function": {"name": "browser_back"}})
    );
    assert_eq!(request["max_tokens"], 64);
}

fn status_with_body(status: u16, body: &str) -> Step {
    Step {
        delay_ms: 0,
        action: fake_llm::Action::Status {
            status,
            retry_after_secs: None,
            body: Some(body.into()),
        },
    }
}

#[tokio::test]
async fn a_context_overflow_says_what_to_change_and_is_not_retried() {
    // Exactly what llama-cpp-python 0.3.36 answers (OpenAI and vLLM word it the same way).
    let llama_cpp_python = r#"{"error":{"message":"This model's maximum context length is 8192 tokens. However, you requested 12024 tokens (12024 in the messages, None in the completion). Please reduce the length of the messages or completion.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}"#;
    // llama.cpp's own server.
    let llama_server = r#"{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":9000,"n_ctx":8192}}"#;
    let fake = start(vec![
        status_with_body(400, llama_cpp_python),
        status_with_body(400, llama_server),
    ])
    .await;
    let llm = client(fake.base_url());
    for _ in 0..2 {
        let err = llm.complete(&[Message::user("hi")], &[]).await.unwrap_err();
        assert!(matches!(err, LlmError::ContextOverflow { .. }), "{err:?}");
        let text = err.to_string();
        assert!(
            text.starts_with(&format!(
                "the conversation is longer than the model at {} can read",
                fake.base_url()
            )),
            "{text}"
        );
        assert!(text.contains("--n_ctx") && text.contains("num_ctx"), "{text}");
    }
    assert_eq!(fake.requests().len(), 2, "neither is retried");
    // Other 400s stay rejections.
    assert!(!crate::llm::is_context_overflow(
        r#"{"error":{"message":"messages: field required"}}"#
    ));
}

/// A server on 127.0.0.1 that reads each whole request and answers it with `answer` (bytes as
/// they go on the wire), then closes the connection: servers that stop halfway.
async fn raw_server(answer: &'static str) -> String {
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base_url = format!("http://{}/v1", listener.local_addr().unwrap());
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            let mut request = Vec::new();
            let mut buf = [0_u8; 8192];
            // Read the head, then as many body bytes as Content-Length says.
            loop {
                let n = socket.read(&mut buf).await.unwrap_or(0);
                if n == 0 {
                    break;
                }
                request.extend_from_slice(&buf[..n]);
                let text = String::from_utf8_lossy(&request).to_string();
                if let Some(end) = text.find("\r\n\r\n") {
                    let length = text[..end]
                        .lines()
                        .find_map(|l| {
                            let (name, value) = l.split_once(':')?;
                            name.eq_ignore_ascii_case("content-length")
                                .then(|| value.trim().parse::<usize>().ok())?
                        })
                        .unwrap_or(0);
                    if request.len() >= end + 4 + length {
                        break;
                    }
                }
            }
            let _ = socket.write_all(answer.as_bytes()).await;
            let _ = socket.shutdown().await;
        }
    });
    base_url
}

#[tokio::test]
async fn a_server_that_goes_away_mid_request_is_named_as_such() {
    // Whole: the connection closes before any answer (as when the server process dies).
    let base_url = raw_server("").await;
    let err = client(&base_url)
        .complete(&[Message::user("hi")], &[])
        .await
        .unwrap_err();
    assert!(matches!(err, LlmError::ConnectionLost { .. }), "{err:?}");
    assert!(
        err.to_string()
            .contains("closed the connection before its answer was complete"),
        "{err}"
    );
    // Half a body: the head, then the connection ends inside the chunked body.
    let base_url = raw_server(
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n\
         10\r\n{\"choices\":[{\"in\r\n",
    )
    .await;
    let err = client(&base_url)
        .complete(&[Message::user("hi")], &[])
        .await
        .unwrap_err();
    assert!(matches!(err, LlmError::ConnectionLost { .. }), "{err:?}");
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
