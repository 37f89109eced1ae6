//! The normaliser and the word lists it reads: every list word survives it and can match.

use super::*;

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
