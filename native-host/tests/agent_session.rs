//! The real `waymark-host` binary in native-messaging mode, driven through its framing by a test that
//! plays the extension (it answers `run_tool` from a scripted page) against a scripted model
//! (`fake_llm`): a login handed over to the user and resumed on "done", the step limit and "continue",
//! and a host killed mid-task (SIGKILL) and started again on the same state directory.
#![allow(clippy::unwrap_used)] // test code: a panic is the failure report

mod common;

use common::Host;
use fake_llm::{FakeLlm, Script, Step};
use serde_json::{json, Value};

/// A login page: its controls, and what `describe` says about each.
fn login_page(tool: &Value) -> Value {
    let url = "https://shop.example/login?next=/orders";
    let controls = [
        (1, "textbox", "Email", "email"),
        (2, "textbox", "Password", "password"),
        (3, "button", "Log in", "submit"),
    ];
    match tool["tool"].as_str().unwrap() {
        "list_interactives" => {
            let items: Vec<Value> = controls
                .iter()
                .map(|(index, role, name, _)| json!({"index": index, "role": role, "name": name}))
                .collect();
            json!({"status": "ok", "data": {"url": url, "title": "Log in", "total": items.len(), "offset": 0, "items": items}})
        }
        // What an action would do, as the extension describes it to the gate.
        "preview" => {
            let action = &tool["action"];
            let Some(index) = action["index"].as_u64() else {
                let pin = json!({"tab": 1, "frame": 0, "document": "doc"});
                return json!({"status": "ok", "data": {"pin": pin, "page_url": url}});
            };
            let (_, role, name, kind) = controls[usize::try_from(index).unwrap() - 1];
            let field = role == "textbox";
            let tag = if field { "input" } else { "button" };
            let target = json!({"index": index, "role": role, "name": name, "tag": tag, "type": kind, "editable": field, "url": url});
            let pin = json!({"tab": 1, "frame": 0, "document": "doc", "element": index + 100});
            json!({"status": "ok", "data": {"pin": pin, "page_url": url, "target": target}})
        }
        "find_banners" => json!({"status": "ok", "data": {"banners": []}}),
        "extract" => {
            json!({"status": "ok", "data": {"title": "Log in", "url": url, "headings": [], "snippet": "Log in to see your orders."}})
        }
        _ => json!({"status": "ok", "data": {"done": tool["action"]}}),
    }
}

fn said(seen: &[Value]) -> Vec<String> {
    seen.iter()
        .filter(|m| m["event"]["kind"] == "message")
        .map(|m| m["event"]["text"].as_str().unwrap().to_owned())
        .collect()
}

