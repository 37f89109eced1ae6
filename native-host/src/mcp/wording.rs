//! What the browser tools' callers (outside MCP clients and the agent's model) are told, in terms of
//! tools. The extension words a few refusals for the person in the side panel, with the panel's
//! commands ("Say /list for the current numbers"); a client or a model cannot type those, so their
//! results say the same in tool names. The panel's own requests never come through here and keep the
//! panel's words.
//!
//! What it must not do: decide by the words of a message. A refusal is reworded by its kind and the
//! tool it answers, and keeps its kind and data; every other result passes unchanged.

use waymark_protocol::{ErrorKind, PageTool, ToolResult};

/// The number a tool acts on, when it names one.
fn number(tool: &PageTool) -> Option<u32> {
    match tool {
        PageTool::Describe { index }
        | PageTool::OverlayAct { index, .. }
        | PageTool::ActByIndex { index, .. }
        | PageTool::Upload { index, .. }
        | PageTool::ClickAndWaitDownload { index, .. } => Some(*index),
        PageTool::Scroll { index, .. } | PageTool::Press { index, .. } => *index,
        _ => None,
    }
}

/// `result` of `tool`, said to a client or the model.
pub fn for_callers(tool: &PageTool, result: ToolResult) -> ToolResult {
    let said = match (result.kind, tool) {
        // A number the tab's latest list does not have (or there is no list yet); with `data`, the
        // number's element changed and the fresh list comes along, which the words already say.
        (Some(ErrorKind::Stale), _) if result.data.is_none() => Some(match number(tool) {
            Some(index) => format!(
                "Number {index} is not in the page's latest list. Call browser_list_interactives (or \
                 browser_find) for the current numbers. Nothing was done."
            ),
            None => "The page has no numbers yet. Call browser_list_interactives first. Nothing was done."
                .to_owned(),
        }),
        (Some(ErrorKind::BadArguments), PageTool::SwitchTab { index }) => Some(format!(
            "There is no tab {index}. Call browser_list_tabs for the tabs and their numbers."
        )),
        _ => None,
    };
    match said {
        Some(words) => ToolResult {
            error: Some(words),
            ..result
        },
        None => result,
    }
}

/// A call's answer when the browser's host went away before it answered: whether the page may have
/// changed is said plainly, since the call cannot be asked about any more.
pub fn host_gone(tool: &str, changes_page: bool) -> String {
    if changes_page {
        format!(
            "The browser's Waymark host went away while {tool} was running (the browser was closed, or \
             Waymark restarted), so whether it was done is unknown. Once the browser is back, look at the \
             page (browser_list_interactives) before trying it again."
        )
    } else {
        format!(
            "The browser's Waymark host went away before {tool} answered (the browser was closed, or \
             Waymark restarted); it changes nothing on the page. Call it again once the browser is back."
        )
    }
}

#[cfg(test)]
mod tests {
    use waymark_protocol::ActKind;

    use super::*;

    #[test]
    fn panel_commands_become_tools_and_the_kind_and_data_stay() {
        let click = PageTool::OverlayAct {
            index: 9,
            action: ActKind::Click,
            text: None,
        };
        let panel = ToolResult::failed(
            ErrorKind::Stale,
            "There is no number 9: the list goes from 1 to 4. Say /list for the current numbers.",
        );
        let said = for_callers(&click, panel);
        assert_eq!(said.kind, Some(ErrorKind::Stale));
        let words = said.error.unwrap();
        assert!(
            words.contains("browser_list_interactives") && !words.contains('/'),
            "{words}"
        );

        let focus = PageTool::FocusNext { role: None };
        let words = for_callers(&focus, ToolResult::failed(ErrorKind::Stale, "say /list first."))
            .error
            .unwrap();
        assert!(words.starts_with("The page has no numbers yet"), "{words}");

        let tab = PageTool::SwitchTab { index: 5 };
        let words = for_callers(
            &tab,
            ToolResult::failed(
                ErrorKind::BadArguments,
                "There is no tab 5. Say /tabs to hear them.",
            ),
        )
        .error
        .unwrap();
        assert!(
            words.contains("browser_list_tabs") && !words.contains('/'),
            "{words}"
        );
    }

    #[test]
    fn other_results_pass_unchanged() {
        let click = PageTool::OverlayAct {
            index: 9,
            action: ActKind::Click,
            text: None,
        };
        let renewed = ToolResult::failed(ErrorKind::Stale, "Number 9 (button \"Save\") is gone.")
            .with_data(Some(serde_json::json!({"items": []})));
        assert_eq!(for_callers(&click, renewed.clone()), renewed);
        let ok = ToolResult::ok(serde_json::json!({"done": "click"}));
        assert_eq!(for_callers(&click, ok.clone()), ok);
    }
}
