//! An external MCP server from the config file, used by the agent: the real host binary starts the
//! fixture server (`examples/mcp_fixture.rs`) named in `[[mcp_servers]]`, offers its tools to the
//! scripted model under a namespaced name, runs a read-only tool at once, holds one that changes
//! something for the user's yes, and stops the server when the browser closes the connection.
#![allow(clippy::unwrap_used)] // test code: a panic is the failure report

mod common;

use std::time::{Duration, Instant};

use common::Host;
use fake_llm::{FakeLlm, Script, Step};
use serde_json::{json, Value};

/// A page with nothing on it: this test is about the external tools.
fn blank_page(tool: &Value) -> Value {
    match tool["tool"].as_str().unwrap() {
        "list_interactives" => {
            json!({"status": "ok", "data": {"url": "https://notes.example/", "title": "Notes", "total": 0, "offset": 0, "items": []}})
        }
        _ => json!({"status": "ok", "data": {}}),
    }
}

/// Whether the fixture that wrote its liveness port to `file` still runs (the port closes with it).
fn alive(file: &std::path::Path) -> bool {
    let port: u16 = std::fs::read_to_string(file).unwrap().trim().parse().unwrap();
    std::net::TcpStream::connect(("127.0.0.1", port)).is_ok()
}

#[tokio::test]
async fn the_agent_calls_an_external_servers_tools_behind_the_gate_and_the_server_stops_with_the_host() {
    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("notes.txt");
    let alive_file = dir.path().join("fixture.alive");
    let config_dir = dir.path().join("config").join("waymark");
    std::fs::create_dir_all(&config_dir).unwrap();
    std::fs::write(
        config_dir.join("config.toml"),
        format!(
            "[[mcp_servers]]\nname = \"notes\"\ncommand = {:?}\nenv = {{ NOTES_FILE = {:?}, FIXTURE_ALIVE_FILE = {:?} }}\n",
            common::mcp_fixture().display().to_string(),
            notes.display().to_string(),
            alive_file.display().to_string(),
        ),
    )
    .unwrap();

    let script = Script::new([
        Step::tool_call("notes__echo", json!({"text": "hello"})),
        Step::tool_call("notes__add_note", json!({"text": "buy milk"})),
        Step::tool_call("assistant_done", json!({"reason": "Noted: buy milk."})),
    ]);
    let llm = FakeLlm::start(script).await.unwrap();
    let mut host = Host::start(&llm, dir.path(), 10, blank_page);
    let seen = host.chat(1, "Note that I need milk").await;

    // The model was offered the server's tools, namespaced, next to the browser tools.
    let requests = llm.requests();
    let offered: Vec<String> = requests[0]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap().to_owned())
        .collect();
    for name in [
        "notes__echo",
        "notes__add_note",
        "notes__sleep",
        "browser_list_interactives",
    ] {
        assert!(offered.iter().any(|o| o == name), "{name} in {offered:?}");
    }
    // The read-only echo ran at once, and its answer went back to the model inside the data block.
    let echo = requests[1]["messages"].as_array().unwrap().last().unwrap()["content"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        echo.contains("echo: hello") && echo.starts_with("<<<WAYMARK_DATA"),
        "{echo}"
    );

    // add_note has no read-only hint: the user is asked, and nothing is written before the answer.
    let question = seen.iter().find(|m| m["type"] == "question").unwrap().clone();
    assert_eq!(question["kind"], "confirm");
    assert_eq!(
        question["text"],
        "Use \"add_note\" of the MCP server \"notes\" with what the assistant wrote (text: \"buy milk\")?"
    );
    assert_eq!(seen.last().unwrap()["event"]["state"], "waiting_user");
    assert!(!notes.exists(), "nothing written before the yes");

    host.send(json!({"type": "answer", "question": question["id"], "yes": true}))
        .await;
    let seen = host.until_stopped().await;
    let said: Vec<&str> = seen
        .iter()
        .filter(|m| m["event"]["kind"] == "message")
        .filter_map(|m| m["event"]["text"].as_str())
        .collect();
    assert_eq!(said, ["Noted: buy milk."]);
    assert_eq!(
        std::fs::read_to_string(&notes).unwrap(),
        "buy milk\n",
        "written once"
    );
    assert!(host.ran.is_empty(), "no page tool ran: {:?}", host.ran);

    // The browser closes the connection: the host stops the server before it exits.
    assert!(alive(&alive_file), "the MCP server runs");
    let closed = Instant::now();
    drop(host.stdin);
    let status = tokio::time::timeout(Duration::from_secs(5), host.child.wait())
        .await
        .unwrap()
        .unwrap();
    assert!(status.success(), "{status}");
    assert!(
        !alive(&alive_file),
        "the MCP server process is gone after the host exits"
    );
    assert!(
        closed.elapsed() < Duration::from_secs(2),
        "{:?}",
        closed.elapsed()
    );
}
