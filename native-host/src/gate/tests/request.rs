//! The gate's second judgement against the stand-in extension: what an allowed action makes its page
//! send is stopped, judged, let through once when harmless (the action runs again), asked about when
//! not (a yes runs it again with exactly that request let through), and said when the browser blocked
//! the whole tab; reloading a page that came from a form post asks first.

use std::sync::Mutex;

use waymark_protocol::{AllowedRequest, Guard, RequestField, RequestKind, StoppedRequest};

use super::*;

fn sent(method: &str, url: &str, kind: RequestKind, fields: &[(&str, &str)]) -> StoppedRequest {
    StoppedRequest {
        method: method.into(),
        url: url.into(),
        kind,
        frame: 0,
        fields: fields
            .iter()
            .map(|(name, words)| RequestField {
                name: (*name).into(),
                words: Some((*words).into()),
            })
            .collect(),
        partial: false,
    }
}

/// A page (an inbox, where nothing around a control is risky) whose every click sends `requests`;
/// the guards the tools ran under, in order.
fn page_sending(
    mut target: ElementInfo,
    requests: Vec<StoppedRequest>,
) -> (Fake, Arc<Mutex<Vec<Option<Guard>>>>) {
    target.url = "https://mail.example/inbox".into();
    let describe: Describe = Arc::new(move |_| Effect {
        page_url: "https://mail.example/inbox".into(),
        ..effect_on(target.clone())
    });
    let guards = Arc::new(Mutex::new(Vec::new()));
    let seen = guards.clone();
    let sends: Sends = Arc::new(move |_, guard| {
        seen.lock().unwrap().push(guard.cloned());
        requests.clone()
    });
    (extension_sending(describe, Arc::new(Vec::new), sends), guards)
}

#[tokio::test]
async fn a_plain_ok_whose_script_sends_delete_is_asked_about_and_a_yes_lets_exactly_it_through() {
    let delete = sent(
        "DELETE",
        "https://mail.example/api/messages/42?token=s3cr3t",
        RequestKind::Fetch,
        &[],
    );
    let (mut fake, guards) = page_sending(button("OK"), vec![delete]);
    fake.gate.clone().user_tool(click(4)).await;
    let q = fake.question().await;
    assert_eq!(
        q.text,
        "The page tried to send a request that deletes something (it says 'DELETE') to mail.example: \
         DELETE /api/messages/42?token=…. Allow it once?"
    );
    fake.answer(q.id, true).await;
    let done = fake.reply().await;
    assert_eq!(
        done.result.status,
        waymark_protocol::ToolStatus::Ok,
        "{:?}",
        done.result
    );
    let guards = guards.lock().unwrap().clone();
    assert_eq!(
        guards.len(),
        2,
        "the click, then once more with the request let through"
    );
    assert_eq!(guards[0], Some(Guard::default()), "guarded, nothing covered");
    assert_eq!(
        guards[1],
        Some(Guard {
            allow: vec![AllowedRequest::new(
                "DELETE",
                "https://mail.example/api/messages/42?token=s3cr3t"
            )]
        })
    );
    let ran = fake.ran().await;
    assert!(
        ran.iter().all(|(_, pin)| pin.as_ref() == Some(&pin_17())),
        "{ran:?}"
    );
}

fn pin_17() -> Pin {
    pin(Some(17))
}

#[tokio::test]
async fn a_no_leaves_the_request_stopped_and_says_so() {
    let post = sent(
        "POST",
        "https://chat.example/api/messages",
        RequestKind::Fetch,
        &[("text", "hello team"), ("channel", "general")],
    );
    let (mut fake, guards) = page_sending(button("Save"), vec![post]);
    fake.gate.clone().user_tool(click(4)).await;
    let q = fake.question().await;
    assert!(
        q.text.starts_with(
            "The page tried to send a request that sends or publishes something (it says 'messages') to \
             chat.example: POST /api/messages, with the fields text, channel."
        ),
        "{}",
        q.text
    );
    assert!(!q.text.contains("hello"), "values are never quoted: {}", q.text);
    fake.answer(q.id, false).await;
    let done = fake.reply().await;
    assert_eq!(done.result.kind, Some(ErrorKind::Declined));
    assert_eq!(
        done.result.error.as_deref(),
        Some(
            "Not sent: you said no. The action ran in the page, but its request to chat.example was stopped."
        )
    );
    assert_eq!(guards.lock().unwrap().len(), 1, "nothing ran again");
}

#[tokio::test]
async fn a_harmless_request_runs_the_action_again_with_it_let_through_and_asks_nothing() {
    let add = sent(
        "POST",
        "https://shop.example/cart/add",
        RequestKind::Fetch,
        &[("sku", "A-1")],
    );
    let beacon = sent(
        "POST",
        "https://stats.example/collect",
        RequestKind::Beacon,
        &[("event", "click")],
    );
    let (mut fake, guards) = page_sending(button("Add to cart"), vec![add.clone(), beacon]);
    fake.gate.clone().user_tool(click(4)).await;
    let done = fake.reply().await;
    assert_eq!(
        done.result.status,
        waymark_protocol::ToolStatus::Ok,
        "{:?}",
        done.result
    );
    let guards = guards.lock().unwrap().clone();
    assert_eq!(guards.len(), 2, "{guards:?}");
    let allowed = &guards[1].as_ref().unwrap().allow;
    assert!(
        allowed.contains(&AllowedRequest::new("POST", &add.url)),
        "{allowed:?}"
    );
    assert!(fake.out.try_recv().is_err(), "no question");
}

