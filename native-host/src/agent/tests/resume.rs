//! Going on after the user: a yes or no to a held action, "done" after a step handed over, "continue" after the step limit, an answer to a question lost in a restart.

use super::*;

#[tokio::test]
async fn after_a_yes_the_action_runs_once_and_the_agent_goes_on_by_itself() {
    let steps = vec![list(), click(2), done("Paid.")];
    let harness = Harness::start(shop(), steps, 10).await;
    harness.chat("Buy it").await;
    assert_eq!(harness.session().pending_kind, PendingKind::Confirm);
    let asked = harness.session().pending_action.unwrap().question;
    harness.answer(asked, true).await;
    let session = harness.session();
    let (seen, requests) = harness.finish().await;
    let clicks: Vec<_> = seen
        .ran
        .iter()
        .filter(|t| matches!(t, PageTool::OverlayAct { .. }))
        .collect();
    assert_eq!(clicks.len(), 1, "{:?}", seen.ran);
    assert!(matches!(clicks[0], PageTool::OverlayAct { index: 2, .. }));
    let click_at = seen
        .ran
        .iter()
        .position(|t| matches!(t, PageTool::OverlayAct { .. }))
        .unwrap();
    assert_eq!(seen.pins[click_at].as_ref().and_then(|p| p.element), Some(102));
    assert_eq!(seen.said(), ["Paid."], "no message is needed to go on");
    assert_eq!(
        seen.kinds(),
        [
            "status:Running",
            "progress",
            "tool:browser_list_interactives:true",
            "progress",
            "tool:browser_overlay_act:false",
            "status:WaitingUser",
            // The outcome of the yes first, then the agent goes on.
            "tool:browser_overlay_act:true",
            "status:Running",
            "message",
            "status:Idle",
        ]
    );
    assert_eq!(requests.len(), 3);
    let note = last_content(&requests[2]);
    assert!(note.contains("the user answered yes"), "{note}");
    assert!(note.contains(tools::DATA_START), "{note}");
    assert!(
        note.contains(r#""page_after":{"#),
        "the page, numbered again: {note}"
    );
    assert_eq!(session.pending_kind, PendingKind::None);
    assert_eq!(session.stop, Stop::Finished);
}

#[tokio::test]
async fn after_a_no_nothing_runs_and_the_model_decides_again() {
    let steps = vec![list(), click(2), Step::text("All right, I will not pay.")];
    let harness = Harness::start(shop(), steps, 10).await;
    harness.chat("Buy it").await;
    let asked = harness.session().pending_action.unwrap().question;
    harness.answer(asked, false).await;
    let (seen, requests) = harness.finish().await;
    assert!(
        !seen.ran.iter().any(|t| matches!(t, PageTool::OverlayAct { .. })),
        "{:?}",
        seen.ran
    );
    assert_eq!(seen.said(), ["All right, I will not pay."]);
    let note = last_content(&requests[2]);
    assert!(note.contains("the user answered no"), "{note}");
    assert!(note.contains("do not propose the same action"), "{note}");
    assert_eq!(seen.kinds().last().map(String::as_str), Some("status:Idle"));
}

#[tokio::test]
async fn a_password_field_is_handed_over_and_done_looks_again_and_goes_on() {
    let steps = vec![
        list(),
        type_into(1, "ada@example.org"),
        type_into(2, "hunter2"),
        done("You are logged in."),
    ];
    let harness = Harness::start(login(), steps, 10).await;
    harness.chat("Log me in to see my orders").await;
    let waiting = harness.session();
    assert_eq!(waiting.pending_kind, PendingKind::Manual);
    assert_eq!(waiting.stop, Stop::Waiting);
    let question = waiting.pending_action.clone().unwrap().question;
    assert!(question > 0);
    harness.answer(question, true).await;
    let after = harness.session();
    let file = std::fs::read_to_string(Store::new(harness.dir.path()).path()).unwrap();
    let log = harness.log();
    let (seen, requests) = harness.finish().await;

    let questions = seen.questions();
    assert_eq!(questions.len(), 1);
    assert_eq!(questions[0].kind, QuestionKind::Manual);
    assert_eq!(questions[0].id, question);
    assert!(
        questions[0].text.starts_with("Waymark leaves this step to you"),
        "{}",
        questions[0].text
    );
    assert!(questions[0].text.ends_with("Say done when you have finished."));
    // The email was typed; the password never was; then the page was looked at again.
    let typed: Vec<_> = seen
        .ran
        .iter()
        .filter(|t| matches!(t, PageTool::OverlayAct { .. }))
        .collect();
    assert_eq!(typed.len(), 1, "{:?}", seen.ran);
    assert!(matches!(seen.ran.last(), Some(PageTool::ListInteractives { .. })));
    assert_eq!(seen.said(), ["You are logged in."]);
    let kinds = seen.kinds();
    let waited = kinds.iter().position(|k| k == "status:WaitingUser").unwrap();
    assert_eq!(
        kinds[waited..],
        [
            "status:WaitingUser",
            "status:Running",
            "progress",
            "tool:browser_list_interactives:true",
            "message",
            "status:Idle"
        ]
    );
    // The model heard that the user did it, with the fresh page in the data block.
    assert_eq!(requests.len(), 4);
    let note = last_content(&requests[3]);
    assert!(note.contains("the user says they have done the step"), "{note}");
    assert!(
        note.contains(tools::DATA_START) && note.contains("Log in"),
        "{note}"
    );
    // The password reached neither the model again, nor the disk, nor the log.
    assert!(!requests[3].to_string().contains("hunter2"));
    assert!(!file.contains("hunter2"), "{file}");
    assert!(!log.contains("hunter2"), "{log}");
    assert!(!log.contains("ada@example.org"), "{log}");
    assert!(log.contains(r#""decision":"handoff""#), "{log}");
    assert!(log.contains(r#""text":"[withheld]""#), "{log}");
    assert!(log.contains(r#""event":"manual_done""#), "{log}");
    assert_eq!(after.pending_kind, PendingKind::None);
    assert_eq!(after.current_goal.as_deref(), Some("Log me in to see my orders"));
}

#[tokio::test]
async fn the_model_hands_a_captcha_over_and_a_plain_done_in_any_language_goes_on() {
    let steps = vec![
        Step::tool_call(tools::HANDOFF, json!({"what": "Solve the captcha on the page."})),
        done("Thanks, you are in."),
    ];
    let harness = Harness::start(login(), steps, 10).await;
    harness.chat("Log me in").await;
    harness.chat("готово").await;
    let after = harness.session();
    let (seen, requests) = harness.finish().await;
    let questions = seen.questions();
    assert_eq!(questions.len(), 1);
    assert_eq!(questions[0].kind, QuestionKind::Manual);
    assert_eq!(
        questions[0].text,
        "The assistant says: Solve the captcha on the page. Say done when you have finished."
    );
    assert!(matches!(seen.ran.as_slice(), [PageTool::ListInteractives { .. }]));
    assert_eq!(seen.said(), ["Thanks, you are in."]);
    let messages = requests[1]["messages"].as_array().unwrap();
    let n = messages.len();
    assert_eq!(messages[n - 2]["content"], "готово");
    assert!(system_prompt(&requests[1]).contains("Log me in"));
    assert_eq!(after.current_goal.as_deref(), Some("Log me in"), "the same goal");
}

#[tokio::test]
async fn the_step_limit_summary_then_continue_resumes_the_same_goal_with_fresh_counters() {
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
        Step::tool_call("browser_extract", json!({})),
        // After "continue": a fresh budget (with the old count, no model turn would come).
        list(),
        done("The cheapest kettle is €19."),
    ];
    let harness = Harness::start(shop(), steps, 2).await;
    harness.chat("Find the cheapest kettle").await;
    let at_limit = harness.session();
    harness.chat("continue").await;
    let after = harness.session();
    let log = harness.log();
    let (seen, requests) = harness.finish().await;

    assert_eq!(at_limit.stop, Stop::StepLimit);
    assert_eq!(at_limit.counters.steps, 2);
    let said = seen.said();
    assert_eq!(said.len(), 2, "{said:?}");
    let summary = &said[0];
    assert!(summary.contains("I have taken 2 steps"), "{summary}");
    assert!(
        summary.contains("What I did: Reading the page's controls: 3 controls"),
        "{summary}"
    );
    assert!(summary.contains("All 2 worked."), "{summary}");
    assert!(
        summary.contains("What I found: Kettles on this shop start at €19."),
        "{summary}"
    );
    assert!(
        summary.contains("Next I would: Look at the kettles."),
        "{summary}"
    );
    assert!(summary.ends_with("Shall I go on? Say continue, or tell me what to change."));
    assert_eq!(said[1], "The cheapest kettle is €19.");
    assert_eq!(seen.ran.len(), 3, "two steps before the limit, one after");
    // The model carried on with the same goal, plan and facts.
    assert_eq!(requests.len(), 5);
    let system = system_prompt(&requests[3]);
    assert!(system.contains("Find the cheapest kettle"), "{system}");
    assert!(system.contains("Kettles on this shop start at €19"), "{system}");
    assert!(system.contains("Compare prices"), "{system}");
    let messages = requests[3]["messages"].as_array().unwrap();
    let n = messages.len();
    assert!(messages[n - 2]["content"]
        .as_str()
        .unwrap()
        .contains("answers your summary at the step limit"));
    assert_eq!(messages[n - 1]["content"], "continue");
    assert_eq!(after.current_goal.as_deref(), Some("Find the cheapest kettle"));
    assert_eq!(after.counters.goal_steps, 3);
    assert_eq!(after.counters.steps, 1);
    assert_eq!(after.stop, Stop::Finished);
    assert!(log.contains(r#""event":"step_limit""#), "{log}");
    assert!(log.contains(r#""event":"plan""#), "{log}");
}

#[tokio::test]
async fn a_yes_to_a_question_lost_in_a_restart_runs_nothing_and_says_so() {
    let harness = Harness::start(shop(), vec![list(), click(2)], 10).await;
    harness.chat("Buy it").await;
    let dir = harness.dir.clone();
    harness.finish().await;
    let again = Harness::start_in(dir, shop(), vec![], 10).await;
    let asked = again.session().pending_action.unwrap().question;
    again.answer(asked, true).await;
    let session = again.session();
    let (seen, requests) = again.finish().await;
    assert!(seen.ran.is_empty(), "{:?}", seen.ran);
    assert!(requests.is_empty());
    assert_eq!(
        seen.said(),
        ["That question was lost when Waymark started again, so nothing was done. Send a message to go on."]
    );
    assert_eq!(session.pending_kind, PendingKind::None);
    assert_eq!(session.stop, Stop::Failed);
}

#[tokio::test]
async fn a_message_longer_than_the_bound_is_refused_and_changes_nothing() {
    let harness = Harness::start(shop(), vec![done("Done.")], 10).await;
    let long = "a".repeat(waymark_protocol::MAX_CHAT_CHARS + 1);
    harness.chat(&long).await;
    let session = harness.session();
    let (seen, requests) = harness.finish().await;
    assert!(requests.is_empty(), "the model was not asked");
    assert_eq!(session.current_goal, None);
    let said = seen.said();
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(
        said[0].starts_with("Your message is 20001 characters long"),
        "{}",
        said[0]
    );
}
