//! A page's own dialogs (`alert`, `confirm`, `prompt`, "leave this page?") in the tabs Waymark acts
//! in. Such a dialog blocks its page until the user answers it, so no frame of it answers a tool:
//! without this, every tool waited for the host's timeout and nobody said what the page asks.
//!
//! How it is heard: while a page-changing tool runs in a tab ([`arm`], for as long as its [`Armed`]
//! lives), every frame of the tab gets two small functions of the loader glue
//! (`extension/static/page_dialogs.js`, run with `chrome.scripting.executeScript`): in the page's own
//! world, `alert`, `confirm` and `prompt` tell the content script's world what they ask (a DOM event
//! of a random name, synchronously) before they block; in the content script's world, that and a
//! "leave this page?" the page asked for (its `beforeunload` listener asked, and the frame had the
//! user's activation) go to this worker at once (`chrome.runtime.sendMessage`, sent before the page
//! blocks). The worker then asks the frame for its document: a blocked frame answers only once the
//! dialog is gone. A dialog still up after [`CONFIRM_MS`] is said in every panel, once
//! (`WorkerToPanel::PageDialog`), and the tool that raised it, and every tool for that tab while it is
//! up, gets at once a result of kind `page_dialog` saying what the page asks and how the user answers
//! it in the browser's dialog. When the frame answers again (or its document is gone), the dialog is
//! forgotten and tools work again, with nothing said.
//!
//! Must not: answer a page's dialog (the user does, by their own hand), put anything into a tab while
//! Waymark does not act there, pass on a dialog's words unredacted (known secret values and card
//! numbers are taken out, as from every result), or treat the words as anything but the page's data.

use std::cell::RefCell;
use std::future::Future;
use std::pin::{pin, Pin};
use std::task::Poll;

use gloo_timers::future::TimeoutFuture;
use serde_json::json;
use wasm_bindgen::prelude::*;
use waymark_protocol::{ErrorKind, ToolResult, WorkerToContent, WorkerToPanel};

use crate::chrome::scripting::{execute_func, Frames};
use crate::chrome::{self, tabs};
use crate::wording;

/// How long a dialog must stay up before it is said: a "leave this page?" the page asked for that the
/// browser did not show (or a dialog answered at once) is not said at all.
const CONFIRM_MS: u32 = 250;
/// How long a tool that comes while a dialog is up waits for its frame, in case the user has just
/// answered it.
const RECHECK_MS: u32 = 150;
/// How often a running tool looks whether its tab shows a dialog.
const POLL_MS: u32 = 50;
/// How long putting the listeners into a tab's frames may take before the tool runs anyway.
const ARM_WAIT_MS: u32 = 1_500;
/// The longest a dialog's words are said (a longer text is shortened, its start and end kept).
const MAX_WORDS: usize = 300;

#[derive(Default)]
struct Dialogs {
    next_id: u32,
    /// Tabs whose frames listen now, with how many running tools hold them. (Lists: a few tabs.)
    armed: Vec<(i32, u32)>,
    /// The dialog each tab shows, with its frame and whether it has stayed up long enough to be said.
    shown: Vec<(i32, Shown)>,
}

/// A page's dialog as heard: which kind (`alert`, `confirm`, `prompt`, `leave`), and its words.
#[derive(Clone)]
struct PageDialog {
    id: u32,
    kind: &'static str,
    text: String,
}

struct Shown {
    dialog: PageDialog,
    frame: i32,
    said: bool,
}

thread_local! {
    static DIALOGS: RefCell<Dialogs> = RefCell::new(Dialogs::default());
    /// The event name the two worlds of a frame speak by: random, chosen when this worker started.
    static NAME: String = random_name();
}

fn random_name() -> String {
    (0..16)
        .map(|_| char::from(b'a' + (js_sys::Math::random() * 26.0) as u8 % 26))
        .collect()
}

/// One of the glue's functions (`page_dialogs.js`, which `sw.js` hands over as `pageDialogs`).
fn glue(name: &str) -> JsValue {
    js_sys::Reflect::get(&js_sys::global(), &"pageDialogs".into())
        .and_then(|g| js_sys::Reflect::get(&g, &name.into()))
        .unwrap_or(JsValue::UNDEFINED)
}

