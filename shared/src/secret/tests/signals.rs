//! The strong signals: `type=password` (now or before), `-webkit-text-security`, autocomplete tokens;
//! which controls can hold a secret at all, and search boxes.

use super::*;

// --- the strong signals -----------------------------------------------------------------------------

#[test]
fn a_password_input_is_secret_whatever_it_says() {
    let s = secret_kind(&FieldFacts {
        tag: "input",
        input_type: "PASSWORD",
        label: "Search",
        ..Default::default()
    })
    .unwrap();
    assert_eq!(s, Secret::new(Password, "type=password"));
    // The policy may not know the tag.
    let s = secret_kind(&FieldFacts {
        input_type: "password",
        ..Default::default()
    });
    assert_eq!(s.map(|s| s.kind), Some(Password));
}

#[test]
fn a_password_shown_by_show_password_stays_secret() {
    let revealed = FieldFacts {
        tag: "input",
        input_type: "text",
        label: "Memorable word",
        was_password: true,
        ..Default::default()
    };
    let s = secret_kind(&revealed).unwrap();
    assert_eq!(s.kind, Password);
    assert!(s.why.contains("type=password"), "{}", s.why);
    // The same field never having been a password is ordinary.
    assert_eq!(
        secret_kind(&FieldFacts {
            was_password: false,
            ..revealed
        }),
        None
    );
}

#[test]
fn text_security_hides_what_is_typed_so_the_field_is_secret() {
    let masked = FieldFacts {
        tag: "input",
        input_type: "text",
        label: "Memorable answer",
        text_security: true,
        ..Default::default()
    };
    let s = secret_kind(&masked).unwrap();
    assert_eq!(s.kind, Password);
    assert!(s.why.contains("-webkit-text-security"), "{}", s.why);
    // Its words still say which kind.
    let pin = FieldFacts {
        label: "PIN",
        ..masked
    };
    assert_eq!(secret_kind(&pin).map(|s| s.kind), Some(Pin));
    // Even on a search box: the page itself hides it.
    let search = FieldFacts {
        role: "searchbox",
        ..masked
    };
    assert_eq!(secret_kind(&search).map(|s| s.kind), Some(Password));
}

#[test]
fn autocomplete_tokens_name_the_secret() {
    for (autocomplete, kind) in [
        ("current-password", Password),
        ("section-login new-password", Password),
        ("webauthn", Password),
        ("one-time-code", Otp),
        ("billing cc-number", Card),
        ("cc-csc", Card),
        ("cc-exp-month", Card),
        ("CC-EXP", Card),
    ] {
        let s = secret_kind(&FieldFacts {
            tag: "input",
            autocomplete,
            ..Default::default()
        })
        .unwrap();
        assert_eq!(s.kind, kind, "{autocomplete}");
        assert!(s.why.starts_with("autocomplete '"), "{}", s.why);
    }
    for autocomplete in ["off", "email", "username", "one-time", "postal-code"] {
        let facts = FieldFacts {
            tag: "input",
            autocomplete,
            ..Default::default()
        };
        assert_eq!(secret_kind(&facts), None, "{autocomplete}");
    }
}

#[test]
fn selects_hold_secrets_too() {
    let month = FieldFacts {
        tag: "select",
        role: "combobox",
        name: "exp_month",
        ..Default::default()
    };
    assert_eq!(secret_kind(&month).map(|s| s.kind), Some(Card));
    let year = FieldFacts {
        tag: "select",
        id: "ccExpYear",
        ..Default::default()
    };
    assert_eq!(secret_kind(&year).map(|s| s.kind), Some(Card));
    let size = FieldFacts {
        tag: "select",
        name: "size",
        label: "Size",
        ..Default::default()
    };
    assert_eq!(secret_kind(&size), None);
}

#[test]
fn controls_that_hold_no_value_are_never_secret() {
    for (tag, role, input_type, label) in [
        ("button", "button", "", "Show password"),
        ("input", "checkbox", "checkbox", "Remember my PIN"),
        ("input", "button", "submit", "Password"),
        ("a", "link", "", "Forgot password?"),
        ("", "button", "", "Show password"),
        ("input", "", "hidden", "otp"),
    ] {
        let facts = FieldFacts {
            tag,
            role,
            input_type,
            label,
            name: label,
            ..Default::default()
        };
        assert_eq!(secret_kind(&facts), None, "{tag} {role} {input_type} {label}");
    }
    // A contenteditable field can hold one.
    let editable = FieldFacts {
        tag: "div",
        role: "textbox",
        aria_label: "Password",
        ..Default::default()
    };
    assert_eq!(secret_kind(&editable).map(|s| s.kind), Some(Password));
}

#[test]
fn a_search_box_is_never_secret_by_its_words() {
    for facts in [
        FieldFacts {
            tag: "input",
            input_type: "search",
            label: "Passwords",
            ..Default::default()
        },
        FieldFacts {
            tag: "input",
            role: "searchbox",
            label: "CVV lookup",
            ..Default::default()
        },
        FieldFacts {
            tag: "input",
            input_type: "text",
            placeholder: "Search passwords",
            ..Default::default()
        },
        FieldFacts {
            tag: "input",
            input_type: "text",
            label: "Поиск паролей",
            ..Default::default()
        },
        FieldFacts {
            tag: "input",
            input_type: "text",
            label: "パスワード",
            name: "q",
            ..Default::default()
        },
        FieldFacts {
            tag: "input",
            input_type: "text",
            id: "searchPasswords",
            ..Default::default()
        },
    ] {
        assert_eq!(secret_kind(&facts), None, "{facts:?}");
    }
}

#[test]
fn a_card_field_in_a_language_outside_the_lists_is_known_by_its_value_or_its_shape() {
    // "หมายเลขบัตร" (Thai: card number) is in no list.
    let thai = FieldFacts {
        tag: "input",
        input_type: "text",
        label: "หมายเลขบัตร",
        ..Default::default()
    };
    assert_eq!(secret_kind(&thai), None);
    let holding = FieldFacts {
        card_value: true,
        ..thai
    };
    assert_eq!(secret_kind(&holding).map(|s| s.kind), Some(Card));
    let shaped = FieldFacts {
        inputmode: "numeric",
        maxlength: Some(19),
        ..thai
    };
    assert_eq!(secret_kind(&shaped).map(|s| s.kind), Some(Card));
    // Other numbers keep their shape: a telephone field, a postcode, a field with no length.
    for facts in [
        FieldFacts {
            input_type: "tel",
            ..shaped
        },
        FieldFacts {
            maxlength: Some(5),
            ..shaped
        },
        FieldFacts {
            maxlength: None,
            ..shaped
        },
    ] {
        assert_eq!(secret_kind(&facts), None, "{facts:?}");
    }
}
