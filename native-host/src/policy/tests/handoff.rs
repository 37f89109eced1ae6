//! Steps handed to the user (secrets, captchas), typing, choosing and navigating.

use super::*;

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
