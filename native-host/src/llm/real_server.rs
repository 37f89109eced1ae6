//! The LLM client against a real OpenAI-compatible server that nobody here wrote (`./build.sh
//! llm-check` starts llama-cpp-python with a small GGUF model and runs these). The model's judgement
//! does not matter; what is checked is our side of the protocol: that the server takes our requests
//! (the agent's real tool schemas, its tool messages), and that what it sends back — answers, tool
//! calls, errors — is read correctly or worded for a person.
//!
//! Every test is ignored in a plain `cargo test` (there is no server there) and needs
//! `WAYMARK_REAL_LLM_URL` (the base URL, `…/v1`) and `WAYMARK_REAL_LLM_MODEL`; the one that stops a
//! server mid-answer also needs `WAYMARK_REAL_LLM_START`, a command that starts a second server on
//! 127.0.0.1 at the port in `PORT`. Each prints one `real-llm:` line for the report. What it must not
//! do: reach anything but 127.0.0.1, or pass on a wrong reading because the tiny model answered
//! oddly — an outcome the model may choose is accepted, an outcome only a broken client gives is not.
#![allow(clippy::unwrap_used)] // test code

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::{function_tool, Completion, LlmClient, LlmError, Message, ModelTurn};
use crate::config::Config;
use crate::test_paths::abs;

/// The server under test and its model, from the environment `./build.sh llm-check` sets.
fn server() -> (String, String) {
    let url = std::env::var("WAYMARK_REAL_LLM_URL")
        .expect("WAYMARK_REAL_LLM_URL is not set: run these through ./build.sh llm-check");
    let model = std::env::var("WAYMARK_REAL_LLM_MODEL")
        .expect("WAYMARK_REAL_LLM_MODEL is not set: run these through ./build.sh llm-check");
    (url, model)
}

/// The client as the agent builds it, for `base_url` and `model`; answers on a 2-core machine take
/// seconds to minutes, so the timeout is long.
fn client_for(base_url: &str, model: &str) -> LlmClient {
    let env = |name: &str| match name {
        "WAYMARK_LLM_BASE_URL" => Some(base_url.to_owned()),
        "WAYMARK_LLM_MODEL" => Some(model.to_owned()),
        "WAYMARK_LLM_TIMEOUT_SECS" => Some("600".to_owned()),
        "WAYMARK_STATE_DIR" => Some(abs("/tmp/waymark-real-llm-state")),
        _ => None,
    };
    LlmClient::new(&Config::load_from(&env, None).unwrap()).unwrap()
}

fn client() -> LlmClient {
    let (url, model) = server();
    client_for(&url, &model)
}

/// Every tool exactly as the agent offers it to a model without images: the browser tools as the MCP
/// server lists them (what `AgentLink::definitions` makes of them), without the screenshot, then the
/// assistant's own.
fn agent_tools() -> Vec<Value> {
    let mut tools: Vec<Value> = crate::mcp::server::tools()
        .iter()
        .map(|tool| {
            function_tool(
                &tool.name,
                tool.description.as_deref().unwrap_or_default(),
                Value::Object((*tool.input_schema).clone()),
            )
        })
        .filter(|tool| tool["function"]["name"] != "browser_screenshot")
        .collect();
    tools.extend(crate::agent::tools::definitions());
    tools
}

/// One turn with the answer capped at `max_tokens` (a tiny model on 2 cores may ramble for minutes),
/// and with `named`, the one tool the model must call: `tool_choice` names it, so a server that
/// constrains output with a grammar (llama.cpp) holds the arguments to that tool's schema. The agent
/// asks for neither; only these checks do.
async fn turn(
    llm: &LlmClient,
    messages: &[Message],
    tools: &[Value],
    max_tokens: u32,
    named: Option<&str>,
) -> Result<Completion, LlmError> {
    let mut request = llm.request_body(messages, tools);
    request["max_tokens"] = json!(max_tokens);
    if let Some(name) = named {
        request["tool_choice"] = json!({"type": "function", "function": {"name": name}});
    }
    llm.complete_edited(&request).await
}

fn conversation(task: &str) -> Vec<Message> {
    vec![
        Message::system(
            "You are Waymark, a browser assistant for a blind person. Use one tool per answer. The page \
             has: 1 link Home, 2 textbox Search, 3 button Search.",
        ),
        Message::user(task),
    ]
}

fn report(case: &str, started: Instant, outcome: &str) {
    eprintln!(
        "real-llm: {case}: {outcome} ({:.1} s)",
        started.elapsed().as_secs_f64()
    );
}

