//! What the browser tools' callers (outside MCP clients and the agent's model) are told, in terms of
//! tools. The extension words a few refusals for the person in the side panel, with the panel's
//! commands ("Say /list for the current numbers"); a client or a model cannot type those, so their
//! results say the same in tool names. The panel's own requests never come through here and keep the
//! panel's words.
//!
//! What it must not do: decide by the words of a message. A refusal is reworded by its kind and the
//! tool it answers, and keeps its kind and data; every other result passes unchanged.

use waymark_i18n::{say, Words};
use waymark_protocol::{ErrorKind, PageTool, ToolResult};

/// `result` of `tool`, said to a client or the model, in the browser user's language (`words`).
pub fn for_callers(words: &Words, tool: &PageTool, result: ToolResult) -> ToolResult {
    let said = match (result.kind, tool) {
        // A number the tab's latest list does not have (or there is no list yet); with `data`, the
        // number's element changed and the fresh list comes along, which the words already say.
        (Some(ErrorKind::Stale), _) if result.data.is_none() => Some(match tool.number() {
            Some(index) => say!(words, "mcp-stale-number", index = index),
            None => say!(words, "mcp-no-numbers"),
        }),
        (Some(ErrorKind::BadArguments), PageTool::SwitchTab { index }) => {
            Some(say!(words, "mcp-no-tab", index = *index))
        }
        _ => None,
    };
    match said {
        Some(said) => ToolResult {
            error: Some(said),
            ..result
        },
        None => result,
    }
}

/// A call's answer when the browser's host went away before it answered, in `words` (the terminal's,
/// for `waymark-host mcp`): whether the page may have changed is said plainly, since the call cannot
/// be asked about any more.
pub fn host_gone(words: &Words, tool: &str, changes_page: bool) -> String {
    if changes_page {
        say!(words, "mcp-host-gone-changing", tool = tool)
    } else {
        say!(words, "mcp-host-gone-reading", tool = tool)
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
        let english = Words::english();
        let said = for_callers(&english, &click, panel);
        assert_eq!(said.kind, Some(ErrorKind::Stale));
        let words = said.error.unwrap();
        assert!(
            words.contains("browser_list_interactives") && !words.contains('/'),
            "{words}"
        );

        let focus = PageTool::FocusNext { role: None };
        let words = for_callers(
            &english,
            &focus,
            ToolResult::failed(ErrorKind::Stale, "say /list first."),
        )
        .error
        .unwrap();
        assert!(words.starts_with("The page has no numbers yet"), "{words}");

        let tab = PageTool::SwitchTab { index: 5 };
        let words = for_callers(
            &english,
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
        let english = Words::english();
        assert_eq!(for_callers(&english, &click, renewed.clone()), renewed);
        let ok = ToolResult::ok(serde_json::json!({"done": "click"}));
        assert_eq!(for_callers(&english, &click, ok.clone()), ok);
    }

    #[test]
    fn refusals_for_callers_are_in_the_users_language() {
        let words = Words::new("ru");
        let click = PageTool::OverlayAct {
            index: 9,
            action: ActKind::Click,
            text: None,
        };
        let stale = ToolResult::failed(ErrorKind::Stale, "Say /list.");
        let said = for_callers(&words, &click, stale).error.unwrap();
        assert_eq!(
            said,
            "Номера 9 нет в последнем списке страницы. Вызовите browser_list_interactives (или \
             browser_find), чтобы получить текущие номера. Ничего не сделано."
        );
        let tab = PageTool::SwitchTab { index: 5 };
        let said = for_callers(&words, &tab, ToolResult::failed(ErrorKind::BadArguments, "x"))
            .error
            .unwrap();
        assert!(said.starts_with("Вкладки 5 нет."), "{said}");
    }

    /// Every refusal a client or the model hears, and the words after a lost host, in every language
    /// but English: no English word but tool names.
    #[test]
    fn what_callers_hear_has_no_english_in_any_other_language() {
        use crate::language::{foreign_words, other_languages};
        let click = PageTool::OverlayAct {
            index: 9,
            action: ActKind::Click,
            text: None,
        };
        let list = PageTool::ListInteractives {
            scope: None,
            limit: None,
            offset: None,
        };
        let tab = PageTool::SwitchTab { index: 5 };
        for language in other_languages() {
            let words = Words::new(language);
            let stale = || ToolResult::failed(ErrorKind::Stale, "Say /list.");
            let bad = ToolResult::failed(ErrorKind::BadArguments, "x");
            let said = [
                for_callers(&words, &click, stale()).error.unwrap(),
                for_callers(&words, &list, stale()).error.unwrap(),
                for_callers(&words, &tab, bad).error.unwrap(),
                host_gone(&words, "browser_navigate", true),
                host_gone(&words, "browser_list_tabs", false),
            ];
            for said in said {
                let values = ["browser_navigate", "browser_list_tabs"];
                let english = foreign_words(&said, language, &values);
                assert!(english.is_empty(), "{language}: {english:?} in: {said}");
            }
        }
    }
}
