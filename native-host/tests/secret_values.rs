//! Secrets known by their value, through the real `waymark-host` binary with its log at `trace`: a
//! page that echoes a card number (in its text, its title and its address) and a password the model
//! wanted typed into a password field (which the gate left to the user). Neither reaches the model,
//! the session file, the step log or the host's log, while the rest of the page does — so each check
//! could fail.
#![allow(clippy::unwrap_used)] // test code: a panic is the failure report

mod common;

use std::process::Stdio;

use common::Host;
use fake_llm::{FakeLlm, Script, Step};
use serde_json::{json, Value};

const PASSWORD: &str = "HunterQuillZebra";
/// A test card number (Visa's), as the page writes it, and its digits alone.
const CARD: &str = "4111 1111 1111 1111";
const DIGITS: &str = "4111111111111111";

/// A payment page whose confirmation repeats what was typed.
fn echoing_page(tool: &Value) -> Value {
    let url = format!("https://shop.example/paid?card={DIGITS}");
    match tool["tool"].as_str().unwrap() {
        "preview" => {
            let target = json!({"index": 2, "role": "textbox", "name": "Password", "tag": "input",
                "type": "password", "editable": true, "url": url});
            let pin = json!({"tab": 1, "frame": 0, "document": "doc", "element": 102});
            json!({"status": "ok", "data": {"pin": pin, "page_url": url, "target": target}})
        }
        "find_banners" => json!({"status": "ok", "data": {"banners": []}}),
        "extract" => json!({"status": "ok", "data": {
            "title": format!("Paid with {CARD}"),
            "url": url,
            "headings": [{"level": 1, "text": "Thank you for your order"}],
            "snippet": format!("Card {CARD} is saved. Your new password {} is active.", PASSWORD.to_uppercase()),
        }}),
        _ => json!({"status": "ok", "data": {}}),
    }
}

#[tokio::test]
async fn an_echoed_card_number_and_a_handed_over_password_stay_out_of_everything_the_host_keeps() {
    let dir = tempfile::tempdir().unwrap();
    let script = Script::new([
        Step::tool_call(
            "browser_overlay_act",
            json!({"index": 2, "action": "type", "text": PASSWORD}),
        ),
        Step::tool_call("browser_extract", json!({})),
        Step::tool_call("assistant_done", json!({"reason": "The order is paid."})),
    ]);
    let llm = FakeLlm::start(script).await.unwrap();
    let log_path = dir.path().join("stderr.log");
    let log = std::fs::File::create(&log_path).unwrap();
    let env = [
        ("WAYMARK_LLM_BASE_URL", llm.base_url()),
        ("WAYMARK_LLM_MODEL", "test-model"),
        ("WAYMARK_LOG", "trace"),
    ];
    let mut host = Host::start_logging(&env, dir.path(), 10, echoing_page, Stdio::from(log));
    let seen = host.chat(1, "Check that my order went through").await;
    // The password is the user's to type: handed over, and then "done".
    let question = seen.iter().find(|m| m["type"] == "question").unwrap().clone();
    assert_eq!(question["kind"], "manual");
    host.send(json!({"type": "answer", "question": question["id"], "yes": true}))
        .await;
    let seen = host.until_stopped().await;
    assert_eq!(seen.last().unwrap()["event"]["state"], "idle");
    drop(host);

    let requests = serde_json::to_string(&llm.requests()).unwrap();
    // The page was read, and what it said reached the model without the secrets.
    assert!(requests.contains("Thank you for your order"), "{requests}");
    assert!(requests.contains("is saved"), "{requests}");
    assert!(
        requests.contains("•••"),
        "the secrets' places are marked: {requests}"
    );
    let session = std::fs::read_to_string(dir.path().join("sessions/current.json")).unwrap();
    let steps = std::fs::read_to_string(dir.path().join("logs/steps.jsonl")).unwrap();
    let stderr = std::fs::read_to_string(&log_path).unwrap();
    assert!(
        stderr.contains("TRACE") || stderr.contains("DEBUG"),
        "the log is at trace level: {stderr}"
    );
    for (what, text) in [
        ("the model's input", &requests),
        ("the session file", &session),
        ("the step log", &steps),
        ("the host's log", &stderr),
    ] {
        let lower = text.to_lowercase();
        assert!(
            !lower.contains(&PASSWORD.to_lowercase()),
            "{what} holds the password:\n{text}"
        );
        assert!(
            !text.contains(CARD) && !text.contains(DIGITS),
            "{what} holds the card number:\n{text}"
        );
    }
}
