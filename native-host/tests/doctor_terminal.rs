//! `waymark-host doctor` in a terminal speaks the terminal's language: the real binary, run with a
//! Russian locale and with the C locale, in an environment of its own (a temp home, a model address
//! where nothing answers), so no check reaches the machine's own configuration or network.
#![allow(clippy::unwrap_used)] // test code

use std::path::Path;
use std::process::{Command, Output};

/// The doctor's run with `locale` as `LANG` (and the other locale variables unset).
fn doctor(home: &Path, locale: &[(&str, &str)]) -> Output {
    // A port that was just free: nothing answers there, at once.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut command = Command::new(env!("CARGO_BIN_EXE_waymark-host"));
    command
        .arg("doctor")
        .env_clear()
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("WAYMARK_STATE_DIR", home.join("state"))
        .env("WAYMARK_LLM_BASE_URL", format!("http://127.0.0.1:{port}/v1"))
        .env("WAYMARK_LOG", "off");
    for (name, value) in locale {
        command.env(name, value);
    }
    command.output().unwrap()
}

#[test]
fn doctor_speaks_the_terminals_language() {
    let home = tempfile::tempdir().unwrap();
    let russian = doctor(home.path(), &[("LANG", "ru_RU.UTF-8")]);
    let report = String::from_utf8(russian.stdout).unwrap();
    let complaint = String::from_utf8(russian.stderr).unwrap();
    assert!(
        !russian.status.success(),
        "nothing answers, so it is broken: {report}"
    );
    // One line per check, each in Russian: its mark, and what was found.
    assert!(report.lines().count() >= 4, "{report}");
    assert!(report.contains("в порядке  config: файла "), "{report}");
    assert!(
        report.contains("ошибка     llm: по адресу http://127.0.0.1:"),
        "{report}"
    );
    assert!(report.contains("как исправить: запущена ли Ollama"), "{report}");
    for line in report.lines() {
        assert!(
            line.chars().any(|c| ('а'..='я').contains(&c)),
            "not Russian: {line}"
        );
    }
    assert!(
        complaint.contains("некоторые проверки нашли ошибки"),
        "{complaint}"
    );

    // LC_ALL wins over LANG, and C is English.
    let english = doctor(home.path(), &[("LC_ALL", "C"), ("LANG", "ru_RU.UTF-8")]);
    let report = String::from_utf8(english.stdout).unwrap();
    assert!(report.contains("problem  llm: nothing answers at"), "{report}");
    assert!(!report.chars().any(|c| ('а'..='я').contains(&c)), "{report}");
}
