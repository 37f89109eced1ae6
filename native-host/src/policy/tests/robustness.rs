//! Odd, missing and hostile input: never a panic, always a decision, reasons short and on one line.

use super::*;

// --- robustness -----------------------------------------------------------------------------------

#[test]
fn missing_fields_and_odd_input_never_panic() {
    assert_decision(
        &decide(json!({})),
        Verdict::Allow,
        "the unnamed element has no label",
    );
    for kind in ["click", "type", "press", "select", "navigate"] {
        let _ = decide(json!({"action": kind}));
        let _ = decide(json!({"action": kind, "element": {}, "url": "", "text": "", "key": ""}));
        let _ = decide(
            json!({"action": kind, "element": {"name": "\u{0}\u{FFFF}\u{10FFFF}𝕻𝖆𝖞 ￥", "value": "%",
            "text_around": "%%%", "id_hints": "ÀÉ", "form": {"action": "%zz%", "method": ""}}, "url": "%e2%82", "text": "\u{307}"}),
        );
    }
    assert_eq!(find_amount("€"), None);
    assert_eq!(find_amount("5"), None);
    assert_eq!(find_amount("."), None);
    assert_eq!(percent_decode("%"), "%");
    assert_eq!(percent_decode("%4"), "%4");
    assert_eq!(percent_decode("%41%zz"), "A%zz");
}

#[test]
fn unknown_fields_are_ignored_and_bad_lines_fail_closed() {
    let d =
        classify_line(br#"{"action":"click","element":{"role":"button","name":"Search","foo":1},"bar":[]}"#);
    assert_eq!(d.map(|d| d.decision), Some(Verdict::Allow));
    assert_eq!(classify_line(b"   \r\n"), None);
    for bad in [
        &b"{not json"[..],
        b"[]",
        b"null",
        br#"{"action":"scroll"}"#,
        br#"{"element":{"name":5}}"#,
        b"\xff\xfe",
    ] {
        let d = classify_line(bad).expect("a non-blank line gets an answer");
        assert_decision(&d, Verdict::Confirm, "unreadable input: ");
    }
}

/// Pinned: a label too long to check in full fails closed on a click; a huge input stays fast.
#[test]
fn huge_labels_fail_closed_quickly() {
    let huge = "a".repeat(1_000_000) + " Delete";
    let started = std::time::Instant::now();
    let d = click("button", &huge);
    assert_decision(&d, Verdict::Confirm, "too long to check");
    let d = decide(
        json!({"action": "type", "element": {"tag": "input", "name": huge.clone(), "text_around": huge},
        "text": "x"}),
    );
    assert_eq!(d.decision, Verdict::Allow);
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
}

#[test]
fn reasons_quote_labels_short_and_on_one_line() {
    let d = click("button", &format!("Delete\n{}", "x".repeat(500)));
    assert!(!d.reason.contains('\n'));
    assert!(d.reason.chars().count() < 200, "{}", d.reason);
}

#[test]
fn decisions_serialise_as_in_the_interface() {
    let d = Decision::confirm("the button's label carries a price (€84.97)");
    assert_eq!(
        serde_json::to_value(&d).expect("serialises"),
        json!({"decision": "confirm", "reason": "the button's label carries a price (€84.97)"})
    );
}
