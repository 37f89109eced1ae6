//! The browser as the host sees it: page tools sent to the extension ([`ToExtension::RunTool`]) and
//! their results matched back by id. Every call has a timeout, so a tab that never answers cannot hang
//! the host.
//!
//! This is the one way the host acts in pages. It does not judge what it runs: callers go through the
//! policy gate first ([`crate::gate`]). Because everything the gate lets through ends here, this is
//! also where an upload's files are read from disk ([`crate::transfer`]): only once the upload runs,
//! after the user's yes, and sent ahead in pieces under the browser's 1 MiB message limit. The files'
//! bytes stay inside [`Browser::run`]: callers, logs and the session see only the paths.
//!
//! And because every word of a page reaches the host here, this is the host's choke point for secret
//! values ([`Browser::resolve`]): card numbers (13–19 digits passing the Luhn check) and the values
//! the gate saw handed to the user ([`Browser::keep_secret`]) are taken out of every result before
//! anyone waits for it — the agent, the model, the session, the step log, the logs and MCP clients.
//! (The service worker took out what the user typed into the page's secret fields already.)

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{mpsc, oneshot};
use waymark_i18n::say;
use waymark_protocol::secret::values::{Redactor, MAX_VALUES};
use waymark_protocol::{
    ErrorKind, Guard, PageTool, Pin, RunTool, StoppedRequest, ToExtension, ToolDone, ToolResult,
};

use crate::language::Language;
use crate::transfer::{self, TransferError};

/// How long a page tool may take before the host gives up on it, beyond the time its own arguments
/// ask it to wait (`PageTool::spec().waits_ms`).
pub const TOOL_TIMEOUT: Duration = Duration::from_secs(15);

type Waiting = Arc<Mutex<HashMap<u64, oneshot::Sender<ToolDone>>>>;

/// A handle for running page tools through the connected extension. Cheap to clone.
#[derive(Clone)]
pub struct Browser {
    outbox: mpsc::Sender<ToExtension>,
    waiting: Waiting,
    next_id: Arc<AtomicU64>,
    timeout: Duration,
    /// The browser user's language: an upload's files that cannot be read are said in it.
    language: Language,
    /// Secret values the host has seen (text the gate left to the user to type into a secret field):
    /// taken out of every result, with card numbers.
    secrets: Arc<Mutex<VecDeque<String>>>,
}

impl Browser {
    /// A browser whose user speaks English (tests).
    pub fn new(outbox: mpsc::Sender<ToExtension>) -> Self {
        Self::with_timeout(outbox, TOOL_TIMEOUT)
    }

    /// The browser of one connection, whose user speaks `language`.
    pub fn speaking(outbox: mpsc::Sender<ToExtension>, language: Language) -> Self {
        Self {
            language,
            ..Self::new(outbox)
        }
    }

    pub fn with_timeout(outbox: mpsc::Sender<ToExtension>, timeout: Duration) -> Self {
        Self {
            outbox,
            waiting: Arc::default(),
            next_id: Arc::new(AtomicU64::new(1)),
            timeout,
            language: Language::default(),
            secrets: Arc::default(),
        }
    }

    /// `value` is a secret (what a caller wanted typed into a secret field, which the gate left to the
    /// user): it is taken out of every result from now on.
    pub fn keep_secret(&self, value: &str) {
        let mut secrets = self.secrets.lock().unwrap_or_else(|p| p.into_inner());
        if !secrets.iter().any(|known| known == value) {
            secrets.push_back(value.to_owned());
            if secrets.len() > MAX_VALUES {
                secrets.pop_front();
            }
        }
    }

    /// What takes card numbers and the secret values the host knows out of what it passes on.
    pub fn redactor(&self) -> Redactor {
        let secrets = self.secrets.lock().unwrap_or_else(|p| p.into_inner());
        Redactor::new(secrets.iter())
    }

    /// Runs one tool in a tab (the active one when `tab_id` is `None`) and waits for its result.
    /// Failures of transport come back as error results, in words for the user. The extension refuses
    /// page-changing tools that come this way: they run through [`Browser::run_pinned`].
    pub async fn run(&self, tab_id: Option<i32>, tool: PageTool) -> ToolResult {
        self.send(tab_id, None, tool, None).await.0
    }

