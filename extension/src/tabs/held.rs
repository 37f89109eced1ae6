//! What the user typed into secret fields, per tab, as the tab's frames report it with each answer
//! (`FrameAnswer::secrets`), and the one place the worker takes it out of what it relays: every tool
//! result leaves `tabs::run` through [`redact`], with these values and every card number (Luhn) taken
//! out of its words, its data and its reason — for the host (and from there the model, MCP clients,
//! the session, the logs) and for the panel alike.
//!
//! Must not: send the values anywhere (they stay in this worker's memory, bounded), or leave a result
//! unredacted. A value is kept while the tab lives, across its pages: a password typed on one page may
//! be echoed by the next. A restarted worker knows the values again from the frames' next answers.

use std::cell::RefCell;

use waymark_protocol::secret::values::{Redactor, MAX_VALUES};
use waymark_protocol::{StoppedRequest, ToolResult};

/// How many tabs' values are kept (the tabs heard from least recently are forgotten first).
const MAX_TABS: usize = 32;

#[derive(Default)]
struct Held {
    /// Each tab's values, oldest first; the tab heard from least recently first. (A list: few tabs,
    /// and smaller in the module than a map.)
    tabs: Vec<(i32, Vec<String>)>,
}

thread_local! {
    static HELD: RefCell<Held> = RefCell::new(Held::default());
}

/// A frame of `tab` reported what its secret fields hold.
pub fn note(tab: i32, values: Vec<String>) {
    if values.is_empty() {
        return;
    }
    HELD.with_borrow_mut(|held| {
        let mut kept = match held.tabs.iter().position(|(t, _)| *t == tab) {
            Some(at) => held.tabs.remove(at).1,
            None => Vec::new(),
        };
        for value in values {
            if !kept.contains(&value) {
                kept.push(value);
            }
        }
        if kept.len() > MAX_VALUES {
            kept.drain(..kept.len() - MAX_VALUES);
        }
        held.tabs.push((tab, kept));
        if held.tabs.len() > MAX_TABS {
            held.tabs.remove(0);
        }
    });
}

/// The result with every secret value known in any tab, and every card number, taken out (a tab's
/// list of all tabs carries other tabs' titles and addresses).
pub fn redact(result: ToolResult) -> ToolResult {
    redactor().result(result)
}

/// A page's text (a dialog's words) with the same values and card numbers taken out.
pub fn redact_text(text: &str) -> String {
    redactor().text(text).unwrap_or_else(|| text.to_owned())
}

/// What the request guard stopped, with the same values and card numbers taken out of its fields'
/// names and words before the host judges or quotes them.
pub fn redact_stopped(stopped: Vec<StoppedRequest>) -> Vec<StoppedRequest> {
    if stopped.is_empty() {
        return stopped;
    }
    let redactor = redactor();
    stopped.into_iter().map(|r| r.redacted(&redactor)).collect()
}

/// Every secret value known in any tab, with every card number.
fn redactor() -> Redactor {
    let values: Vec<String> =
        HELD.with_borrow(|held| held.tabs.iter().flat_map(|(_, v)| v.iter().cloned()).collect());
    Redactor::new(values)
}
