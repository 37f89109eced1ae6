//! The loop, turn by turn: the model's words, a reply it could not read, a step that ran or was held, the step limit.

use super::*;

#[tokio::test]
async fn a_task_lists_clicks_a_harmless_button_and_finishes() {
    let steps = vec![list(), click(1), done("Your draft is saved.")];
    let (seen, requests) = run_chat(shop(), steps, 10, "Save my draft").await;
    assert_eq!(
        seen.kinds(),
        [
            "status:Running",
            "progress",
            "tool:browser_list_interactives:true",
            "progress",
            "tool:browser_overlay_act:true",
            "message",
            "status:Idle",
        ]
    );
    assert_eq!(seen.last_message(), "Your draft is saved.");
    assert!(matches!(seen.ran[0], PageTool::ListInteractives { .. }));
    // After the click Waymark looked for banners (there were none), numbered the page again (which
    // finds frames that came since) and looked there too: that one numbering is its look.
    assert!(
        matches!(
            seen.ran.as_slice(),
            [
                PageTool::ListInteractives { .. },
                PageTool::OverlayAct { .. },
                PageTool::FindBanners,
                PageTool::ListInteractives {
                    limit: Some(LOOK_AGAIN_LIMIT),
                    ..
                },
                PageTool::FindBanners,
            ]
        ),
        "{:?}",
        seen.ran
    );
    // Pinned by the gate to the element it described.
    assert_eq!(
        seen.ran[1],
        PageTool::OverlayAct {
            index: 1,
            action: waymark_protocol::ActKind::Click,
            text: None,
        }
    );
    assert_eq!(seen.pins[1].as_ref().and_then(|p| p.element), Some(101));
    assert_eq!(requests.len(), 3);
    // The model saw its tools, the system prompt and the user's message.
    let first = &requests[0];
    // Every browser tool the MCP server lists to outside clients, and the assistant's own four.
    let offered: Vec<&str> = first["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["function"]["name"].as_str())
        .collect();
    // (A model that takes no images is not offered screenshots.)
    let catalogue = crate::mcp::catalogue::entries()
        .iter()
        .map(|e| e.name())
        .filter(|n| *n != SCREENSHOT_TOOL);
    let expected: Vec<&str> = catalogue
        .chain([tools::DONE, tools::ASK, tools::PLAN, tools::HANDOFF])
        .collect();
    assert_eq!(offered, expected);
    assert_eq!(first["messages"][0]["role"], "system");
    assert_eq!(first["messages"][1]["content"], "Save my draft");
    // Each result went back as the answer to its call.
    let last = requests[2]["messages"].as_array().unwrap();
    let tool_message = last.last().unwrap();
    assert_eq!(tool_message["role"], "tool");
    assert!(tool_message["content"]
        .as_str()
        .unwrap()
        .contains(r#""done":"click""#));
    assert!(tool_message["content"]
        .as_str()
        .unwrap()
        .contains(r#""page_after":{"#));
}

#[tokio::test]
async fn a_payment_proposed_by_the_model_is_asked_about_and_not_run() {
    let steps = vec![list(), click(2)];
    let (seen, requests) = run_chat(shop(), steps, 10, "Buy it").await;
    let question = seen.messages.iter().find_map(|m| match m {
        ToExtension::Question(q) => Some(q.text.clone()),
        _ => None,
    });
    assert_eq!(
        question.as_deref(),
        Some("Click button 'Pay €84.97' on shop.example?")
    );
    assert!(
        !seen.ran.iter().any(|t| matches!(t, PageTool::OverlayAct { .. })),
        "the click did not run: {:?}",
        seen.ran
    );
    assert_eq!(
        seen.kinds().last().map(String::as_str),
        Some("status:WaitingUser")
    );
    assert_eq!(requests.len(), 2, "the agent stopped to wait");
}

#[tokio::test]
async fn a_broken_tool_call_gets_one_repair_turn() {
    let steps = vec![
        Step::broken_tool_call("browser_list_interactives"),
        list(),
        done("Listed."),
    ];
    let (seen, requests) = run_chat(shop(), steps, 10, "What is on the page?").await;
    assert_eq!(seen.last_message(), "Listed.");
    assert_eq!(seen.kinds().last().map(String::as_str), Some("status:Idle"));
    assert_eq!(seen.ran.len(), 1);
    let repair = requests[1]["messages"].as_array().unwrap().last().unwrap();
    assert_eq!(repair["role"], "user");
    assert!(repair["content"]
        .as_str()
        .unwrap()
        .starts_with("Your last answer could not be used"));
}

#[tokio::test]
async fn a_second_broken_answer_in_a_row_is_an_error() {
    let steps = vec![
        Step::broken_tool_call("browser_list_interactives"),
        Step::broken_tool_call("browser_list_interactives"),
    ];
    let (seen, _) = run_chat(shop(), steps, 10, "List").await;
    assert_eq!(
        seen.kinds(),
        ["status:Running", "error", "status:Error"],
        "nothing invalid is run"
    );
    assert!(seen.ran.is_empty());
}

#[tokio::test]
async fn a_rate_limit_is_waited_out() {
    let steps = vec![Step::status(429), done("Nothing to do.")];
    let (seen, requests) = run_chat(shop(), steps, 10, "Hello").await;
    assert_eq!(seen.kinds(), ["status:Running", "message", "status:Idle"]);
    assert_eq!(seen.last_message(), "Nothing to do.");
    assert_eq!(requests.len(), 2);
}

#[tokio::test]
async fn other_llm_errors_are_said_in_words_for_people() {
    let (seen, _) = run_chat(shop(), vec![Step::status(401)], 10, "Hello").await;
    assert_eq!(seen.kinds(), ["status:Running", "error", "status:Error"]);
    assert!(seen.last_message().contains("API key"), "{}", seen.last_message());
}

#[tokio::test]
async fn the_step_limit_stops_with_a_summary_and_a_question() {
    let steps = vec![list(), Step::tool_call("browser_extract", json!({})), list()];
    let (seen, requests) = run_chat(shop(), steps, 2, "Look around").await;
    assert_eq!(requests.len(), 2, "no model turn after the limit");
    assert_eq!(seen.ran.len(), 2);
    let message = seen.last_message();
    assert!(message.contains("2 steps"), "{message}");
    assert!(
        message.contains("Reading the page's controls: 3 controls"),
        "{message}"
    );
    assert!(message.contains("Shall I go on?"), "{message}");
    assert_eq!(seen.kinds().last().map(String::as_str), Some("status:Idle"));
}

#[tokio::test]
async fn a_plain_text_answer_ends_the_turn() {
    let (seen, _) = run_chat(shop(), vec![Step::text("Hello! What shall I do?")], 10, "Hi").await;
    assert_eq!(seen.kinds(), ["status:Running", "message", "status:Idle"]);
    assert_eq!(seen.last_message(), "Hello! What shall I do?");
}

#[tokio::test]
async fn a_broken_config_is_said_as_an_error() {
    let (outbox, mut from_host) = mpsc::channel::<ToExtension>(16);
    let gate = Gate::new(Browser::new(outbox.clone()), outbox.clone());
    let setup: Setup =
        Arc::new(|_: &waymark_i18n::Words| Err("max_tool_steps = \"0\" in config.toml is not valid".into()));
    let agent = Agent::new(gate, outbox, setup);
    agent
        .chat(Chat {
            id: 1,
            tab_id: None,
            text: "Hi".into(),
            language: None,
        })
        .await;
    let Some(ToExtension::AgentEvent(update)) = from_host.recv().await else {
        panic!()
    };
    assert_eq!(
        update.event,
        AgentEvent::Error {
            text: "max_tool_steps = \"0\" in config.toml is not valid".into()
        }
    );
}

#[tokio::test]
async fn a_model_that_only_keeps_notes_is_nudged_and_still_stops() {
    let note = || plan(&["a", "b", "Answer the user"], &[]);
    let steps: Vec<Step> = std::iter::repeat_with(note).take(20).collect();
    let harness = Harness::start(shop(), steps, 2).await;
    harness.chat("Think hard").await;
    let (seen, requests) = harness.finish().await;
    // Note turns are bounded by the step limit (2) plus MAX_NOTE_TURNS: the next one ends the run with
    // the summary.
    let bound = usize::try_from(2 + MAX_NOTE_TURNS).unwrap();
    assert_eq!(requests.len(), bound + 1, "{}", requests.len());
    let summary = seen.last_message();
    assert!(
        summary.starts_with("I have planned for a while without acting"),
        "{summary}"
    );
    assert!(summary.contains("Shall I go on?"), "{summary}");
    assert!(
        !summary.contains("worked"),
        "no step ran, so none is said to have worked: {summary}"
    );
    let nudged = requests
        .iter()
        .any(|r| last_content(r).contains("Now take the next step in the browser"));
    assert!(nudged);
}
