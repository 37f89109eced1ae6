//! Clicks and keys: the pay, delete and send words, generic buttons with and without a risky context,
//! and key presses.

use super::*;

// --- PAY / DELETE / SEND ----------------------------------------------------------------------------

#[test]
fn pay_words_in_every_language_confirm() {
    for name in [
        "Place order",
        "Zahlungspflichtig bestellen",
        "Passer la commande",
        "Finalizar compra",
        "Procedi al pagamento",
        "Finalizar pedido",
        "Bestelling plaatsen",
        "Zamawiam i płacę",
        "Оформить заказ",
        "Оформити замовлення",
        "Siparişi tamamla",
        "注文を確定する",
        "提交订单",
        "주문하기",
    ] {
        assert_decision(&click("button", name), Verdict::Confirm, "paying");
    }
}

#[test]
fn the_most_specific_phrase_is_named() {
    let d = click("button", "Zahlungspflichtig bestellen");
    assert_decision(
        &d,
        Verdict::Confirm,
        "the button's label 'Zahlungspflichtig bestellen' means paying",
    );
    let d = click("button", "Jetzt zahlungspflichtig bestellen");
    assert_decision(&d, Verdict::Confirm, "(it says 'zahlungspflichtig bestellen')");
}

#[test]
fn delete_and_send_words_confirm() {
    assert_decision(&click("button", "Delete account"), Verdict::Confirm, "deleting");
    assert_decision(&click("menuitem", "Konto löschen"), Verdict::Confirm, "deleting");
    assert_decision(&click("button", "Se désabonner"), Verdict::Confirm, "deleting");
    assert_decision(&click("button", "Отправить"), Verdict::Confirm, "sending");
    assert_decision(&click("button", "Veröffentlichen"), Verdict::Confirm, "sending");
    assert_decision(&click("link", "Unsubscribe"), Verdict::Confirm, "deleting");
    // Unsubscribe is not subscribe, and subscribe is paying-class.
    assert_decision(&click("button", "Subscribe"), Verdict::Confirm, "paying");
}

#[test]
fn the_value_of_a_submit_input_is_its_label() {
    let d = decide(
        json!({"action": "click", "element": {"tag": "input", "type": "submit", "value": "Bezahlen"}}),
    );
    assert_decision(&d, Verdict::Confirm, "'Bezahlen'");
    // In a text field the value is content, not a label.
    let d = decide(
        json!({"action": "click", "element": {"tag": "input", "type": "text", "name": "Note",
        "value": "delete everything"}}),
    );
    assert_decision(&d, Verdict::Allow, "nothing in");
}

#[test]
fn invisible_characters_do_not_hide_a_word() {
    assert_decision(&click("button", "De\u{200B}lete"), Verdict::Confirm, "deleting");
}

// --- CONFIRM-class words and generic buttons ------------------------------------------------------

#[test]
fn confirm_words_alone_are_allowed() {
    assert_decision(
        &click("button", "OK"),
        Verdict::Allow,
        "nothing around it looks risky",
    );
    assert_decision(
        &click("button", "Continue"),
        Verdict::Allow,
        "nothing around it looks risky",
    );
    assert_decision(
        &click("button", "Weiter"),
        Verdict::Allow,
        "nothing around it looks risky",
    );
}

#[test]
fn confirm_words_in_a_dialog_confirm() {
    let d =
        decide(json!({"action": "click", "element": {"role": "button", "name": "OK", "in_dialog": true}}));
    assert_decision(&d, Verdict::Confirm, "in a dialog");
    let d =
        decide(json!({"action": "click", "element": {"role": "button", "name": "はい", "in_dialog": true}}));
    assert_decision(&d, Verdict::Confirm, "in a dialog");
    // "Next" is generic but not a yes: a wizard dialog alone does not make it risky.
    let d =
        decide(json!({"action": "click", "element": {"role": "button", "name": "Next", "in_dialog": true}}));
    assert_eq!(d.decision, Verdict::Allow, "{d:?}");
}