    /// Runs a page-changing tool exactly where the gate judged it (`pin`: the tab, the frame's
    /// document, the element), or not at all: the extension refuses it, saying what changed.
    pub async fn run_pinned(&self, pin: &Pin, tool: PageTool) -> ToolResult {
        self.send(Some(pin.tab), Some(pin.clone()), tool, None).await.0
    }

    /// As [`Browser::run_pinned`], with the tab's requests guarded while the tool takes effect: what
    /// `guard` does not cover and might change something on a server is stopped, and comes back here.
    pub async fn run_guarded(
        &self,
        pin: &Pin,
        tool: PageTool,
        guard: Guard,
    ) -> (ToolResult, Vec<StoppedRequest>) {
        self.send(Some(pin.tab), Some(pin.clone()), tool, Some(guard))
            .await
    }

    /// As [`Browser::run_guarded`] for the one page-changing tool that runs without a pin (pressing
    /// the banner buttons the gate judged, each pinned inside it), in `tab_id`.
    pub async fn run_guarded_in(
        &self,
        tab_id: Option<i32>,
        tool: PageTool,
        guard: Guard,
    ) -> (ToolResult, Vec<StoppedRequest>) {
        self.send(tab_id, None, tool, Some(guard)).await
    }

    async fn send(
        &self,
        tab_id: Option<i32>,
        pin: Option<Pin>,
        mut tool: PageTool,
        guard: Option<Guard>,
    ) -> (ToolResult, Vec<StoppedRequest>) {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let timeout = self.timeout_for(&tool);
        let pieces = match &mut tool {
            PageTool::Upload { paths, files, .. } => match upload_parts(paths, std::mem::take(files)).await {
                Ok(pieces) => pieces,
                Err(why) => {
                    let said = why.say(&self.language.words());
                    return (ToolResult::failed(ErrorKind::BadArguments, said), Vec::new());
                }
            },
            _ => Vec::new(),
        };
        // The pieces go first, in order, through the same single writer, so the worker holds the whole
        // files when the tool itself arrives.
        for part in pieces {
            let piece = ToExtension::RunTool(RunTool {
                id,
                tab_id,
                tool: tool.clone(),
                pin: None,
                part: Some(part),
                guard: None,
            });
            if self.outbox.send(piece).await.is_err() {
                return (self.not_connected(), Vec::new());
            }
        }
        let (done, wait) = oneshot::channel();
        self.lock().insert(id, done);
        let request = ToExtension::RunTool(RunTool {
            id,
            tab_id,
            tool,
            pin,
            part: None,
            guard,
        });
        if self.outbox.send(request).await.is_err() {
            self.lock().remove(&id);
            return (self.not_connected(), Vec::new());
        }
        let answer = tokio::time::timeout(timeout, wait).await;
        let words = self.language.words();
        let result = match answer {
            Ok(Ok(done)) => return (done.result, done.stopped),
            Ok(Err(_)) => {
                ToolResult::failed(ErrorKind::Unreachable, say!(words, "browser-gone-before-answer"))
            }
            Err(_) => {
                self.lock().remove(&id);
                ToolResult::failed(
                    ErrorKind::TimedOut,
                    say!(words, "browser-page-timeout", seconds = timeout.as_secs()),
                )
            }
        };
        (result, Vec::new())
    }

    fn not_connected(&self) -> ToolResult {
        let words = self.language.words();
        ToolResult::failed(ErrorKind::Unreachable, say!(words, "browser-not-connected"))
    }

    /// A tool that waits in the page (for it to settle, for a download) waits as long as its arguments
    /// ask: the page gets that long and then the usual time, so the extension's own answer ("no
    /// download within …", "not settled yet") arrives before ours.
    fn timeout_for(&self, tool: &PageTool) -> Duration {
        self.timeout + Duration::from_millis(u64::from(tool.spec().waits_ms))
    }

