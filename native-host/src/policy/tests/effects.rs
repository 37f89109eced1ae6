//! Effects: what an action will do, as the extension describes it (every word of a control, its link,
//! its form, what Enter sends, the option chosen).

use super::*;

/// A click on a control with these fields added to `{"role": role}`.
fn click_on(role: &str, fields: Value) -> Decision {
    let mut element = json!({ "role": role });
    if let (Some(e), Some(extra)) = (element.as_object_mut(), fields.as_object()) {
        e.extend(extra.clone());
    }
    decide(json!({"action": "click", "element": element}))
}

#[test]
fn every_word_of_a_control_is_judged_not_only_its_name() {
    // The name says "Read more"; what it shows says delete — in several languages.
    for shows in [
        "Delete all mail",
        "Alle Mails löschen",
        "Удалить все письма",
        "全部删除",
        "Supprimer tout",
    ] {
        let d = click_on(
            "button",
            json!({"name": "Read more", "label": "Read more", "text": shows}),
        );
        assert_decision(&d, Verdict::Confirm, "deleting");
    }
    let d = click_on("link", json!({"name": "Details", "title": "Pay now €84.97"}));
    assert_decision(&d, Verdict::Confirm, "paying");
}

#[test]
fn a_label_that_says_something_else_than_the_control_shows_asks() {
    let d = click_on(
        "button",
        json!({"name": "Read more", "label": "Read more", "text": "Archive everything"}),
    );
    assert_decision(&d, Verdict::Confirm, "is not what it shows");
    // Agreeing words, icons, numbers, initials and abbreviations are not disagreements.
    for (label, shows) in [
        ("Close", "×"),
        ("Notifications", "3"),
        ("English", "EN"),
        ("Account menu for Jane Doe", "JD"),
        ("Star this repository", "Star 1.2k"),
        ("3 items in cart", "Cart 3"),
    ] {
        let d = click_on("button", json!({"name": label, "label": label, "text": shows}));
        assert_eq!(d.decision, Verdict::Allow, "{label} / {shows}: {}", d.reason);
    }
    // An ordinary web link is judged by where it goes: a logo link reads "Home" and shows the name.
    let d = click_on(
        "link",
        json!({"name": "Home", "label": "Home", "text": "Acme Kettles", "href": "https://acme.example/"}),
    );
    assert_eq!(d.decision, Verdict::Allow, "{}", d.reason);
}

#[test]
fn a_link_is_judged_by_where_it_goes() {
    let d = click_on(
        "link",
        json!({"name": "Read more", "href": "https://mail.example/mail/delete-all?confirm=1"}),
    );
    assert_decision(&d, Verdict::Confirm, "looks destructive");
    let d = click_on(
        "link",
        json!({"name": "Write to us", "href": "mailto:someone@example.org?body=hi"}),
    );
    assert_decision(&d, Verdict::Confirm, "'mailto:'");
    let d = click_on(
        "link",
        json!({"name": "Menu", "href": "javascript:deleteAllMail()"}),
    );
    assert_decision(&d, Verdict::Confirm, "runs the page's script");
    for inert in [
        "javascript:void(0)",
        "javascript:;",
        "#",
        "https://news.example/how-to-delete-your-account",
    ] {
        let d = click_on("link", json!({"name": "Menu", "href": inert}));
        assert_eq!(d.decision, Verdict::Allow, "{inert}: {}", d.reason);
    }
}

#[test]
fn a_button_is_judged_by_the_form_it_submits() {
    let d = click_on(
        "button",
        json!({"name": "Save draft", "submits": {"action": "https://blog.example/posts/5/delete", "method": "post"}}),
    );
    assert_decision(
        &d,
        Verdict::Confirm,
        "sends a form to an address that looks destructive",
    );
    let d = click_on(
        "button",
        json!({"name": "Continue", "submits": {"action": "https://shop.example/checkout/place", "method": "post"}}),
    );
    assert_decision(&d, Verdict::Confirm, "'checkout'");
    let d = click_on(
        "button",
        json!({"name": "Search", "submits": {"action": "https://shop.example/search", "method": "get"}}),
    );
    assert_eq!(d.decision, Verdict::Allow);
}

#[test]
fn saving_where_the_page_says_it_is_public_asks_and_a_draft_or_settings_do_not() {
    let asks = [
        ("Update", "Switch to draft Preview View Post Update Settings"),
        (
            "Save changes",
            "Please note that all contributions to My Wiki may be edited, altered, or removed by other contributors.",
        ),
        ("Save page", "Your changes will be visible to everyone immediately."),
        ("Aktualisieren", "Status: Veröffentlicht Sichtbarkeit: Öffentlich"),
        ("Mettre à jour", "Article publié · Voir l'article"),
        ("Сохранить изменения", "Сохраняя изменения, вы соглашаетесь передать свой вклад под лицензией CC BY-SA."),
        ("Guardar cambios", "Esta página es pública: visible para todos."),
        ("保存", "公開中のページ"),
    ];
    for (label, around) in asks {
        let d = click_on("button", json!({"name": label, "context": around}));
        assert_decision(&d, Verdict::Confirm, "saving publishes");
    }
    let allowed = [
        ("Save draft", "Switch to draft Preview View Post"),
        ("Save Changes", "General Settings Site Title Tagline Timezone"),
        ("Update", "Visibility: Private Only visible to you"),
        ("Speichern", "Einstellungen Sprache Zeitzone"),
        ("Сохранить черновик", "Опубликовано"),
    ];
    for (label, around) in allowed {
        let d = click_on("button", json!({"name": label, "context": around}));
        assert_eq!(d.decision, Verdict::Allow, "{label} / {around}: {}", d.reason);
    }
}

