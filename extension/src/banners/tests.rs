//! The banner closer's choices, natively: every language's reject before accept, the order of the
//! choices, the words never pressed, and the word lists themselves.

use super::words::*;
use super::*;

fn pick(buttons: &[&str], kind: Kind) -> Option<(String, Choice)> {
    let described: Vec<(String, String)> = buttons.iter().map(|b| (b.to_string(), String::new())).collect();
    choose(&described, kind).map(|(i, c)| (buttons[i].to_string(), c))
}

#[test]
fn rejecting_wins_over_accepting_in_every_language() {
    let cases: &[(&[&str], &str)] = &[
        (&["Accept all", "Reject all", "Cookie settings"], "Reject all"),
        (
            &["Alle akzeptieren", "Einstellungen", "Alle ablehnen"],
            "Alle ablehnen",
        ),
        (&["Tout accepter", "Tout refuser"], "Tout refuser"),
        (&["Aceptar todo", "Rechazar todo"], "Rechazar todo"),
        (&["Accetta tutto", "Rifiuta tutto"], "Rifiuta tutto"),
        (&["Aceitar tudo", "Rejeitar tudo"], "Rejeitar tudo"),
        (
            &["Alles accepteren", "Alleen noodzakelijke cookies"],
            "Alleen noodzakelijke cookies",
        ),
        (&["Akceptuj wszystkie", "Odrzuć wszystkie"], "Odrzuć wszystkie"),
        (&["Принять все", "Отклонить все"], "Отклонить все"),
        (&["Прийняти все", "Відхилити все"], "Відхилити все"),
        (&["Acceptera alla", "Endast nödvändiga"], "Endast nödvändiga"),
        (&["Tümünü kabul et", "Tümünü reddet"], "Tümünü reddet"),
        (&["すべて同意", "すべて拒否"], "すべて拒否"),
        (&["全部接受", "全部拒绝"], "全部拒绝"),
        (&["同意", "同意しない"], "同意しない"),
    ];
    for (buttons, expected) in cases {
        let (chosen, choice) = pick(buttons, Kind::Cookie).expect("a choice");
        assert_eq!(&chosen, expected, "{buttons:?}");
        assert_eq!(choice, Choice::Reject, "{buttons:?}");
    }
}

#[test]
fn the_order_is_reject_dismiss_close_save_settings_accept() {
    assert_eq!(
        pick(&["OK", "Manage options"], Kind::Cookie).map(|p| p.1),
        Some(Choice::Settings)
    );
    assert_eq!(
        pick(&["Accept all", "Save my choices", "Manage"], Kind::Cookie).map(|p| p.1),
        Some(Choice::Save)
    );
    assert_eq!(
        pick(&["Accept", "×"], Kind::Cookie).map(|p| p.1),
        Some(Choice::Close)
    );
    assert_eq!(
        pick(&["Close", "No thanks"], Kind::Newsletter).map(|p| p.0),
        Some("No thanks".into())
    );
    assert!(
        Choice::Reject > Choice::Dismiss && Choice::Close > Choice::Save && Choice::Settings > Choice::Accept
    );
}

#[test]
fn accepting_only_when_a_cookie_notice_has_nothing_else() {
    assert_eq!(
        pick(&["Got it!"], Kind::Cookie),
        Some(("Got it!".into(), Choice::Accept))
    );
    assert_eq!(
        pick(&["Verstanden"], Kind::Cookie).map(|p| p.1),
        Some(Choice::Accept)
    );
    // A newsletter or app banner is never "accepted".
    assert_eq!(pick(&["OK", "Continue"], Kind::Newsletter), None);
    assert_eq!(pick(&["Allow"], Kind::App), None);
}

#[test]
fn never_presses_what_pays_sends_deletes_subscribes_or_installs() {
    for label in [
        "Subscribe",
        "Sign up",
        "Pay now",
        "Send",
        "Delete",
        "Open in app",
        "Jetzt abonnieren",
        "S'abonner",
        "Suscribirse",
        "Zapisz się",
        "Подписаться",
        "Підписатися",
        "Prenumerera",
        "Abone ol",
        "購読する",
        "立即订阅",
        "Install",
    ] {
        assert_eq!(rank(label, "", Kind::Cookie), None, "{label}");
        assert_eq!(rank(label, "", Kind::Newsletter), None, "{label}");
    }
    assert_eq!(
        pick(&["Subscribe", "No thanks"], Kind::Newsletter).map(|p| p.0),
        Some("No thanks".into())
    );
    assert_eq!(
        pick(&["Open in app", "Not now"], Kind::App).map(|p| p.0),
        Some("Not now".into())
    );
}

