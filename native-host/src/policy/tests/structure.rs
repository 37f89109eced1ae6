//! What the page's structure says around a control: a link or row that opens an item is not the verb
//! in its title; a line break in a multi-line field is text; the page's own question; marks of danger
//! in any language; a payment provider's frame; a button that only opens the page's confirmation.

use super::*;

fn click_on(role: &str, fields: Value) -> Decision {
    let mut element = json!({ "role": role });
    if let (Some(e), Some(extra)) = (element.as_object_mut(), fields.as_object()) {
        e.extend(extra.clone());
    }
    decide(json!({"action": "click", "element": element, "url": "https://mail.example/inbox"}))
}

#[test]
fn opening_a_mail_whose_subject_says_delete_asks_nothing() {
    for subject in [
        "Re: please delete the old backups",
        "Can we delete the staging server before Friday?",
        "Fwd: Bitte alte Dateien löschen — Anna",
        "Не удаляйте этот отчёт: удалить можно только после проверки",
        "Invoice €84.97 for March",
    ] {
        let link = click_on(
            "link",
            json!({"name": subject, "href": "https://mail.example/message/42"}),
        );
        assert_eq!(link.decision, Verdict::Allow, "{subject}: {}", link.reason);
        let row = click_on("row", json!({"name": format!("Ann {subject} 10:42")}));
        assert_eq!(row.decision, Verdict::Allow, "row {subject}: {}", row.reason);
    }
    // The command itself still asks, and a link whose address deletes does too.
    for (name, href) in [
        ("Delete", "https://mail.example/message/42"),
        ("Delete this draft", "https://mail.example/message/42"),
        ("Read", "https://mail.example/message/42/delete"),
        ("Quarterly report", "https://mail.example/?action=drop&id=42"),
    ] {
        let d = click_on("link", json!({"name": name, "href": href}));
        assert_eq!(d.decision, Verdict::Confirm, "{name} {href}: {}", d.reason);
    }
    // A row action says what it moves the item to, and its address asks for the act.
    let moved = json!({"name": "Move “Old announcement” to the Trash",
        "href": "https://blog.example/wp-admin/post.php?post=5&action=trash&_wpnonce=ab12"});
    assert_eq!(click_on("link", moved).decision, Verdict::Confirm);
    // A link that is no address (a script's) is a command, whatever it says.
    let d = click_on("link", json!({"name": "Re: please delete the old backups"}));
    assert_eq!(d.decision, Verdict::Confirm, "{}", d.reason);
}

#[test]
fn line_breaks_typed_into_a_multi_line_field_are_text() {
    let type_into =
        |element: Value| decide(json!({"action": "type", "element": element, "text": "fn main() {\n}\n"}));
    for editor in [
        json!({"tag": "textarea", "name": "Code cell", "editable": true, "sends_on_enter": true}),
        json!({"role": "textbox", "tag": "div", "name": "Editor", "editable": true, "multiline": true, "sends_on_enter": true}),
    ] {
        assert_decision(&type_into(editor), Verdict::Allow, "ordinary input");
    }
    // A one-line chat box sends on Enter, and a one-line field submits its form.
    let chat = json!({"role": "textbox", "tag": "div", "name": "Message #team", "editable": true, "multiline": false, "sends_on_enter": true});
    assert_decision(&type_into(chat), Verdict::Confirm, "sends what it holds");
    let coupon = json!({"tag": "input", "type": "text", "name": "Coupon", "editable": true,
        "submits": {"action": "https://shop.example/order", "method": "post", "submitter": "Place order"}});
    assert_decision(&type_into(coupon), Verdict::Confirm, "presses 'Place order'");
}

#[test]
fn a_button_answering_the_pages_own_question_is_judged_by_it() {
    // The OK under a paragraph, with or without a dialog, with a long notice too.
    let long = format!(
        "{} Your account, your mail and every file will be gone for good. Delete them all?",
        "Please read this notice carefully before you go on. ".repeat(12)
    );
    for (name, asks) in [
        ("OK", "Delete your account permanently?"),
        ("Continue", long.as_str()),
        ("Ja", "Möchten Sie dieses Konto endgültig löschen?"),
        (
            "I understand",
            "This will remove all 2,310 messages. Remove them?",
        ),
    ] {
        let d = click_on("button", json!({"name": name, "asks": asks}));
        assert_decision(&d, Verdict::Confirm, "answers the page's question");
        assert_eq!(d.concern, Some(Concern::Answers), "{name}");
    }
    // The way out is not the answer, unless the question uses its word.
    let d = click_on(
        "button",
        json!({"name": "Cancel", "asks": "Delete your account permanently?"}),
    );
    assert_eq!(d.decision, Verdict::Allow, "{}", d.reason);
    let d = click_on(
        "button",
        json!({"name": "Cancel", "asks": "Cancel order 1234? Your items will not be sent.", "in_dialog": true}),
    );
    assert_eq!(d.decision, Verdict::Confirm, "{}", d.reason);
    // A harmless question, and a question that is not one (a paragraph beside an ordinary button).
    let d = click_on(
        "button",
        json!({"name": "OK", "asks": "Your changes were saved."}),
    );
    assert_eq!(d.decision, Verdict::Allow, "{}", d.reason);
    let d = click_on(
        "button",
        json!({"name": "Download", "asks": "You can delete these files later."}),
    );
    assert_eq!(d.decision, Verdict::Allow, "{}", d.reason);
    // A cookie notice mentions deleting cookies: it is still only consent.
    let d = click_on(
        "button",
        json!({"name": "OK", "in_dialog": true,
        "asks": "We use cookies. You can delete cookies in your browser at any time."}),
    );
    assert_eq!(d.decision, Verdict::Allow, "{}", d.reason);
}

