//! Unit tests of the policy classifier: one group per rule, plus the edge cases whose answer is pinned
//! here on purpose (see the comments at each).

use serde_json::{json, Value};

use super::text::*;
use super::*;

fn decide(input: Value) -> Decision {
    let action: ProposedAction = serde_json::from_value(input).expect("test input is a valid action");
    classify(&action)
}

fn click(role: &str, name: &str) -> Decision {
    decide(json!({"action": "click", "element": {"role": role, "name": name}}))
}

#[track_caller]
fn assert_decision(d: &Decision, verdict: Verdict, reason_has: &str) {
    assert_eq!(d.decision, verdict, "{d:?}");
    assert!(
        d.reason.contains(reason_has),
        "reason {:?} lacks {reason_has:?}",
        d.reason
    );
}

mod activation;
mod effects;
mod handoff;
mod keys;
mod robustness;
mod structure;
mod text;
