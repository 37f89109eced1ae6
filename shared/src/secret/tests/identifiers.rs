//! Identifiers (`name`, `id`) matched whole after splitting, the most specific word, and reasons that
//! never carry page text.

use super::*;

// --- identifiers -----------------------------------------------------------------------------------

#[test]
fn identifier_tokens_match_whole_after_splitting() {
    check(
        &[
            ("pass", Some(Password)),
            ("pwd", Some(Password)),
            ("passwd", Some(Password)),
            ("user_pass", Some(Password)),
            ("loginPassword", Some(Password)),
            ("user[password]", Some(Password)),
            ("pw", Some(Password)),
            ("otp", Some(Otp)),
            ("otp1", Some(Otp)),
            ("totpCode", Some(Otp)),
            ("mfa-token", Some(Otp)),
            ("2fa", Some(Otp)),
            ("pin", Some(Pin)),
            ("userPIN", Some(Pin)),
            ("PINCode", Some(Pin)),
            ("cvv", Some(Card)),
            ("cvc", Some(Card)),
            ("csc", Some(Card)),
            ("ccnum", Some(Card)),
            ("cardnumber", Some(Card)),
            ("cardNumber", Some(Card)),
            ("card_number", Some(Card)),
            ("cc-number", Some(Card)),
            ("ccNumber", Some(Card)),
            ("exp_month", Some(Card)),
            ("expiryYear", Some(Card)),
            ("passport", None),
            ("passportNumber", None),
            ("spinner", None),
            ("pinned", None),
            ("shipping", None),
            ("bypass_cache", None),
            ("opt_in", None),
            ("compass", None),
            ("pinterest_url", None),
            ("first_name", None),
            ("promoCode", None),
            ("zip_code", None),
        ],
        named,
    );
    // The id counts as the name does.
    let by_id = FieldFacts {
        tag: "input",
        input_type: "tel",
        id: "card-cvc",
        ..Default::default()
    };
    assert_eq!(secret_kind(&by_id).map(|s| s.kind), Some(Card));
}

#[test]
fn the_brief_cases_are_secret() {
    // A field named otp labelled "Enter code"; a card number with autocomplete off; "CVV".
    let otp = FieldFacts {
        tag: "input",
        input_type: "text",
        name: "otp",
        label: "Enter code",
        ..Default::default()
    };
    assert_eq!(secret_kind(&otp).map(|s| s.kind), Some(Otp));
    let card = FieldFacts {
        tag: "input",
        input_type: "text",
        name: "cardnumber",
        autocomplete: "off",
        label: "Card number",
        ..Default::default()
    };
    assert_eq!(secret_kind(&card).map(|s| s.kind), Some(Card));
    assert_eq!(labelled("CVV"), Some(Card));
}

#[test]
fn the_most_specific_word_wins_and_the_reason_names_it() {
    let s = secret_kind(&FieldFacts {
        tag: "input",
        label: "One-time password",
        ..Default::default()
    })
    .unwrap();
    assert_eq!(s, Secret::new(Otp, "its label says 'one time password'"));
    let s = secret_kind(&FieldFacts {
        tag: "input",
        placeholder: "CVV",
        ..Default::default()
    })
    .unwrap();
    assert_eq!(s, Secret::new(Card, "its placeholder says 'cvv'"));
    let s = secret_kind(&FieldFacts {
        tag: "input",
        name: "user_pwd",
        ..Default::default()
    })
    .unwrap();
    assert_eq!(s, Secret::new(Password, "its name or id says 'pwd'"));
}

#[test]
fn reasons_never_carry_page_text_beyond_the_list_word() {
    let s = secret_kind(&FieldFacts {
        tag: "input",
        label: "Password for hunter2@example.com",
        ..Default::default()
    })
    .unwrap();
    assert!(!s.why.contains("hunter2"), "{}", s.why);
    let long = "cc-".to_string() + &"x".repeat(500);
    let s = secret_kind(&FieldFacts {
        tag: "input",
        autocomplete: &long,
        ..Default::default()
    })
    .unwrap();
    assert!(s.why.len() < 60, "{}", s.why);
}