fn describe(result: &Result<Completion, LlmError>) -> String {
    match result {
        Ok(Completion {
            turn: ModelTurn::ToolCall { call, .. },
            ..
        }) => format!("tool call {} {}", call.name, call.args),
        Ok(Completion { turn, .. }) => format!("{turn:?}"),
        Err(e) => format!("error: {e}"),
    }
}

/// An answer to a question, without tools.
#[tokio::test]
#[ignore = "needs a real OpenAI-compatible server: run ./build.sh llm-check"]
async fn real_llm_plain_chat() {
    let messages = vec![
        Message::system("You are a helpful assistant. Answer in one short sentence."),
        Message::user("What colour is the sky on a clear day?"),
    ];
    let started = Instant::now();
    let result = turn(&client(), &messages, &[], 48, None).await;
    report("plain chat", started, &describe(&result));
    match result {
        Ok(Completion {
            turn: ModelTurn::Text(_) | ModelTurn::Ask { .. } | ModelTurn::Done { .. },
            ..
        }) => {}
        // A tiny model may well say nothing; that reading is right too (it becomes a repair turn).
        Err(LlmError::Invalid { why, .. }) if why.contains("empty") => {}
        other => panic!("plain chat: {other:?}"),
    }
}

/// Checks `args` against the tool's schema as far as a grammar holds them: every required property,
/// the enums, the types. `minimum` is not held by llama.cpp's grammar, so it is not checked here.
fn conforms(schema: &Value, args: &Value) -> Result<(), String> {
    let Some(object) = args.as_object() else {
        return Err(format!("{args} is not an object"));
    };
    for name in schema["required"].as_array().into_iter().flatten() {
        let name = name.as_str().unwrap_or_default();
        if !object.contains_key(name) {
            return Err(format!("required {name} is missing from {args}"));
        }
    }
    let properties = schema["properties"].as_object().cloned().unwrap_or_default();
    for (name, value) in object {
        let Some(property) = properties.get(name) else {
            continue;
        };
        if let Some(allowed) = property["enum"].as_array() {
            if !allowed.contains(value) {
                return Err(format!("{name} = {value} is not one of {property}"));
            }
        }
        let fits = match property["type"].as_str() {
            Some("integer") => value.is_i64() || value.is_u64(),
            Some("string") => value.is_string(),
            Some("array") => value.is_array(),
            Some("object") => value.is_object(),
            Some("boolean") => value.is_boolean(),
            _ => true,
        };
        if !fits {
            return Err(format!("{name} = {value} is not of type {}", property["type"]));
        }
    }
    Ok(())
}

/// Compiles every tool's parameters (a JSON array of the tools on stdin) the way llama-cpp-python's
/// server does for a named or chosen tool: its JSON-schema-to-GBNF converter, then llama.cpp's own
/// grammar parser for the model's vocabulary. The server falls back to any JSON at all, silently,
/// when the first step fails, so only this shows it. Prints one line a tool; exits 1 if any failed.
const COMPILE_GRAMMARS: &str = r#"
import json, sys
from llama_cpp import Llama, llama_cpp
from llama_cpp.llama_grammar import json_schema_to_gbnf
vocab = Llama(model_path=sys.argv[1], vocab_only=True, verbose=False)._model.vocab
failed = 0
for tool in json.load(sys.stdin):
    name, schema = tool["function"]["name"], tool["function"]["parameters"]
    try:
        gbnf = json_schema_to_gbnf(json.dumps(schema))
    except Exception as e:
        print(f"{name}: not converted: {e!r}"); failed += 1; continue
    sampler = llama_cpp.llama_sampler_init_grammar(vocab, gbnf.encode(), b"root")
    if not sampler:
        print(f"{name}: llama.cpp did not parse its grammar"); failed += 1; continue
    llama_cpp.llama_sampler_free(sampler)
    print(f"{name}: {len(gbnf)} bytes of grammar")
sys.exit(1 if failed else 0)
"#;

/// Every schema the agent offers compiles in the server's grammar compiler — not merely "the request
/// was taken", which llama-cpp-python also says after falling back to an unconstrained grammar.
#[tokio::test]
#[ignore = "needs a real OpenAI-compatible server: run ./build.sh llm-check"]
async fn real_llm_every_agent_tool_schema_compiles_into_a_grammar() {
    use tokio::io::AsyncWriteExt as _;
    let python = std::env::var("WAYMARK_REAL_LLM_PYTHON")
        .expect("WAYMARK_REAL_LLM_PYTHON is not set: run these through ./build.sh llm-check");
    let gguf = std::env::var("WAYMARK_REAL_LLM_GGUF")
        .expect("WAYMARK_REAL_LLM_GGUF is not set: run these through ./build.sh llm-check");
    let tools = agent_tools();
    let started = Instant::now();
    let mut child = tokio::process::Command::new(python)
        .args(["-c", COMPILE_GRAMMARS, &gguf])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(&serde_json::to_vec(&tools).unwrap())
        .await
        .unwrap();
    drop(stdin);
    let output = child.wait_with_output().await.unwrap();
    let lines = String::from_utf8_lossy(&output.stdout).into_owned();
    for line in lines.lines() {
        report("grammar", started, line);
    }
    assert!(output.status.success(), "a schema did not compile:\n{lines}");
    assert_eq!(lines.lines().count(), tools.len(), "{lines}");
}

