//! Every reason a frame can give, said in every language but English with no English word but its
//! values (and in Russian word for word), and in English with the words the end-to-end tests and the
//! model read.

use waymark_protocol::{ActFailure, ActKind, PageReason};

use super::*;
use crate::wording::set_language;

/// Values in Latin letters the sentences below are given (from the page, the browser, the user).
const VALUES: &[&str] = &["Fly", "TypeError: x is null", "SecurityError", "div"];

/// The words of `text`, said in `language`, that are another language's (English's).
fn english_words(text: &str, language: &str) -> Vec<String> {
    waymark_i18n::foreign_words(text, language, VALUES)
}

/// One of every reason, for a Russian page (the control's words are Russian, as the page's are).
fn every_reason() -> Vec<PageReason> {
    let (role, name) = ("checkbox".to_owned(), "Подписка".to_owned());
    let mut out = vec![
        PageReason::Gone {
            role: role.clone(),
            name: name.clone(),
        },
        PageReason::Unknown,
        PageReason::Changed {
            role: role.clone(),
            name: name.clone(),
        },
        PageReason::Outdated {
            role: role.clone(),
            name: name.clone(),
        },
        PageReason::FocusMoved,
        PageReason::OtherDocument,
        PageReason::NoDocument,
        PageReason::NotInFrame,
        PageReason::StillMoving,
        PageReason::UnknownKey { key: "Fly".into() },
        PageReason::NotAFileField {
            number: 4,
            role: "textbox".into(),
            name: "Имя".into(),
        },
        PageReason::NoFiles { number: 4 },
        PageReason::FilesNotPut {
            number: 4,
            detail: "SecurityError".into(),
        },
        PageReason::ScriptFailed {
            detail: "TypeError: x is null".into(),
        },
    ];
    out.extend([1, 2, 5, 21].map(|given| PageReason::OneFileOnly { number: 4, given }));
    let failures = [
        ActFailure::NotClickable,
        ActFailure::NotTextField,
        ActFailure::NotAList,
        ActFailure::OffScreen,
        ActFailure::Covered {
            text: Some("Скидки до конца дня".into()),
            tag: "div".into(),
        },
        ActFailure::Covered {
            text: None,
            tag: "div".into(),
        },
        ActFailure::NoSuchOption {
            wanted: "Огромный".into(),
            options: vec!["Малый".into(), "Большой".into()],
        },
        ActFailure::SeveralOptions {
            wanted: "ой".into(),
            options: vec!["Малый".into(), "Большой".into()],
        },
        ActFailure::PartOfOption {
            wanted: "Боль".into(),
            option: "Большой".into(),
        },
        ActFailure::NoOptionsOpened {
            wanted: "Огромный".into(),
        },
        ActFailure::Detached,
        ActFailure::Script {
            detail: "TypeError: x is null".into(),
        },
    ];
    for failure in failures {
        for action in [ActKind::Click, ActKind::Type, ActKind::Select] {
            out.push(PageReason::Act {
                number: 12,
                action,
                role: role.clone(),
                name: name.clone(),
                failure: failure.clone(),
            });
        }
    }
    out
}

/// Every sentence these reasons make: alone, as a stale number's refusal, as an asked-about action's.
fn every_sentence() -> Vec<String> {
    let mut out = Vec::new();
    for reason in every_reason() {
        out.push(page_reason(&reason));
        out.push(stale(7, Some(&reason)));
        out.push(pinned_gone(Some(&reason)));
    }
    out.push(stale(7, None));
    out.push(pinned_gone(None));
    out
}

#[test]
fn every_reason_is_said_in_russian_with_no_english_word_but_its_values() {
    set_language("ru");
    let russian = every_sentence();
    let gone = page_reason(&every_reason()[0]);
    let numbered = stale(7, Some(&every_reason()[0]));
    let not_text = page_reason(&PageReason::Act {
        number: 12,
        action: ActKind::Type,
        role: "checkbox".into(),
        name: "Подписка".into(),
        failure: ActFailure::NotTextField,
    });
    let files = page_reason(&PageReason::OneFileOnly { number: 4, given: 5 });
    set_language("en");
    for sentence in &russian {
        let english = english_words(sentence, "ru");
        assert!(english.is_empty(), "English in {sentence:?}: {english:?}");
    }
    // Roles as the listing says them, page words in Russian quotes, plurals by the number.
    assert_eq!(gone, "Элемента (флажок «Подписка») больше нет на странице.");
    assert_eq!(
        numbered,
        "Элемента 7 (флажок «Подписка») больше нет на странице: страница изменилась, номера обновлены. \
         Ничего не сделано."
    );
    assert_eq!(
        not_text,
        "Не удалось ввести текст в элемент 12 (флажок «Подписка»): это не поле ввода."
    );
    assert!(files.contains("передано 5 файлов"), "{files}");
    // The check can fail: said in English, every sentence has English words.
    let english = every_sentence();
    assert!(english.iter().all(|s| !english_words(s, "ru").is_empty()));
}

#[test]
fn every_reason_is_said_with_no_english_word_in_every_language() {
    set_language("en");
    let english = every_sentence();
    for language in waymark_i18n::languages().filter(|l| *l != waymark_i18n::FALLBACK) {
        set_language(language);
        for sentence in every_sentence() {
            let foreign = english_words(&sentence, language);
            assert!(
                foreign.is_empty(),
                "{language}: English in {sentence:?}: {foreign:?}"
            );
        }
        assert!(english.iter().all(|s| !english_words(s, language).is_empty()));
    }
    set_language("en");
}

#[test]
fn in_english_the_reasons_say_what_callers_and_tests_read() {
    set_language("en");
    let covered = page_reason(&PageReason::Act {
        number: 3,
        action: ActKind::Click,
        role: "button".into(),
        name: "Buy".into(),
        failure: ActFailure::Covered {
            text: Some("Sale ends soon".into()),
            tag: "div".into(),
        },
    });
    assert_eq!(
        covered,
        "Could not click number 3 (button \"Buy\"): it is covered by \"Sale ends soon\"; close that first \
         (close_banners may help)."
    );
    let option = page_reason(&PageReason::Act {
        number: 2,
        action: ActKind::Select,
        role: "combobox".into(),
        name: "Size".into(),
        failure: ActFailure::NoSuchOption {
            wanted: "Huge".into(),
            options: vec!["Small".into(), "Medium".into(), "Large".into()],
        },
    });
    assert!(
        option.contains("there is no option \"Huge\"; the options are: Small, Medium, Large."),
        "{option}"
    );
    let gone = PageReason::Gone {
        role: "button".into(),
        name: "Save".into(),
    };
    assert_eq!(
        stale(7, Some(&gone)),
        "Number 7 (button \"Save\") is no longer on the page: the page changed, so the numbers were renewed. \
         Nothing was done."
    );
    assert_eq!(
        pinned_gone(Some(&gone)),
        "Not done: the control the action was for (button \"Save\") is no longer on the page. The numbers \
         were renewed."
    );
    assert_eq!(
        page_reason(&PageReason::UnknownKey { key: "Fly".into() }),
        "\"Fly\" is not a key I know; try Enter, Tab, Escape, Space or an arrow."
    );
    assert!(page_reason(&PageReason::OneFileOnly { number: 4, given: 2 })
        .starts_with("Number 4 takes one file, and 2 were given"));
}
