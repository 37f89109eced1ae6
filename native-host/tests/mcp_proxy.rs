//! `waymark-host mcp` as an MCP client starts it: the real binary on stdio, joined over the local
//! socket (a Unix socket, or a named pipe on Windows) to a real host that a test plays the browser for.
//! The end-to-end test with Chromium (`tests/e2e/mcp.test.mjs`) covers the page; this one covers the
//! socket, the proxy and the rmcp server on every platform the host builds for, without a browser.
#![allow(clippy::unwrap_used)] // test code: a panic is the failure report

mod common;

use std::path::Path;
use std::time::Duration;

use common::Host;
use fake_llm::{FakeLlm, Script};
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

/// A page with one button.
fn one_button(tool: &Value) -> Value {
    match tool["tool"].as_str().unwrap() {
        "list_interactives" => json!({"status": "ok", "data": {
            "url": "https://shop.example/", "title": "Shop", "total": 1, "offset": 0,
            "items": [{"index": 1, "role": "button", "name": "Show basket", "frame": 0}]
        }}),
        _ => json!({"status": "ok", "data": {}}),
    }
}

/// `waymark-host mcp` with the same state directory as the host.
struct McpClient {
    child: Child,
    stdin: ChildStdin,
    lines: Lines<BufReader<ChildStdout>>,
}

impl McpClient {
    fn start(state_dir: &Path) -> McpClient {
        Self::start_with(state_dir, &[])
    }

    fn start_with(state_dir: &Path, choice: &[&str]) -> McpClient {
        let mut command = Command::new(env!("CARGO_BIN_EXE_waymark-host"));
        command.arg("mcp").args(choice);
        Self::spawn(&mut command, state_dir)
    }

    /// Runs `command` (which starts `waymark-host mcp`) as the client's end of stdio.
    fn spawn(command: &mut Command, state_dir: &Path) -> McpClient {
        let mut child = common::isolated(command, state_dir).spawn().unwrap();
        let stdin = child.stdin.take().unwrap();
        let lines = BufReader::new(child.stdout.take().unwrap()).lines();
        McpClient { child, stdin, lines }
    }

    async fn send(&mut self, message: Value) {
        self.stdin
            .write_all(format!("{message}\n").as_bytes())
            .await
            .unwrap();
        self.stdin.flush().await.unwrap();
    }

    async fn recv(&mut self) -> Value {
        let line = tokio::time::timeout(Duration::from_secs(20), self.lines.next_line())
            .await
            .expect("no answer within 20 s")
            .unwrap()
            .expect("the proxy closed its stdout");
        serde_json::from_str(&line).unwrap()
    }

    async fn initialize(&mut self) -> Value {
        self.initialize_as("2025-06-18").await
    }

    /// `initialize`, asking for protocol `version`.
    async fn initialize_as(&mut self, version: &str) -> Value {
        self.initialize_named(version, "proxy-test").await
    }

    /// `initialize` of a client that calls itself `name`.
    async fn initialize_named(&mut self, version: &str, name: &str) -> Value {
        self.send(
            json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": version,
                "capabilities": {},
                "clientInfo": {"name": name, "version": "1"}
            }}),
        )
        .await;
        self.recv().await
    }
}

