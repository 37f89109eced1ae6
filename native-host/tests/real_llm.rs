//! The real `waymark-host` binary against a real OpenAI-compatible server (`./build.sh llm-check`
//! starts llama-cpp-python with a small GGUF model): the agent's own requests — its system prompt,
//! working notes, every tool it offers, its tool messages — taken by a server nobody here wrote, and
//! `waymark-host doctor`'s endpoint check passing for that server and failing for things that are not
//! one. The client's finer cases (errors, each schema in the grammar) are the `real_llm_*` tests
//! inside the crate (`src/llm/real_server.rs`).
//!
//! Ignored in a plain `cargo test`; they need `WAYMARK_REAL_LLM_URL` and `WAYMARK_REAL_LLM_MODEL`.
//! Each prints `real-llm:` lines for the report. What it must not do: reach anything but 127.0.0.1,
//! or fail because the tiny model chose oddly — only what a broken protocol causes fails it.
#![allow(clippy::unwrap_used)] // test code: a panic is the failure report

mod common;

use std::time::{Duration, Instant};

use common::Host;
use serde_json::{json, Value};
use tokio::process::Command;

fn server() -> (String, String) {
    let url = std::env::var("WAYMARK_REAL_LLM_URL")
        .expect("WAYMARK_REAL_LLM_URL is not set: run these through ./build.sh llm-check");
    let model = std::env::var("WAYMARK_REAL_LLM_MODEL")
        .expect("WAYMARK_REAL_LLM_MODEL is not set: run these through ./build.sh llm-check");
    (url, model)
}

/// A shop's search page, as the extension would describe it.
fn search_page(tool: &Value) -> Value {
    let url = "https://shop.example/";
    let controls = [
        (1, "link", "Home", "a"),
        (2, "textbox", "Search", "input"),
        (3, "button", "Search", "button"),
    ];
    match tool["tool"].as_str().unwrap_or_default() {
        "list_interactives" | "find" => {
            let items: Vec<Value> = controls
                .iter()
                .map(|(index, role, name, _)| json!({"index": index, "role": role, "name": name}))
                .collect();
            json!({"status": "ok", "data": {"url": url, "title": "Shop", "total": items.len(), "offset": 0, "items": items}})
        }
        "preview" => {
            let pin = json!({"tab": 1, "frame": 0, "document": "doc"});
            let index = tool["action"]["index"].as_u64().unwrap_or(0);
            let Some((_, role, name, tag)) = controls.iter().find(|c| c.0 == index) else {
                return json!({"status": "ok", "data": {"pin": pin, "page_url": url}});
            };
            let target = json!({"index": index, "role": role, "name": name, "tag": tag, "editable": *role == "textbox", "url": url});
            let mut pin = pin;
            pin["element"] = json!(index + 100);
            json!({"status": "ok", "data": {"pin": pin, "page_url": url, "target": target}})
        }
        "find_banners" => json!({"status": "ok", "data": {"banners": []}}),
        "extract" => {
            json!({"status": "ok", "data": {"title": "Shop", "url": url, "headings": ["Kettles"], "snippet": "Kettles from 19 euros."}})
        }
        _ => json!({"status": "ok", "data": {"done": true}}),
    }
}

/// What the server or the protocol — not the model's choice — would be to blame for.
const PROTOCOL_FAILURES: &[&str] = &[
    "rejected the request",
    "failed (HTTP",
    "not a chat completion",
    "closed the connection",
    "ended its streamed answer",
    "refused the API key",
    "not found at",
];