/// Pinned: accepting cookies in a consent dialog is not a risky yes.
#[test]
fn cookie_consent_dialogs_are_allowed() {
    let d = decide(
        json!({"action": "click", "element": {"role": "button", "name": "Accept all",
        "in_dialog": true, "text_around": "We use cookies to improve your experience."}}),
    );
    assert_decision(&d, Verdict::Allow, "cookie-consent");
    let d = decide(
        json!({"action": "click", "element": {"role": "button", "name": "Alle Cookies akzeptieren",
        "in_dialog": true}}),
    );
    assert_decision(&d, Verdict::Allow, "cookie-consent");
}

#[test]
fn confirm_words_with_a_risky_context_confirm() {
    let d = decide(
        json!({"action": "click", "element": {"role": "button", "name": "Yes",
        "text_around": "Are you sure you want to delete this file?"}}),
    );
    assert_decision(&d, Verdict::Confirm, "mentions 'delete'");
    let d = decide(
        json!({"action": "click", "element": {"role": "button", "name": "Confirm",
        "text_around": "Total: $120.00"}}),
    );
    assert_decision(&d, Verdict::Confirm, "price ($120.00)");
    let d = decide(
        json!({"action": "click", "element": {"role": "button", "name": "Continue"},
        "url": "https://shop.example/checkout/step-2"}),
    );
    assert_decision(&d, Verdict::Confirm, "page address mentions 'checkout'");
    let d = decide(
        json!({"action": "click", "element": {"role": "button", "name": "OK",
        "form": {"action": "/account/delete", "method": "post"}}}),
    );
    assert_decision(&d, Verdict::Confirm, "form is sent to an address");
    let d = click("button", "Weiter zur Zahlung");
    assert_decision(&d, Verdict::Confirm, "label mentions 'zahlung'");
}

#[test]
fn generic_buttons_confirm_only_with_hints() {
    let next = json!({"action": "click", "element": {"role": "button", "name": "Next"}});
    assert_eq!(decide(next.clone()).decision, Verdict::Allow);
    let mut on_payment = next;
    on_payment["url"] = json!("https://example.com/en/payment?step=2");
    assert_decision(&decide(on_payment), Verdict::Confirm, "'payment'");
    // An icon button with no name whose id says what it does.
    let d = decide(
        json!({"action": "click", "element": {"tag": "button", "name": "×", "id_hints": "btnDeleteItem"}}),
    );
    assert_decision(&d, Verdict::Confirm, "id, class or name mentions 'delete'");
    // Hints never make a non-generic control risky.
    let d = decide(
        json!({"action": "click", "element": {"role": "button", "name": "Edit address"},
        "url": "https://shop.example/checkout"}),
    );
    assert_eq!(d.decision, Verdict::Allow, "{d:?}");
}

/// Pinned: nearby text longer than CONTEXT_MAX_CHARS is an article and does not make a link risky.
#[test]
fn delete_in_a_long_paragraph_does_not_escalate_a_link() {
    let article = "In this guide we explain how to delete old photos, remove duplicates and pay less for \
                   storage. "
        .repeat(5);
    assert!(article.chars().count() > CONTEXT_MAX_CHARS);
    for name in ["Read more", "Continue reading"] {
        let d = decide(
            json!({"action": "click", "element": {"role": "link", "name": name, "text_around": article}}),
        );
        assert_eq!(d.decision, Verdict::Allow, "{name}: {d:?}");
    }
}

// --- press ------------------------------------------------------------------------------------------