/// Waits until a host has published its record under `state_dir/run`.
async fn published(state_dir: &Path) {
    let run = state_dir.join("run");
    for _ in 0..200 {
        let found = std::fs::read_dir(&run)
            .into_iter()
            .flatten()
            .flatten()
            .any(|e| e.path().extension().is_some_and(|x| x == "json"));
        if found {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the host published no socket in {}", run.display());
}

#[tokio::test]
async fn a_client_on_stdio_lists_the_tools_and_runs_one_in_the_browser_through_the_host() {
    let dir = tempfile::tempdir().unwrap();
    let llm = FakeLlm::start(Script::new([])).await.unwrap();
    let mut host = Host::start(&llm, dir.path(), 10, one_button);
    published(dir.path()).await;

    let mut client = McpClient::start(dir.path());
    // The newest protocol this SDK knows: the question below must still name the client.
    let welcome = client.initialize_as("2026-07-28").await;
    assert_eq!(welcome["result"]["serverInfo"]["name"], "waymark", "{welcome}");
    client
        .send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;

    client
        .send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}))
        .await;
    let listed = client.recv().await;
    let names: Vec<&str> = listed["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    for name in [
        "browser_list_interactives",
        "browser_overlay_act",
        "browser_navigate",
    ] {
        assert!(names.contains(&name), "{name} in {names:?}");
    }
    let listing = &listed["result"]["tools"].as_array().unwrap()[0];
    assert_eq!(listing["title"], "List the page's controls", "{listing}");
    assert_eq!(listing["outputSchema"]["type"], "object", "{listing}");

    // A call that is no tool call is a JSON-RPC error (-32602), answered before anyone is asked.
    for (id, params) in [
        (20, json!({"name": "browser_fly", "arguments": {}})),
        (21, json!({"name": "browser_back", "arguments": "now"})),
    ] {
        client
            .send(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params}))
            .await;
        let refused = client.recv().await;
        assert_eq!(refused["id"], id, "{refused}");
        assert_eq!(refused["error"]["code"], -32602, "{refused}");
    }

    // The call crosses the socket into the host. A new client must first be allowed by the user: the
    // panel (this test) is asked, naming the client, and nothing reaches the page before the yes.
    client
        .send(json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                     "params": {"name": "browser_list_interactives", "arguments": {}}}))
        .await;
    let question = tokio::time::timeout(Duration::from_secs(20), host.recv())
        .await
        .expect("the host did not ask the user");
    assert_eq!(question["type"], "question", "{question}");
    // It names the program beside the name it gives: the program is this test, the proxy's parent.
    let me = std::env::current_exe().unwrap();
    assert_eq!(
        question["text"],
        format!(
            "proxy-test ({}) wants to use your browser through Waymark. Allow it?",
            me.file_stem().unwrap().to_string_lossy()
        )
    );
    host.send(json!({"type": "answer", "question": question["id"], "yes": true}))
        .await;
    // Then the host asks the "browser" (this test) to run it.
    let run = tokio::time::timeout(Duration::from_secs(20), host.recv())
        .await
        .expect("the host did not ask the browser");
    assert_eq!(run["type"], "run_tool", "{run}");
    assert_eq!(run["tool"]["tool"], "list_interactives");
    let result = one_button(&run["tool"]);
    host.send(json!({"type": "tool_result", "id": run["id"], "result": result}))
        .await;
    let called = client.recv().await;
    assert_eq!(called["id"], 3);
    let text = called["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("Show basket"), "{text}");
    assert_ne!(called["result"]["isError"], true, "{called}");
    assert_eq!(
        called["result"]["structuredContent"]["items"][0]["name"], "Show basket",
        "{called}"
    );

    // An argument the tool does not take is refused by name, as a tool error the model can correct.
    client
        .send(json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
                     "params": {"name": "browser_list_interactives", "arguments": {"limit": 5, "tab": 3}}}))
        .await;
    let refused = client.recv().await;
    assert_eq!(refused["result"]["isError"], true, "{refused}");
    let text: Value =
        serde_json::from_str(refused["result"]["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(text["kind"], "bad_arguments", "{text}");
    assert!(text["error"].as_str().unwrap().contains("`tab`"), "{text}");

    // The client leaves: the proxy ends cleanly.
    drop(client.stdin);
    let status = tokio::time::timeout(Duration::from_secs(10), client.child.wait())
        .await
        .expect("the proxy did not exit")
        .unwrap();
    assert!(status.success(), "{status}");
}

impl McpClient {
    /// Calls `name` and returns the tool result the text holds (`{status, error?, kind?, data?}`).
    async fn call(&mut self, id: u64, name: &str, arguments: Value) -> Value {
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                         "params": {"name": name, "arguments": arguments}}))
            .await;
        let answer = self.recv().await;
        assert_eq!(answer["id"], id, "{answer}");
        let text = answer["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or_else(|| panic!("{answer}"));
        let result: Value = serde_json::from_str(text).unwrap();
        assert_eq!(
            answer["result"]["isError"] == true,
            result["status"] == "error",
            "{answer}"
        );
        result
    }

    /// A session: `initialize` and `notifications/initialized`.
    async fn begin(&mut self) {
        let welcome = self.initialize().await;
        assert_eq!(welcome["result"]["serverInfo"]["name"], "waymark", "{welcome}");
        self.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            .await;
    }
}

/// The host asks the "browser" to run a tool; the test runs it on its one-button page.
async fn run_one(host: &mut Host) -> Value {
    let run = tokio::time::timeout(Duration::from_secs(20), host.recv())
        .await
        .expect("the host did not ask the browser");
    assert_eq!(run["type"], "run_tool", "{run}");
    host.send(json!({"type": "tool_result", "id": run["id"], "result": one_button(&run["tool"])}))
        .await;
    run
}