/// Every tool the agent offers, named in `tool_choice`, whole: the server compiles each real schema
/// into its grammar, and the call that comes back is read and fits the schema; for a browser tool, it
/// becomes a page tool (or is refused with a reason the model is told, never run blindly).
#[tokio::test]
#[ignore = "needs a real OpenAI-compatible server: run ./build.sh llm-check"]
async fn real_llm_every_agent_tool_schema_through_the_grammar() {
    let tools = agent_tools();
    let llm = client();
    let messages = conversation("Search for kettles.");
    let mut refused = Vec::new();
    let started_all = Instant::now();
    for tool in &tools {
        let name = tool["function"]["name"].as_str().unwrap();
        let schema = &tool["function"]["parameters"];
        let started = Instant::now();
        let result = turn(&llm, &messages, &tools, 160, Some(name)).await;
        let outcome = describe(&result);
        let call = match result {
            Ok(Completion {
                turn: ModelTurn::ToolCall { call, .. },
                ..
            }) => call,
            // Cut off by the token cap inside a long string: the model's doing, read as invalid.
            Err(LlmError::Invalid { why, .. }) if why.contains("not valid JSON") => {
                report(&format!("named {name}"), started, &outcome);
                continue;
            }
            other => panic!("{name}: {other:?}"),
        };
        assert!(call.native, "{name}: {call:?}");
        assert_eq!(call.name, name);
        if let Err(why) = conforms(schema, &call.args) {
            panic!("{name}: the grammar did not hold the schema: {why}");
        }
        if name.starts_with("browser_") {
            if let Err(why) = crate::mcp::catalogue::page_tool(name, &call.args) {
                refused.push(format!("{name}: {why}"));
            }
        }
        report(&format!("named {name}"), started, &outcome);
    }
    report(
        &format!("all {} agent tools named", tools.len()),
        started_all,
        &format!("{} calls refused by the catalogue: {refused:?}", refused.len()),
    );
}

/// A tool-call round trip with the agent's whole tool list, whole: `tool_choice: "auto"` first; if
/// the model answers in words instead, the tool is named, so the round trip always happens. The call
/// is read, answered with a `tool` message as the agent words it, and the server takes the next turn
/// (our assistant message with its call and `""` content, then the tool message, are accepted).
#[tokio::test]
#[ignore = "needs a real OpenAI-compatible server: run ./build.sh llm-check"]
async fn real_llm_tool_call_round_trip_whole() {
    let tools = agent_tools();
    let llm = client();
    let mut messages = conversation("Press Enter in the search box.");
    let started = Instant::now();
    let auto = llm.complete(&messages, &tools).await;
    report("auto tool choice, whole", started, &describe(&auto));
    let completion = match auto {
        Ok(
            completion @ Completion {
                turn: ModelTurn::ToolCall { .. },
                ..
            },
        ) => completion,
        // Words, or output that cannot be read (a repair turn in the agent): name the tool instead.
        Ok(_) | Err(LlmError::Invalid { .. }) => {
            let mut named = None;
            // browser_back takes no arguments, so a cap on the answer's length cannot cut it.
            for name in ["browser_press", "browser_back"] {
                let started = Instant::now();
                let result = turn(&llm, &messages, &tools, 160, Some(name)).await;
                report(
                    &format!("named {name} for the round trip"),
                    started,
                    &describe(&result),
                );
                match result {
                    Ok(completion) => {
                        named = Some(completion);
                        break;
                    }
                    Err(LlmError::Invalid { why, .. }) if why.contains("not valid JSON") => {}
                    Err(other) => panic!("{name}: {other:?}"),
                }
            }
            named.expect("no named call came back")
        }
        Err(other) => panic!("{other:?}"),
    };
    let ModelTurn::ToolCall { call, .. } = &completion.turn else {
        panic!("a named tool came back as {:?}", completion.turn);
    };
    assert!(call.native, "{call:?}");
    let call = call.clone();
    messages.push(completion.assistant);
    messages.push(Message::tool_result(
        &call,
        crate::agent::tools::result_message(&waymark_protocol::ToolResult::ok(
            json!({"pressed": "Enter", "title": "Search results: 3 kettles"}),
        )),
    ));
    let started = Instant::now();
    let next = turn(&llm, &messages, &tools, 160, None).await;
    report(
        &format!("after the {} result", call.name),
        started,
        &describe(&next),
    );
    match next {
        Ok(_) | Err(LlmError::Invalid { .. }) => {}
        Err(other) => panic!("the server did not take our tool message: {other:?}"),
    }
}

