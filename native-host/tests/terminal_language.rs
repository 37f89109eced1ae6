//! The commands a person runs in a terminal speak the terminal's language: the real binary's
//! `doctor`, `install` and `uninstall`, run with a Russian locale and with the C locale, in an
//! environment of its own (a temp home, a model address where nothing answers), so nothing reaches
//! the machine's own configuration, browsers or network.
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

/// `command` run with a temp home and `locale`, without a terminal.
fn run(home: &Path, command: &[&str], locale: &[(&str, &str)]) -> Output {
    let mut run = Command::new(env!("CARGO_BIN_EXE_waymark-host"));
    run.args(command)
        .env_clear()
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_DATA_HOME", home.join("data"))
        .env("WAYMARK_LOG", "off")
        .stdin(std::process::Stdio::null());
    for (name, value) in locale {
        run.env(name, value);
    }
    run.output().unwrap()
}

#[test]
fn install_and_uninstall_speak_the_terminals_language() {
    let home = tempfile::tempdir().unwrap();
    let russian = [("LC_MESSAGES", "ru_RU.UTF-8"), ("LANG", "C")];
    // Not a terminal and no --browser: install refuses, saying what to pass, in Russian.
    let refused = run(home.path(), &["install"], &russian);
    assert!(!refused.status.success());
    let said = String::from_utf8(refused.stderr).unwrap();
    assert!(
        said.starts_with("waymark-host: какие браузеры? install спрашивает только в терминале"),
        "{said}"
    );

    // Registered for a profile folder, then removed: each step in Russian.
    let profile = home.path().join("profile");
    let installed = run(
        home.path(),
        &["install", "--user-data-dir", profile.to_str().unwrap()],
        &russian,
    );
    let said = String::from_utf8(installed.stderr).unwrap();
    assert!(installed.status.success(), "{said}");
    assert!(
        said.contains("io.waymark.host зарегистрирован для профиля: "),
        "{said}"
    );
    assert!(said.contains("`waymark-host uninstall` всё это удалит"), "{said}");
    let removed = run(home.path(), &["uninstall"], &russian);
    let said = String::from_utf8(removed.stderr).unwrap();
    assert!(removed.status.success(), "{said}");
    assert!(said.starts_with("удалён "), "{said}");
    let again = run(home.path(), &["uninstall"], &[("LANG", "ru_RU.UTF-8")]);
    let said = String::from_utf8(again.stderr).unwrap();
    assert!(said.contains("ничего не записано"), "{said}");

    // The C locale: English.
    let again = run(
        home.path(),
        &["uninstall"],
        &[("LC_ALL", "C"), ("LANG", "ru_RU.UTF-8")],
    );
    let said = String::from_utf8(again.stderr).unwrap();
    assert!(said.starts_with("nothing is recorded in "), "{said}");
}
