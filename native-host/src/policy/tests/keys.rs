//! Keys: navigation changes nothing; a key that reaches the page as a command (nothing focused, or an
//! element without such a key of its own) asks unless the page binds it to a harmless control.

use super::*;

fn press(key: &str, element: Option<Value>) -> Decision {
    let mut action = json!({"action": "press", "key": key});
    if let Some(element) = element {
        action["element"] = element;
    }
    decide(action)
}

#[test]
fn keys_that_only_move_or_scroll_change_nothing() {
    for key in [
        "Tab",
        "shift+Tab",
        "ArrowDown",
        "ArrowUp",
        "ArrowLeft",
        "ArrowRight",
        "PageDown",
        "PageUp",
        "Home",
        "End",
    ] {
        assert_eq!(
            press(key, None).decision,
            Verdict::Allow,
            "{key} where nothing has the focus"
        );
        let row = json!({"role": "row", "name": "Quarterly report"});
        assert_eq!(press(key, Some(row)).decision, Verdict::Allow, "{key} on a row");
    }
}

#[test]
fn a_key_with_nothing_focused_is_a_page_command() {
    for key in [
        "Enter",
        "Delete",
        "Backspace",
        "Space",
        "j",
        "#",
        "e",
        "ctrl+Enter",
    ] {
        let d = press(key, None);
        assert_eq!(d.decision, Verdict::Confirm, "{key}: {}", d.reason);
        assert_eq!(d.concern, Some(Concern::PageCommand), "{key}");
    }
    assert_decision(&press("Delete", None), Verdict::Confirm, "nothing has the focus");
    assert_decision(&press("j", None), Verdict::Confirm, "may take 'j' as a command");
}

#[test]
fn escape_closes_what_is_open_and_is_a_command_elsewhere() {
    assert_eq!(
        decide(json!({"action": "press", "key": "Escape", "open_layer": true})).decision,
        Verdict::Allow
    );
    let in_dialog = json!({"role": "button", "name": "Close", "in_dialog": true});
    assert_eq!(press("Escape", Some(in_dialog)).decision, Verdict::Allow);
    assert_eq!(press("Escape", None).decision, Verdict::Confirm);
}

#[test]
fn an_element_without_the_key_of_its_own_passes_it_to_the_page() {
    let row = json!({"role": "row", "name": "Quarterly report"});
    for key in ["Enter", "Space", "#", "e"] {
        let d = press(key, Some(row.clone()));
        assert_decision(&d, Verdict::Confirm, "has no key");
    }
    // A letter on a button is no key of the button's: the page hears it (a mail client's "#").
    assert_decision(
        &press("e", Some(json!({"role": "button", "name": "Archive"}))),
        Verdict::Confirm,
        "has no key",
    );
    // A list moves to the item a letter starts; a field types it.
    assert_eq!(
        press("m", Some(json!({"role": "listbox", "name": "Month"}))).decision,
        Verdict::Allow
    );
    let field = json!({"tag": "input", "type": "text", "name": "Name", "editable": true});
    for key in ["a", "Delete", "Backspace", "Space"] {
        assert_eq!(
            press(key, Some(field.clone())).decision,
            Verdict::Allow,
            "{key} in a field"
        );
    }
    // Enter and Space on a control of its own are a click on it.
    assert_eq!(
        press(
            "Enter",
            Some(json!({"role": "link", "name": "Next page", "href": "https://shop.example/p/2"}))
        )
        .decision,
        Verdict::Allow
    );
    assert_decision(
        &press("Space", Some(json!({"role": "button", "name": "Delete draft"}))),
        Verdict::Confirm,
        "deleting",
    );
}

#[test]
fn a_key_the_page_binds_to_a_control_is_judged_as_that_control() {
    let next = json!({"action": "press", "key": "j", "shortcut": {"role": "button", "name": "Next message"}});
    assert_decision(
        &decide(next),
        Verdict::Allow,
        "the page binds 'j' to the button 'Next message'",
    );
    let delete = json!({"action": "press", "key": "#", "shortcut": {"role": "button", "name": "Delete"}});
    assert_decision(
        &decide(delete),
        Verdict::Confirm,
        "the page binds '#' to the button 'Delete'",
    );
}
