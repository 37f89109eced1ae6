//! Waymark's own looks after a step: banners closed, the page numbered again down the fallback ladder, the screen for a model that sees.

use super::*;

#[tokio::test]
async fn a_failing_action_renumbers_the_page_and_each_failure_goes_down_the_ladder() {
    let steps = vec![
        click(9),
        click(9),
        click(9),
        click(9),
        done("I could not find that button."),
    ];
    let harness = Harness::start(shop(), steps, 10).await;
    harness.chat("Press the missing button").await;
    let log = harness.log();
    let (seen, requests) = harness.finish().await;
    // Only Waymark's own rungs ran: banners looked for (none; then again after numbering the page,
    // which numbering is the fresh look), after each failure.
    let rungs = [
        PageTool::FindBanners,
        PageTool::ListInteractives {
            scope: None,
            limit: Some(LOOK_AGAIN_LIMIT),
            offset: None,
        },
        PageTool::FindBanners,
    ];
    assert_eq!(
        seen.ran,
        rungs.iter().cycle().take(12).cloned().collect::<Vec<_>>()
    );
    let first = last_content(&requests[1]);
    assert!(first.contains(r#""fresh_list":{"#), "{first}");
    assert!(first.contains("pick the control you meant"), "{first}");
    let second = last_content(&requests[2]);
    assert!(second.contains("browser_find"), "{second}");
    let third = last_content(&requests[3]);
    assert!(third.contains("browser_act_by_index"), "{third}");
    let fourth = last_content(&requests[4]);
    assert!(fourth.contains("stop trying it"), "{fourth}");
    // The hints are Waymark's: after the data block, never inside it.
    let end = fourth.find(tools::DATA_END).unwrap();
    assert!(fourth.find("stop trying it").unwrap() > end);
    assert_eq!(seen.last_message(), "I could not find that button.");
    assert!(log.contains(r#""after_action":true"#), "{log}");
}

#[tokio::test]
async fn banners_that_open_after_an_action_are_closed_within_the_budget_and_reported() {
    let page = shop();
    page.banners.borrow_mut().extend(["Reject all", "No thanks"]);
    let steps = vec![click(1), done("Saved.")];
    let (seen, requests) = run_chat(page, steps, 10, "Save my draft").await;
    let pressed: Vec<&PageTool> = seen
        .ran
        .iter()
        .filter(|t| matches!(t, PageTool::PressBanners { .. }))
        .collect();
    // The gate judged and pressed each banner's button, one banner after the other.
    assert_eq!(pressed.len(), 2, "{:?}", seen.ran);
    assert!(seen
        .kinds()
        .contains(&"tool:browser_close_banners:true".to_string()));
    let result = last_content(&requests[1]);
    assert!(
        result.contains(r#""banners_closed":["No thanks","Reject all"]"#),
        "{result}"
    );
}

/// How many times the page was numbered after each page-changing step the model asked for.
fn listings_per_step(ran: &[PageTool]) -> Vec<usize> {
    let mut counts = Vec::new();
    for tool in ran {
        if tool.changes_page() && !matches!(tool, PageTool::PressBanners { .. }) {
            counts.push(0);
        } else if let (PageTool::ListInteractives { .. }, Some(last)) = (tool, counts.last_mut()) {
            *last += 1;
        }
    }
    counts
}

#[tokio::test]
async fn each_page_changing_step_numbers_the_page_once_banners_or_not() {
    // Without banners.
    let (seen, requests) = run_chat(
        shop(),
        vec![click(1), click(3), done("Saved.")],
        10,
        "Save my draft",
    )
    .await;
    assert_eq!(listings_per_step(&seen.ran), vec![1, 1], "{:?}", seen.ran);
    // The model still got the fresh list after each step.
    assert!(last_content(&requests[1]).contains(r#""page_after":{"#));
    // With two banners closed after the step.
    let page = shop();
    page.banners.borrow_mut().extend(["Reject all", "No thanks"]);
    let (seen, requests) = run_chat(page, vec![click(1), done("Saved.")], 10, "Save my draft").await;
    assert_eq!(listings_per_step(&seen.ran), vec![1], "{:?}", seen.ran);
    let result = last_content(&requests[1]);
    assert!(result.contains(r#""page_after":{"#), "{result}");
    assert!(
        result.contains(r#""banners_closed":["No thanks","Reject all"]"#),
        "{result}"
    );
}

#[tokio::test]
async fn a_model_that_sees_gets_the_screen_with_each_look_and_the_picture_is_never_kept() {
    let steps = vec![list(), click(1), done("Saved.")];
    let harness = Harness::start_seeing(shop(), steps).await;
    harness.chat("Save my draft").await;
    let session_file = std::fs::read_to_string(harness.dir.path().join("sessions/current.json")).unwrap();
    let (seen, requests) = harness.finish().await;
    let shots = seen
        .ran
        .iter()
        .filter(|t| matches!(t, PageTool::Screenshot))
        .count();
    // One with the model's list, one with Waymark's own look after the click.
    assert_eq!(shots, 2, "{:?}", seen.ran);
    let offered = requests[0]["tools"].to_string();
    assert!(offered.contains(SCREENSHOT_TOOL));
    for request in &requests[1..] {
        let messages = request["messages"].as_array().unwrap();
        let pictures: Vec<&Value> = messages
            .iter()
            .filter(|m| m["content"].to_string().contains("image_url"))
            .collect();
        // Only the latest picture is sent, last, as an image part.
        assert_eq!(pictures.len(), 1);
        let last = messages.last().unwrap();
        assert_eq!(
            last["content"][1]["image_url"]["url"],
            "data:image/jpeg;base64,/9j/SCREEN"
        );
    }
    assert!(!session_file.contains("SCREEN"));
}
