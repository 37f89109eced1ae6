//! Unit tests of the panel's wording: each sentence from its protocol data, in English and Russian.

use super::*;
use waymark_protocol::InteractiveList;

#[test]
fn status_lines_say_what_to_do() {
    assert_eq!(
        connection_status(&ConnectionState::Connected {
            host_version: "0.1.0".into(),
            pid: 1,
            faults: Vec::new(),
        }),
        "Connected."
    );
    assert_eq!(
        connection_status(&ConnectionState::NotInstalled { retry_in_ms: 500 }),
        "Waymark's host is not installed for this browser: install the waymark-host package, or from \
         source run ./build.sh install"
    );
    // A refused extension hears the command that allows it, for its own id and browser.
    assert_eq!(
        connection_status(&ConnectionState::Forbidden {
            retry_in_ms: 500,
            extension_id: "abcdefghijklmnopabcdefghijklmnop".into(),
            browser: waymark_protocol::BrowserBrand::Chrome,
        }),
        "Waymark's host here does not allow this extension. To allow it, run in a terminal: waymark-host \
         install --browser chrome --extension-id abcdefghijklmnopabcdefghijklmnop"
    );
    let retry_a = ConnectionState::Disconnected {
        why: Disconnection::Exited,
        retry_in_ms: 250,
    };
    let retry_b = ConnectionState::Disconnected {
        why: Disconnection::Exited,
        retry_in_ms: 500,
    };
    assert_eq!(
        connection_status(&retry_a),
        connection_status(&retry_b),
        "retries are not re-announced"
    );
    assert_eq!(
        connection_status(&retry_a),
        "Waymark host disconnected (the host program ended); reconnecting…"
    );
}

#[test]
fn pong_names_version_and_process() {
    let p = Pong {
        id: 1,
        host_version: "0.1.0".into(),
        pid: 4242,
    };
    assert_eq!(pong(2.6), "Pong, 3 ms.");
    assert_eq!(
        pong_detail(&p, 2.6),
        "Waymark host 0.1.0, process 4242, answered in 3 ms."
    );
}

#[test]
fn lists_read_as_number_role_name() {
    use waymark_protocol::Interactive;
    let item = |index, role: &str, name: &str| Interactive {
        index,
        role: role.into(),
        name: name.into(),
        value: None,
        states: vec![],
        context: None,
    };
    let mut list = InteractiveList {
        url: "http://x/".into(),
        title: "Shop".into(),
        total: 2,
        offset: 0,
        items: vec![item(1, "button", "Add to cart"), item(2, "link", "")],
    };
    list.items[0].states.push("pressed".into());
    assert_eq!(
        interactive_list(&list),
        "2 controls on \"Shop\":\n1, button, Add to cart, pressed\n2, link, no name"
    );
    list.total = 30;
    let page = interactive_list(&list);
    assert!(page.starts_with("30 controls on \"Shop\", 1 to 2:"));
    assert!(page.ends_with("\nSay /more for the next 28."), "{page}");
}

#[test]
fn agent_states_read_differently() {
    let states = [
        AgentState::Running,
        AgentState::Idle,
        AgentState::WaitingUser,
        AgentState::Error,
    ];
    let texts: std::collections::BTreeSet<String> = states.into_iter().map(agent_status).collect();
    assert_eq!(texts.len(), 4);
    assert!(chat_mode(true).contains("/exit"));
    assert!(chat_unavailable().contains("/chat"));
}

#[test]
fn help_lists_every_command() {
    let h = help();
    for c in crate::commands::COMMANDS {
        assert!(h.contains(c), "{c}");
    }
}

#[test]
fn sentences_follow_the_language_set_for_the_context() {
    set_language("ru-RU");
    let russian = pong(24.4);
    set_language("en");
    assert_eq!(russian, "Понг, 24 мс.");
    assert_eq!(pong(24.4), "Pong, 24 ms.");
}

#[test]
fn the_list_and_its_plurals_in_russian() {
    use waymark_protocol::Interactive;
    set_language("ru");
    let item = |index, role: &str, name: &str| Interactive {
        index,
        role: role.into(),
        name: name.into(),
        value: None,
        states: vec![],
        context: None,
    };
    let mut list = InteractiveList {
        url: "http://x/".into(),
        title: "Магазин".into(),
        total: 2,
        offset: 0,
        items: vec![item(1, "button", "В корзину"), item(2, "link", "")],
    };
    list.items[0].states.push("pressed".into());
    list.items[1].value = Some("42".into());
    assert_eq!(
        interactive_list(&list),
        "2 элемента на странице «Магазин»:\n1, кнопка, В корзину, нажато\n2, ссылка, без названия, значение 42"
    );
    list.total = 25;
    let page = interactive_list(&list);
    assert!(
        page.starts_with("25 элементов на странице «Магазин», с 1 по 2:"),
        "{page}"
    );
    assert!(page.ends_with("\nДальше ещё 23: введите /more."), "{page}");
    list.total = 21;
    assert!(interactive_list(&list).starts_with("21 элемент на странице"));
    set_language("en");
}

#[test]
fn a_clients_refused_step_is_said_without_doubled_words() {
    let refused = waymark_protocol::Activity {
        source: "Claude Desktop".into(),
        tool: "browser_overlay_act".into(),
        ok: false,
        changes_page: true,
        summary: "Not done: you said no.".into(),
    };
    assert_eq!(activity(&refused), "Claude Desktop: Not done: you said no.");
    let done = waymark_protocol::Activity {
        ok: true,
        summary: "Clicking 12: done".into(),
        ..refused
    };
    assert_eq!(activity(&done), "Claude Desktop: Clicking 12: done");
}
