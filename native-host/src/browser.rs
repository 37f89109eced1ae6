//! The browser as the host sees it: page tools sent to the extension ([`ToExtension::RunTool`]) and
//! their results matched back by id. Every call has a timeout, so a tab that never answers cannot hang
//! the host.
//!
//! This is the one way the host acts in pages. It does not judge what it runs: callers go through the
//! policy gate first ([`crate::gate`]).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{mpsc, oneshot};
use waymark_protocol::{PageTool, RunTool, ToExtension, ToolDone, ToolResult};

/// How long a page tool may take before the host gives up on it.
pub const TOOL_TIMEOUT: Duration = Duration::from_secs(15);

type Waiting = Arc<Mutex<HashMap<u64, oneshot::Sender<ToolResult>>>>;

/// A handle for running page tools through the connected extension. Cheap to clone.
#[derive(Clone)]
pub struct Browser {
    outbox: mpsc::Sender<ToExtension>,
    waiting: Waiting,
    next_id: Arc<AtomicU64>,
    timeout: Duration,
}

impl Browser {
    pub fn new(outbox: mpsc::Sender<ToExtension>) -> Self {
        Self::with_timeout(outbox, TOOL_TIMEOUT)
    }

    pub fn with_timeout(outbox: mpsc::Sender<ToExtension>, timeout: Duration) -> Self {
        Self {
            outbox,
            waiting: Arc::default(),
            next_id: Arc::new(AtomicU64::new(1)),
            timeout,
        }
    }

    /// Runs one tool in a tab (the active one when `tab_id` is `None`) and waits for its result.
    /// Failures of transport come back as error results, in words for the user.
    pub async fn run(&self, tab_id: Option<i32>, tool: PageTool) -> ToolResult {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let (done, wait) = oneshot::channel();
        self.lock().insert(id, done);
        let request = ToExtension::RunTool(RunTool { id, tab_id, tool });
        if self.outbox.send(request).await.is_err() {
            self.lock().remove(&id);
            return ToolResult::error("the browser is not connected");
        }
        match tokio::time::timeout(self.timeout, wait).await {
            Ok(Ok(result)) => result,
            Ok(Err(_)) => ToolResult::error("the browser disconnected before the page answered"),
            Err(_) => {
                self.lock().remove(&id);
                ToolResult::error(format!(
                    "the page did not answer within {} seconds",
                    self.timeout.as_secs()
                ))
            }
        }
    }

    /// Hands a result from the extension to whoever waits for it. A result nobody waits for (it came
    /// after its timeout) is dropped.
    pub fn resolve(&self, done: ToolDone) {
        let waiter = self.lock().remove(&done.id);
        match waiter {
            Some(waiter) => {
                let _ = waiter.send(done.result);
            }
            None => tracing::debug!(id = done.id, "late or unknown tool result dropped"),
        }
    }

    /// The extension is gone: every call still waiting fails at once.
    pub fn disconnect(&self) {
        self.lock().clear();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, oneshot::Sender<ToolResult>>> {
        // A panic while holding this lock cannot leave the map inconsistent: recover it.
        self.waiting
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_result_reaches_its_caller() {
        let (tx, mut rx) = mpsc::channel(4);
        let browser = Browser::new(tx);
        let b = browser.clone();
        let call = tokio::spawn(async move { b.run(Some(3), PageTool::OverlayShow).await });
        let Some(ToExtension::RunTool(req)) = rx.recv().await else {
            panic!("no request")
        };
        assert_eq!((req.tab_id, req.tool), (Some(3), PageTool::OverlayShow));
        browser.resolve(ToolDone {
            id: req.id,
            result: ToolResult::ok(serde_json::json!({"x": 1})),
        });
        assert_eq!(call.await.unwrap(), ToolResult::ok(serde_json::json!({"x": 1})));
    }

    #[tokio::test(start_paused = true)]
    async fn a_silent_page_times_out_and_a_late_answer_is_dropped() {
        let (tx, mut rx) = mpsc::channel(4);
        let browser = Browser::with_timeout(tx, Duration::from_secs(2));
        let b = browser.clone();
        let call = tokio::spawn(async move { b.run(None, PageTool::OverlayHide).await });
        let Some(ToExtension::RunTool(req)) = rx.recv().await else {
            panic!("no request")
        };
        let result = call.await.unwrap();
        assert_eq!(
            result.error.as_deref(),
            Some("the page did not answer within 2 seconds")
        );
        browser.resolve(ToolDone {
            id: req.id,
            result: ToolResult::ok(serde_json::json!({})),
        });
        assert!(browser.lock().is_empty());
    }

    #[tokio::test]
    async fn no_browser_is_an_error_not_a_hang() {
        let (tx, rx) = mpsc::channel(1);
        drop(rx);
        let result = Browser::new(tx).run(None, PageTool::OverlayShow).await;
        assert_eq!(result.error.as_deref(), Some("the browser is not connected"));
    }
}
