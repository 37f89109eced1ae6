//! The policy gate: the one road from "someone wants to act on the page" to the page. It describes the
//! element behind the number, asks [`crate::policy::classify`], and then acts, asks the user first, or
//! hands the step to the user. It runs in the host, whoever asked, so a model talked into anything by a
//! web page still cannot act destructively without the user's yes.
//!
//! At most one action waits for an answer at a time; a yes runs exactly that action, on exactly that
//! element (the content script refuses it as stale if the number now points elsewhere).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::mpsc;
use waymark_protocol::{
    ActKind, Answer, ElementInfo, PageTool, Question, QuestionKind, RequestId, ToExtension, ToolDone,
    ToolResult, UserTool,
};

use crate::browser::Browser;
use crate::policy::{self, Verdict};

/// An approved-in-principle action waiting for the user's yes.
#[derive(Debug, Clone)]
struct Pending {
    question: RequestId,
    /// The user request to answer once decided.
    request: RequestId,
    tab_id: Option<i32>,
    /// The exact tool to run on yes, pinned to the described element.
    tool: PageTool,
}

pub struct Gate {
    browser: Browser,
    outbox: mpsc::Sender<ToExtension>,
    pending: Mutex<Option<Pending>>,
    next_question: AtomicU64,
}

impl Gate {
    pub fn new(browser: Browser, outbox: mpsc::Sender<ToExtension>) -> Arc<Self> {
        Arc::new(Self {
            browser,
            outbox,
            pending: Mutex::new(None),
            next_question: AtomicU64::new(1),
        })
    }

    /// Handles a tool the user asked for in the panel.
    pub async fn user_tool(self: Arc<Self>, request: UserTool) {
        let UserTool { id, tab_id, tool } = request;
        let PageTool::OverlayAct {
            index, action, text, ..
        } = tool
        else {
            // Reading tools change nothing: no judgement needed.
            let result = self.browser.run(tab_id, tool).await;
            return self.reply(id, result).await;
        };
        let described = self.browser.run(tab_id, PageTool::Describe { index }).await;
        let info = match described.data.clone().map(serde_json::from_value::<ElementInfo>) {
            Some(Ok(info)) if described.error.is_none() => info,
            // Stale or missing numbers come back with the page's words and the fresh list.
            _ => return self.reply(id, described).await,
        };
        let act = PageTool::OverlayAct {
            index,
            action,
            text: text.clone(),
            expect: Some(info.id),
        };
        let decision = policy::classify(&proposed(&info, action, text.as_deref()));
        tracing::info!(
            index,
            action = action.verb(),
            decision = ?decision.decision,
            reason = %decision.reason,
            "policy gate"
        );
        match decision.decision {
            Verdict::Allow => {
                let result = self.browser.run(tab_id, act).await;
                self.reply(id, result).await;
            }
            Verdict::Handoff => {
                let message = format!(
                    "Waymark leaves this step to you: {}. Do it yourself in the page, then carry on.",
                    decision.reason.trim_end_matches('.')
                );
                self.reply(id, ToolResult::error(message)).await;
            }
            Verdict::Confirm => {
                let question = self.next_question.fetch_add(1, Ordering::Relaxed);
                let replaced = self.lock().replace(Pending {
                    question,
                    request: id,
                    tab_id,
                    tool: act,
                });
                if let Some(old) = replaced {
                    let dropped = ToolResult::error("Not done: a newer action replaced the question.");
                    self.reply(old.request, dropped).await;
                }
                let text = question_text(action, &info);
                let _ = self
                    .outbox
                    .send(ToExtension::Question(Question {
                        id: question,
                        kind: QuestionKind::Confirm,
                        text,
                    }))
                    .await;
            }
        }
    }