#[tokio::test]
#[ignore = "needs a real OpenAI-compatible server: run ./build.sh llm-check"]
async fn real_llm_the_agent_takes_its_turns_with_a_real_server() {
    let (url, model) = server();
    let dir = tempfile::tempdir().unwrap();
    // A 270M model on 2 cores can take over the default 60 s for one turn with every tool in its
    // prompt (the timeout is said then, worded for the user): this checks the protocol, not speed.
    let env = [
        ("WAYMARK_LLM_BASE_URL", url.as_str()),
        ("WAYMARK_LLM_MODEL", model.as_str()),
        ("WAYMARK_LLM_TIMEOUT_SECS", "600"),
    ];
    let mut host = Host::start_with(&env, dir.path(), 3, search_page);
    host.send(json!({"type": "chat", "id": 1, "tab_id": 7, "text": "Search the shop for kettles."}))
        .await;
    let started = Instant::now();
    let seen = host.until_stopped_within(Duration::from_secs(900)).await;
    let events: Vec<String> = seen
        .iter()
        .filter_map(|m| {
            let event = &m["event"];
            match event["kind"].as_str()? {
                "status" | "progress" => None,
                kind => Some(format!(
                    "{kind}: {}",
                    event["text"]
                        .as_str()
                        .or(event["what"].as_str())
                        .unwrap_or_default()
                )),
            }
        })
        .collect();
    let ran: Vec<&str> = host.ran.iter().filter_map(|t| t["tool"].as_str()).collect();
    eprintln!(
        "real-llm: the agent, 3 steps at most: page tools run {ran:?}; events {events:?} ({:.1} s)",
        started.elapsed().as_secs_f64()
    );
    for event in &events {
        for failure in PROTOCOL_FAILURES {
            assert!(!event.contains(failure), "a protocol failure: {event}");
        }
    }
    // The agent read at least one answer: it ran a tool, said something, or repaired and gave up on
    // the model's own output.
    assert!(!events.is_empty() || !ran.is_empty(), "{seen:?}");
}

/// `waymark-host doctor --json`'s `llm` check for `base_url` (and `model`).
/// Waits until the server answers its model list again. The doctor's chat check asks for an answer
/// and may stop waiting (30 s) before the tiny model stops writing; llama-cpp-python then finishes that
/// answer before it serves anything else, and the next doctor run's 3 s endpoint check would find
/// nothing answering. A user's next request waits the same way: that is the server's, not ours to test.
async fn server_idle(base_url: &str) {
    let models = format!("{}/models", base_url.trim_end_matches('/'));
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(300))
        .build()
        .unwrap();
    client.get(&models).send().await.unwrap();
}

async fn doctor_llm(base_url: &str, model: &str) -> Value {
    server_idle(base_url).await;
    let dir = tempfile::tempdir().unwrap();
    let output = common::isolated(&mut Command::new(env!("CARGO_BIN_EXE_waymark-host")), dir.path())
        .args(["doctor", "--json"])
        .env("WAYMARK_LLM_BASE_URL", base_url)
        .env("WAYMARK_LLM_MODEL", model)
        .output()
        .await
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "llm")
        .cloned()
        .unwrap()
}

/// A server on 127.0.0.1 that answers every request with a web page, as a wrong address would.
async fn web_page_server() -> String {
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base_url = format!("http://{}/v1", listener.local_addr().unwrap());
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            let mut buf = [0_u8; 4096];
            let _ = socket.read(&mut buf).await;
            let page = "<html><body>It works!</body></html>";
            let answer = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{page}",
                page.len()
            );
            let _ = socket.write_all(answer.as_bytes()).await;
        }
    });
    base_url
}

#[tokio::test]
#[ignore = "needs a real OpenAI-compatible server: run ./build.sh llm-check"]
async fn real_llm_doctor_passes_the_server_and_fails_what_is_not_one() {
    let (url, model) = server();
    let check = doctor_llm(&url, &model).await;
    eprintln!(
        "real-llm: doctor, the server: {} {}",
        check["status"], check["detail"]
    );
    assert_eq!(check["status"], "ok", "{check}");

    let check = doctor_llm(&url, "no-such-model").await;
    eprintln!(
        "real-llm: doctor, a model it lacks: {} {}",
        check["status"], check["detail"]
    );
    assert_eq!(check["status"], "warning", "{check}");

    // The server's address without /v1: it answers, but has no model list there.
    let root = url.trim_end_matches('/').trim_end_matches("/v1").to_owned();
    let check = doctor_llm(&root, &model).await;
    eprintln!(
        "real-llm: doctor, without /v1: {} {} — {}",
        check["status"], check["detail"], check["fix"]
    );
    assert_ne!(check["status"], "ok", "{check}");

    let page = web_page_server().await;
    let check = doctor_llm(&page, &model).await;
    eprintln!(
        "real-llm: doctor, a web page: {} {}",
        check["status"], check["detail"]
    );
    assert_eq!(check["status"], "problem", "{check}");
}
