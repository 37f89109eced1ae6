//! `close_banners` through the gate: the extension finds each banner and the button that gives away
//! least (`PageTool::FindBanners`), the policy judges each button like a click on it — its words, its
//! link, the form it would submit — and only the buttons it allows are pressed (`PressBanners`), pinned
//! to the document and element described. Then the page is looked at again (a consent manager's second
//! layer, a banner behind another, a frame that appeared) while the time budget lasts, and the tab is
//! numbered afresh — once, unless a button was pressed after that — and the first [`LIST_LIMIT`]
//! controls of that numbering come with the result (`list`), so whoever looks next (the agent after
//! each step) need not number the page again.
//!
//! Must not: press anything the policy did not allow, or go on past the budget.

use std::time::Duration;

use serde_json::{json, Value};
use tokio::time::Instant;
use waymark_protocol::{BannerButton, Guard, PageTool, ToolResult};

use super::Gate;
use crate::policy::{self, ActionKind, ProposedAction, Verdict};

/// The default time `close_banners` may take, and the bounds of what callers may ask for.
const BUDGET_MS: u32 = 800;
const BUDGET_RANGE: (u32, u32) = (100, 10_000);
/// How long a page gets to react to a pressed button before it is looked at again.
const SETTLE: Duration = Duration::from_millis(60);
/// At most this many looks at the page per call (layers, banners behind banners).
const MAX_ROUNDS: usize = 6;
/// How many controls of the fresh numbering the result lists.
pub const LIST_LIMIT: u32 = 30;

impl Gate {
    /// Closes the tab's banners within `budget_ms`; says what closed them and what was left alone.
    pub(super) async fn close_banners(&self, tab_id: Option<i32>, budget_ms: Option<u32>) -> ToolResult {
        let start = Instant::now();
        let budget = Duration::from_millis(u64::from(
            budget_ms
                .unwrap_or(BUDGET_MS)
                .clamp(BUDGET_RANGE.0, BUDGET_RANGE.1),
        ));
        let mut tab = tab_id;
        let mut closed: Vec<String> = Vec::new();
        let mut left_alone: Vec<String> = Vec::new();
        let mut renumbered = false;
        // The latest numbering, while nothing was pressed after it.
        let mut list: Option<Value> = None;
        for _ in 0..MAX_ROUNDS {
            if start.elapsed() >= budget {
                break;
            }
            let found = self.browser.run(tab, PageTool::FindBanners).await;
            if found.error.is_some() {
                if closed.is_empty() && left_alone.is_empty() {
                    // Not even the top frame answers (a browser page, a page still loading): say so.
                    return found;
                }
                break;
            }
            let banners: Vec<BannerButton> = found
                .data
                .as_ref()
                .and_then(|d| d.get("banners"))
                .and_then(|b| serde_json::from_value(b.clone()).ok())
                .unwrap_or_default();
            let mut allowed = Vec::new();
            for banner in banners {
                tab = Some(banner.pin.tab);
                let decision = policy::classify(&ProposedAction {
                    action: Some(ActionKind::Click),
                    element: Some(super::judge::element_of(&banner.target)),
                    url: Some(banner.target.url.clone()),
                    ..Default::default()
                });
                if decision.decision == Verdict::Allow {
                    allowed.push(banner.pin);
                } else {
                    tracing::info!(decision = ?decision.decision, "a banner's button was left alone");
                    let name = policy::quoted(&banner.target.name);
                    if !left_alone.contains(&name) {
                        left_alone.push(name);
                    }
                }
            }
            let pressed = if allowed.is_empty() {
                0
            } else {
                // Guarded like any action; what a banner's button makes the page send (a consent
                // log, or worse) is not asked about: nobody asked for the banner, it closes anyway,
                // and nothing stopped leaves.
                let (answer, stopped) = self
                    .browser
                    .run_guarded_in(tab, PageTool::PressBanners { pins: allowed }, Guard::default())
                    .await;
                if !stopped.is_empty() {
                    tracing::info!(
                        stopped = stopped.len(),
                        "request guard: a banner's button tried to send"
                    );
                }
                let data = answer.data.unwrap_or_default();
                if let Some(names) = data
                    .get("closed")
                    .and_then(|c| serde_json::from_value::<Vec<String>>(c.clone()).ok())
                {
                    closed.extend(names);
                }
                data.get("pressed").and_then(|p| p.as_u64()).unwrap_or(0)
            };
            if pressed > 0 {
                list = None;
                tokio::time::sleep(SETTLE).await;
                continue;
            }
            // Nothing (more) to press where the page was numbered: number it afresh, which finds the
            // frames that came since (a consent manager's), and look once more there.
            if renumbered {
                break;
            }
            renumbered = true;
            list = self.renumber(tab).await;
        }
        if list.is_none() {
            list = self.renumber(tab).await;
        }
        let mut data = json!({
            "closed": closed,
            "spent_ms": start.elapsed().as_millis() as u64,
        });
        if !left_alone.is_empty() {
            data["left_alone"] = json!(left_alone);
        }
        if let Some(list) = list {
            if let Some(total) = list.get("total") {
                data["total"] = total.clone();
            }
            data["list"] = list;
        }
        ToolResult::ok(data)
    }

    /// Numbers the tab afresh; the first [`LIST_LIMIT`] controls, if it answered.
    async fn renumber(&self, tab: Option<i32>) -> Option<Value> {
        let listed = self
            .browser
            .run(
                tab,
                PageTool::ListInteractives {
                    limit: Some(LIST_LIMIT),
                    offset: None,
                    scope: None,
                },
            )
            .await;
        listed.data.filter(|_| listed.error.is_none())
    }
}
