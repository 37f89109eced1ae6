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
use std::collections::{HashMap, VecDeque};

use waymark_protocol::secret::values::{Redactor, MAX_VALUES};
use waymark_protocol::{StoppedRequest, ToolResult};

/// How many tabs' values are kept (the tabs heard from least recently are forgotten first).
const MAX_TABS: usize = 32;

#[derive(Default)]
struct Held {
    by_tab: HashMap<i32, VecDeque<String>>,
    /// Tabs, least recently heard from first.
    order: VecDeque<i32>,
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
        held.order.retain(|t| *t != tab);
        held.order.push_back(tab);
        if held.order.len() > MAX_TABS {
            if let Some(old) = held.order.pop_front() {
                held.by_tab.remove(&old);
            }
        }
        let kept = held.by_tab.entry(tab).or_default();
        for value in values {
            if !kept.contains(&value) {
                kept.push_back(value);
            }
        }
        while kept.len() > MAX_VALUES {
            kept.pop_front();
        }
    });
}

/// The result with every secret value known in any tab, and every card number, taken out (a tab's
/// list of all tabs carries other tabs' titles and addresses).
pub fn redact(result: ToolResult) -> ToolResult {
    redactor().result(result)
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
        HELD.with_borrow(|held| held.by_tab.values().flat_map(|v| v.iter().cloned()).collect());
    Redactor::new(values)
}