#[test]
fn structure_marks_danger_in_a_language_outside_the_lists() {
    // Labels in Greek, Finnish and Hungarian: no word list knows them.
    for (name, danger) in [
        ("Διαγραφή", "alert_dialog"),
        ("Poista", "marked"),
        ("Törlés", "warning"),
    ] {
        let d = click_on("button", json!({"name": name, "danger": danger}));
        assert_eq!(d.decision, Verdict::Confirm, "{name}: {}", d.reason);
    }
    // The way out of an alert dialog is not the risky answer.
    let d = click_on("button", json!({"name": "Cancel", "danger": "alert_dialog"}));
    assert_eq!(d.decision, Verdict::Allow, "{}", d.reason);
    assert_eq!(
        click_on("button", json!({"name": "Poista"})).decision,
        Verdict::Allow
    );
}

#[test]
fn a_button_in_another_sites_payment_frame_pays() {
    let in_frame = |name: &str, frame: &str| {
        decide(
            json!({"action": "click", "url": frame, "top_url": "https://shop.example/checkout",
            "element": {"role": "button", "name": name}}),
        )
    };
    let d = in_frame("", "https://pay.provider.example/buttons/wallet?amount=hidden");
    assert_decision(&d, Verdict::Confirm, "payment provider's button pays");
    let d = in_frame(
        "Continue with Zahlio",
        "https://js.zahlio.example/v3/payment-request.html",
    );
    assert_decision(&d, Verdict::Confirm, "payment provider's button pays");
    // A frame of the shop itself, or another site's frame that does not take payments.
    assert_eq!(
        in_frame("Show details", "https://shop.example/pay/frame").decision,
        Verdict::Allow
    );
    assert_eq!(
        in_frame("Play", "https://video.example/embed/42").decision,
        Verdict::Allow
    );
}

#[test]
fn a_button_that_only_opens_the_pages_own_confirmation_does_not_ask() {
    let d = click_on("button", json!({"name": "Delete", "opens_dialog": true}));
    assert_decision(&d, Verdict::Allow, "only opens the page's own dialog");
    // Unless it also submits or goes somewhere.
    let d = click_on(
        "button",
        json!({"name": "Delete", "opens_dialog": true,
        "submits": {"action": "https://mail.example/delete", "method": "post"}}),
    );
    assert_eq!(d.decision, Verdict::Confirm, "{}", d.reason);
    let d = click_on(
        "link",
        json!({"name": "Delete", "opens_dialog": true, "href": "https://mail.example/remove/5"}),
    );
    assert_eq!(d.decision, Verdict::Confirm, "{}", d.reason);
}

#[test]
fn addresses_are_judged_by_their_path_and_query_words() {
    for url in [
        "https://shop.example/orders/5/cancel",
        "https://news.example/newsletter/unsubscribe?id=9",
        "https://app.example/items/5/remove",
        "https://app.example/projects/5/destroy",
        "https://db.example/sql.php?action=drop&table=users",
        "https://db.example/?op=truncate",
        "https://site.example/compte/supprimer",
        "https://site.example/konto/l%C3%B6schen",
        "https://site.example/%D1%83%D0%B4%D0%B0%D0%BB%D0%B8%D1%82%D1%8C",
        "https://app.example/#/keys/5/revoke",
        "https://blog.example/wp-admin/post.php?post=5&action=trash&_wpnonce=ab12",
    ] {
        let d = decide(json!({"action": "navigate", "url": url}));
        assert_decision(&d, Verdict::Confirm, "destructive");
    }
    for url in [
        "https://shop.example/cancellation-policy",
        "https://files.example/dropbox-vs-drive",
        "https://shop.example/search?q=delete+old+files",
        "https://mail.example/password/reset",
        "https://mail.example/?_mbox=Trash",
        "https://blog.example/how-to-delete-your-account",
    ] {
        let d = decide(json!({"action": "navigate", "url": url}));
        assert_eq!(d.decision, Verdict::Allow, "{url}: {}", d.reason);
    }
}