#[test]
fn enter_in_a_sensitive_form_confirms() {
    let d = decide(
        json!({"action": "press", "key": "Enter", "element": {"tag": "input", "type": "text",
        "name": "Coupon", "form": {"action": "/checkout/submit", "method": "POST"}}}),
    );
    assert_decision(&d, Verdict::Confirm, "'checkout'");
    // No action: the form goes to the page's own address.
    let d = decide(
        json!({"action": "press", "element": {"tag": "input", "name": "Name", "form": {"method": "post"}},
        "url": "https://shop.example/kasse"}),
    );
    assert_decision(&d, Verdict::Confirm, "'kasse'");
    let d = decide(
        json!({"action": "press", "key": "Enter", "element": {"tag": "input", "type": "password",
        "name": "Password", "form": {"action": "/login", "method": "post"}}}),
    );
    assert_decision(&d, Verdict::Confirm, "a password");
    let d = decide(
        json!({"action": "press", "key": "Enter", "element": {"tag": "input", "name": "Email",
        "form": {"action": "/login", "has_password_field": true}}}),
    );
    assert_decision(&d, Verdict::Confirm, "a password");
    let d = decide(
        json!({"action": "press", "key": "Enter", "element": {"role": "textbox", "name": "Reply to Anna"}}),
    );
    assert_decision(&d, Verdict::Confirm, "sending");
}

#[test]
fn enter_in_an_ordinary_form_is_allowed() {
    let d = decide(
        json!({"action": "press", "key": "Enter", "element": {"role": "searchbox", "name": "Search",
        "form": {"action": "/search", "method": "get"}}}),
    );
    assert_decision(&d, Verdict::Allow, "submits nothing risky");
    // Pinned: an explicit GET form is a query even on a checkout page.
    let d = decide(
        json!({"action": "press", "element": {"tag": "input", "name": "Find", "form": {"method": "get"}},
        "url": "https://shop.example/checkout"}),
    );
    assert_eq!(d.decision, Verdict::Allow, "{d:?}");
}

#[test]
fn other_keys_are_allowed_and_enter_on_a_button_is_a_click() {
    let d = decide(json!({"action": "press", "key": "Tab", "element": {"role": "button", "name": "Delete"}}));
    assert_decision(&d, Verdict::Allow, "'tab'");
    let d =
        decide(json!({"action": "press", "key": "Enter", "element": {"role": "button", "name": "Delete"}}));
    assert_decision(&d, Verdict::Confirm, "deleting");
    let d = decide(json!({"action": "press", "key": " ", "element": {"role": "button", "name": "Buy now"}}));
    assert_decision(&d, Verdict::Confirm, "paying");
    // Pinned: when `key` is missing, `text` names the key for press. Escape closes what is open.
    let d = decide(
        json!({"action": "press", "text": "Escape", "open_layer": true, "element": {"role": "button", "name": "Pay"}}),
    );
    assert_eq!(d.decision, Verdict::Allow, "{d:?}");
}

#[test]
fn the_missing_destructive_verbs_ask_in_every_language() {
    for name in [
        "Purge cache",
        "Truncate table",
        "Drop table",
        "Drop",
        "Empty",
        "Revoke access",
        "Terminate instance",
        "Destroy",
        "Tabelle leeren",
        "Widerrufen",
        "Vider la corbeille",
        "Révoquer",
        "Vaciar papelera",
        "Revocar acceso",
        "Svuota",
        "Revoca",
        "Esvaziar lixeira",
        "Revogar",
        "Leegmaken",
        "Intrekken",
        "Opróżnij kosz",
        "Odwołaj dostęp",
        "Уничтожить",
        "Отозвать доступ",
        "Відкликати доступ",
        "Знищити",
        "Çöpü boşalt",
        "Devre dışı bırak",
        "ゴミ箱を空にする",
        "破棄",
        "撤销授权",
        "销毁",
        "휴지통 비우기",
        "비활성화",
    ] {
        assert_decision(&click("button", name), Verdict::Confirm, "deleting");
    }
    // Alone "drop" and "empty" are the command; among other words they are a noun or an adjective.
    for name in ["Drop files here", "Show empty folders", "Drop-down menu"] {
        assert_eq!(click("button", name).decision, Verdict::Allow, "{name}");
    }
}

#[test]
fn a_wallet_button_named_by_its_brand_is_a_payment() {
    for name in [
        "PayPal",
        "Pay with PayPal",
        "GPay",
        "Klarna",
        "Buy with G Pay",
        "Apple Pay",
    ] {
        assert_decision(&click("button", name), Verdict::Confirm, "paying");
    }
}