/// Calls `browser_list_interactives` until a host takes it (a call made before is refused as
/// retryable), then lets the user allow the client and the "browser" run it.
async fn list_once_a_host_is_there(client: &mut McpClient, host: &mut Host, mut id: u64) {
    let started = std::time::Instant::now();
    loop {
        id += 1;
        client
            .send(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                         "params": {"name": "browser_list_interactives", "arguments": {}}}))
            .await;
        let taken = tokio::select! {
            answer = client.recv() => {
                let text = answer["result"]["content"][0]["text"].as_str().unwrap().to_owned();
                let result: Value = serde_json::from_str(&text).unwrap();
                assert_eq!(result["kind"], "unreachable", "{answer}");
                false
            }
            question = host.recv() => {
                assert_eq!(question["type"], "question", "{question}");
                host.send(json!({"type": "answer", "question": question["id"], "yes": true})).await;
                true
            }
        };
        if taken {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "no host took the session over"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    run_one(host).await;
    let answer = client.recv().await;
    assert_eq!(answer["id"], id, "{answer}");
    assert_eq!(
        answer["result"]["structuredContent"]["items"][0]["name"], "Show basket",
        "{answer}"
    );
}

#[tokio::test]
async fn without_a_browser_the_session_works_and_each_call_says_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let mut client = McpClient::start(dir.path());
    client.begin().await;
    client
        .send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}))
        .await;
    let listed = client.recv().await;
    assert!(
        listed["result"]["tools"].as_array().unwrap().len() > 10,
        "{listed}"
    );

    let refused = client.call(3, "browser_list_interactives", json!({})).await;
    assert_eq!(
        refused["kind"], "unreachable",
        "what a client retries by: {refused}"
    );
    let said = refused["error"].as_str().unwrap();
    assert!(said.contains("No browser with Waymark is running"), "{said}");
    assert!(said.contains("waymark-host doctor"), "{said}");
    // The caller's own mistakes are said as a host says them.
    let wrong = client.call(4, "browser_wait", json!({"ms": -1})).await;
    assert_eq!(wrong["kind"], "bad_arguments", "{wrong}");
    client
        .send(json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "browser_fly"}}))
        .await;
    assert_eq!(client.recv().await["error"]["code"], -32602);

    drop(client.stdin);
    let status = tokio::time::timeout(Duration::from_secs(10), client.child.wait())
        .await
        .expect("the proxy did not exit")
        .unwrap();
    assert!(status.success(), "{status}");
}

/// Claude Desktop started before the browser: the same session works once the browser's host is there.
#[tokio::test]
async fn a_client_started_before_the_browser_is_served_once_the_browser_comes() {
    let dir = tempfile::tempdir().unwrap();
    let llm = FakeLlm::start(Script::new([])).await.unwrap();
    let mut client = McpClient::start(dir.path());
    client.begin().await;
    let early = client.call(2, "browser_list_interactives", json!({})).await;
    assert_eq!(early["kind"], "unreachable", "{early}");

    let mut host = Host::start(&llm, dir.path(), 10, one_button);
    list_once_a_host_is_there(&mut client, &mut host, 10).await;
}