    /// Hands a result from the extension to whoever waits for it, without card numbers or the secret
    /// values the host knows. A result nobody waits for (it came after its timeout) is dropped.
    pub fn resolve(&self, done: ToolDone) {
        let waiter = self.lock().remove(&done.id);
        match waiter {
            Some(waiter) => {
                // What the guard stopped is judged and quoted: it is cleaned as the result is.
                let redactor = self.redactor();
                let _ = waiter.send(ToolDone {
                    id: done.id,
                    result: redactor.result(done.result),
                    stopped: done.stopped.into_iter().map(|r| r.redacted(&redactor)).collect(),
                });
            }
            None => tracing::debug!(id = done.id, "late or unknown tool result dropped"),
        }
    }

    /// The extension is gone: every call still waiting fails at once.
    pub fn disconnect(&self) {
        self.lock().clear();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, oneshot::Sender<ToolDone>>> {
        // A panic while holding this lock cannot leave the map inconsistent: recover it.
        self.waiting
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// Reads an upload's files (from `paths`, after any the caller gave as data) and cuts them into the
/// pieces to send. The reading blocks, so it runs off the async threads.
async fn upload_parts(
    paths: &[String],
    given: Vec<waymark_protocol::FileData>,
) -> Result<Vec<waymark_protocol::FilePart>, TransferError> {
    if paths.is_empty() {
        if given.is_empty() {
            return Err(TransferError::NoPaths);
        }
        return Ok(transfer::parts_of(&given));
    }
    let shown = paths.join(", ");
    let paths = paths.to_vec();
    let loaded = tokio::task::spawn_blocking(move || transfer::read_files(&paths))
        .await
        // The reading task itself failed (it panicked, or the host is stopping).
        .map_err(|e| TransferError::Unreadable {
            path: shown,
            reason: e.to_string(),
        })??;
    let mut pieces = transfer::parts_of(&given);
    let offset = u32::try_from(given.len()).unwrap_or(u32::MAX);
    pieces.extend(transfer::parts(&loaded).into_iter().map(|mut part| {
        part.file = part.file.saturating_add(offset);
        part
    }));
    Ok(pieces)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_paths::abs;

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
            stopped: Vec::new(),
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
            stopped: Vec::new(),
        });
        assert!(browser.lock().is_empty());
    }

