//! A test that says every sentence of the extension's wording in every language but English, with
//! values of every kind, and finds no word of another language (Latin words the language's catalogue
//! never uses, `waymark_i18n::foreign_words`) in any but the values a sentence names.

use super::*;
use waymark_protocol::{InteractiveList, PageTool};

/// Every sentence of the extension's wording, with the values it was given.
fn every_sentence() -> Vec<String> {
    use serde_json::json;
    use waymark_protocol::{
        ActKind, Activity, CheckStatus, ClosedReason, ErrorCode, Interactive, ScrollDirection,
    };
    let values = InteractiveList {
        url: "http://x/".into(),
        title: "Магазин".into(),
        total: 3,
        offset: 0,
        items: vec![Interactive {
            index: 1,
            role: "checkbox".into(),
            name: "Подписка".into(),
            value: Some("да".into()),
            states: [
                "checked",
                "expanded",
                "collapsed",
                "pressed",
                "selected",
                "required",
                "editable",
            ]
            .map(String::from)
            .to_vec(),
            context: Some("Алиса Смирнова".into()),
        }],
    };
    let mut out = vec![
        pong(3.0),
        no_details(),
        ping_timeout(5),
        host_error(&ErrorReply {
            id: None,
            code: ErrorCode::UnknownMessage,
            message: "сбой".into(),
        }),
        not_delivered("причина"),
        worker_reconnecting(),
        chat_unavailable(),
        chat_mode(true),
        chat_mode(false),
        agent_error("сбой"),
        you_said("привет"),
        overlay(true),
        overlay(false),
        opening_settings(),
        no_manual_step(),
        no_more(),
        nothing_to_continue(),
        nothing_to_answer(),
        overlay_usage(),
        tool_timeout(10),
        page_reported_error(),
        help(),
        unknown_command("/хм", None),
        unknown_command("/pnig", Some("/ping")),
        shortcuts(&[
            ("confirm".into(), "Alt+Shift+Y".into()),
            ("reject".into(), String::new()),
            ("manual-done".into(), String::new()),
            ("open-window".into(), String::new()),
            ("_execute_action".into(), String::new()),
            ("toggle-overlay".into(), String::new()),
            ("stop-agent".into(), String::new()),
        ]),
        shortcuts_unset(&["confirm", "reject"]),
        opening_window(),
        already_window(),
        interactive_list(&values),
        interactive_list(&InteractiveList {
            total: 0,
            items: vec![],
            ..values.clone()
        }),
        activity(&Activity {
            source: "Клиент".into(),
            tool: "browser_navigate".into(),
            ok: false,
            changes_page: true,
            summary: "открыто".into(),
        }),
    ];
    for state in [
        ConnectionState::Connecting,
        ConnectionState::Connected {
            host_version: "0.1.0".into(),
            pid: 1,
            faults: Vec::new(),
        },
        ConnectionState::NotInstalled { retry_in_ms: 1 },
        ConnectionState::Forbidden {
            retry_in_ms: 1,
            extension_id: "cefdccnmncoeemlgklbddcicjlldkfko".into(),
            browser: waymark_protocol::BrowserBrand::Edge,
        },
        ConnectionState::Incompatible {
            host_version: "0.1.0".into(),
            host_protocol: 9,
        },
    ]
    .into_iter()
    .chain(
        [
            Disconnection::Exited,
            Disconnection::FailedToStart,
            Disconnection::CommunicationFailed,
            Disconnection::Closed,
            Disconnection::Silent { seconds: 10 },
            Disconnection::Other {
                reason: "причина".into(),
            },
        ]
        .map(|why| ConnectionState::Disconnected { why, retry_in_ms: 1 }),
    ) {
        out.push(connection_status(&state));
    }
    for state in [
        AgentState::Running,
        AgentState::Idle,
        AgentState::WaitingUser,
        AgentState::Error,
    ] {
        out.push(agent_status(state));
    }
    for reason in [
        ClosedReason::Expired,
        ClosedReason::PageChanged,
        ClosedReason::Withdrawn,
        ClosedReason::Stopped,
    ] {
        out.push(question_closed(reason));
    }
    for usage_of in [
        Usage::Click,
        Usage::Type,
        Usage::Select,
        Usage::Set,
        Usage::RightClick,
        Usage::Hover,
        Usage::Find,
        Usage::Go,
        Usage::Tab,
        Usage::Scroll,
        Usage::Press,
    ] {
        out.push(usage(usage_of));
    }
    // The page tools' answers, each with the data its tool returns.
    let acted = |done: &str| json!({"index": 3, "role": "button", "name": "Сохранить", "done": done, "selected": "Большой"});
    let list = serde_json::to_value(&values).ok();
    let tools: Vec<(PageTool, Option<serde_json::Value>)> = vec![
        (
            PageTool::ListInteractives {
                limit: None,
                offset: None,
                scope: None,
            },
            list.clone(),
        ),
        (
            PageTool::ListInteractives {
                limit: None,
                offset: None,
                scope: None,
            },
            None,
        ),
        (
            PageTool::Find {
                text: Some("корзина".into()),
                role: None,
                limit: None,
                offset: None,
            },
            list.clone(),
        ),
        (
            PageTool::Find {
                text: Some("корзина".into()),
                role: None,
                limit: None,
                offset: None,
            },
            Some(json!({"url": "", "title": "", "total": 0, "offset": 0, "items": []})),
        ),
        (
            PageTool::OverlayAct {
                index: 3,
                action: ActKind::Click,
                text: None,
            },
            Some(acted("click")),
        ),
        (
            PageTool::OverlayAct {
                index: 3,
                action: ActKind::Type,
                text: None,
            },
            Some(acted("type")),
        ),
        (
            PageTool::OverlayAct {
                index: 3,
                action: ActKind::Select,
                text: None,
            },
            Some(acted("select")),
        ),
        (
            PageTool::OverlayAct {
                index: 3,
                action: ActKind::Click,
                text: None,
            },
            None,
        ),
        (PageTool::FocusNext { role: None }, Some(acted(""))),
        (PageTool::FocusNext { role: None }, None),
        (
            PageTool::Screenshot,
            Some(json!({"mime": "image/jpeg", "base64": "", "width": 800, "height": 600})),
        ),
        (PageTool::Screenshot, None),
        (
            PageTool::CloseBanners { budget_ms: None },
            Some(json!({"closed": ["Отклонить"]})),
        ),
        (
            PageTool::CloseBanners { budget_ms: None },
            Some(json!({"closed": ["Отклонить", "Нет"]})),
        ),
        (PageTool::CloseBanners { budget_ms: None }, None),
        (
            PageTool::Upload {
                index: 7,
                paths: vec![],
                files: vec![],
            },
            Some(json!({"files": ["резюме.pdf", "фото.png"]})),
        ),
        (
            PageTool::DownloadWait { timeout_ms: None },
            Some(json!({"filename": "/дом/отчёт.pdf", "url": "", "bytes": 12_000, "state": "complete"})),
        ),
        (
            PageTool::DownloadWait { timeout_ms: None },
            Some(json!({"filename": "/дом/отчёт.pdf", "url": "", "bytes": 3_500_000, "state": "complete"})),
        ),
        (
            PageTool::DownloadWait { timeout_ms: None },
            Some(
                json!({"filename": "отчёт.pdf", "url": "", "bytes": 3, "state": "interrupted", "error": "сеть"}),
            ),
        ),
        (PageTool::DownloadWait { timeout_ms: None }, None),
        (PageTool::Describe { index: 1 }, None),
        (PageTool::FindBanners, None),
        (
            PageTool::Extract,
            Some(
                json!({"title": "Магазин", "url": "http://x/", "headings": [{"text": "Корзина"}], "snippet": "Всё для дома"}),
            ),
        ),
        (PageTool::Extract, None),
        (PageTool::Wait { ms: None }, Some(json!({"settled": true}))),
        (PageTool::Wait { ms: None }, None),
        (
            PageTool::ListTabs,
            Some(json!({"tabs": [{"index": 1, "title": "Магазин", "active": true, "pinned": true}]})),
        ),
        (PageTool::ListTabs, None),
        (
            PageTool::SwitchTab { index: 2 },
            Some(json!({"title": "Магазин"})),
        ),
        (
            PageTool::Navigate { url: "x".into() },
            Some(json!({"title": "Магазин", "url": "http://x/", "loaded": true})),
        ),
        (
            PageTool::Back,
            Some(json!({"title": "Магазин", "url": "http://x/"})),
        ),
        (PageTool::Forward, None),
        (PageTool::Reload, None),
        (PageTool::OpenInNewTab { url: "x".into() }, None),
    ];
    for (tool, data) in tools {
        out.push(tool_answer(&tool, data.as_ref()));
    }
    for direction in [
        ScrollDirection::Up,
        ScrollDirection::Down,
        ScrollDirection::Top,
        ScrollDirection::Bottom,
    ] {
        for scrolled in [true, false] {
            let tool = PageTool::Scroll {
                direction,
                index: None,
            };
            out.push(tool_answer(&tool, Some(&json!({ "scrolled": scrolled }))));
        }
    }
    for effect in ["submitted", "activated", "focus moved", ""] {
        let tool = PageTool::Press {
            key: " ".into(),
            index: None,
        };
        out.push(tool_answer(&tool, Some(&json!({ "effect": effect }))));
    }
    for kind in ["alert", "confirm", "prompt", "leave"] {
        for text in ["Удалить таблицу?", ""] {
            out.push(page_dialog(kind, text));
        }
    }
    out.extend([
        no_tab(),
        page_did_not_answer("причина"),
        page_kept_changing(),
        frame_did_not_answer("причина"),
        browser_page_closed("chrome://settings"),
        web_store_closed("https://chromewebstore.google.com"),
        file_page_closed("file:///tmp/a.html"),
        page_needs_reload("http://x/"),
        page_policy_refuses("http://x/"),
        page_not_entered("http://x/"),
        page_still_loading(10),
        tab_closed(),
        unreadable_answer(),
        answer_not_described("причина"),
        no_numbers_yet(),
        no_such_number(40, 12),
        pinned_page_changed(),
        not_through_gate(),
        guard_failed(),
        banners_through_gate(),
        workers_message(),
        picture_not_taken(),
        picture_busy(),
        picture_refused("причина"),
        picture_no_tab("причина"),
        picture_tab_behind(),
        picture_no_window(),
        picture_unreadable(),
        downloads_unwatched("причина"),
        no_download_after_click(4, 1_500),
        no_download(30_000),
        download_stopped("отчёт.pdf", None),
        download_unfinished(Some("отчёт.pdf"), 1_000),
        download_unfinished(None, 2_000),
        no_file_arrived(7),
        no_address(),
        script_address_refused(),
        navigation_failed("причина"),
        new_tab_failed("причина"),
        tabs_unlisted("причина"),
        tab_switch_failed("причина"),
        no_such_tab(5, 3),
        settings_not_connected("состояние"),
        settings_worker_unreachable(),
        settings_refused("причина"),
        settings_saved(),
        settings_loaded(),
        settings_saving(),
        settings_save_not_connected(),
        settings_hint_env(),
        settings_override("Модель", "WAYMARK_LLM_MODEL"),
        settings_hint_key(true),
        settings_hint_key(false),
        settings_source(Some("/дом/config.toml")),
        settings_source(None),
        settings_problems(2),
        settings_error_url(),
        settings_error_model(),
        settings_error_key(),
        settings_error_steps(1, 1000),
        settings_error_budget(0, 30_000),
        checks_not_connected(),
        checks_running(),
        checks_done(0),
        checks_done(3),
    ]);
    out.extend(fault_sentences());
    for status in [CheckStatus::Ok, CheckStatus::Warning, CheckStatus::Problem] {
        out.push(check_mark(status));
    }
    for name in ["config", "llm", "chat", "state", "browser", "manifest:Chromium"] {
        out.push(check_line(name, "подробности", Some("исправление")));
    }
    out.push(check_line("config", "подробности", None));
    for page in [side_panel(), settings_page()] {
        out.push(page.title);
        out.extend(page.elements.into_iter().map(|(_, _, text)| text));
    }
    out
}