/// Runs one of the glue's functions in every frame of `tab`.
async fn run_glue(tab: i32, func: &str, main: bool) {
    let name = NAME.with(Clone::clone);
    if let Err(e) = execute_func(tab, &Frames::All, &glue(func), &name, main, ARM_WAIT_MS).await {
        chrome::log(&format!("tab {tab}: {func} did not run everywhere: {e}"));
    }
}

/// While alive, the page's dialogs in its tab are heard.
pub struct Armed {
    tab: i32,
}

impl Drop for Armed {
    fn drop(&mut self) {
        let tab = self.tab;
        let last = DIALOGS.with_borrow_mut(|d| {
            let at = d.armed.iter().position(|(t, _)| *t == tab)?;
            d.armed[at].1 -= 1;
            (d.armed[at].1 == 0).then(|| d.armed.remove(at))
        });
        if last.is_some() {
            // A frame blocked by a dialog runs this once the user has answered it.
            wasm_bindgen_futures::spawn_local(run_glue(tab, "end", false));
        }
    }
}

/// Hears the page's dialogs in `tab` until the returned guard is dropped (a page-changing tool runs
/// there): the first holder puts the listeners into every frame of the tab, the last takes them out.
pub async fn arm(tab: i32) -> Armed {
    let first = DIALOGS.with_borrow_mut(|d| match d.armed.iter_mut().find(|(t, _)| *t == tab) {
        Some((_, holders)) => {
            *holders += 1;
            false
        }
        None => {
            d.armed.push((tab, 1));
            true
        }
    });
    if first {
        run_glue(tab, "extensionSide", false).await;
        run_glue(tab, "pageSide", true).await;
    }
    Armed { tab }
}

/// The answer for a tool in `tab` while the page shows a dialog that has been said, if it does.
/// `raised`: the tool is the one that made the page show it (its panel has just said it).
pub fn outcome(tab: i32, raised: bool) -> Option<ToolResult> {
    let dialog = DIALOGS.with_borrow(|d| {
        d.shown
            .iter()
            .find(|(t, s)| *t == tab && s.said)
            .map(|(_, s)| s.dialog.clone())
    })?;
    Some(said(&dialog, raised))
}

/// The result of kind `page_dialog` for `dialog`: what the page asks and how to answer it, said.
fn said(dialog: &PageDialog, raised: bool) -> ToolResult {
    let words = wording::page_dialog(dialog.kind, &dialog.text);
    let data = json!({
        "dialog": {"id": dialog.id, "kind": dialog.kind, "text": dialog.text},
        "raised": raised,
    });
    ToolResult::failed(ErrorKind::PageDialog, words).with_data(Some(data))
}

/// Runs `action` (a tool in `tab`), unless the page shows a dialog first: then its answer is the
/// dialog's [`outcome`] at once, and the action is dropped (the page goes on with it once the user has
/// answered, and says what followed itself).
pub async fn unless_asked(
    tab: i32,
    mut action: Pin<Box<dyn Future<Output = ToolResult> + '_>>,
) -> ToolResult {
    // (Boxed: one copy of this in the module for every kind of action.)
    let mut tick = TimeoutFuture::new(POLL_MS);
    std::future::poll_fn(|cx| {
        if let Poll::Ready(result) = action.as_mut().poll(cx) {
            return Poll::Ready(result);
        }
        loop {
            if let Some(asked) = outcome(tab, true) {
                return Poll::Ready(asked);
            }
            match Pin::new(&mut tick).poll(cx) {
                Poll::Ready(()) => tick = TimeoutFuture::new(POLL_MS),
                Poll::Pending => return Poll::Pending,
            }
        }
    })
    .await
}

/// Called by `sw.js` for every `chrome.runtime.onMessage`: the glue in a frame of a tab heard the page
/// ask (`{pageDialog: {kind, text}}`; only the extension's own scripts can send here).
#[wasm_bindgen]
pub fn on_page_dialog(message: JsValue, sender: JsValue) {
    let get = |from: &JsValue, key: &str| js_sys::Reflect::get(from, &key.into()).unwrap_or_default();
    let asked = get(&message, "pageDialog");
    let tab = get(&get(&sender, "tab"), "id").as_f64();
    let frame = get(&sender, "frameId").as_f64();
    let (Some(tab), Some(frame)) = (tab, frame) else {
        return;
    };
    let kind = match get(&asked, "kind").as_string().as_deref() {
        Some("alert") => "alert",
        Some("confirm") => "confirm",
        Some("prompt") => "prompt",
        Some("leave") => "leave",
        _ => return,
    };
    let text = super::held::redact_text(&shortened(&get(&asked, "text").as_string().unwrap_or_default()));
    let (tab, frame) = (tab as i32, frame as i32);
    let dialog = DIALOGS.with_borrow_mut(|d| {
        d.next_id += 1;
        let dialog = PageDialog {
            id: d.next_id,
            kind,
            text,
        };
        d.shown.retain(|(t, _)| *t != tab);
        let shown = Shown {
            dialog: dialog.clone(),
            frame,
            said: false,
        };
        d.shown.push((tab, shown));
        dialog
    });
    wasm_bindgen_futures::spawn_local(watch(tab, frame, dialog));
}

