//! What a browser step is doing and how it went, in the user's words and language: the agent's progress
//! line before a step ("Clicking 12") and the account after it ("24 controls", "Clicking 12: done"),
//! which the panel also hears for an outside client's call (activity).
//!
//! What it must not do: quote page text (only numbers, addresses and what the caller asked for), or
//! decide anything: the words follow the tool and its result's shape.

use waymark_i18n::{say, Words};
use waymark_protocol::{ActKind, InteractiveList, PageTool, ScrollDirection, ToolResult};

/// What a step is doing, in a few words: "Clicking 12".
pub fn progress(words: &Words, tool: &PageTool) -> String {
    match tool {
        PageTool::ListInteractives { .. } => say!(words, "agent-progress-list"),
        PageTool::Find { text, role, .. } => match text.as_deref().or(role.as_deref()) {
            Some(what) => say!(words, "agent-progress-find", what = what),
            None => say!(words, "agent-progress-find-controls"),
        },
        PageTool::Extract => say!(words, "agent-progress-extract"),
        PageTool::Scroll { direction, .. } => {
            let direction = match direction {
                ScrollDirection::Up => "up",
                ScrollDirection::Down => "down",
                ScrollDirection::Top => "top",
                ScrollDirection::Bottom => "bottom",
            };
            say!(words, "agent-progress-scroll", direction = direction)
        }
        PageTool::OverlayAct { index, action, .. } => match action {
            ActKind::Click => say!(words, "agent-progress-click", index = *index),
            ActKind::Type => say!(words, "agent-progress-type", index = *index),
            ActKind::Select => say!(words, "agent-progress-choose", index = *index),
            other => other_act(words, *other, *index),
        },
        PageTool::Press { key, .. } => say!(words, "agent-progress-press", key = key.as_str()),
        PageTool::Navigate { url } => say!(words, "agent-progress-open", address = url.as_str()),
        PageTool::OpenInNewTab { url } => say!(words, "agent-progress-open-tab", address = url.as_str()),
        PageTool::Back => say!(words, "agent-progress-back"),
        PageTool::Forward => say!(words, "agent-progress-forward"),
        PageTool::Reload => say!(words, "agent-progress-reload"),
        PageTool::Wait { .. } => say!(words, "agent-progress-wait"),
        PageTool::ListTabs => say!(words, "agent-progress-tabs"),
        PageTool::SwitchTab { index } => say!(words, "agent-progress-switch-tab", index = *index),
        PageTool::OverlayShow => say!(words, "agent-progress-show-numbers"),
        PageTool::OverlayHide => say!(words, "agent-progress-hide-numbers"),
        PageTool::Describe { index } => say!(words, "agent-progress-describe", index = *index),
        PageTool::Preview { .. } => say!(words, "agent-progress-preview"),
        PageTool::FindBanners => say!(words, "agent-progress-find-banners"),
        PageTool::PressBanners { .. } | PageTool::CloseBanners { .. } => {
            say!(words, "agent-progress-close-banners")
        }
        PageTool::ActByIndex { index, action, .. } => match action {
            ActKind::Click => say!(words, "agent-progress-click-at", index = *index),
            ActKind::Type => say!(words, "agent-progress-type-at", index = *index),
            ActKind::Select => say!(words, "agent-progress-choose-at", index = *index),
            other => other_act(words, *other, *index),
        },
        PageTool::FocusNext { .. } => say!(words, "agent-progress-focus-next"),
        PageTool::FocusPrev { .. } => say!(words, "agent-progress-focus-prev"),
        PageTool::Screenshot => say!(words, "agent-progress-screenshot"),
        PageTool::Upload { index, paths, .. } => say!(
            words,
            "agent-progress-upload",
            files = paths.join(", "),
            index = *index
        ),
        PageTool::ClickAndWaitDownload { index, .. } => {
            say!(words, "agent-progress-download", index = *index)
        }
        PageTool::DownloadWait { .. } => say!(words, "agent-progress-download-wait"),
    }
}

/// What a step does with the actions that act the same either way (at the control, or at its place).
fn other_act(words: &Words, action: ActKind, index: u32) -> String {
    match action {
        ActKind::RightClick => say!(words, "agent-progress-right-click", index = index),
        ActKind::Hover => say!(words, "agent-progress-hover", index = index),
        ActKind::Set => say!(words, "agent-progress-set", index = index),
        ActKind::Click | ActKind::Type | ActKind::Select => {
            say!(words, "agent-progress-click", index = index)
        }
    }
}

