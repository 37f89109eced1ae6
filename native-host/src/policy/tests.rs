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

// --- normalisation and matching ---------------------------------------------------------------------

#[test]
fn normalize_folds_width_case_dashes_apostrophes_and_invisible_characters() {
    assert_eq!(normalize("  ＰＡＹ\u{00A0}Now "), "pay now");
    assert_eq!(normalize("Check-out"), "check out");
    assert_eq!(normalize("S’abonner"), "s'abonner");
    assert_eq!(normalize("De\u{200B}le\u{00AD}te"), "delete");
    assert_eq!(normalize("SİL"), "sil");
    assert_eq!(normalize("KALDIR"), normalize("kaldır"));
    assert_eq!(normalize("a\n\t b"), "a b");
}

#[test]
fn every_word_list_entry_survives_normalisation() {
    let lists = [
        words::PAY,
        words::DELETE,
        words::SEND,
        words::CONFIRM,
        words::NEXT,
        words::ADD_TO_CART,
        words::COOKIE,
        words::CAPTCHA,
        words::SAVE,
        words::PUBLISHED,
        words::PRIVATE,
        words::DRAFT,
    ];
    for list in lists {
        for (lang, terms) in list {
            assert!(!terms.is_empty(), "{lang}");
            for term in *terms {
                assert!(!normalize(term).is_empty(), "{lang}: {term:?}");
            }
        }
    }
    // Each ambiguous word is in some list, or marking it would be pointless.
    for w in words::AMBIGUOUS_SHORT {
        let n = normalize(w);
        let known = lists
            .iter()
            .flat_map(|l| l.iter())
            .flat_map(|(_, t)| t.iter())
            .any(|t| normalize(t) == n);
        assert!(known, "{w}");
    }
}

#[test]
fn words_match_whole_with_unicode_boundaries() {
    assert!(contains_word("pay now", "pay"));
    assert!(contains_word("(pay)", "pay"));
    assert!(!contains_word("prepay info", "pay"));
    assert!(!contains_word("payment", "pay"));
    assert!(!contains_word("silver", "sil"));
    // Cyrillic boundaries work (the JS `\b` bug from the research notes).
    assert!(contains_word("оплатить заказ", "оплатить"));
    assert!(!contains_word("переоплатить", "оплатить"));
    assert!(!contains_word("pay2", "pay"));
}

/// Pinned: "Prepay info" is not "pay" (whole words only), so it is an ordinary button.
#[test]
fn prepay_is_not_pay() {
    assert_decision(&click("button", "Prepay info"), Verdict::Allow, "nothing in");
    assert_decision(&click("button", "Pay"), Verdict::Confirm, "paying");
}

#[test]
fn ambiguous_short_words_count_only_on_button_like_labels() {
    assert_decision(&click("button", "Sil"), Verdict::Confirm, "deleting");
    assert_decision(&click("button", "Silver"), Verdict::Allow, "nothing in");
    assert_decision(&click("link", "Kup"), Verdict::Confirm, "paying");
    // A list row named "Kup" is not a command.
    assert_decision(&click("row", "kup"), Verdict::Allow, "nothing in");
    // An element described by nothing is read strictly, like a button.
    assert_decision(
        &decide(json!({"action": "click", "element": {"name": "Öde"}})),
        Verdict::Confirm,
        "paying",
    );
}

#[test]
fn ambiguous_short_words_never_count_in_free_text() {
    let d = decide(
        json!({"action": "click", "element": {"role": "button", "name": "Weiter",
        "text_around": "Kup bilety, ja, sil, öde"}}),
    );
    assert_decision(&d, Verdict::Allow, "nothing around it");
}

#[test]
fn cjk_matches_inside_short_labels_only() {
    assert_decision(&click("button", "削除する"), Verdict::Confirm, "deleting");
    assert_decision(&click("button", "今すぐ購入する"), Verdict::Confirm, "paying");
    assert_decision(&click("button", "결제하기"), Verdict::Confirm, "paying");
    // A long paragraph that mentions 削除 and 購入 in running text does not trigger.
    let paragraph = "このページではアカウントの設定を変更したり削除したり購入履歴を確認したりできます";
    assert!(paragraph.chars().count() > CJK_LABEL_MAX_CHARS);
    assert_decision(&click("link", paragraph), Verdict::Allow, "nothing in");
    let d = decide(
        json!({"action": "click", "element": {"role": "button", "name": "確認", "text_around": paragraph}}),
    );
    assert_decision(&d, Verdict::Allow, "nothing around it");
}

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

