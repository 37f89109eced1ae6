//! The agent's events in the browser's language: with a browser that speaks Russian, the progress
//! lines, the accounts of steps, the step-limit summary, the stop, a hand-over and a failing model
//! server are Russian, with Russian plurals; the model's own words pass as they are. The last test
//! holds every language but English to the same: no English word but values.

use super::*;
use crate::language::latin_words;

/// Every sentence Waymark composed in these events (not the model's words).
fn sentences(seen: &Seen) -> Vec<String> {
    seen.events()
        .into_iter()
        .filter_map(|e| match e {
            AgentEvent::Progress { text }
            | AgentEvent::Message { text }
            | AgentEvent::Error { text }
            | AgentEvent::Stopped { text } => Some(text),
            AgentEvent::Tool { summary, .. } => Some(summary),
            AgentEvent::Status { .. } | AgentEvent::NotSaved { .. } => None,
        })
        .collect()
}

fn assert_russian(text: &str, values: &[&str]) {
    let english = latin_words(text, values);
    assert!(english.is_empty(), "English words {english:?} in: {text}");
}

#[tokio::test]
async fn progress_outcomes_and_the_step_limit_are_russian() {
    let steps = vec![list(), Step::tool_call("browser_extract", json!({})), list()];
    let harness = Harness::start_speaking("ru-RU", shop(), steps, 2).await;
    harness.chat("Осмотрись").await;
    let (seen, _) = harness.finish().await;
    let said = sentences(&seen);
    assert!(said.len() >= 5, "{said:?}");
    for text in &said {
        assert_russian(text, &[]);
    }
    let message = seen.last_message();
    assert!(
        message.starts_with("Сделано 2 шага — это предел для одного сообщения"),
        "{message}"
    );
    assert!(
        message.contains("Читаю элементы страницы: 3 элемента"),
        "{message}"
    );
    assert!(message.contains("2 шага удались, неудач нет."), "{message}");
    assert!(
        message.ends_with("Продолжить? Скажите «продолжай» или что изменить."),
        "{message}"
    );
}

#[tokio::test]
async fn a_stop_says_what_was_done_in_russian() {
    let steps = vec![list(), click(1).delayed(4_000)];
    let harness = Harness::start_speaking("ru", shop(), steps, 10).await;
    let agent = harness.agent.clone();
    let run = tokio::spawn(async move {
        agent
            .chat(Chat {
                id: 1,
                tab_id: Some(7),
                text: "Сохрани черновик".into(),
                language: Some("ru".into()),
            })
            .await
    });
    for _ in 0..500 {
        if harness.llm.requests().len() >= 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    harness.agent.clone().stop().await;
    run.await.unwrap();
    // Nothing is running now: a second stop says so.
    harness.agent.clone().stop().await;
    let (seen, _) = harness.finish().await;
    let stopped: Vec<String> = seen
        .events()
        .into_iter()
        .filter_map(|e| match e {
            AgentEvent::Stopped { text } => Some(text),
            _ => None,
        })
        .collect();
    assert_eq!(
        stopped,
        [
            "Остановлено. Уже сделано: Читаю элементы страницы: 3 элемента. Скажите «продолжай», \
             чтобы продолжить.",
            "Агент сейчас ничем не занят."
        ]
    );
}

#[tokio::test]
async fn a_hand_over_and_a_failing_model_server_are_russian() {
    let steps = vec![Step::tool_call("assistant_handoff", json!({}))];
    let harness = Harness::start_speaking("ru", shop(), steps, 10).await;
    harness.chat("Войди в мой аккаунт").await;
    let (seen, _) = harness.finish().await;
    let questions = seen.questions();
    assert_eq!(
        questions[0].text,
        "На странице есть шаг, который можете сделать только вы. Скажите «готово», когда закончите."
    );

    let harness = Harness::start_speaking("ru", shop(), vec![Step::status(401)], 10).await;
    harness.chat("Привет").await;
    let (seen, _) = harness.finish().await;
    let error = seen.last_message();
    assert!(error.contains("отвергла ключ API (HTTP 401)"), "{error}");
    // The server's address and its own words (in the last brackets) are values, said as they are.
    let address = error
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_default();
    let ours = error.rsplit_once(" (").map_or(error.as_str(), |(ours, _)| ours);
    assert_russian(
        ours,
        &[address, "API", "HTTP", "WAYMARK_LLM_API_KEY", "OPENAI_API_KEY"],
    );
}

#[tokio::test]
async fn a_saved_session_that_cannot_be_read_is_said_in_russian() {
    let dir = Arc::new(tempfile::tempdir().unwrap());
    std::fs::create_dir_all(dir.path().join("sessions")).unwrap();
    std::fs::write(dir.path().join("sessions/current.json"), b"{\"version\": ").unwrap();
    let harness = Harness::start_with(dir, shop(), vec![done("Готово.")], 10, false, "ru").await;
    harness.chat("Привет").await;
    let (seen, _) = harness.finish().await;
    let said = sentences(&seen);
    let notice = &said[0];
    assert!(
        notice.starts_with("Не удалось прочитать сохранённый сеанс, поэтому начинаю заново: это не сеанс"),
        "{notice}"
    );
    assert!(notice.contains("Файл сохранён как "), "{notice}");
}

/// The same events in every language but English: progress, accounts of steps and the step limit, a
/// hand-over, and a failing model server hold no English word but values (addresses, key names).
#[tokio::test]
async fn every_language_says_the_agents_events_without_english() {
    use crate::language::{foreign_words, other_languages};
    for language in other_languages() {
        let no_english = |text: &str, values: &[&str]| {
            let english = foreign_words(text, language, values);
            assert!(
                english.is_empty(),
                "{language}: English words {english:?} in: {text}"
            );
        };
        let steps = vec![list(), Step::tool_call("browser_extract", json!({})), list()];
        let harness = Harness::start_speaking(language, shop(), steps, 2).await;
        harness.chat("…").await;
        let (seen, _) = harness.finish().await;
        let said = sentences(&seen);
        assert!(said.len() >= 5, "{language}: {said:?}");
        for text in &said {
            no_english(text, &[]);
        }

        let steps = vec![Step::tool_call("assistant_handoff", json!({}))];
        let harness = Harness::start_speaking(language, shop(), steps, 10).await;
        harness.chat("…").await;
        let (seen, _) = harness.finish().await;
        no_english(&seen.questions()[0].text, &[]);

        let harness = Harness::start_speaking(language, shop(), vec![Step::status(401)], 10).await;
        harness.chat("…").await;
        let (seen, _) = harness.finish().await;
        let error = seen.last_message();
        let address = error
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_default();
        let ours = error.rsplit_once(" (").map_or(error.as_str(), |(ours, _)| ours);
        no_english(ours, &[address]);
    }
}