#[test]
fn an_icon_button_is_a_close_button_by_its_hints() {
    assert_eq!(rank("", "modal-close-btn", Kind::Newsletter), Some(Choice::Close));
    assert_eq!(rank("×", "", Kind::App), Some(Choice::Close));
    assert_eq!(rank("", "icon", Kind::Newsletter), None);
    // A labelled button is judged by its label, not its class.
    assert_eq!(rank("Read more", "close-reading", Kind::Newsletter), None);
}

#[test]
fn words_match_whole_words_except_in_chinese_and_japanese() {
    assert!(contains_phrase("reject all", "reject"));
    assert!(!contains_phrase("book now", "ok"));
    assert!(!contains_phrase("subscribed", "subscribe"));
    assert!(contains_phrase("我们使用cookie", "cookie"));
    assert!(contains_phrase("すべて拒否する", "拒否"));
    assert_eq!(normalize("  No   Thanks! "), "no thanks");
    assert_eq!(normalize("I don’t agree"), "i don't agree");
    assert_eq!(rank("Disagree", "", Kind::Cookie), Some(Choice::Reject));
}

#[test]
fn every_listed_word_can_match() {
    // A word written with capitals or extra spaces would never match a normalized label.
    for list in [
        NEVER,
        REJECT,
        DISMISS,
        CLOSE,
        SAVE,
        SETTINGS,
        ACCEPT,
        COOKIE_STRONG,
        CONSENT_WEAK,
        NEWSLETTER,
        APP,
    ] {
        for word in list {
            assert_eq!(normalize(word), *word, "{word}");
            assert!(contains_phrase(word, word), "{word}");
        }
    }
}

#[test]
fn no_way_out_says_a_word_that_is_never_pressed() {
    // The shared list of paying, deleting and sending must not swallow a banner's own way out.
    for list in [REJECT, DISMISS, CLOSE, SAVE, SETTINGS, ACCEPT] {
        for word in list {
            assert!(!never(word), "{word}");
        }
    }
    // And it is read: a button that pays or deletes is never chosen, in any of its languages.
    for label in [
        "Reject and pay",
        "Alle ablehnen und löschen",
        "결제",
        "Отклонить и удалить",
    ] {
        assert_eq!(rank(label, "", Kind::Cookie), None, "{label}");
    }
}

#[test]
fn banners_are_known_by_their_words() {
    assert_eq!(
        kind_of("We use cookies to improve your experience."),
        Some(Kind::Cookie)
    );
    assert_eq!(
        kind_of("Wir verwenden Cookies und ähnliche Technologien."),
        Some(Kind::Cookie)
    );
    assert_eq!(kind_of("Nous respectons votre vie privée"), Some(Kind::Cookie));
    assert_eq!(kind_of("Ta strona używa plików cookie"), Some(Kind::Cookie));
    assert_eq!(kind_of("Этот сайт использует куки"), Some(Kind::Cookie));
    assert_eq!(kind_of("Bu site çerezler kullanır"), Some(Kind::Cookie));
    assert_eq!(kind_of("当サイトではクッキーを使用します"), Some(Kind::Cookie));
    assert_eq!(kind_of("我们重视您的隐私"), Some(Kind::Cookie));
    assert_eq!(
        kind_of("Subscribe to our newsletter. By signing up you consent to our privacy policy."),
        Some(Kind::Newsletter)
    );
    assert_eq!(
        kind_of("Abonnieren Sie unseren Newsletter"),
        Some(Kind::Newsletter)
    );
    assert_eq!(kind_of("Get the app for a better experience"), Some(Kind::App));
    assert_eq!(kind_of("Your order is ready. Pay €84.97"), None);
    assert_eq!(kind_of("Delete your account?"), None);
}
