//! Unit tests of the secret-field predicate: each rule, several cases per language, the "code" fields
//! that are not secrets, identifiers matched whole, and the normaliser.

use super::*;

use SecretKind::{Card, OneTimeCode as Otp, Password, Pin};

/// A text input with this label.
fn labelled(label: &str) -> Option<SecretKind> {
    secret_kind(&FieldFacts {
        tag: "input",
        input_type: "text",
        label,
        ..Default::default()
    })
    .map(|s| s.kind)
}

/// A text input with this `name` (and no label).
fn named(name: &str) -> Option<SecretKind> {
    secret_kind(&FieldFacts {
        tag: "input",
        input_type: "text",
        name,
        ..Default::default()
    })
    .map(|s| s.kind)
}

/// A short numeric input with this label, as one-time-code fields usually are.
fn short(label: &str) -> Option<SecretKind> {
    secret_kind(&FieldFacts {
        tag: "input",
        input_type: "text",
        inputmode: "numeric",
        maxlength: Some(6),
        label,
        ..Default::default()
    })
    .map(|s| s.kind)
}

#[track_caller]
fn check(cases: &[(&str, Option<SecretKind>)], f: fn(&str) -> Option<SecretKind>) {
    let failed: Vec<String> = cases
        .iter()
        .filter(|(text, want)| f(text) != *want)
        .map(|(text, want)| format!("{text:?}: want {want:?}, got {:?}", f(text)))
        .collect();
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

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

// --- words, per language ----------------------------------------------------------------------------

#[test]
fn english_labels() {
    check(
        &[
            ("Password", Some(Password)),
            ("Confirm password", Some(Password)),
            ("Passcode", Some(Password)),
            ("One-time password", Some(Otp)),
            ("Verification code", Some(Otp)),
            ("2FA code", Some(Otp)),
            ("Backup code", Some(Otp)),
            ("PIN", Some(Pin)),
            ("Enter your PIN", Some(Pin)),
            ("Card number", Some(Card)),
            ("CVV", Some(Card)),
            ("CVC2", Some(Card)),
            ("Security code", Some(Card)),
            ("MM/YY", Some(Card)),
            ("MM / YYYY", Some(Card)),
            ("Expiry date", Some(Card)),
            ("Name on card", Some(Card)),
            ("Email", None),
            ("Full name", None),
            ("Passport number", None),
            ("Pinned note", None),
            ("Shipping address", None),
            ("Passwordless sign-in email", None),
        ],
        labelled,
    );
}

#[test]
fn german_labels() {
    check(
        &[
            ("Passwort", Some(Password)),
            ("Kennwort wiederholen", Some(Password)),
            ("Bestätigungscode", Some(Otp)),
            ("SMS-TAN", Some(Otp)),
            ("Geheimzahl", Some(Pin)),
            ("PIN-Code", Some(Pin)),
            ("Kartennummer", Some(Card)),
            ("Prüfziffer", Some(Card)),
            ("Gültig bis (MM/JJ)", Some(Card)),
            ("Vorname", None),
            ("Gutscheincode", None),
        ],
        labelled,
    );
}

#[test]
fn french_labels() {
    check(
        &[
            ("Mot de passe", Some(Password)),
            ("Code de vérification", Some(Otp)),
            ("Code reçu par SMS", Some(Otp)),
            ("Code PIN", Some(Pin)),
            ("Code confidentiel", Some(Pin)),
            ("Numéro de carte", Some(Card)),
            ("Cryptogramme visuel", Some(Card)),
            ("Date d’expiration", Some(Card)),
            ("Code postal", None),
            ("Code promo", None),
        ],
        labelled,
    );
}

#[test]
fn spanish_labels() {
    check(
        &[
            ("Contraseña", Some(Password)),
            ("Contrasena", Some(Password)),
            ("Código de verificación", Some(Otp)),
            ("Introduce el código", Some(Otp)),
            ("Código PIN", Some(Pin)),
            ("Número de tarjeta", Some(Card)),
            ("Fecha de caducidad", Some(Card)),
            ("Código postal", None),
            ("Código de descuento", None),
        ],
        labelled,
    );
}

#[test]
fn italian_labels() {
    check(
        &[
            ("Password", Some(Password)),
            ("Codice di verifica", Some(Otp)),
            ("Inserisci il codice", Some(Otp)),
            ("Codice PIN", Some(Pin)),
            ("Numero della carta", Some(Card)),
            ("Data di scadenza", Some(Card)),
            ("Codice sconto", None),
            ("Codice fiscale", None),
        ],
        labelled,
    );
}

#[test]
fn portuguese_labels() {
    check(
        &[
            ("Senha", Some(Password)),
            ("Palavra-passe", Some(Password)),
            ("Código de verificação", Some(Otp)),
            ("Digite o código", Some(Otp)),
            ("Código PIN", Some(Pin)),
            ("Número do cartão", Some(Card)),
            ("Código de segurança", Some(Card)),
            ("Cupom", None),
            ("Código promocional", None),
        ],
        labelled,
    );
}

#[test]
fn dutch_labels() {
    check(
        &[
            ("Wachtwoord", Some(Password)),
            ("Verificatiecode", Some(Otp)),
            ("Voer de code in", Some(Otp)),
            ("Pincode", Some(Pin)),
            ("Kaartnummer", Some(Card)),
            ("Vervaldatum", Some(Card)),
            ("Kortingscode", None),
            ("Postcode", None),
        ],
        labelled,
    );
}

#[test]
fn polish_labels() {
    check(
        &[
            ("Hasło", Some(Password)),
            ("Haslo", Some(Password)),
            ("Kod weryfikacyjny", Some(Otp)),
            ("Wpisz kod", Some(Otp)),
            ("Kod PIN", Some(Pin)),
            ("Numer karty", Some(Card)),
            ("Data ważności", Some(Card)),
            ("Kod rabatowy", None),
            ("Kod pocztowy", None),
        ],
        labelled,
    );
}

#[test]
fn russian_labels() {
    check(
        &[
            ("Пароль", Some(Password)),
            ("Повторите пароль", Some(Password)),
            ("Код из СМС", Some(Otp)),
            ("Код подтверждения", Some(Otp)),
            ("Одноразовый пароль", Some(Otp)),
            ("Введите код", Some(Otp)),
            ("ПИН-код", Some(Pin)),
            ("Номер карты", Some(Card)),
            ("Срок действия", Some(Card)),
            ("ММ/ГГ", Some(Card)),
            ("Промокод", None),
            ("Почтовый индекс", None),
            ("Имя", None),
        ],
        labelled,
    );
}

#[test]
fn ukrainian_labels() {
    check(
        &[
            ("Пароль", Some(Password)),
            ("Код підтвердження", Some(Otp)),
            ("Введіть код", Some(Otp)),
            ("ПІН-код", Some(Pin)),
            ("Номер картки", Some(Card)),
            ("Термін дії", Some(Card)),
            ("Промокод", None),
            ("Поштовий індекс", None),
        ],
        labelled,
    );
}

#[test]
fn turkish_labels() {
    check(
        &[
            ("Şifre", Some(Password)),
            ("ŞİFRE", Some(Password)),
            ("Parola", Some(Password)),
            ("Doğrulama kodu", Some(Otp)),
            ("Kodu girin", Some(Otp)),
            ("PIN kodu", Some(Pin)),
            ("Kart numarası", Some(Card)),
            ("Son kullanma tarihi", Some(Card)),
            ("İndirim kodu", None),
            ("Posta kodu", None),
        ],
        labelled,
    );
}

#[test]
fn japanese_labels() {
    check(
        &[
            ("パスワード", Some(Password)),
            ("認証コード", Some(Otp)),
            ("ワンタイムパスワード", Some(Otp)),
            ("コードを入力", Some(Otp)),
            ("暗証番号", Some(Pin)),
            ("カード番号", Some(Card)),
            ("有効期限（月/年）", Some(Card)),
            ("クーポンコード", None),
            ("郵便番号", None),
        ],
        labelled,
    );
}

#[test]
fn chinese_labels() {
    check(
        &[
            ("密码", Some(Password)),
            ("密碼", Some(Password)),
            ("短信验证码", Some(Otp)),
            ("动态密码", Some(Otp)),
            ("支付密码", Some(Pin)),
            ("银行卡号", Some(Card)),
            ("安全码", Some(Card)),
            ("优惠码", None),
            ("邮政编码", None),
        ],
        labelled,
    );
}

#[test]
fn korean_labels() {
    check(
        &[
            ("비밀번호", Some(Password)),
            ("인증번호", Some(Otp)),
            ("일회용 비밀번호", Some(Otp)),
            ("코드 입력", Some(Otp)),
            ("핀번호", Some(Pin)),
            ("카드번호", Some(Card)),
            ("유효기간", Some(Card)),
            ("쿠폰 코드", None),
            ("우편번호", None),
        ],
        labelled,
    );
}

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

// --- normalisation ---------------------------------------------------------------------------------

#[test]
fn normalize_folds_case_width_accents_separators_and_invisible_characters() {
    assert_eq!(normalize("  ＰＩＮ\u{00A0}Code ", false), "pin code");
    assert_eq!(normalize("Pass\u{200B}wo\u{00AD}rd", false), "password");
    assert_eq!(normalize("cardNumber", false), "card number");
    assert_eq!(normalize("PINCode", false), "pin code");
    assert_eq!(normalize("cc-exp_month.value", false), "cc exp month value");
    assert_eq!(normalize("MM / YY", false), "mm/yy");
    assert_eq!(normalize("Contraseña", false), "contrasena");
    assert_eq!(normalize("Contrasen\u{303}a", false), "contrasena");
    assert_eq!(normalize("ŞİFRE", false), normalize("şifre", false));
    assert_eq!(
        normalize("Одноразовый", false),
        normalize("одноразовыи\u{306}", false)
    );
    assert_eq!(normalize("otp1", true), "otp 1");
    assert_eq!(normalize("otp1", false), "otp1");
    assert_eq!(normalize("2FA", true), "2fa");
    assert_eq!(normalize("a\n\t b", false), "a b");
    assert_eq!(normalize("", false), "");
}

#[test]
fn hidden_characters_and_full_width_forms_do_not_hide_a_secret() {
    assert_eq!(labelled("Pass\u{200B}word"), Some(Password));
    assert_eq!(labelled("ＣＶＶ"), Some(Card));
    assert_eq!(named("o\u{200D}tp"), Some(Otp));
}

#[test]
fn every_list_word_survives_normalisation() {
    let lists = [
        words::PASSWORD,
        words::ONE_TIME_CODE,
        words::PIN,
        words::CARD,
        words::CODE,
        words::ENTER,
        words::DIGITS,
        words::SENT,
        words::NOT_ONE_TIME,
        words::SEARCH,
    ];
    for list in lists {
        for (lang, terms) in list {
            assert!(!terms.is_empty(), "{lang}");
            for term in *terms {
                assert!(!normalize(term, false).is_empty(), "{lang}: {term:?}");
            }
        }
    }
}

/// The index finds a list word by its first word: a word must begin with a letter or a digit, unless
/// it is matched anywhere as Chinese, Japanese or Korean.
#[test]
fn every_list_word_begins_with_a_letter_or_digit_or_is_cjk() {
    let lists = [
        words::PASSWORD,
        words::ONE_TIME_CODE,
        words::PIN,
        words::CARD,
        words::CODE,
        words::ENTER,
        words::DIGITS,
        words::SENT,
        words::NOT_ONE_TIME,
        words::SEARCH,
    ];
    let ids = [
        words::PASSWORD_IDS,
        words::ONE_TIME_CODE_IDS,
        words::PIN_IDS,
        words::CARD_IDS,
    ];
    let all = lists
        .iter()
        .flat_map(|l| l.iter().flat_map(|(_, w)| w.iter()))
        .chain(ids.iter().flat_map(|l| l.iter()));
    for word in all {
        for n in [normalize(word, false), normalize(word, true)] {
            let first = n.chars().next().unwrap();
            assert!(first.is_alphanumeric() || n.chars().any(is_cjk), "{word:?}");
        }
    }
}

/// Matching uses an index by first word; it must agree with a plain search for the word standing
/// whole anywhere in the text.
#[test]
fn the_index_finds_what_a_plain_search_finds() {
    let lex = Lex::new(
        ["pin", "pin code", "mm/yy", "card number", "密码"].into_iter(),
        false,
    );
    let cases = [
        ("enter your pin", Some("pin")),
        ("pin code", Some("pin code")),
        ("pincode", None),
        ("spin", None),
        ("pin2", None),
        ("(pin)", Some("pin")),
        ("expiry (mm/yy)", Some("mm/yy")),
        ("mm/yyyy", None),
        ("the card number here", Some("card number")),
        ("card numbers", None),
        ("忘记密码", Some("密码")),
        ("", None),
    ];
    for (text, want) in cases {
        let got = lex.find(&Text::new(text, false)).map(|t| t.text.as_str());
        assert_eq!(got, want, "{text:?}");
    }
    assert!(lex.starts(&Text::new("PIN for the card", false)));
    assert!(!lex.starts(&Text::new("your PIN", false)));
    assert!(lex.starts(&Text::new("密码管理", false)));
}

#[test]
fn every_secret_class_covers_the_fourteen_languages() {
    for list in [words::PASSWORD, words::ONE_TIME_CODE, words::PIN, words::CARD] {
        for lang in [
            "en", "de", "fr", "es", "it", "pt", "nl", "pl", "ru", "uk", "tr", "ja", "zh", "ko",
        ] {
            assert!(list.iter().any(|(l, _)| *l == lang), "{lang}");
        }
    }
}

#[test]
fn a_huge_hostile_label_is_cut_short_and_still_answered() {
    let label = "x".repeat(1_000_000) + " password";
    // Only the first characters are read: the word at the end is past the cut.
    assert_eq!(labelled(&label), None);
    let label = "Password ".to_string() + &"\u{200B}".repeat(1_000_000);
    assert_eq!(labelled(&label), Some(Password));
}

#[test]
fn the_kind_is_written_in_snake_case() {
    assert_eq!(serde_json::to_string(&Otp).unwrap(), "\"one_time_code\"");
    assert_eq!(serde_json::from_str::<SecretKind>("\"pin\"").unwrap(), Pin);
    assert_eq!(serde_json::to_string(&Card).unwrap(), "\"card\"");
}