/// A short account of a result: "24 controls", "Clicking 12: done", or the error.
pub fn summary(words: &Words, tool: &PageTool, result: &ToolResult) -> String {
    if let Some(error) = &result.error {
        return error.clone();
    }
    let list = result
        .data
        .as_ref()
        .and_then(|d| serde_json::from_value::<InteractiveList>(d.clone()).ok());
    match (tool, list) {
        (PageTool::ListInteractives { .. }, Some(list)) => {
            say!(words, "agent-summary-controls", count = list.total)
        }
        (PageTool::Find { .. }, Some(list)) => say!(words, "agent-summary-found", count = list.total),
        (PageTool::Extract, _) => say!(words, "agent-summary-read"),
        _ => say!(words, "agent-summary-done", step = progress(words, tool)),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // test code: a panic is the failure report

    use serde_json::json;

    use super::*;
    use crate::language::{foreign_words, other_languages};

    fn list(total: u32) -> ToolResult {
        ToolResult::ok(
            json!({"items": [], "total": total, "offset": 0, "url": "https://a.example/", "title": "A"}),
        )
    }

    /// What MCP clients and the activity view hear of each step: in every language but English, no
    /// English word but the values.
    #[test]
    fn every_step_is_said_in_every_language() {
        for language in other_languages() {
            every_step_is_said_in(language);
        }
        let click: PageTool =
            serde_json::from_value(json!({"tool": "overlay_act", "index": 12, "action": "click"})).unwrap();
        assert_eq!(
            summary(&Words::new("ru"), &click, &ToolResult::ok(json!({}))),
            "Нажимаю 12: готово"
        );
    }

    fn every_step_is_said_in(language: &str) {
        let words = Words::new(language);
        let tools = [
            json!({"tool": "list_interactives"}),
            json!({"tool": "find", "text": "Корзина"}),
            json!({"tool": "find"}),
            json!({"tool": "extract"}),
            json!({"tool": "scroll", "direction": "down"}),
            json!({"tool": "scroll", "direction": "top"}),
            json!({"tool": "overlay_act", "index": 12, "action": "click"}),
            json!({"tool": "overlay_act", "index": 12, "action": "type", "text": "x"}),
            json!({"tool": "overlay_act", "index": 12, "action": "select", "text": "x"}),
            json!({"tool": "act_by_index", "index": 12, "action": "click"}),
            json!({"tool": "navigate", "url": "https://shop.example/"}),
            json!({"tool": "open_in_new_tab", "url": "https://shop.example/"}),
            json!({"tool": "back"}),
            json!({"tool": "reload"}),
            json!({"tool": "list_tabs"}),
            json!({"tool": "switch_tab", "index": 2}),
            json!({"tool": "screenshot"}),
            json!({"tool": "close_banners"}),
            json!({"tool": "upload", "index": 4, "paths": ["/tmp/паспорт.pdf"]}),
        ];
        for tool in tools {
            let tool: PageTool = serde_json::from_value(tool.clone()).unwrap();
            for said in [
                progress(&words, &tool),
                summary(&words, &tool, &ToolResult::ok(json!({}))),
            ] {
                let values = ["https://shop.example/", "/tmp/паспорт.pdf"];
                let english = foreign_words(&said, language, &values);
                assert!(english.is_empty(), "{language}: {english:?} in: {said}");
            }
        }
    }

    #[test]
    fn counts_take_their_plural_form() {
        let words = Words::new("ru");
        let listing = PageTool::ListInteractives {
            scope: None,
            limit: None,
            offset: None,
        };
        let said = |n| summary(&words, &listing, &list(n));
        assert_eq!(said(1), "1 элемент");
        assert_eq!(said(3), "3 элемента");
        assert_eq!(said(11), "11 элементов");
        assert_eq!(said(21), "21 элемент");
        assert_eq!(said(24), "24 элемента");
        let english = Words::english();
        assert_eq!(summary(&english, &listing, &list(24)), "24 controls");
        assert_eq!(summary(&english, &listing, &list(1)), "1 control");
    }
}
