//! The question names the item and the page's own words, and a yes looks again: a list that redrew
//! its rows in place between the question and the yes gets a new question, and nothing runs.

use std::sync::atomic::{AtomicUsize, Ordering};

use waymark_protocol::{Item, ItemKind};

use super::*;

fn delete_in_row(subject: &str) -> ElementInfo {
    ElementInfo {
        item: Some(Item {
            kind: ItemKind::Row,
            name: subject.into(),
            position: Some(3),
            of: Some("Inbox".into()),
        }),
        ..button("Delete")
    }
}

#[tokio::test]
async fn the_question_names_the_row_and_the_pages_own_question() {
    let mut fake = extension(on(delete_in_row("Quarterly report, Ann")));
    fake.gate.clone().user_tool(click(1)).await;
    let q = fake.question().await;
    assert_eq!(
        q.text,
        "Click button 'Delete' for 'Quarterly report, Ann' (row 3 of 'Inbox') on shop.example?"
    );
    fake.answer(q.id, false).await;

    let ok = ElementInfo {
        asks: Some("Delete your account permanently? This cannot be undone.".into()),
        ..button("OK")
    };
    let mut fake = extension(on(ok));
    fake.gate.clone().user_tool(click(2)).await;
    let q = fake.question().await;
    assert_eq!(
        q.text,
        "Click button 'OK': this answers the page's question 'Delete your account permanently? This \
         cannot be undone.' on shop.example. Yes or no?"
    );
    fake.answer(q.id, false).await;
    assert!(fake.ran().await.is_empty());
}

#[tokio::test]
async fn a_yes_after_the_row_was_reused_runs_nothing_and_asks_again() {
    // The first description is the question's; at the yes the same element sits in a row that now holds
    // another mail (a list that reuses its rows).
    let looks = Arc::new(AtomicUsize::new(0));
    let seen = looks.clone();
    let describe: Describe = Arc::new(move |_| {
        let subject = if seen.fetch_add(1, Ordering::SeqCst) == 0 {
            "Quarterly report"
        } else {
            "Budget 2025"
        };
        effect_on(delete_in_row(subject))
    });
    let mut fake = extension(describe);
    fake.gate.clone().user_tool(click(7)).await;
    let first = fake.question().await;
    assert!(first.text.contains("for 'Quarterly report'"), "{}", first.text);
    fake.answer(first.id, true).await;
    let again = fake.question().await;
    assert_ne!(again.id, first.id);
    assert_eq!(
        again.text,
        "The page changed since the question: it now acts on 'Budget 2025', not 'Quarterly report'. \
         Click button 'Delete' for 'Budget 2025' (row 3 of 'Inbox') on shop.example?"
    );
    // The old question's yes does nothing more; the new one's runs, where it was judged.
    fake.answer(first.id, true).await;
    fake.answer(again.id, true).await;
    let done = fake.reply().await;
    assert_eq!((done.id, done.result.error), (7, None));
    assert_eq!(
        looks.load(Ordering::SeqCst),
        3,
        "described for each question and at each yes"
    );
    let ran = fake.ran().await;
    assert_eq!(ran.len(), 1, "{ran:?}");
    assert_eq!(ran[0].1, Some(pin(Some(17))));
}

#[tokio::test]
async fn a_yes_looks_again_and_runs_when_nothing_changed() {
    let looks = Arc::new(AtomicUsize::new(0));
    let seen = looks.clone();
    let describe: Describe = Arc::new(move |_| {
        seen.fetch_add(1, Ordering::SeqCst);
        effect_on(delete_in_row("Quarterly report"))
    });
    let mut fake = extension(describe);
    fake.gate.clone().user_tool(click(8)).await;
    let q = fake.question().await;
    fake.answer(q.id, true).await;
    let done = fake.reply().await;
    assert_eq!(done.result.error, None);
    assert_eq!(looks.load(Ordering::SeqCst), 2);
    assert_eq!(fake.ran().await.len(), 1);
}

#[test]
fn every_part_of_a_description_the_question_said_is_compared() {
    let asked = effect_on(delete_in_row("Quarterly report"));
    let same = asked.clone();
    assert_eq!(recheck::change(&asked, &same), None);
    let mut renamed = asked.clone();
    if let Some(t) = renamed.target.as_mut() {
        t.name = "Delete all".into();
    }
    assert!(matches!(
        recheck::change(&asked, &renamed),
        Some(recheck::Change::Words { .. })
    ));
    let mut elsewhere = asked.clone();
    if let Some(t) = elsewhere.target.as_mut() {
        t.link = Some(LinkInfo {
            href: "https://shop.example/account/delete".into(),
            ..Default::default()
        });
    }
    assert!(matches!(
        recheck::change(&asked, &elsewhere),
        Some(recheck::Change::Destination { .. })
    ));
    let mut sent = asked.clone();
    if let Some(t) = sent.target.as_mut() {
        t.submits = Some(Submission {
            action: "https://shop.example/purge".into(),
            method: "post".into(),
            ..Default::default()
        });
    }
    assert!(matches!(
        recheck::change(&asked, &sent),
        Some(recheck::Change::Form { .. })
    ));
    let mut question = asked.clone();
    if let Some(t) = question.target.as_mut() {
        t.asks = Some("Delete all 214 messages?".into());
    }
    assert!(matches!(
        recheck::change(&asked, &question),
        Some(recheck::Change::Asks { .. })
    ));
    let mut gone = asked.clone();
    if let Some(t) = gone.target.as_mut() {
        t.item = None;
    }
    assert!(matches!(
        recheck::change(&asked, &gone),
        Some(recheck::Change::Item { now: None, .. })
    ));
    // The same item in another row (the list was sorted) is the same item.
    let mut moved = asked.clone();
    if let Some(Some(item)) = moved.target.as_mut().map(|t| t.item.as_mut()) {
        item.position = Some(1);
    }
    assert_eq!(recheck::change(&asked, &moved), None);
}

#[test]
fn what_changed_is_said_in_russian_too() {
    let words = Words::new("ru-RU");
    let said = recheck::said(
        &words,
        &recheck::Change::Item {
            before: "Квартальный отчёт".into(),
            now: Some("Бюджет".into()),
        },
        "Нажать «Удалить» (кнопка)?".into(),
    );
    assert_eq!(
        said,
        "Страница изменилась после вопроса: теперь это действие над «Бюджет», а не над «Квартальный \
         отчёт». Нажать «Удалить» (кнопка)?"
    );
}