// --- prices -----------------------------------------------------------------------------------------

#[test]
fn a_price_in_the_label_confirms() {
    for (name, amount) in [
        ("Pay €84.97", "€84.97"),
        ("Get it for 84,97 €", "84,97 €"),
        ("Upgrade — $9.99/month", "$9.99"),
        ("Renew for £12", "£12"),
        ("Продлить за 1 000 ₽", "1 000 ₽"),
        ("Abonament 49,99 zł", "49,99 zł"),
        ("Ulepsz ¥1,000", "¥1,000"),
        ("Upgrade CHF 12.50", "chf 12.50"),
        ("Uppgradera 199 kr", "199 kr"),
        ("Upgrade EUR 5", "eur 5"),
        ("Підписка 99 ₴", "99 ₴"),
        ("Abone ol ₺49", "₺49"),
        ("업그레이드 ₩10,000", "₩10,000"),
        ("Upgrade ₹499", "₹499"),
        ("アップグレード 1,000円", "1,000円"),
        ("Upgrade ＄５", "$5"),
    ] {
        let d = click("button", name);
        assert_eq!(d.decision, Verdict::Confirm, "{name}: {d:?}");
        if !d.reason.contains("paying") {
            assert!(
                d.reason.contains(&format!("carries a price ({amount})")),
                "{name}: {}",
                d.reason
            );
        }
    }
    assert_decision(
        &click("button", "Upgrade for €5"),
        Verdict::Confirm,
        "carries a price (€5)",
    );
}

#[test]
fn numbers_without_a_currency_are_not_prices() {
    assert_eq!(find_amount("page 2 of 5"), None);
    assert_eq!(find_amount("try 10 times"), None);
    assert_eq!(find_amount("10 krát"), None);
    assert_eq!(find_amount("room 101"), None);
    assert_decision(&click("link", "Page 2"), Verdict::Allow, "nothing in");
}

/// Pinned: "add to cart" is low risk, but a price in its label still confirms (any click whose label
/// carries a price asks), and so does "buy now" beside it.
#[test]
fn add_to_cart_is_allowed_unless_it_says_buy_now_or_carries_a_price() {
    assert_decision(
        &click("button", "Add to cart"),
        Verdict::Allow,
        "only adds to the cart",
    );
    assert_decision(
        &click("button", "In den Warenkorb"),
        Verdict::Allow,
        "only adds to the cart",
    );
    assert_decision(
        &click("button", "カートに入れる"),
        Verdict::Allow,
        "only adds to the cart",
    );
    assert_decision(
        &click("button", "Add to cart & buy now"),
        Verdict::Confirm,
        "'buy now'",
    );
    assert_decision(
        &click("button", "Add to cart – €19.99"),
        Verdict::Confirm,
        "price (€19.99)",
    );
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
    // Pinned: when `key` is missing, `text` names the key for press.
    let d =
        decide(json!({"action": "press", "text": "Escape", "element": {"role": "button", "name": "Pay"}}));
    assert_eq!(d.decision, Verdict::Allow, "{d:?}");
}

// --- handoff ----------------------------------------------------------------------------------------

#[test]
fn typing_secrets_is_handed_to_the_user() {
    let cases = [
        (json!({"type": "password", "name": "Kennwort"}), "a password"),
        (
            json!({"tag": "input", "autocomplete": "current-password"}),
            "a password",
        ),
        (
            json!({"tag": "input", "type": "text", "name": "Пароль"}),
            "a password",
        ),
        (
            json!({"tag": "input", "autocomplete": "one-time-code"}),
            "a one-time code",
        ),
        (
            json!({"tag": "input", "name": "Verification code"}),
            "a one-time code",
        ),
        (
            json!({"tag": "input", "name": "Код подтверждения"}),
            "a one-time code",
        ),
        (json!({"tag": "input", "name": "2FA"}), "a one-time code"),
        (
            json!({"tag": "input", "autocomplete": "billing cc-number"}),
            "card details",
        ),
        (json!({"tag": "input", "name": "CVC"}), "card details"),
        (json!({"tag": "input", "name": "Numéro de carte"}), "card details"),
        (
            json!({"tag": "input", "id_hints": "cardNumber checkout-field"}),
            "card details",
        ),
        (json!({"tag": "input", "name": "カード番号"}), "card details"),
    ];
    for (element, what) in cases {
        let d = decide(json!({"action": "type", "element": element, "text": "secret"}));
        assert_decision(&d, Verdict::Handoff, what);
        assert!(
            !d.reason.contains("secret"),
            "a reason must not echo the typed text: {}",
            d.reason
        );
    }
    let d = decide(json!({"action": "select", "element": {"tag": "select", "autocomplete": "cc-exp-month"}}));
    assert_decision(&d, Verdict::Handoff, "choosing card details");
}

