//! `find`: the controls whose name (or value, or the row they stand in) contains a text, ignoring
//! case, accents and spacing, and/or whose role is a role, from a renewed numbering of the tab; a row
//! far down a virtualised list is reached by scrolling the page's inner lists a view at a time.
//!
//! Must not: find a secret field by what was typed into it (a secret field has no value in the list,
//! so its value is never matched), or keep a numbering of its own (it pages through the tab's).

use waymark_protocol::{Interactive, InteractiveList, ToolResult, WorkerToContent};

use super::numbering::{self, DEFAULT_LIMIT};
use super::send;
use crate::wording;

/// How long `find` goes on scrolling lists for a row not yet drawn.
const SCROLL_BUDGET_MS: f64 = 8_000.0;
/// How long a list is given to draw its rows after a scroll.
const RENDER_MS: u32 = 50;

/// Controls whose name (or value) contains `text`, ignoring case, accents and spacing, and/or whose role
/// is `role`, from a renewed numbering. A secret field has no value in the list, so what was typed
/// there can never be found.
pub(super) async fn find(
    tab: i32,
    text: Option<String>,
    role: Option<String>,
    limit: Option<u32>,
    offset: Option<u32>,
) -> ToolResult {
    let wanted = text.as_deref().map(fold).filter(|t| !t.is_empty());
    let role = role.as_deref().map(fold).filter(|r| !r.is_empty());
    let matches = |item: &Interactive| {
        let text_ok = wanted.as_ref().is_none_or(|w| {
            fold(&item.name).contains(w.as_str())
                || item
                    .context
                    .as_deref()
                    .is_some_and(|c| fold(&format!("{} {c}", item.name)).contains(w.as_str()))
                || item
                    .value
                    .as_deref()
                    .is_some_and(|v| fold(v).contains(w.as_str()))
        });
        let role_ok = role.as_ref().is_none_or(|r| fold(&item.role) == *r);
        text_ok && role_ok
    };
    let started = js_sys::Date::now();
    let mut scrolled = false;
    let mut list = loop {
        let all = numbering::list(tab, u32::MAX, 0, false).await;
        let Some(Ok(list)) = all.data.clone().map(serde_json::from_value::<InteractiveList>) else {
            return all;
        };
        // A row far down a virtualised list is not in the page until its list is scrolled to it: when
        // nothing matches the words, the lists are scrolled a view at a time, as a person looking would.
        let found = list.items.iter().any(&matches);
        if found || wanted.is_none() || js_sys::Date::now() - started > SCROLL_BUDGET_MS {
            break list;
        }
        let step = WorkerToContent::ScrollLists {
            restore: false,
            first: !scrolled,
        };
        let moved = send(tab, 0, &step)
            .await
            .data
            .and_then(|d| d.get("moved").and_then(serde_json::Value::as_bool))
            .unwrap_or(false);
        if !moved {
            break list;
        }
        scrolled = true;
        // The list draws its new rows after the scroll event.
        gloo_timers::future::TimeoutFuture::new(RENDER_MS).await;
    };
    list.items.retain(&matches);
    if list.items.is_empty() && scrolled {
        // Nothing there after all: the lists go back to where the person left them.
        let back = WorkerToContent::ScrollLists {
            restore: true,
            first: false,
        };
        send(tab, 0, &back).await;
    }
    let offset = offset.unwrap_or(0);
    list.total = list.items.len() as u32;
    list.offset = offset;
    list.items = list
        .items
        .into_iter()
        .skip(offset as usize)
        .take(limit.unwrap_or(DEFAULT_LIMIT) as usize)
        .collect();
    match serde_json::to_value(&list) {
        Ok(data) => ToolResult::ok(data),
        Err(e) => ToolResult::error(wording::answer_not_described(&e.to_string())),
    }
}

/// Lower case, accents removed, spacing collapsed: "Café  Crème" → "cafe creme". The browser decomposes
/// (NFD, with its own Unicode tables, which the wasm need not carry); the shared text module folds.
pub(super) fn fold(text: &str) -> String {
    let decomposed: String = js_sys::JsString::from(text).normalize("NFD").into();
    waymark_protocol::text::fold(&decomposed)
}
