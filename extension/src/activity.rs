//! The side panel's activity view, for sighted helpers: a visible, collapsible list (`<details>`) of
//! what happened — the agent's tool calls, policy questions and their answers, errors, and what
//! outside MCP clients did.
//!
//! What it must not do: speak. The list is not a live region and nothing here moves the focus; every
//! event is already announced (or deliberately kept quiet) by the panel's transcript, status line and
//! alert region, so a screen reader hears nothing twice. The list keeps the last [`KEEP`] entries.

use wasm_bindgen::JsCast as _;
use web_sys::{Document, HtmlElement};

/// How many entries the view keeps; older ones are dropped so a long session stays light.
pub const KEEP: u32 = 200;

/// What the user answered to a question, or what became of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answered {
    Yes,
    No,
    Done,
    /// Taken away before an answer.
    Withdrawn,
}

/// One event, as a line of the list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event<'a> {
    /// A tool the agent called.
    Tool {
        name: &'a str,
        ok: bool,
        summary: &'a str,
    },
    /// Something an outside MCP client did.
    Client {
        source: &'a str,
        tool: &'a str,
        ok: bool,
        summary: &'a str,
    },
    /// A question that blocked work (a confirm or a step handed to the user).
    Question {
        manual: bool,
        text: &'a str,
    },
    /// The user's answer.
    Answer(Answered),
    Error(&'a str),
    /// The user stopped the agent: what it had done.
    Stopped(&'a str),
}

impl Event<'_> {
    /// The entry's text (`wording::activity_line`), and whether it reports a failure (shown marked).
    pub fn line(&self) -> (String, bool) {
        let failed = match self {
            Event::Tool { ok, .. } | Event::Client { ok, .. } => !ok,
            Event::Error(_) => true,
            Event::Question { .. } | Event::Answer(_) | Event::Stopped(_) => false,
        };
        (crate::wording::activity_line(self), failed)
    }
}

/// Appends an entry to `#activity` (if the page has one), with the time it happened.
pub fn record(document: &Document, event: &Event<'_>) {
    let Some(list) = document.get_element_by_id("activity") else {
        return;
    };
    let Ok(item) = document.create_element("li") else {
        return;
    };
    let (text, failed) = event.line();
    let time = js_sys::Date::new_0()
        .to_locale_time_string("default")
        .as_string()
        .unwrap_or_default();
    if failed {
        item.set_class_name("failed");
    }
    item.set_text_content(Some(&format!("{time} {text}")));
    let _ = list.append_child(&item);
    while list.child_element_count() > KEEP {
        if let Some(first) = list.first_element_child() {
            first.remove();
        }
    }
    // Keep the newest entry in sight for someone watching the open list.
    if let Ok(list) = list.dyn_into::<HtmlElement>() {
        list.set_scroll_top(list.scroll_height());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_say_who_what_and_how_it_went() {
        let tool = Event::Tool {
            name: "browser_overlay_act",
            ok: false,
            summary: "number 12 is gone",
        };
        assert_eq!(
            tool.line(),
            (
                "Agent, browser_overlay_act, failed: number 12 is gone".to_owned(),
                true
            )
        );
        let client = Event::Client {
            source: "Claude Desktop",
            tool: "browser_navigate",
            ok: true,
            summary: "Opened example.com.",
        };
        assert_eq!(
            client.line().0,
            "Claude Desktop, browser_navigate, ok: Opened example.com."
        );
        assert_eq!(
            Event::Question {
                manual: true,
                text: "Log in, then say done."
            }
            .line()
            .0,
            "Step for you: Log in, then say done."
        );
        assert_eq!(
            Event::Answer(Answered::Yes).line(),
            ("Answer: yes".to_owned(), false)
        );
        assert!(Event::Error("no LLM").line().1);
    }
}