/// Every sentence about a fault in the host's setup, for every kind of fault, with and without its
/// path, detail and key.
fn fault_sentences() -> Vec<String> {
    use waymark_protocol::{FaultKind, HostFault};
    let kinds = [
        FaultKind::StateNotAFolder,
        FaultKind::StatePermissionDenied,
        FaultKind::StateReadOnly,
        FaultKind::StateUnwritable,
        FaultKind::ConfigUnreadable,
        FaultKind::ConfigDoesNotParse,
        FaultKind::ConfigBadValue,
        FaultKind::ConfigBadEnv,
        FaultKind::NoStateDir,
    ];
    let mut out = vec![config_file_problems(2), saved_keeping_copy("/дом/старое.toml")];
    for kind in kinds {
        for (path, detail, key) in [
            (None, None, None),
            (
                Some("/дом/папка"),
                Some("ошибка ввода-вывода"),
                Some("max_tool_steps"),
            ),
            (Some("/дом/папка"), Some("неверно"), Some("llm_timeout_secs")),
        ] {
            let fault = HostFault {
                kind,
                path: path.map(str::to_owned),
                key: key.map(str::to_owned),
                detail: detail.map(str::to_owned),
            };
            if kind.is_state_dir() {
                out.push(not_saved(&fault));
            } else {
                out.push(settings_not_loaded(&fault));
            }
            out.push(host_fault(&fault));
        }
    }
    out
}