/// A host that dies (the browser crashed, Waymark restarted) and one started after it: the client's
/// session goes on without a restart; the call the host died in is answered, as retryable.
#[tokio::test]
async fn a_client_keeps_its_session_across_a_host_restart() {
    let dir = tempfile::tempdir().unwrap();
    let llm = FakeLlm::start(Script::new([])).await.unwrap();
    let mut host = Host::start(&llm, dir.path(), 10, one_button);
    published(dir.path()).await;
    let mut client = McpClient::start(dir.path());
    client.begin().await;
    list_once_a_host_is_there(&mut client, &mut host, 10).await;

    // A reading of the page is on its way when the host is killed (its socket left behind).
    client
        .send(json!({"jsonrpc": "2.0", "id": 100, "method": "tools/call",
                     "params": {"name": "browser_extract", "arguments": {}}}))
        .await;
    loop {
        // The panel hears of the listing before (`activity`).
        let seen = tokio::time::timeout(Duration::from_secs(20), host.recv())
            .await
            .expect("the call did not reach the browser");
        if seen["type"] == "run_tool" {
            assert_eq!(seen["tool"]["tool"], "extract", "{seen}");
            break;
        }
    }
    host.child.kill().await.unwrap();
    let answer = client.recv().await;
    assert_eq!(answer["id"], 100, "{answer}");
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    let result: Value =
        serde_json::from_str(answer["result"]["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(result["kind"], "unreachable", "{result}");
    assert!(
        result["error"]
            .as_str()
            .unwrap()
            .contains("changes nothing on the page"),
        "{result}"
    );

    // Meanwhile a call is a retryable error; the restarted host takes the same session over.
    let meanwhile = client.call(101, "browser_extract", json!({})).await;
    assert_eq!(meanwhile["kind"], "unreachable", "{meanwhile}");
    let mut again = Host::start(&llm, dir.path(), 10, one_button);
    list_once_a_host_is_there(&mut client, &mut again, 200).await;
}

/// The record names the profile of the browser that started the host, so `--profile` can pick it:
/// a stand-in browser whose command line carries `--user-data-dir=` starts the host the way Chrome
/// does there (through `cmd.exe` on Windows; directly, from a shell here).
#[tokio::test]
async fn the_record_names_the_profile_of_the_browser_that_started_the_host() {
    let dir = tempfile::tempdir().unwrap();
    let profile = dir.path().join("profiles").join("work").display().to_string();
    let host = env!("CARGO_BIN_EXE_waymark-host");
    let flag = format!("--user-data-dir={profile}");
    let mut browser = if cfg!(windows) {
        let mut c = Command::new("cmd");
        c.args(["/c", host, &common::origin(), &flag]);
        c
    } else {
        // Not `exec`: the shell stays the host's parent, as the browser would.
        let mut c = Command::new("sh");
        c.args([
            "-c",
            "\"$1\" \"$2\"; exit $?",
            "sh",
            host,
            &common::origin(),
            &flag,
        ]);
        c
    };
    let mut child = common::isolated(&mut browser, dir.path()).spawn().unwrap();
    published(dir.path()).await;

    let list = Command::new(host)
        .args(["mcp", "--list"])
        .env("LC_ALL", "C")
        .env("WAYMARK_STATE_DIR", dir.path())
        .env("XDG_CONFIG_HOME", dir.path().join("config"))
        .output()
        .await
        .unwrap();
    let said = String::from_utf8_lossy(&list.stderr).into_owned() + &String::from_utf8_lossy(&list.stdout);
    assert!(said.contains(&format!("profile {profile}")), "{said}");

    // --profile picks it by part of its folder; another name finds nothing.
    let mut client = McpClient::start_with(dir.path(), &["--profile", "work"]);
    assert_eq!(
        client.initialize().await["result"]["serverInfo"]["name"],
        "waymark"
    );
    drop(client.stdin);
    let mut other = McpClient::start_with(dir.path(), &["--profile", "home"]);
    other.begin().await;
    let refused = other.call(2, "browser_extract", json!({})).await;
    assert_eq!(refused["kind"], "unreachable", "{refused}");
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .contains("No running Waymark host matches"),
        "{refused}"
    );

    drop(child.stdin.take());
    let _ = tokio::time::timeout(Duration::from_secs(10), child.wait()).await;
}

impl McpClient {
    /// `waymark-host mcp` started by the stand-in client program (`examples/mcp_launcher.rs`), not by
    /// the test: another program, whatever name it gives.
    fn start_through_launcher(state_dir: &Path) -> McpClient {
        let mut command = Command::new(common::mcp_launcher());
        command.arg(env!("CARGO_BIN_EXE_waymark-host")).arg("mcp");
        Self::spawn(&mut command, state_dir)
    }

    /// Sends a call of `browser_list_interactives` under `id`, not waiting for its answer.
    async fn list(&mut self, id: u64) {
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                         "params": {"name": "browser_list_interactives", "arguments": {}}}))
            .await;
    }

    /// The tool result answering request `id` (answers to other ids, such as a cancelled call's, are
    /// passed over).
    async fn result_of(&mut self, id: u64) -> Value {
        loop {
            let answer = self.recv().await;
            if answer["id"] == id {
                let text = answer["result"]["content"][0]["text"].as_str().unwrap();
                return serde_json::from_str(text).unwrap();
            }
        }
    }
}

