//! "Code" fields: one-time codes when they ask for a code, ordinary when the code is a promotion, an
//! address or the like.

use super::*;

// --- "code" ----------------------------------------------------------------------------------------

#[test]
fn code_fields_that_ask_for_a_code_are_one_time_codes() {
    check(
        &[
            ("Enter code", Some(Otp)),
            ("Enter the code", Some(Otp)),
            ("6-digit code", Some(Otp)),
            ("Enter the 6 digit code we sent you", Some(Otp)),
            ("Code sent by SMS", Some(Otp)),
            ("Code", None),
        ],
        labelled,
    );
    // On a short field, the word alone is enough.
    check(
        &[
            ("Code", Some(Otp)),
            ("Your code:", Some(Otp)),
            ("Code *", Some(Otp)),
            ("Код", Some(Otp)),
            ("Kod", Some(Otp)),
            ("コード", Some(Otp)),
            ("Product code", None),
            ("Code name", None),
        ],
        short,
    );
}

#[test]
fn codes_that_are_not_secrets_stay_ordinary() {
    let not_secret = [
        "Promo code",
        "Enter promo code",
        "Coupon code",
        "Discount code",
        "Voucher",
        "Gift card code",
        "Postal code",
        "ZIP code",
        "Enter your ZIP code",
        "Area code",
        "Country code",
        "Invite code",
        "Referral code",
        "Tracking code",
        "Sort code",
        "6-digit sort code",
    ];
    for label in not_secret {
        assert_eq!(labelled(label), None, "{label}");
        assert_eq!(short(label), None, "{label} (short)");
    }
    // Source code in a textarea, however it is labelled.
    for label in ["Code", "Enter code", "Paste your code here"] {
        let facts = FieldFacts {
            tag: "textarea",
            role: "textbox",
            label,
            ..Default::default()
        };
        assert_eq!(secret_kind(&facts), None, "{label}");
    }
}

#[test]
fn a_short_field_named_code_is_a_one_time_code() {
    let facts = FieldFacts {
        tag: "input",
        input_type: "text",
        name: "code",
        maxlength: Some(6),
        ..Default::default()
    };
    assert_eq!(secret_kind(&facts).map(|s| s.kind), Some(Otp));
    let long = FieldFacts {
        maxlength: None,
        ..facts
    };
    assert_eq!(secret_kind(&long), None);
    let promo = FieldFacts {
        placeholder: "Coupon",
        ..facts
    };
    assert_eq!(secret_kind(&promo), None);
    let numbered = FieldFacts {
        name: "code-input-1",
        maxlength: Some(1),
        ..facts
    };
    assert_eq!(secret_kind(&numbered).map(|s| s.kind), Some(Otp));
}