/// Says `dialog` once it has stayed up for [`CONFIRM_MS`], and forgets it once its frame answers again
/// (the user answered it) or is gone.
async fn watch(tab: i32, frame: i32, dialog: PageDialog) {
    let id = dialog.id;
    let document = chrome::to_js(&WorkerToContent::Document);
    let mut probe = pin!(tabs::send_to_frame(tab, frame, &document));
    if !answered_within(probe.as_mut(), CONFIRM_MS).await {
        let still = DIALOGS.with_borrow_mut(|d| {
            let shown = d.shown.iter_mut().find(|(t, s)| *t == tab && s.dialog.id == id);
            shown.map(|(_, s)| s.said = true).is_some()
        });
        if still {
            let result = said(&dialog, true);
            crate::worker::tell_panels(&WorkerToPanel::PageDialog { result });
        }
        let _ = probe.await;
    }
    forget(tab, id);
}

/// The answer for a tool that comes for `tab` while its page shows a dialog that has been said: the
/// frame is asked once more, briefly, since the user's answer may be a moment ahead of its word.
pub async fn still_asking(tab: i32) -> Option<ToolResult> {
    let (frame, id) = DIALOGS.with_borrow(|d| {
        d.shown
            .iter()
            .find(|(t, s)| *t == tab && s.said)
            .map(|(_, s)| (s.frame, s.dialog.id))
    })?;
    let document = chrome::to_js(&WorkerToContent::Document);
    let probe = pin!(tabs::send_to_frame(tab, frame, &document));
    if answered_within(probe, RECHECK_MS).await {
        forget(tab, id);
        return None;
    }
    outcome(tab, false)
}

/// Whether `probe` (a message to a frame) settles within `ms`: a frame blocked by a dialog does not.
async fn answered_within<F: Future>(mut probe: Pin<&mut F>, ms: u32) -> bool {
    let mut wait = TimeoutFuture::new(ms);
    std::future::poll_fn(|cx| {
        if probe.as_mut().poll(cx).is_ready() {
            return Poll::Ready(true);
        }
        Pin::new(&mut wait).poll(cx).map(|()| false)
    })
    .await
}

fn forget(tab: i32, id: u32) {
    DIALOGS.with_borrow_mut(|d| d.shown.retain(|(t, s)| !(*t == tab && s.dialog.id == id)));
}

/// A dialog's words as they are said: one line, no control or invisible characters, and when longer
/// than [`MAX_WORDS`], its start and its end with "…" between (a notice's question is usually its last
/// sentence), never dropped.
fn shortened(raw: &str) -> String {
    let visible: String = raw
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .filter(|c| !waymark_protocol::text::is_invisible(*c))
        .collect();
    let whole = waymark_protocol::text::collapse_spaces(&visible);
    let count = whole.chars().count();
    if count <= MAX_WORDS {
        return whole;
    }
    let head = MAX_WORDS * 2 / 3;
    let tail = MAX_WORDS - head - 3;
    let start: String = whole.chars().take(head).collect();
    let end: String = whole.chars().skip(count - tail).collect();
    format!("{} … {}", start.trim_end(), end.trim_start())
}

#[cfg(test)]
mod tests {
    use super::shortened;

    #[test]
    fn a_dialogs_words_are_one_line_and_a_long_text_keeps_its_start_and_end() {
        assert_eq!(shortened("Drop table\n\t“users”?\u{200B}"), "Drop table “users”?");
        let long = format!("Start {} Really delete?", "word ".repeat(200));
        let said = shortened(&long);
        assert!(
            said.starts_with("Start word") && said.ends_with("Really delete?"),
            "{said}"
        );
        assert!(said.contains(" … ") && said.chars().count() <= 300, "{said}");
    }
}