/// The host's next message of `kind` (the panel's activity reports in between are passed over).
async fn next(host: &mut Host, kind: &str) -> Value {
    loop {
        let message = tokio::time::timeout(Duration::from_secs(20), host.recv())
            .await
            .unwrap_or_else(|_| panic!("the host sent no {kind}"));
        if message["type"] == kind {
            return message;
        }
        assert_eq!(message["type"], "activity", "while waiting for {kind}: {message}");
    }
}

/// The host's next `run_tool`, run on the one-button page.
async fn run_next(host: &mut Host) -> Value {
    let run = next(host, "run_tool").await;
    host.send(json!({"type": "tool_result", "id": run["id"], "result": one_button(&run["tool"])}))
        .await;
    run
}

/// Consent follows the program: a second program that gives an allowed client's name is asked about
/// anew; its open question holds up neither the allowed client nor itself (its calls are told, at
/// once, that the user is being asked); a client that stopped waiting is let in by a later yes.
#[tokio::test]
async fn consent_follows_the_program_never_blocks_another_client_and_survives_a_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let llm = FakeLlm::start(Script::new([])).await.unwrap();
    let mut host = Host::start(&llm, dir.path(), 10, one_button);
    published(dir.path()).await;

    // The test itself is the first program: the question names it beside the name it gives.
    let mut first = McpClient::start(dir.path());
    first.begin().await;
    first.list(2).await;
    let asked = next(&mut host, "question").await;
    let me = std::env::current_exe().unwrap();
    let me_short = me.file_stem().unwrap().to_string_lossy().into_owned();
    assert_eq!(
        asked["text"],
        format!("proxy-test ({me_short}) wants to use your browser through Waymark. Allow it?")
    );
    let detail = asked["detail"].as_str().unwrap();
    assert!(
        detail.starts_with(&format!("proxy-test is the program {}", me.display())),
        "the full path on /details: {detail}"
    );
    host.send(json!({"type": "answer", "question": asked["id"], "yes": true}))
        .await;
    run_next(&mut host).await;
    assert_eq!(first.result_of(2).await["status"], "ok");

    // Another program, the same name: asked about anew, not let in.
    let mut second = McpClient::start_through_launcher(dir.path());
    second.begin().await;
    second.list(2).await;
    let asked = next(&mut host, "question").await;
    let text = asked["text"].as_str().unwrap();
    assert!(
        text.starts_with("proxy-test (mcp_launcher) wants to use your browser"),
        "{text}"
    );
    // While it waits, the allowed program's calls go on.
    first.list(3).await;
    run_next(&mut host).await;
    assert_eq!(first.result_of(3).await["status"], "ok");
    // The waiting call is told to try again before a client would give up; so is any call meanwhile,
    // and nothing more is asked.
    let waited = second.result_of(2).await;
    assert_eq!(waited["kind"], "awaiting_consent", "{waited}");
    assert!(
        waited["error"].as_str().unwrap().contains("being asked"),
        "{waited}"
    );
    second.list(3).await;
    assert_eq!(second.result_of(3).await["kind"], "awaiting_consent");
    // A client that gives up on a call (as an SDK does after its timeout) cancels it: the question stays.
    second.list(4).await;
    second
        .send(json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 4}}))
        .await;

    // The user says yes later: the next call runs.
    host.send(json!({"type": "answer", "question": asked["id"], "yes": true}))
        .await;
    let listed = loop {
        second.list(5).await;
        // The cancelled call may have reached the host after the yes, and run too: every tool the host
        // asks for is run until call 5 is answered.
        let result = loop {
            tokio::select! {
                result = second.result_of(5) => break result,
                ran = run_next(&mut host) => assert_eq!(ran["tool"]["tool"], "list_interactives"),
            }
        };
        if result["kind"] != "awaiting_consent" {
            break result;
        }
        // The yes is still on its way to the answers kept.
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(listed["status"], "ok", "{listed}");

    // A client that calls itself Waymark, even from an allowed program, is refused without a question;
    // the panel hears which program tried.
    let mut impostor = McpClient::start(dir.path());
    impostor.initialize_named("2025-06-18", "Wаy\u{200b}mark").await;
    impostor
        .send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;
    impostor.list(2).await;
    let refused = impostor.result_of(2).await;
    assert_eq!(refused["kind"], "not_allowed", "{refused}");
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .contains("may not call itself Waymark"),
        "{refused}"
    );
    loop {
        let heard = next(&mut host, "activity").await;
        if heard["source"] == me_short.as_str() {
            assert!(heard["summary"].as_str().unwrap().contains("Waymark"), "{heard}");
            break;
        }
    }
}