/// A request longer than the server's context: the server's 400 becomes our context overflow (with
/// what to change).
#[tokio::test]
#[ignore = "needs a real OpenAI-compatible server: run ./build.sh llm-check"]
async fn real_llm_an_oversized_request() {
    // Far over the 8192 tokens llm-check gives the server.
    let page = "kettle price 19.99 ".repeat(6000);
    let messages = vec![
        Message::system("You help a blind user."),
        Message::user(format!("Summarise this page: {page}")),
    ];
    let started = Instant::now();
    let whole = client().complete(&messages, &agent_tools()).await;
    report("oversized", started, &describe(&whole));
    let err = whole.unwrap_err();
    assert!(matches!(err, LlmError::ContextOverflow { .. }), "{err:?}");
    assert!(err.to_string().contains("--n_ctx"), "{err}");
}

/// A model name the server does not have. OpenAI and Ollama answer 404 (our `ModelNotFound`);
/// llama-cpp-python answers with its own model instead, which only `doctor` can point out.
#[tokio::test]
#[ignore = "needs a real OpenAI-compatible server: run ./build.sh llm-check"]
async fn real_llm_an_unknown_model() {
    let (url, _) = server();
    let llm = client_for(&url, "no-such-model");
    let started = Instant::now();
    let result = turn(&llm, &conversation("Say hello."), &[], 16, None).await;
    report("unknown model name", started, &describe(&result));
    match result {
        Err(LlmError::ModelNotFound { model, .. }) => assert_eq!(model, "no-such-model"),
        Ok(_) | Err(LlmError::Invalid { .. }) => {
            let mut config = crate::config::Config::load_from(
                &|name: &str| match name {
                    "WAYMARK_LLM_BASE_URL" => Some(url.clone()),
                    "WAYMARK_LLM_MODEL" => Some("no-such-model".to_owned()),
                    "WAYMARK_STATE_DIR" => Some(abs("/tmp/waymark-real-llm-state")),
                    _ => None,
                },
                None,
            )
            .unwrap();
            let check = crate::doctor::check_llm(&config, &waymark_i18n::Words::english()).await;
            report("unknown model name, doctor", started, &check.detail);
            assert_eq!(check.status, crate::doctor::Status::Warning, "{check:?}");
            config.llm_model = server().1;
            let check = crate::doctor::check_llm(&config, &waymark_i18n::Words::english()).await;
            assert_eq!(check.status, crate::doctor::Status::Ok, "{check:?}");
        }
        Err(other) => panic!("{other:?}"),
    }
}

/// A second server, killed while it works on our request: the client says the connection was lost;
/// asked again, it says nothing answers.
#[tokio::test]
#[ignore = "needs a real OpenAI-compatible server: run ./build.sh llm-check"]
async fn real_llm_the_server_goes_away_mid_request() {
    let start = std::env::var("WAYMARK_REAL_LLM_START")
        .expect("WAYMARK_REAL_LLM_START is not set: run these through ./build.sh llm-check");
    let (_, model) = server();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut child = tokio::process::Command::new("sh")
        .arg("-c")
        .arg(&start)
        .env("PORT", port.to_string())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let base_url = format!("http://127.0.0.1:{port}/v1");
    // Wait until it lists its models (loading takes a few seconds).
    let probe = reqwest::Client::builder().no_proxy().build().unwrap();
    let ready = async {
        loop {
            if probe
                .get(format!("{base_url}/models"))
                .send()
                .await
                .is_ok_and(|r| r.status().is_success())
            {
                break;
            }
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(120), ready)
        .await
        .expect("the second server did not start within 120 s");
    let llm = client_for(&base_url, &model);
    let messages = conversation("Write a long story about a kettle, in many paragraphs.");
    let started = Instant::now();
    let request = llm.complete(&messages, &[]);
    let kill = async {
        tokio::time::sleep(Duration::from_millis(1500)).await;
        // SIGKILL: the process dies as in a crash, without closing anything itself.
        child.start_kill().unwrap();
    };
    let (result, ()) = tokio::join!(request, kill);
    report("server killed mid-request", started, &describe(&result));
    let err = result.unwrap_err();
    assert!(matches!(err, LlmError::ConnectionLost { .. }), "{err:?}");
    let _ = child.wait().await;
    let again = llm.complete(&messages, &[]).await.unwrap_err();
    assert!(matches!(again, LlmError::Unreachable { .. }), "{again:?}");
}
