//! The check at the yes: before a held action on an element runs, the extension describes it again,
//! on the pinned element (not by its number), and what it would do now is compared with what the
//! question said — the control's words, the item it acts on (its row), the page's question it answers,
//! where its link goes, where its form is sent, the option it chooses. A list that redrew its rows in
//! place between the question and the yes leaves the same element acting on another item: then nothing
//! runs, and the user is asked again, hearing first what changed.
//!
//! Must not: run anything itself, or compare anything but the typed description (page words are
//! compared as text, never read as instructions).

use waymark_i18n::{say, Words};
use waymark_protocol::{Effect, ElementInfo, PageTool, Pin, ToolResult};

use super::question::address;
use super::{judge, Gate};
use crate::policy::quoted;

/// What became of the second look at a held action.
pub(super) enum Recheck {
    /// It would do what the question said (or has no element to look at again): run it.
    Same,
    /// It would do something else now: the new description, and the question to ask instead.
    Changed {
        effect: Box<Effect>,
        tool: PageTool,
        question: String,
    },
    /// It cannot be described any more (its element is gone or says something else, its page changed):
    /// nothing runs, and this is why.
    Gone(ToolResult),
}

/// What changed between the question and the yes, the first difference found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Change {
    Item { before: String, now: Option<String> },
    Words { before: String, now: String },
    Asks { now: String },
    Destination { before: String, now: String },
    Form { now: String },
    Option { before: String, now: String },
}

impl Gate {
    /// Describes `tool` again on its pinned element and compares it with `asked`, what the question
    /// was about.
    pub(super) async fn recheck(&self, tool: &PageTool, pin: &Pin, asked: &Effect) -> Recheck {
        if pin.element.is_none() || asked.target.is_none() {
            return Recheck::Same;
        }
        let preview = PageTool::Preview {
            action: Box::new(tool.clone()),
        };
        let described = self.browser.run_pinned(pin, preview).await;
        if described.error.is_some() {
            return Recheck::Gone(described);
        }
        let Some(now) = described
            .data
            .and_then(|d| serde_json::from_value::<Effect>(d).ok())
        else {
            return Recheck::Gone(ToolResult::error(self.say("gate-preview-unreadable")));
        };
        let Some(change) = change(asked, &now) else {
            return Recheck::Same;
        };
        tracing::info!("policy gate: the action changed between its question and the yes");
        let words = self.words();
        let judged = judge::judge(&words, tool.clone(), &now);
        let question = said(&words, &change, judged.question);
        Recheck::Changed {
            effect: Box::new(now),
            tool: judged.tool,
            question,
        }
    }
}

/// The first difference between what the question said (`asked`) and what the action would do now.
pub(super) fn change(asked: &Effect, now: &Effect) -> Option<Change> {
    let (before, after) = (asked.target.as_ref()?, now.target.as_ref()?);
    if let Some(item) = &before.item {
        let now_item = after.item.as_ref().map(|i| i.name.clone());
        if now_item.as_deref().map(fold) != Some(fold(&item.name))
            || after.item.as_ref().map(|i| i.kind) != Some(item.kind)
        {
            return Some(Change::Item {
                before: item.name.clone(),
                now: now_item,
            });
        }
    }
    if words_of(before) != words_of(after) {
        return Some(Change::Words {
            before: before.name.clone(),
            now: after.name.clone(),
        });
    }
    if let Some(now_asks) = &after.asks {
        if before.asks.as_deref().map(fold) != Some(fold(now_asks)) {
            return Some(Change::Asks {
                now: now_asks.clone(),
            });
        }
    }
    let href = |info: &ElementInfo| info.link.as_ref().map(|l| l.href.clone()).unwrap_or_default();
    if href(before) != href(after) {
        return Some(Change::Destination {
            before: href(before),
            now: href(after),
        });
    }
    let form = |info: &ElementInfo| {
        info.submits
            .as_ref()
            .map(|s| (s.action.clone(), s.method.clone()))
    };
    if form(before) != form(after) {
        return Some(Change::Form {
            now: form(after).map(|(action, _)| action).unwrap_or_default(),
        });
    }
    let option = |effect: &Effect| effect.option.as_ref().map(|o| o.label.clone());
    if option(asked) != option(now) {
        return Some(Change::Option {
            before: option(asked).unwrap_or_default(),
            now: option(now).unwrap_or_default(),
        });
    }
    None
}

/// Every word the control carries, folded: what a person or a screen reader meets.
fn words_of(info: &ElementInfo) -> [String; 4] {
    let some = |s: &Option<String>| fold(s.as_deref().unwrap_or_default());
    [
        fold(&info.name),
        some(&info.text),
        some(&info.label),
        some(&info.title),
    ]
}

/// Lower case, one space between words: page words compared as a person reads them.
fn fold(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// The new question, after what changed.
pub(super) fn said(words: &Words, change: &Change, question: String) -> String {
    let change = match change {
        Change::Item {
            before,
            now: Some(now),
        } => say!(
            words,
            "question-changed-item",
            now = quoted(now),
            before = quoted(before)
        ),
        Change::Item { before, now: None } => {
            say!(words, "question-changed-item-gone", before = quoted(before))
        }
        Change::Words { before, now } => say!(
            words,
            "question-changed-words",
            now = quoted(now),
            before = quoted(before)
        ),
        Change::Asks { now } => say!(words, "question-changed-asks", now = quoted(now)),
        Change::Destination { before, now } => say!(
            words,
            "question-changed-destination",
            now = address(now),
            before = address(before)
        ),
        Change::Form { now } => say!(words, "question-changed-form", now = address(now)),
        Change::Option { before, now } => say!(
            words,
            "question-changed-option",
            now = quoted(now),
            before = quoted(before)
        ),
    };
    say!(words, "question-changed", change = change, question = question)
}