#[tokio::test]
async fn a_beacon_alone_does_not_run_the_action_again() {
    let beacon = sent("POST", "https://stats.example/collect", RequestKind::Beacon, &[]);
    let (mut fake, guards) = page_sending(button("Help"), vec![beacon]);
    fake.gate.clone().user_tool(click(4)).await;
    let done = fake.reply().await;
    assert_eq!(done.result.status, waymark_protocol::ToolStatus::Ok);
    assert_eq!(guards.lock().unwrap().len(), 1);
}

#[tokio::test]
async fn the_form_the_gate_judged_is_covered_and_a_page_posted_away_is_said() {
    let mut search = button("Search");
    search.submits = Some(Submission {
        action: "https://shop.example/search".into(),
        method: "post".into(),
        submitter: Some("Search".into()),
        ..Default::default()
    });
    let away = sent(
        "POST",
        "https://shop.example/account/close",
        RequestKind::Page,
        &[],
    );
    let (mut fake, guards) = page_sending(search, vec![away]);
    fake.gate.clone().user_tool(click(4)).await;
    let done = fake.reply().await;
    assert_eq!(done.result.kind, Some(ErrorKind::Blocked), "{:?}", done.result);
    assert!(
        done.result
            .error
            .as_deref()
            .is_some_and(|e| e.contains("shop.example/account/close")),
        "{:?}",
        done.result
    );
    assert_eq!(
        guards.lock().unwrap()[0],
        Some(Guard {
            allow: vec![AllowedRequest::new("POST", "https://shop.example/search")]
        })
    );
}

#[tokio::test]
async fn an_action_the_user_said_yes_to_runs_unguarded() {
    let delete = sent(
        "DELETE",
        "https://mail.example/api/messages/42",
        RequestKind::Fetch,
        &[],
    );
    let (mut fake, guards) = page_sending(button("Delete"), vec![delete]);
    fake.gate.clone().user_tool(click(4)).await;
    let q = fake.question().await;
    assert!(q.text.starts_with("Click button 'Delete'"), "{}", q.text);
    fake.answer(q.id, true).await;
    assert_eq!(fake.reply().await.result.status, waymark_protocol::ToolStatus::Ok);
    assert_eq!(guards.lock().unwrap().clone(), vec![None], "its requests go");
}

#[tokio::test]
async fn a_request_asked_about_after_a_yes_is_asked_next_for_the_same_asker() {
    let first = sent(
        "DELETE",
        "https://mail.example/api/messages/1",
        RequestKind::Fetch,
        &[],
    );
    let second = sent("POST", "https://mail.example/api/orders", RequestKind::Fetch, &[]);
    let (mut fake, guards) = page_sending(button("OK"), vec![first, second]);
    fake.gate.clone().user_tool(click(4)).await;
    let q1 = fake.question().await;
    assert!(q1.text.contains("/api/messages/1"), "{}", q1.text);
    fake.answer(q1.id, true).await;
    let q2 = fake.question().await;
    assert!(q2.text.contains("pays or orders"), "{}", q2.text);
    fake.answer(q2.id, true).await;
    assert_eq!(fake.reply().await.result.status, waymark_protocol::ToolStatus::Ok);
    let last = guards.lock().unwrap().last().cloned().flatten().unwrap();
    assert_eq!(last.allow.len(), 2, "{last:?}");
}

#[tokio::test]
async fn reloading_a_page_that_came_from_a_form_post_asks_first() {
    let describe: Describe = Arc::new(|_| Effect {
        target: None,
        resends: Some("https://shop.example/pay".into()),
        ..effect_on(button("x"))
    });
    let mut fake = extension(describe);
    fake.gate
        .clone()
        .user_tool(UserTool {
            id: 9,
            tab_id: Some(1),
            tool: PageTool::Reload,
        })
        .await;
    let q = fake.question().await;
    assert_eq!(
        q.text,
        "Reload the page: this sends the form to https://shop.example/pay again on shop.example. Yes or no?"
    );
    fake.answer(q.id, false).await;
    assert!(fake.ran().await.is_empty());
}

#[tokio::test]
async fn a_link_that_redirects_to_an_address_that_deletes_is_asked_about_and_a_yes_opens_it() {
    let mut link = button("Open the message");
    link.role = "link".into();
    link.link = Some(LinkInfo {
        href: "https://mail.example/redirect?to=L21haWw".into(),
        ..Default::default()
    });
    let landed = sent(
        "GET",
        "https://mail.example/mail/delete-all?confirm=1",
        RequestKind::Page,
        &[],
    );
    let (mut fake, guards) = page_sending(link, vec![landed]);
    fake.gate.clone().user_tool(click(4)).await;
    let q = fake.question().await;
    assert!(
        q.text.starts_with("The page tried to send a request that deletes something (it says 'delete') to mail.example: GET /mail/delete-all?confirm=…"),
        "{}",
        q.text
    );
    fake.answer(q.id, true).await;
    assert_eq!(fake.reply().await.result.status, waymark_protocol::ToolStatus::Ok);
    assert_eq!(guards.lock().unwrap().len(), 2);
    let ran = fake.ran().await;
    let (tool, pin) = ran.last().unwrap();
    assert_eq!(
        tool,
        &PageTool::Navigate {
            url: "https://mail.example/mail/delete-all?confirm=1".into()
        }
    );
    assert_eq!(
        pin.as_ref().map(|p| (p.tab, p.document.as_str())),
        Some((1, "")),
        "the tab, whatever it shows"
    );
}
