//! How the agent looks at the page by itself: after every page-changing step (and as the first rung of
//! the fallback ladder when one fails) it closes banners, numbers the page again and, for a model that
//! takes images, takes a picture of the screen; and the short, text-free account of what a reading
//! tool showed (the session's last observation). One numbering per step: the banner pass's own fresh
//! list is the look, unless it brought none.
//!
//! What it must not do: change the page except by closing banners through the gate (every look goes
//! through [`Agent::execute`]), let a failure to look fail the step, or keep a picture anywhere but
//! [`Work::screen`](super::Work) (it is never written to disk or into the conversation).

use serde_json::{json, Value};
use waymark_i18n::say;
use waymark_protocol::{ErrorKind, InteractiveList, PageTool, ToolResult};

use super::{Agent, Work};
use crate::gate::Gated;
use crate::steplog;

/// How many controls Waymark lists when it looks at the page itself after an action: as many as the
/// banner pass lists, whose list is the look.
pub(super) const LOOK_AGAIN_LIMIT: u32 = crate::gate::BANNERS_LIST_LIMIT;

/// Automatic banner closing after a page change (`docs/requirements.md` "Closing banners"): passes, and the
/// longest one.
const BANNER_PASSES: u32 = 3;
const BANNER_PASS_MS: u64 = 800;
/// Less time than this left is not worth a pass.
const MIN_BANNER_PASS_MS: u64 = 100;

impl Agent {
    /// After a browser step ran: when the page changed (or the action failed) closes banners within
    /// `banner_budget_ms` and numbers the page again, adding both to `result`; for a model that sees,
    /// takes the screen with each list. Returns Waymark's own fresh list, if it made one.
    pub(super) async fn look_after_step(
        &self,
        work: &mut Work,
        tool: &PageTool,
        result: &mut ToolResult,
        banner_budget_ms: u64,
        sees: bool,
    ) -> Option<Value> {
        let tab_id = work.session.tab_id;
        let ok = result.error.is_none();
        let mut looked = None;
        if let PageTool::Screenshot = tool {
            // The picture goes to the model as an image, not as text in the conversation.
            work.screen = take_picture(result);
        }
        if tool.changes_page() {
            // After every page change, and as the first rung of the fallback ladder when an action
            // failed (a banner may cover the control).
            let mut listed = None;
            if !matches!(tool, PageTool::CloseBanners { .. }) {
                let (closed, list) = self.close_banners(tab_id, banner_budget_ms).await;
                if !closed.is_empty() {
                    attach(result, "banners_closed", json!(closed));
                }
                listed = list;
            }
            // A refusal for a stale number or a changed page brings the fresh list.
            let has_fresh_list =
                (result.is(ErrorKind::Stale) || result.is(ErrorKind::PageChanged)) && result.data.is_some();
            if !has_fresh_list {
                looked = match listed {
                    Some(list) => Some(list),
                    None => self.look_again(tab_id).await,
                };
                if let Some(after) = &looked {
                    let key = if ok { "page_after" } else { "fresh_list" };
                    attach(result, key, after.clone());
                }
            }
        }
        let listed = looked.is_some() || matches!(tool, PageTool::ListInteractives { .. });
        if listed && (ok || looked.is_some()) && sees {
            // Observe = the list and the screen together (`docs/requirements.md` "The agent's turn"),
            // when the model sees.
            work.screen = self.screenshot(tab_id).await;
        }
        looked
    }

    /// A fresh numbered list of the page (a reading tool), or nothing if the page could not be read.
    pub(super) async fn look_again(&self, tab_id: Option<i32>) -> Option<Value> {
        let tool = PageTool::ListInteractives {
            scope: None,
            limit: Some(LOOK_AGAIN_LIMIT),
            offset: None,
        };
        match self.execute(tab_id, tool).await {
            Gated::Ran(result) if result.error.is_none() => result.data,
            _ => None,
        }
    }