fn press(key: &str, element: Value) -> Decision {
    decide(json!({"action": "press", "key": key, "element": element}))
}

#[test]
fn enter_is_judged_by_what_it_sends() {
    // A chat box: Enter sends what it holds.
    let chat = json!({"role": "textbox", "tag": "div", "name": "Message #general", "editable": true, "sends_on_enter": true});
    assert_decision(
        &press("Enter", chat.clone()),
        Verdict::Confirm,
        "sends what it holds",
    );
    assert_eq!(press("Tab", chat).decision, Verdict::Allow);
    // The form's default button decides: its label is judged like a click on it.
    for submitter in ["Place order (€84.97)", "Jetzt kaufen", "Оплатить", "Send"] {
        let field = json!({"tag": "input", "type": "text", "name": "Coupon code", "editable": true,
            "submits": {"action": "https://shop.example/order", "method": "post", "submitter": submitter}});
        assert_decision(&press("Enter", field), Verdict::Confirm, "pressing Enter in");
    }
    // No form, but a "Send" button beside the field that a script presses.
    let beside = json!({"tag": "input", "type": "text", "name": "Your message", "editable": true,
        "submits": {"submitter": "Отправить"}});
    assert_decision(&press("Enter", beside), Verdict::Confirm, "presses 'Отправить'");
    let search = json!({"tag": "input", "type": "search", "name": "Search", "editable": true,
        "submits": {"action": "https://shop.example/search", "method": "get", "submitter": "Search"}});
    assert_eq!(press("Enter", search).decision, Verdict::Allow);
}

#[test]
fn a_chord_is_judged_by_its_key() {
    let chat = json!({"role": "textbox", "tag": "div", "name": "Message #general", "editable": true, "sends_on_enter": true});
    assert_decision(
        &press("Ctrl+Enter", chat.clone()),
        Verdict::Confirm,
        "sends what it holds",
    );
    assert_eq!(press("Shift+F10", chat.clone()).decision, Verdict::Allow);
    assert_eq!(press("ContextMenu", chat).decision, Verdict::Allow);
    let row = json!({"role": "row", "name": "Message from Bob", "editable": false});
    assert_decision(&press("Shift+Delete", row), Verdict::Confirm, "delete");
}

#[test]
fn enter_in_any_field_of_a_form_that_holds_a_secret_asks() {
    // An ordinary field of a form sent with GET through a plain button: only the secret the form holds
    // (as the extension's secret predicate found it) makes Enter ask.
    let field = |secret: Value| {
        json!({"tag": "input", "type": "text", "name": "Amount", "editable": true,
            "submits": {"action": "https://give.example/next", "method": "get", "submitter": "Next",
                "secret": secret}})
    };
    assert_eq!(press("Enter", field(Value::Null)).decision, Verdict::Allow);
    for (secret, what) in [
        ("card", "card details"),
        ("password", "a password"),
        ("one_time_code", "a one-time code"),
        ("pin", "a PIN"),
    ] {
        assert_decision(
            &press("Enter", field(json!(secret))),
            Verdict::Confirm,
            &format!("submits a form with {what}"),
        );
    }
}

#[test]
fn delete_outside_a_field_may_be_a_command() {
    let row = json!({"role": "row", "name": "Message from Bob", "editable": false});
    assert_decision(&press("Delete", row), Verdict::Confirm, "command to delete");
    let field = json!({"tag": "input", "type": "text", "name": "Name", "editable": true});
    assert_eq!(press("Backspace", field).decision, Verdict::Allow);
    // Nothing has the focus: the page itself gets the key.
    let d = decide(json!({"action": "press", "key": "Delete"}));
    assert_decision(&d, Verdict::Confirm, "nothing has the focus");
}

#[test]
fn choosing_is_judged_by_the_option_chosen() {
    let list = json!({"role": "combobox", "tag": "select", "name": "Bulk actions"});
    for option in [
        "Delete selected forever",
        "Удалить выбранные",
        "Endgültig löschen",
        "Move to Trash",
    ] {
        let d = decide(json!({"action": "select", "element": list, "text": option}));
        assert_decision(&d, Verdict::Confirm, "choosing");
    }
    for option in ["Sort by price", "Mark as read", "Large"] {
        let d = decide(json!({"action": "select", "element": list, "text": option}));
        assert_eq!(d.decision, Verdict::Allow, "{option}: {}", d.reason);
    }
}

#[test]
fn the_publishing_lists_speak_every_language_of_the_policy() {
    for list in [words::SAVE, words::PUBLISHED, words::PRIVATE, words::DRAFT] {
        let langs: Vec<&str> = list.iter().flat_map(|(l, _)| l.split(' ')).collect();
        for lang in [
            "en", "de", "fr", "es", "it", "pt", "nl", "pl", "ru", "uk", "tr", "ja", "zh", "ko",
        ] {
            assert!(langs.contains(&lang), "{lang} missing");
        }
    }
}

#[test]
fn a_skeleton_reads_look_alike_letters_as_latin() {
    assert!(skeleton("Wаymаrk").contains("waymark"));
    assert!(skeleton("ＷＡＹＭＡＲＫ").contains("waymark"));
    assert_eq!(skeleton("Claude"), "claude");
}
