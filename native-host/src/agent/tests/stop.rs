//! The user's stop: during a model call, while a question waits, and with nothing running; and
//! "continue" afterwards.

use std::time::Instant;

use super::*;

impl Seen {
    fn stopped(&self) -> Vec<String> {
        self.events()
            .into_iter()
            .filter_map(|e| match e {
                AgentEvent::Stopped { text } => Some(text),
                _ => None,
            })
            .collect()
    }
}

/// Waits until the model has been asked `n` times.
async fn until_asked(harness: &Harness, n: usize) {
    for _ in 0..500 {
        if harness.llm.requests().len() >= n {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("the model was not asked {n} times");
}

#[tokio::test]
async fn a_stop_during_a_model_call_ends_the_run_at_once_and_continue_goes_on_with_the_goal() {
    let steps = vec![
        list(),
        // The model thinks for a long time: the stop comes meanwhile, and this answer never counts.
        click(1).delayed(4_000),
        done("The draft is saved."),
    ];
    let harness = Harness::start(shop(), steps, 10).await;
    let agent = harness.agent.clone();
    let run = tokio::spawn(async move {
        agent
            .chat(Chat {
                id: 1,
                tab_id: Some(7),
                text: "Save my draft".into(),
                language: None,
            })
            .await
    });
    until_asked(&harness, 2).await;
    let asked = Instant::now();
    harness.agent.clone().stop().await;
    run.await.unwrap();
    let took = asked.elapsed();
    let stopped = harness.session();
    harness.chat("continue").await;
    let after = harness.session();
    let (seen, requests) = harness.finish().await;

    assert!(
        took < Duration::from_secs(1),
        "the run ended {took:?} after the stop"
    );
    assert_eq!(stopped.stop, Stop::Stopped);
    assert_eq!(stopped.current_goal.as_deref(), Some("Save my draft"));
    let said = seen.stopped();
    assert_eq!(said.len(), 1, "said once: {said:?}");
    assert_eq!(
        said[0],
        "Stopped. Done so far: Reading the page's controls: 3 controls. Say continue to go on."
    );
    assert_eq!(
        seen.ran
            .iter()
            .filter(|t| matches!(t, PageTool::OverlayAct { .. }))
            .count(),
        0,
        "the click the model chose after the stop never ran"
    );
    // "continue": the same goal, and the model is told it was stopped.
    assert_eq!(after.current_goal.as_deref(), Some("Save my draft"));
    assert_eq!(after.stop, Stop::Finished);
    assert_eq!(seen.said(), ["The draft is saved."]);
    let last = requests.last().unwrap().to_string();
    assert!(last.contains("the user stopped you"), "{last}");
    assert_eq!(requests.len(), 3);
}

#[tokio::test]
async fn a_stop_while_a_question_waits_withdraws_it_and_a_late_yes_runs_nothing() {
    let harness = Harness::start(shop(), vec![click(2)], 10).await;
    harness.chat("Pay for it").await;
    let waiting = harness.session();
    let question = waiting.pending_action.as_ref().unwrap().question;
    harness.agent.clone().stop().await;
    let stopped = harness.session();
    harness.answer(question, true).await;
    let (seen, _) = harness.finish().await;

    assert_eq!(waiting.pending_kind, PendingKind::Confirm);
    assert_eq!(stopped.pending_kind, PendingKind::None);
    assert_eq!(stopped.stop, Stop::Stopped);
    let closed: Vec<_> = seen
        .messages
        .iter()
        .filter_map(|m| match m {
            ToExtension::QuestionClosed(c) => Some(c.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(closed.len(), 1, "{:?}", seen.messages);
    assert_eq!(closed[0].id, question);
    assert_eq!(closed[0].reason, waymark_protocol::ClosedReason::Stopped);
    assert_eq!(
        seen.stopped(),
        ["Stopped before any step. Say continue to go on."]
    );
    assert!(
        !seen
            .ran
            .iter()
            .any(|t| matches!(t, PageTool::OverlayAct { index: 2, .. })),
        "the payment never ran: {:?}",
        seen.ran
    );
}

#[tokio::test]
async fn a_stop_with_nothing_running_says_so() {
    let harness = Harness::start(shop(), vec![], 10).await;
    harness.agent.clone().stop().await;
    let (seen, requests) = harness.finish().await;
    assert_eq!(seen.stopped(), ["The agent is not working on anything."]);
    assert!(requests.is_empty());
}