    #[tokio::test]
    async fn an_upload_sends_its_files_in_pieces_before_the_tool() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("cv.pdf");
        let bytes: Vec<u8> = (0..(transfer::PART_BYTES + 10))
            .map(|i| (i % 251) as u8)
            .collect();
        std::fs::write(&file, &bytes).unwrap();
        let (tx, mut rx) = mpsc::channel(8);
        let browser = Browser::new(tx);
        let b = browser.clone();
        let tool = PageTool::Upload {
            index: 4,
            paths: vec![file.display().to_string()],
            files: Vec::new(),
        };
        let pin = Pin {
            tab: 2,
            frame: 0,
            document: "d".into(),
            element: Some(9),
        };
        let call = tokio::spawn(async move { b.run_pinned(&pin, tool).await });
        let mut joined = String::new();
        let run = loop {
            let Some(ToExtension::RunTool(msg)) = rx.recv().await else {
                panic!("no request")
            };
            // Every message fits the browser's limit.
            let len = serde_json::to_vec(&ToExtension::RunTool(msg.clone()))
                .unwrap()
                .len();
            assert!(len < waymark_protocol::MAX_MESSAGE_TO_BROWSER);
            match msg.part {
                Some(part) => {
                    assert_eq!(
                        (part.file, part.name.as_str(), part.mime.as_str()),
                        (0, "cv.pdf", "application/pdf")
                    );
                    joined.push_str(&part.base64);
                }
                None => break msg,
            }
        };
        use base64::Engine as _;
        assert_eq!(
            base64::engine::general_purpose::STANDARD.decode(&joined).unwrap(),
            bytes
        );
        // The tool itself carries no bytes.
        assert!(matches!(&run.tool, PageTool::Upload { files, .. } if files.is_empty()));
        assert_eq!(run.pin.as_ref().and_then(|p| p.element), Some(9));
        browser.resolve(ToolDone {
            id: run.id,
            result: ToolResult::ok(serde_json::json!({"files": ["cv.pdf"], "index": 4})),
            stopped: Vec::new(),
        });
        assert_eq!(call.await.unwrap().status, waymark_protocol::ToolStatus::Ok);
    }

    #[tokio::test]
    async fn an_upload_of_a_missing_file_says_so_and_sends_nothing() {
        let (tx, mut rx) = mpsc::channel(8);
        let browser = Browser::new(tx);
        let tool = PageTool::Upload {
            index: 4,
            paths: vec![abs("/nowhere/at/all/cv.pdf")],
            files: Vec::new(),
        };
        let result = browser.run(None, tool).await;
        assert_eq!(
            result.error.as_deref(),
            Some(
                format!(
                    "There is no file at {}: check the path and the file's name.",
                    abs("/nowhere/at/all/cv.pdf")
                )
                .as_str()
            )
        );
        assert!(rx.try_recv().is_err());
    }

    #[tokio::test(start_paused = true)]
    async fn waiting_for_a_download_gets_its_own_time_and_then_some() {
        let (tx, _rx) = mpsc::channel(4);
        let browser = Browser::with_timeout(tx, Duration::from_secs(2));
        let result = browser
            .run(
                None,
                PageTool::DownloadWait {
                    timeout_ms: Some(5_000),
                },
            )
            .await;
        assert_eq!(
            result.error.as_deref(),
            Some("the page did not answer within 7 seconds")
        );
    }

    #[tokio::test(start_paused = true)]
    async fn a_page_asked_to_wait_longer_than_the_usual_time_is_waited_for() {
        let (tx, mut rx) = mpsc::channel(4);
        let browser = Browser::new(tx);
        let b = browser.clone();
        let wait = PageTool::Wait { ms: Some(60_000) };
        let call = tokio::spawn(async move { b.run(None, wait).await });
        let Some(ToExtension::RunTool(req)) = rx.recv().await else {
            panic!("no request")
        };
        // The page settles after 50 seconds, well past the usual time for a tool.
        tokio::time::sleep(TOOL_TIMEOUT + Duration::from_secs(35)).await;
        browser.resolve(ToolDone {
            id: req.id,
            result: ToolResult::ok(serde_json::json!({"settled": true})),
            stopped: Vec::new(),
        });
        assert_eq!(
            call.await.unwrap(),
            ToolResult::ok(serde_json::json!({"settled": true}))
        );
        // A page that never settles is given up on only after its whole wait and the usual time.
        let silent = browser.run(None, PageTool::Wait { ms: Some(60_000) }).await;
        assert_eq!(
            silent.error.as_deref(),
            Some("the page did not answer within 75 seconds")
        );
    }

    #[tokio::test]
    async fn no_browser_is_an_error_not_a_hang() {
        let (tx, rx) = mpsc::channel(1);
        drop(rx);
        let result = Browser::new(tx).run(None, PageTool::OverlayShow).await;
        assert_eq!(result.error.as_deref(), Some("the browser is not connected"));
    }

    #[tokio::test(start_paused = true)]
    async fn a_russian_user_hears_why_the_page_did_not_answer_in_russian() {
        let (tx, mut rx) = mpsc::channel(4);
        let browser = Browser {
            language: Language::of("ru"),
            ..Browser::with_timeout(tx, Duration::from_secs(2))
        };
        let b = browser.clone();
        let call = tokio::spawn(async move { b.run(None, PageTool::OverlayHide).await });
        let Some(ToExtension::RunTool(_)) = rx.recv().await else {
            panic!("no request")
        };
        let silent = call.await.unwrap();
        assert_eq!(silent.error.as_deref(), Some("страница не ответила за 2 секунды"));
        assert_eq!(silent.kind, Some(ErrorKind::TimedOut));

        let answerless = browser.clone();
        let call = tokio::spawn(async move { answerless.run(None, PageTool::OverlayHide).await });
        let Some(ToExtension::RunTool(_)) = rx.recv().await else {
            panic!("no request")
        };
        // The connection ends with the request unanswered.
        browser.lock().clear();
        let gone = call.await.unwrap();
        assert_eq!(
            gone.error.as_deref(),
            Some("браузер отключился, прежде чем страница ответила")
        );

        drop(rx);
        let unconnected = browser.run(None, PageTool::OverlayShow).await;
        assert_eq!(unconnected.error.as_deref(), Some("браузер не подключён"));
        assert_eq!(unconnected.kind, Some(ErrorKind::Unreachable));
    }
}
