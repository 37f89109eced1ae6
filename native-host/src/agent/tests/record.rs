//! What the agent keeps: the session across a restart or a corrupt file, the model's notes, the masked step log.

use super::*;

#[tokio::test]
async fn a_host_stopped_mid_task_continues_the_same_goal_with_the_same_facts() {
    let steps = vec![
        plan(
            &[
                "Look at the kettles",
                "Compare prices",
                "Tell the user the cheapest",
            ],
            &["Kettles on this shop start at €19"],
        ),
        list(),
        // The host is stopped while the model thinks about this one.
        list().delayed(30_000),
    ];
    let harness = Harness::start(shop(), steps, 10).await;
    let dir = harness.dir.clone();
    let agent = harness.agent.clone();
    let task = tokio::spawn(agent.chat(Chat {
        id: 1,
        tab_id: Some(7),
        text: "Find the cheapest kettle".into(),
        language: None,
    }));
    let waited = tokio::time::timeout(Duration::from_secs(10), async {
        while harness.llm.requests().len() < 3 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    assert!(waited.is_ok(), "the third model turn never started");
    task.abort();
    let _ = task.await;
    let (seen, _) = harness.finish().await;
    assert_eq!(seen.ran.len(), 1);

    // A new host on the same state directory.
    let again = Harness::start_in(dir, shop(), vec![done("The cheapest kettle is €19.")], 10).await;
    let before = again.session();
    assert_eq!(before.stop, Stop::Working);
    assert_eq!(before.current_goal.as_deref(), Some("Find the cheapest kettle"));
    again.chat("continue").await;
    let (seen, requests) = again.finish().await;
    assert_eq!(seen.said(), ["The cheapest kettle is €19."]);
    let system = system_prompt(&requests[0]);
    assert!(system.contains("Find the cheapest kettle"), "{system}");
    assert!(system.contains("Kettles on this shop start at €19"), "{system}");
    let messages = requests[0]["messages"].as_array().unwrap();
    assert_eq!(
        messages[1]["content"], "Find the cheapest kettle",
        "the conversation survived"
    );
    let n = messages.len();
    assert!(messages[n - 2]["content"]
        .as_str()
        .unwrap()
        .contains("was stopped in the middle of this task"));
    assert_eq!(messages[n - 1]["content"], "continue");
}

/// A file where the sessions folder must be refuses root too, so this holds wherever the tests run.
#[tokio::test]
async fn a_session_that_cannot_be_saved_is_said_once_with_where_and_why() {
    let dir = Arc::new(tempfile::tempdir().unwrap());
    let in_the_way = dir.path().join("sessions");
    std::fs::write(&in_the_way, "").unwrap();
    let steps = vec![done("Hello."), done("Hello again.")];
    let harness = Harness::start_in(dir, shop(), steps, 10).await;
    harness.chat("Hi").await;
    harness.chat("Hi again").await;
    let (seen, _) = harness.finish().await;
    let faults: Vec<_> = seen
        .events()
        .into_iter()
        .filter_map(|e| match e {
            AgentEvent::NotSaved { fault } => Some(fault),
            _ => None,
        })
        .collect();
    assert_eq!(faults.len(), 1, "said once: {:?}", seen.kinds());
    assert_eq!(faults[0].kind, waymark_protocol::FaultKind::StateNotAFolder);
    assert_eq!(faults[0].path, Some(in_the_way.display().to_string()));
    // Said when the run starts, before the work; the work itself goes on.
    let kinds = seen.kinds();
    assert_eq!(kinds.first().map(String::as_str), Some("not_saved"), "{kinds:?}");
    assert_eq!(seen.said(), ["Hello.", "Hello again."]);
}

#[tokio::test]
async fn a_corrupt_session_file_is_said_and_a_fresh_session_starts() {
    let dir = Arc::new(tempfile::tempdir().unwrap());
    std::fs::create_dir_all(dir.path().join("sessions")).unwrap();
    std::fs::write(dir.path().join("sessions/current.json"), "{ not json").unwrap();
    let harness = Harness::start_in(dir, shop(), vec![done("Hello.")], 10).await;
    harness.chat("Hi").await;
    let (seen, _) = harness.finish().await;
    let said = seen.said();
    assert_eq!(said.len(), 2, "{said:?}");
    assert!(
        said[0].starts_with("I could not read my saved session"),
        "{}",
        said[0]
    );
    assert_eq!(said[1], "Hello.");
}

#[tokio::test]
async fn facts_with_control_numbers_are_refused_to_the_model() {
    let steps = vec![
        plan(
            &["a", "b", "Answer the user"],
            &["Button 2 pays", "The shop sells kettles"],
        ),
        done("Done."),
    ];
    let harness = Harness::start(shop(), steps, 10).await;
    harness.chat("Look").await;
    let session = harness.session();
    let (_, requests) = harness.finish().await;
    assert_eq!(session.facts.len(), 1);
    assert_eq!(session.facts[0].fact, "The shop sells kettles");
    let result = last_content(&requests[1]);
    assert!(result.contains("must not name control numbers"), "{result}");
}

/// Each way a page tool can fail reaches the step log and the model as its kind, whatever its words;
/// the gate's own outcomes (declined, handed over, waiting) are pinned by the tests above and in
/// `gate/tests.rs`, and reach an MCP client the same way (`tests/e2e/mcp.test.mjs`).
#[tokio::test]
async fn every_failure_reaches_the_step_log_and_the_model_by_its_kind() {
    let kinds = [
        "timed_out",
        "unreachable",
        "failed",
        "bad_arguments",
        "not_allowed",
    ];
    let page = Page {
        controls: kinds
            .iter()
            .enumerate()
            .map(|(i, k)| (u32::try_from(i).unwrap() + 1, "button", *k))
            .collect(),
        snippet: "",
        banners: Default::default(),
    };
    let mut steps: Vec<Step> = (1..=kinds.len())
        .map(|i| click(u32::try_from(i).unwrap()))
        .collect();
    steps.push(done("Nothing worked."));
    let harness = Harness::start(page, steps, 20).await;
    harness.chat("Press every button").await;
    let log = harness.log();
    let (_, requests) = harness.finish().await;
    let classes: Vec<String> = log
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|e| e["event"] == "step" && e["call"]["tool"] == "browser_overlay_act")
        .map(|e| e["call"]["error_class"].as_str().unwrap_or_default().to_owned())
        .collect();
    assert_eq!(classes, kinds, "{log}");
    for (kind, request) in kinds.iter().zip(&requests[1..]) {
        let result = last_content(request);
        assert!(
            result.contains(&format!(r#""kind":"{kind}""#)),
            "{kind}: {result}"
        );
    }
}