/// The extension knows more of a field than the classifier's input says ("show password" turned it
/// into text, `-webkit-text-security` hides it): its `secret` is taken as given.
#[test]
fn a_field_the_extension_calls_secret_is_secret() {
    let d = decide(
        json!({"action": "type", "text": "x", "element": {"tag": "input", "type": "text",
        "name": "Memorable word", "secret": "password"}}),
    );
    assert_decision(&d, Verdict::Handoff, "typing a password is for the user");
    let d = decide(
        json!({"action": "select", "text": "03", "element": {"tag": "select", "name": "Month",
        "secret": "card"}}),
    );
    assert_decision(&d, Verdict::Handoff, "choosing card details");
    let d = decide(
        json!({"action": "press", "key": "Enter", "element": {"tag": "input", "type": "text",
        "name": "Memorable word", "secret": "one_time_code"}}),
    );
    assert_decision(&d, Verdict::Confirm, "a one-time code");
    // Without it, the same field is ordinary.
    let d = decide(
        json!({"action": "type", "text": "x", "element": {"tag": "input", "type": "text",
        "name": "Memorable word"}}),
    );
    assert_eq!(d.decision, Verdict::Allow, "{d:?}");
    // An unknown kind is unreadable input, which fails closed.
    let d = classify_line(br#"{"action":"type","element":{"tag":"input","secret":"banana"}}"#);
    assert_eq!(d.map(|d| d.decision), Some(Verdict::Confirm));
}

/// The classifier asks the same predicate as the extension: PINs, "code" fields and identifiers
/// matched whole.
#[test]
fn pins_codes_and_card_fields_without_autocomplete_are_handed_over() {
    let cases = [
        (json!({"tag": "input", "name": "PIN"}), "a PIN"),
        (json!({"tag": "input", "name": "ПИН-код"}), "a PIN"),
        (
            json!({"tag": "input", "name": "Enter code", "id_hints": "otp"}),
            "a one-time code",
        ),
        (json!({"tag": "input", "name": "6-digit code"}), "a one-time code"),
        (json!({"tag": "input", "name": "Код из СМС"}), "a one-time code"),
        (
            json!({"tag": "input", "name": "Card number", "id_hints": "cardnumber", "autocomplete": "off"}),
            "card details",
        ),
        (json!({"tag": "input", "name": "MM/YY"}), "card details"),
        (json!({"tag": "input", "id_hints": "user_pwd"}), "a password"),
    ];
    for (element, what) in cases {
        let d = decide(json!({"action": "type", "element": element, "text": "1234"}));
        assert_decision(&d, Verdict::Handoff, what);
    }
    for element in [
        json!({"tag": "input", "name": "Passport number", "id_hints": "passportNumber"}),
        json!({"tag": "input", "name": "ZIP code"}),
        json!({"tag": "input", "name": "Gift card code"}),
        json!({"tag": "input", "id_hints": "shipping spinner pinned"}),
        json!({"role": "searchbox", "name": "Search passwords"}),
    ] {
        let d = decide(json!({"action": "type", "element": element, "text": "x"}));
        assert_eq!(d.decision, Verdict::Allow, "{element}: {d:?}");
    }
}

#[test]
fn typing_a_card_number_anywhere_is_handed_over() {
    let d = decide(
        json!({"action": "type", "element": {"tag": "input", "name": "Notes"}, "text": "4111 1111 1111 1111"}),
    );
    assert_decision(&d, Verdict::Handoff, "card number");
    assert!(!d.reason.contains("4111"));
    // Not Luhn-valid, or too short: ordinary digits.
    for text in ["4111 1111 1111 1112", "0176 1234567", "12345"] {
        let d = decide(json!({"action": "type", "element": {"tag": "input", "name": "Phone"}, "text": text}));
        assert_eq!(d.decision, Verdict::Allow, "{text}: {d:?}");
    }
}

#[test]
fn captchas_are_handed_to_the_user_whatever_the_action() {
    let d = click("checkbox", "I'm not a robot");
    assert_decision(&d, Verdict::Handoff, "captcha");
    let d = decide(
        json!({"action": "type", "element": {"tag": "input", "name": "Enter the text", "id_hints": "captcha_input"}}),
    );
    assert_decision(&d, Verdict::Handoff, "captcha");
    let d = decide(
        json!({"action": "click", "element": {"role": "button", "name": "Verify"},
        "url": "https://www.google.com/recaptcha/api2/anchor?k=x"}),
    );
    assert_decision(&d, Verdict::Handoff, "captcha");
    let d = click("checkbox", "Я не робот");
    assert_decision(&d, Verdict::Handoff, "captcha");
    // Handoff beats confirm.
    let d = click("button", "Pay — verify reCAPTCHA first");
    assert_eq!(d.decision, Verdict::Handoff);
}

#[test]
fn typing_into_ordinary_fields_is_allowed() {
    let d = decide(
        json!({"action": "type", "element": {"role": "searchbox", "name": "Search"}, "text": "delete account"}),
    );
    assert_decision(&d, Verdict::Allow, "ordinary input");
    let d = decide(
        json!({"action": "type", "element": {"tag": "input", "name": "Promo code"}, "text": "SAVE10"}),
    );
    assert_eq!(d.decision, Verdict::Allow, "{d:?}");
    // A typed line break is Enter.
    let d = decide(
        json!({"action": "type", "element": {"tag": "input", "name": "Coupon",
        "form": {"action": "/checkout", "method": "post"}}, "text": "SAVE10\n"}),
    );
    assert_eq!(d.decision, Verdict::Confirm, "{d:?}");
}

// --- select and navigate ---------------------------------------------------------------------------

#[test]
fn select_is_ordinary_unless_the_control_is_a_button() {
    let d = decide(
        json!({"action": "select", "element": {"tag": "select", "name": "Country"}, "text": "Germany"}),
    );
    assert_decision(&d, Verdict::Allow, "choosing an option");
    let d =
        decide(json!({"action": "select", "element": {"role": "menuitem", "name": "Delete conversation"}}));
    assert_decision(&d, Verdict::Confirm, "deleting");
}

#[test]
fn navigation_is_reading_unless_the_address_is_destructive_or_runs_code() {
    for url in [
        "https://example.com/",
        "https://shop.example/checkout",
        "https://example.com/blog/how-to-delete-your-account",
        "https://remove.bg/upload",
        "/orders?page=2",
    ] {
        let d = decide(json!({"action": "navigate", "url": url}));
        assert_eq!(d.decision, Verdict::Allow, "{url}: {d:?}");
    }
    for (url, word) in [
        ("https://example.com/items/5/delete", "delete"),
        ("https://example.com/account/close", "account/close"),
        ("https://example.com/do?action=remove&id=5", "remove"),
        ("https://example.com/api/deleteAccount", "delete"),
        ("https://news.example/unsubscribe?t=abc", "unsubscribe"),
        ("https://example.com/%64elete", "delete"),
    ] {
        let d = decide(json!({"action": "navigate", "url": url}));
        assert_decision(&d, Verdict::Confirm, word);
    }
    let d = decide(json!({"action": "navigate", "url": " java\tscript:alert(1)"}));
    assert_decision(&d, Verdict::Confirm, "'javascript:'");
    let d = decide(json!({"action": "navigate", "url": "data:text/html,<b>x</b>"}));
    assert_decision(&d, Verdict::Confirm, "'data:'");
}

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

// ---------------------------------------------------------------------------------------------------
// Effects: what an action will do, as the extension describes it.

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
fn delete_outside_a_field_may_be_a_command() {
    let row = json!({"role": "row", "name": "Message from Bob", "editable": false});
    assert_decision(&press("Delete", row), Verdict::Confirm, "command to delete");
    let field = json!({"tag": "input", "type": "text", "name": "Name", "editable": true});
    assert_eq!(press("Backspace", field).decision, Verdict::Allow);
    // Nothing has the focus: the page itself gets the key.
    let d = decide(json!({"action": "press", "key": "Delete"}));
    assert_decision(&d, Verdict::Confirm, "nothing has the focus");
    assert_eq!(
        decide(json!({"action": "press", "key": "Enter"})).decision,
        Verdict::Allow
    );
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