    /// Closes cookie, consent and newsletter banners after a page change (`docs/requirements.md`
    /// "Closing banners"): up to three passes of at most [`BANNER_PASS_MS`] each within `budget_ms` in
    /// all, stopping at a pass that closed nothing or ended before its time was up (it looked again
    /// itself). Says what was closed, and gives the last pass's fresh list of the page; a failure to
    /// close is not the step's failure.
    async fn close_banners(&self, tab_id: Option<i32>, budget_ms: u64) -> (Vec<String>, Option<Value>) {
        let started = std::time::Instant::now();
        let mut closed = Vec::new();
        let mut list = None;
        for _ in 0..BANNER_PASSES {
            let spent = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
            let left = budget_ms.saturating_sub(spent).min(BANNER_PASS_MS);
            if left < MIN_BANNER_PASS_MS {
                break;
            }
            let pass = PageTool::CloseBanners {
                budget_ms: u32::try_from(left).ok(),
            };
            let Gated::Ran(result) = self.execute(tab_id, pass).await else {
                break;
            };
            let data = result.data.as_ref().filter(|_| result.error.is_none());
            let names: Vec<String> = data
                .and_then(|d| d.get("closed"))
                .and_then(|c| serde_json::from_value(c.clone()).ok())
                .unwrap_or_default();
            list = data.and_then(|d| d.get("list")).cloned();
            let spent = data.and_then(|d| d.get("spent_ms")).and_then(Value::as_u64);
            if result.error.is_some() || names.is_empty() {
                break;
            }
            closed.extend(names);
            if spent.is_some_and(|spent| spent + MIN_BANNER_PASS_MS < left) {
                break;
            }
        }
        if !closed.is_empty() {
            let words = self.words();
            let summary = say!(words, "agent-summary-banners", names = closed.join("; "));
            self.tool_event("browser_close_banners", true, &summary).await;
        }
        (closed, list)
    }

    /// A picture of the tab's screen with the numbers drawn, as a `data:` URL.
    async fn screenshot(&self, tab_id: Option<i32>) -> Option<String> {
        match self.execute(tab_id, PageTool::Screenshot).await {
            Gated::Ran(mut result) => take_picture(&mut result),
            _ => None,
        }
    }
}

/// Takes the image out of a screenshot's result (leaving its size, so the conversation stays small)
/// and returns it as a `data:` URL.
fn take_picture(result: &mut ToolResult) -> Option<String> {
    let data = result.data.as_mut()?;
    let shot: waymark_protocol::Screenshot = serde_json::from_value(data.clone()).ok()?;
    *data = json!({
        "width": shot.width,
        "height": shot.height,
        "picture": "sent to you as an image with the next message",
    });
    Some(format!("data:{};base64,{}", shot.mime, shot.base64))
}

/// Adds `value` under `key` to a result's data (an object), keeping what was there.
pub(super) fn attach(result: &mut ToolResult, key: &str, value: Value) {
    match result.data.as_mut() {
        Some(Value::Object(map)) => {
            map.insert(key.to_string(), value);
        }
        _ => {
            let before = result.data.take().unwrap_or(Value::Null);
            result.data = Some(json!({ "result": before, key: value }));
        }
    }
}

/// A short, text-free account of what a reading tool showed: the kind of result, a count, the site.
pub(super) fn observation(tool: &PageTool, result: &ToolResult) -> Option<String> {
    let data = result.data.as_ref()?;
    let site = data
        .get("url")
        .and_then(Value::as_str)
        .map(steplog::without_query)
        .unwrap_or_default();
    let list = serde_json::from_value::<InteractiveList>(data.clone()).ok();
    match (tool, list) {
        (PageTool::ListInteractives { .. }, Some(list)) => {
            Some(format!("{} controls listed on {site}", list.total))
        }
        (PageTool::Find { .. }, Some(list)) => Some(format!("{} controls found on {site}", list.total)),
        (PageTool::Extract, _) => Some(format!("read the page summary of {site}")),
        (PageTool::Navigate { .. } | PageTool::Back, _) => Some("a new page loaded; not listed yet".into()),
        _ => None,
    }
}

/// The observation after Waymark numbered the page itself (`list`, its fresh list).
pub(super) fn observation_of_list(list: &Value) -> Option<String> {
    let listing = PageTool::ListInteractives {
        scope: None,
        limit: None,
        offset: None,
    };
    observation(&listing, &ToolResult::ok(list.clone()))
}