    /// Handles the user's yes or no.
    pub async fn answer(self: Arc<Self>, answer: Answer) {
        let pending = {
            let mut slot = self.lock();
            match (&*slot, answer.question) {
                (Some(p), Some(q)) if p.question != q => None,
                _ => slot.take(),
            }
        };
        let Some(pending) = pending else {
            tracing::info!("an answer came with no matching question; ignored");
            return;
        };
        let result = if answer.yes {
            self.browser.run(pending.tab_id, pending.tool).await
        } else {
            ToolResult::error("Not done: you said no.")
        };
        self.reply(pending.request, result).await;
    }

    async fn reply(&self, id: RequestId, result: ToolResult) {
        let _ = self
            .outbox
            .send(ToExtension::UserToolResult(ToolDone { id, result }))
            .await;
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Pending>> {
        self.pending
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// What the classifier needs, from what the content script described.
fn proposed(info: &ElementInfo, action: ActKind, text: Option<&str>) -> policy::ProposedAction {
    let kind = match action {
        ActKind::Click => policy::ActionKind::Click,
        ActKind::Type => policy::ActionKind::Type,
        ActKind::Select => policy::ActionKind::Select,
    };
    let some = |s: &str| (!s.is_empty()).then(|| s.to_string());
    policy::ProposedAction {
        action: Some(kind),
        element: Some(policy::Element {
            role: some(&info.role),
            name: some(&info.name),
            tag: some(&info.tag),
            input_type: info.input_type.clone(),
            // For a select, the option asked for is what the control will say.
            value: if action == ActKind::Select {
                text.map(str::to_string)
            } else {
                info.value.clone()
            },
            text_around: some(&info.text_around),
            form: info.form.as_ref().map(|f| policy::FormContext {
                action: some(&f.action),
                method: some(&f.method),
                ..Default::default()
            }),
            autocomplete: info.autocomplete.clone(),
            in_dialog: info.in_dialog,
            id_hints: None,
        }),
        url: some(&info.url),
        text: text.map(str::to_string),
        key: None,
    }
}

/// "Click button 'Pay €84.97' on shop.example? Yes or no."
fn question_text(action: ActKind, info: &ElementInfo) -> String {
    let site = site_of(&info.url);
    let on = if site.is_empty() {
        String::new()
    } else {
        format!(" on {site}")
    };
    match action {
        ActKind::Click => format!("Click {} '{}'{on}? Yes or no.", info.role, info.name),
        ActKind::Type => format!("Type into {} '{}'{on}? Yes or no.", info.role, info.name),
        ActKind::Select => format!("Change {} '{}'{on}? Yes or no.", info.role, info.name),
    }
}

/// The host part of a URL ("https://shop.example:8080/a" → "shop.example:8080").
fn site_of(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    rest.split(['/', '?', '#']).next().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn info(name: &str) -> ElementInfo {
        ElementInfo {
            id: 17,
            index: 3,
            role: "button".into(),
            name: name.into(),
            tag: "button".into(),
            url: "https://shop.example/checkout?step=2".into(),
            ..Default::default()
        }
    }

    /// A fake extension: answers `describe` with `described` and records every other tool it is asked.
    struct Fake {
        gate: Arc<Gate>,
        out: mpsc::Receiver<ToExtension>,
        stop: tokio::sync::oneshot::Sender<()>,
        task: tokio::task::JoinHandle<Vec<PageTool>>,
    }

    impl Fake {
        /// Stops the fake and returns the tools that ran (other than `describe`).
        async fn ran(self) -> Vec<PageTool> {
            let _ = self.stop.send(());
            self.task.await.unwrap()
        }
    }

    fn extension(described: ElementInfo) -> Fake {
        let (to_ext, mut from_gate) = mpsc::channel(16);
        let (to_test, out) = mpsc::channel(16);
        let (stop, mut stopped) = tokio::sync::oneshot::channel::<()>();
        let browser = Browser::new(to_ext.clone());
        let gate = Gate::new(browser.clone(), to_ext);
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
                        let result = match &run.tool {
                            PageTool::Describe { .. } => {
                                ToolResult::ok(serde_json::to_value(&described).unwrap())
                            }
                            other => {
                                ran.push(other.clone());
                                ToolResult::ok(json!({"done": "click"}))
                            }
                        };
                        browser.resolve(ToolDone { id: run.id, result });
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
            out,
            stop,
            task,
        }
    }

    fn click(id: RequestId) -> UserTool {
        UserTool {
            id,
            tab_id: Some(1),
            tool: PageTool::OverlayAct {
                index: 3,
                action: ActKind::Click,
                text: None,
                expect: None,
            },
        }
    }

    #[tokio::test]
    async fn a_harmless_click_runs_at_once_pinned_to_the_described_element() {
        let mut fake = extension(info("Save draft"));
        fake.gate.clone().user_tool(click(1)).await;
        let Some(ToExtension::UserToolResult(done)) = fake.out.recv().await else {
            panic!()
        };
        assert_eq!((done.id, done.result.error), (1, None));
        let ran = fake.ran().await;
        assert_eq!(
            ran,
            vec![PageTool::OverlayAct {
                index: 3,
                action: ActKind::Click,
                text: None,
                expect: Some(17)
            }]
        );
    }

    #[tokio::test]
    async fn a_payment_asks_first_and_yes_runs_it_exactly_once() {
        let mut fake = extension(info("Pay €84.97"));
        fake.gate.clone().user_tool(click(2)).await;
        let Some(ToExtension::Question(q)) = fake.out.recv().await else {
            panic!()
        };
        assert_eq!(q.text, "Click button 'Pay €84.97' on shop.example? Yes or no.");
        fake.gate
            .clone()
            .answer(Answer {
                question: Some(q.id),
                yes: true,
            })
            .await;
        let Some(ToExtension::UserToolResult(done)) = fake.out.recv().await else {
            panic!()
        };
        assert_eq!((done.id, done.result.error), (2, None));
        // A second yes finds nothing pending: nothing runs twice.
        fake.gate
            .clone()
            .answer(Answer {
                question: Some(q.id),
                yes: true,
            })
            .await;
        assert_eq!(fake.ran().await.len(), 1);
    }

    #[tokio::test]
    async fn no_drops_the_action() {
        let mut fake = extension(info("Delete account"));
        fake.gate.clone().user_tool(click(5)).await;
        let Some(ToExtension::Question(q)) = fake.out.recv().await else {
            panic!()
        };
        fake.gate
            .clone()
            .answer(Answer {
                question: Some(q.id),
                yes: false,
            })
            .await;
        let Some(ToExtension::UserToolResult(done)) = fake.out.recv().await else {
            panic!()
        };
        assert_eq!(done.result.error.as_deref(), Some("Not done: you said no."));
        assert!(fake.ran().await.is_empty(), "nothing ran");
    }

    #[tokio::test]
    async fn a_password_field_is_handed_to_the_user() {
        let mut field = info("Password");
        field.role = "textbox".into();
        field.tag = "input".into();
        field.input_type = Some("password".into());
        let mut fake = extension(field);
        let request = UserTool {
            id: 9,
            tab_id: None,
            tool: PageTool::OverlayAct {
                index: 3,
                action: ActKind::Type,
                text: Some("hunter2".into()),
                expect: None,
            },
        };
        fake.gate.clone().user_tool(request).await;
        let Some(ToExtension::UserToolResult(done)) = fake.out.recv().await else {
            panic!()
        };
        let error = done.result.error.unwrap();
        assert!(error.starts_with("Waymark leaves this step to you"), "{error}");
        assert!(!error.contains("hunter2"));
        assert!(fake.ran().await.is_empty());
    }

    #[test]
    fn site_is_the_host_part() {
        assert_eq!(site_of("https://shop.example:8080/a?b"), "shop.example:8080");
        assert_eq!(site_of("file:///tmp/x.html"), "");
        assert_eq!(site_of("about:blank"), "about:blank");
    }
}
