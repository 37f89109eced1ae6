//! `find`: the controls whose name (or value) contains a text, ignoring case, accents and spacing,
//! and/or whose role is a role, from a renewed numbering of the tab.
//!
//! Must not: find a secret field by what was typed into it (a secret field has no value in the list,
//! so its value is never matched), or keep a numbering of its own (it pages through the tab's).

use waymark_protocol::{InteractiveList, ToolResult};

use super::numbering::{self, DEFAULT_LIMIT};
use crate::wording;

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
    let all = numbering::list(tab, u32::MAX, 0, false).await;
    let Some(Ok(mut list)) = all.data.clone().map(serde_json::from_value::<InteractiveList>) else {
        return all;
    };
    let wanted = text.as_deref().map(fold).filter(|t| !t.is_empty());
    let role = role.as_deref().map(fold).filter(|r| !r.is_empty());
    list.items.retain(|item| {
        let text_ok = wanted.as_ref().is_none_or(|w| {
            fold(&item.name).contains(w.as_str())
                || item
                    .value
                    .as_deref()
                    .is_some_and(|v| fold(v).contains(w.as_str()))
        });
        let role_ok = role.as_ref().is_none_or(|r| fold(&item.role) == *r);
        text_ok && role_ok
    });
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