fn system_prompt(request: &Value) -> String {
    request["messages"][0]["content"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn a_login_is_handed_over_then_done_looks_again_and_the_agent_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let script = Script::new([
        Step::tool_call("browser_list_interactives", json!({})),
        Step::tool_call(
            "browser_overlay_act",
            json!({"index": 2, "action": "type", "text": "hunter2"}),
        ),
        Step::tool_call(
            "assistant_done",
            json!({"reason": "You are logged in; your orders are open."}),
        ),
    ]);
    let llm = FakeLlm::start(script).await.unwrap();
    let mut host = Host::start(&llm, dir.path(), 10, login_page);
    let seen = host.chat(1, "Open my orders").await;
    let question = seen.iter().find(|m| m["type"] == "question").unwrap().clone();
    assert_eq!(question["kind"], "manual");
    let text = question["text"].as_str().unwrap();
    assert!(text.starts_with("Waymark leaves this step to you"), "{text}");
    assert!(text.ends_with("Say done when you have finished."), "{text}");
    assert_eq!(seen.last().unwrap()["event"]["state"], "waiting_user");
    assert_eq!(host.ran.len(), 1, "nothing was typed: {:?}", host.ran);

    // The panel's /done.
    host.send(json!({"type": "answer", "question": question["id"], "yes": true}))
        .await;
    let seen = host.until_stopped().await;
    assert_eq!(said(&seen), ["You are logged in; your orders are open."]);
    assert_eq!(seen.last().unwrap()["event"]["state"], "idle");
    assert_eq!(host.ran.len(), 2);
    assert_eq!(
        host.ran[1]["tool"], "list_interactives",
        "a fresh look at the page"
    );
    let requests = llm.requests();
    assert_eq!(requests.len(), 3);
    let note = requests[2]["messages"].as_array().unwrap().last().unwrap()["content"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(note.contains("the user says they have done the step"), "{note}");
    assert!(!requests[2].to_string().contains("hunter2"));

    // The step log: masked, and it says what happened.
    let log = std::fs::read_to_string(dir.path().join("logs/steps.jsonl")).unwrap();
    assert!(!log.contains("hunter2"), "{log}");
    assert!(!log.contains("next=/orders"), "no query strings: {log}");
    let events: Vec<String> = log
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["event"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(events, ["step", "step", "manual_done", "done"]);
    drop(host);
}

#[tokio::test]
async fn the_step_limit_gives_a_summary_and_continue_goes_on_with_the_same_goal() {
    let dir = tempfile::tempdir().unwrap();
    let script = Script::new([
        Step::tool_call("browser_list_interactives", json!({})),
        Step::tool_call("browser_extract", json!({})),
        Step::tool_call("browser_list_interactives", json!({})),
        Step::tool_call(
            "assistant_done",
            json!({"reason": "The login page has 3 controls."}),
        ),
    ]);
    let llm = FakeLlm::start(script).await.unwrap();
    let mut host = Host::start(&llm, dir.path(), 2, login_page);
    let seen = host.chat(1, "Look at the login page").await;
    let summary = said(&seen).pop().unwrap();
    assert!(summary.starts_with("I have taken 2 steps"), "{summary}");
    assert!(summary.contains("Shall I go on?"), "{summary}");
    let seen = host.chat(2, "continue").await;
    assert_eq!(said(&seen), ["The login page has 3 controls."]);
    let requests = llm.requests();
    assert!(system_prompt(&requests[2]).contains("Look at the login page"));
    assert_eq!(host.ran.len(), 3);
}

#[tokio::test]
async fn a_host_killed_mid_task_continues_the_same_goal_and_facts_when_started_again() {
    let dir = tempfile::tempdir().unwrap();
    let first = FakeLlm::start(Script::new([
        Step::tool_call(
            "assistant_plan",
            json!({"steps": ["Open the orders", "Find the last order", "Tell the user its state"], "current": 1,
                   "facts": ["The shop asks for a login before showing orders"]}),
        ),
        Step::tool_call("browser_list_interactives", json!({})),
        // Killed while the model thinks about this one.
        Step::tool_call("browser_extract", json!({})).delayed(60_000),
    ]))
    .await
    .unwrap();
    let mut host = Host::start(&first, dir.path(), 10, login_page);
    host.send(json!({"type": "chat", "id": 1, "tab_id": 7, "text": "Where is my last order?"}))
        .await;
    host.until_requests(&first, 3).await;
    host.child.start_kill().unwrap();
    host.child.wait().await.unwrap();

    let second = FakeLlm::start(Script::new([Step::tool_call(
        "assistant_done",
        json!({"reason": "Your last order is on its way."}),
    )]))
    .await
    .unwrap();
    let mut host = Host::start(&second, dir.path(), 10, login_page);
    let seen = host.chat(2, "continue").await;
    assert_eq!(said(&seen), ["Your last order is on its way."]);
    let request = &second.requests()[0];
    let system = system_prompt(request);
    assert!(
        system.contains("Where is my last order?"),
        "the same goal: {system}"
    );
    assert!(
        system.contains("The shop asks for a login before showing orders"),
        "the same facts: {system}"
    );
    assert!(system.contains("Find the last order"), "the same plan: {system}");
    let messages = request["messages"].as_array().unwrap();
    assert_eq!(messages[1]["content"], "Where is my last order?");
    assert!(messages[messages.len() - 2]["content"]
        .as_str()
        .unwrap()
        .contains("was stopped in the middle of this task"));
}