/// Every sentence, and the activity view's lines, one per kind of event, in the context's language.
fn every_sentence_and_activity() -> Vec<String> {
    let mut sentences = every_sentence();
    {
        use crate::activity::{Answered, Event};
        for event in [
            Event::Tool {
                name: "browser_navigate",
                ok: true,
                summary: "открыто",
            },
            Event::Client {
                source: "Клиент",
                tool: "browser_navigate",
                ok: false,
                summary: "открыто",
            },
            Event::Question {
                manual: false,
                text: "вопрос",
            },
            Event::Question {
                manual: true,
                text: "шаг",
            },
            Event::Answer(Answered::Yes),
            Event::Answer(Answered::No),
            Event::Answer(Answered::Done),
            Event::Answer(Answered::Withdrawn),
            Event::Error("сбой"),
            Event::Stopped("остановлено"),
        ] {
            sentences.push(activity_line(&event));
        }
    }
    sentences
}

#[test]
fn every_sentence_is_in_its_language_in_every_language() {
    // Values given in Latin letters: versions, addresses, tool and variable names, key names.
    let values = [
        // Commands, longest first: a command is a value, not words to translate.
        "waymark-host install --browser edge --extension-id cefdccnmncoeemlgklbddcicjlldkfko",
        "./build.sh install",
        "waymark-host",
        "Alt+Shift+Y",
        "browser_navigate",
        "WAYMARK_LLM_MODEL",
        "config.toml",
        "Chromium",
        "chrome://settings",
        "https://chromewebstore.google.com",
        "file:///tmp/a.html",
        "http://x/",
        "pdf",
        "png",
        "max_tool_steps",
        "llm_timeout_secs",
        "config.toml",
    ];
    set_language("en");
    let english = every_sentence_and_activity();
    let languages: Vec<_> = waymark_i18n::languages()
        .filter(|l| *l != waymark_i18n::FALLBACK)
        .collect();
    assert!(languages.len() >= 2, "{languages:?}");
    for language in languages {
        set_language(language);
        for sentence in every_sentence_and_activity() {
            assert!(!sentence.trim().is_empty());
            let foreign = waymark_i18n::foreign_words(&sentence, language, &values);
            assert!(
                foreign.is_empty(),
                "{language}: English in {sentence:?}: {foreign:?}"
            );
        }
        // The check can fail: said in English, nearly every sentence has English words.
        let caught = english
            .iter()
            .filter(|s| !waymark_i18n::foreign_words(s, language, &values).is_empty())
            .count();
        assert!(
            caught * 10 > english.len() * 9,
            "{language}: {caught} of {}",
            english.len()
        );
    }
    set_language("en");
}
