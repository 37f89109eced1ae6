//! Tests of `waymark-host doctor`'s checks: the config file, the LLM endpoint against a local server,
//! the native-messaging manifests and the browser's connection. Nothing here reaches past 127.0.0.1.

use std::collections::BTreeMap;

use fake_llm::{FakeLlm, Script};

use super::*;
use crate::test_paths::{abs, path};

fn env_of(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
    let map: BTreeMap<String, String> = pairs.iter().map(|(k, v)| ((*k).to_owned(), abs(v))).collect();
    move |name: &str| map.get(name).cloned()
}

pub(super) fn english() -> Words {
    Words::english()
}

pub(super) fn config_with(base_url: &str, key: Option<&str>) -> Config {
    let mut pairs = vec![("HOME", "/home/ada"), ("WAYMARK_LLM_BASE_URL", base_url)];
    if let Some(key) = key {
        pairs.push(("WAYMARK_LLM_API_KEY", key));
    }
    Config::load_from(&env_of(&pairs), None).unwrap()
}

#[test]
fn config_check_names_the_file_and_the_environment_and_hides_the_key() {
    let env = env_of(&[("HOME", "/home/ada"), ("WAYMARK_LLM_MODEL", "llama3.1")]);
    let path = Some(path("/home/ada/.config/waymark/config.toml"));
    let text = Ok(Some(
        "llm_api_key = \"sk-secret-1\"\nmax_tool_steps = 7\n".to_owned(),
    ));
    let (check, config) = check_config(&env, (path.clone(), text), &english());
    assert_eq!(check.status, Status::Ok, "{check:?}");
    assert!(config.is_some());
    assert!(
        check
            .detail
            .contains(&format!("read {}", abs("/home/ada/.config/waymark/config.toml"))),
        "{check:?}"
    );
    assert!(check.detail.contains("WAYMARK_LLM_MODEL"), "{check:?}");
    assert!(check.detail.contains("an API key is set"), "{check:?}");
    assert!(check.detail.contains("step limit 7"), "{check:?}");
    assert!(!format!("{check:?}").contains("sk-secret-1"));

    let (check, _) = check_config(&env, (path.clone(), Ok(None)), &english());
    assert!(check.detail.contains("defaults used"), "{check:?}");

    let (check, config) = check_config(
        &env,
        (path.clone(), Ok(Some("max_tool_steps = 0".into()))),
        &english(),
    );
    assert_eq!(check.status, Status::Problem);
    assert!(config.is_none());
    assert!(check.detail.contains("max_tool_steps"), "{check:?}");
    assert!(
        check.fix.as_deref().unwrap_or("").contains("config.toml"),
        "{check:?}"
    );

    assert!(
        check.fix.as_deref().unwrap_or("").contains("settings page"),
        "a key the settings page sets: {check:?}"
    );
    let (check, _) = check_config(
        &env,
        (path.clone(), Ok(Some("llm_timeout_secs = 0".into()))),
        &english(),
    );
    let fix = check.fix.unwrap_or_default();
    assert!(fix.contains("edit llm_timeout_secs in"), "{fix}");
    assert!(!fix.contains("settings page"), "the page cannot set it: {fix}");
    // A file that does not parse: the settings page replaces it, keeping a copy.
    let (check, _) = check_config(&env, (path.clone(), Ok(Some("llm_model = ".into()))), &english());
    let fix = check.fix.unwrap_or_default();
    assert!(
        fix.contains("save the settings page") && fix.contains("keeps the old one"),
        "{fix}"
    );

    let bad_env = env_of(&[("HOME", "/home/ada"), ("WAYMARK_MAX_TOOL_STEPS", "lots")]);
    let (check, _) = check_config(&bad_env, (path.clone(), Ok(None)), &english());
    assert_eq!(
        check.fix.as_deref(),
        Some("change or unset WAYMARK_MAX_TOOL_STEPS")
    );

    let (check, _) = check_config(
        &env,
        (
            path,
            Err(std::io::Error::from(std::io::ErrorKind::PermissionDenied)),
        ),
        &english(),
    );
    assert_eq!(check.status, Status::Problem);
    assert!(check.detail.contains("permission denied"), "{check:?}");
}

#[tokio::test]
async fn llm_check_passes_against_a_server_that_answers() {
    let llm = FakeLlm::start(Script::new([])).await.unwrap();
    let mut config = config_with(llm.base_url(), Some("sk-test"));
    // The one model fake-llm lists.
    config.llm_model = "fake-model".into();
    let check = check_llm(&config, &english()).await;
    assert_eq!(check.status, Status::Ok, "{check:?}");
    assert!(check.detail.contains(llm.base_url()), "{check:?}");
}

#[test]
fn llm_check_reads_the_model_list() {
    let mut config = config_with("http://127.0.0.1:8000/v1", None);
    config.llm_model = "qwen2.5".into();
    let check = |body: &str| check_model_list(&config, body.as_bytes(), &english());
    // Ollama's list names the model with its tag.
    let ollama = r#"{"object":"list","data":[{"id":"qwen2.5:latest","object":"model"}]}"#;
    assert_eq!(check(ollama).status, Status::Ok, "{:?}", check(ollama));
    // llama-cpp-python 0.3.36 lists its alias, and answers any other model name with it.
    let llama = r#"{"object":"list","data":[{"id":"gemma-3-270m","object":"model","owned_by":"me","permissions":[]}]}"#;
    let warned = check(llama);
    assert_eq!(warned.status, Status::Warning, "{warned:?}");
    assert!(
        warned
            .detail
            .contains("model qwen2.5 is not among its models (gemma-3-270m)"),
        "{warned:?}"
    );
    assert!(warned.fix.unwrap().contains("WAYMARK_LLM_MODEL"));
    // Anything that is not a model list: a web page, JSON of another shape, nothing.
    for garbage in ["<html><body>It works!</body></html>", r#"{"status":"ok"}"#, ""] {
        let problem = check(garbage);
        assert_eq!(problem.status, Status::Problem, "{garbage}: {problem:?}");
        assert!(
            problem.detail.contains("not as an OpenAI-compatible API"),
            "{problem:?}"
        );
    }
}

#[tokio::test]
async fn llm_check_says_nothing_answers_and_how_to_fix_it() {
    // A port that was just free: nothing listens there.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let base = format!("http://127.0.0.1:{port}/v1");
    let check = check_llm(&config_with(&base, None), &english()).await;
    assert_eq!(check.status, Status::Problem);
    assert!(
        check.detail.contains(&format!("nothing answers at {base}")),
        "{check:?}"
    );
    let fix = check.fix.unwrap();
    assert!(
        fix.contains("Ollama") && fix.contains("WAYMARK_LLM_BASE_URL"),
        "{fix}"
    );
}

#[tokio::test]
async fn llm_check_times_out_on_a_silent_server() {
    // Accepts the connection but never answers.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}/v1", listener.local_addr().unwrap());
    let _held = tokio::spawn(async move {
        let mut open = Vec::new();
        while let Ok((stream, _)) = listener.accept().await {
            open.push(stream);
        }
    });
    let check = check_llm_with(&config_with(&base, None), Duration::from_millis(300), &english()).await;
    assert_eq!(check.status, Status::Problem);
    assert!(check.detail.contains("no answer within"), "{check:?}");
}

#[cfg(not(windows))]
#[test]
fn manifests_are_checked_for_binary_and_origin() {
    let dir = tempfile::tempdir().unwrap();
    let places = Places::under(Platform::CURRENT, dir.path());
    let binary = dir.path().join("waymark-host");
    std::fs::write(&binary, "").unwrap();
    let ours = [EXTENSION_ID.to_owned()];
    let write = |browser: Browser, scope: Scope, body: serde_json::Value| {
        let path = browser.manifest_path(Platform::CURRENT, scope, &places);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, body.to_string()).unwrap();
    };
    // Chrome: right. Chromium: a binary that is gone. Edge: installed, no manifest.
    write(
        Browser::Chrome,
        Scope::User,
        crate::install::manifest(&binary, &ours),
    );
    write(
        Browser::Chromium,
        Scope::User,
        crate::install::manifest(&dir.path().join("gone"), &ours),
    );
    let checks = check_manifests(&places, EXTENSION_ID, &english());
    assert_eq!(checks[0].status, Status::Ok, "{checks:?}");
    assert_eq!(checks[1].status, Status::Problem);
    assert!(checks[1].detail.contains("does not exist"), "{checks:?}");
    assert_eq!(checks[2].status, Status::Warning, "{checks:?}");
    assert!(checks[2].detail.contains("not installed"), "{checks:?}");

    std::fs::create_dir_all(Browser::Edge.user_data_dir(Platform::CURRENT, &places)).unwrap();
    let other_id = ["a".repeat(32)];
    write(
        Browser::Chromium,
        Scope::User,
        crate::install::manifest(&binary, &other_id),
    );
    let checks = check_manifests(&places, EXTENSION_ID, &english());
    assert!(checks[1].detail.contains("does not allow"), "{checks:?}");
    assert_eq!(checks[2].status, Status::Problem);
    assert_eq!(
        checks[2].fix.as_deref(),
        Some("run waymark-host install --browser edge")
    );

    // Registered for every user (the Debian package): found where the browser looks next.
    write(
        Browser::Edge,
        Scope::System,
        crate::install::manifest(&binary, &ours),
    );
    let checks = check_manifests(&places, EXTENSION_ID, &english());
    assert_eq!(checks[2].status, Status::Ok, "{checks:?}");
}

#[cfg(any(unix, windows))]
#[tokio::test]
async fn browser_check_needs_a_socket_that_accepts() {
    let dir = tempfile::tempdir().unwrap();
    let check = check_browser(dir.path(), &[Browser::Chromium], &english());
    assert_eq!(check.status, Status::Warning);
    assert_eq!(check.fix.as_deref(), Some("open Chromium with Waymark"));
    let both = check_browser(dir.path(), &[Browser::Chrome, Browser::Edge], &english());
    assert_eq!(
        both.fix.as_deref(),
        Some("open Google Chrome or Microsoft Edge with Waymark")
    );

    let run = crate::mcp::socket::run_dir(dir.path());
    // A record whose host is gone: its socket no longer accepts.
    drop(crate::mcp::socket::publish(&run, 1, None).unwrap());
    let dead = crate::mcp::socket::HostRecord {
        pid: 1,
        started: 1,
        profile: None,
        socket: run.join("host-1.sock"),
    };
    std::fs::write(run.join("host-1.json"), serde_json::to_vec(&dead).unwrap()).unwrap();
    assert_eq!(
        check_browser(dir.path(), &[Browser::Chromium], &english()).status,
        Status::Warning
    );

    let _live = crate::mcp::socket::publish(&run, 2, None).unwrap();
    let check = check_browser(dir.path(), &[Browser::Chromium], &english());
    assert_eq!(check.status, Status::Ok, "{check:?}");
    assert!(check.detail.contains("1 browser is connected"), "{check:?}");
}

#[test]
fn report_text_has_one_line_per_check_and_broken_means_a_problem() {
    let report = Report {
        checks: vec![
            Check::new("config", Status::Ok, "read x", None),
            Check::new(
                "browser",
                Status::Warning,
                "no browser",
                Some("open Chrome".into()),
            ),
        ],
    };
    assert!(!report.broken());
    assert_eq!(report.to_text(&english()).lines().count(), 2);
    assert!(report
        .to_text(&english())
        .contains("warning  browser: no browser — open Chrome"));
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["checks"][1]["status"], "warning");
    assert!(json["checks"][0].get("fix").is_none());
    let mut broken = report;
    broken
        .checks
        .push(Check::new("llm", Status::Problem, "down", None));
    assert!(broken.broken());
}

/// A Russian settings page (or terminal) hears every finding and fix in Russian: no English word but
/// the values (addresses, paths, names of settings and commands).
#[cfg(unix)]
#[tokio::test]
async fn every_finding_is_said_in_russian() {
    use crate::language::latin_words;
    let words = Words::new("ru");
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().display().to_string();
    let mut checks = Vec::new();
    let env = env_of(&[("HOME", "/home/ada"), ("WAYMARK_LLM_MODEL", "llama3.1")]);
    let file = Some(path("/home/ada/.config/waymark/config.toml"));
    for text in [
        Ok(Some("llm_api_key = \"sk-1\"".to_owned())),
        Ok(None),
        Ok(Some("max_tool_steps = 0".to_owned())),
        Ok(Some("llm_model = ".to_owned())),
        Err(std::io::Error::from(std::io::ErrorKind::PermissionDenied)),
    ] {
        checks.push(check_config(&env, (file.clone(), text), &words).0);
    }
    checks.push(
        check_config(
            &env_of(&[("HOME", "/home/ada")]),
            (file.clone(), Ok(None)),
            &words,
        )
        .0,
    );
    let mut config = config_with("http://127.0.0.1:8000/v1", None);
    config.llm_model = "qwen2.5".into();
    for body in [
        r#"{"data":[{"id":"qwen2.5"}]}"#,
        r#"{"data":[{"id":"gemma"}]}"#,
        "<html>",
    ] {
        checks.push(check_model_list(&config, body.as_bytes(), &words));
    }
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    checks.push(check_llm(&config_with(&format!("http://127.0.0.1:{port}/v1"), None), &words).await);
    let places = Places::under(Platform::CURRENT, dir.path());
    std::fs::create_dir_all(Browser::Edge.user_data_dir(Platform::CURRENT, &places)).unwrap();
    checks.extend(check_manifests(&places, EXTENSION_ID, &words));
    checks.push(check_browser(dir.path(), &[Browser::Chromium], &words));
    let state = dir.path().join("state");
    checks.push(state::check_state_dir(&state, &words));
    for kind in [
        std::io::ErrorKind::PermissionDenied,
        std::io::ErrorKind::ReadOnlyFilesystem,
    ] {
        let fault = crate::state_dir::fault_of(&state, &std::io::Error::from(kind));
        checks.push(state::fault_check(fault, &words));
    }
    for step in [
        fake_llm::Step::text("ok"),
        fake_llm::Step::status(500),
        fake_llm::Step::status(404),
        fake_llm::Step::status(400),
        fake_llm::Step::garbage(),
    ] {
        let llm = FakeLlm::start(Script::new([step])).await.unwrap();
        let config = config_with(llm.base_url(), None);
        checks.push(chat::check_chat_with(&config, Duration::from_secs(5), &words).await);
    }

    // The values a sentence may carry as they are: addresses, paths, settings, commands, models.
    let values = [
        home.as_str(),
        &abs("/home/ada/.config/waymark/config.toml"),
        &abs("/home/ada"),
        "http://127.0.0.1",
        "/v1",
        "/models",
        "WAYMARK_LLM_MODEL",
        "WAYMARK_LLM_BASE_URL",
        "WAYMARK_LLM_API_KEY",
        "WAYMARK_STATE_DIR",
        "state_dir",
        "config.toml",
        "max_tool_steps",
        "llm_model",
        "llm_timeout_secs",
        "llama3.1",
        "qwen2.5",
        "gemma",
        "qwen2.5:7b-instruct",
        "Google Chrome",
        "Chromium",
        "Microsoft Edge",
        "Chrome",
        "waymark-host install --browser",
        "chrome",
        "chromium",
        "edge",
        "ollama pull",
        "sudo chown -R \"$USER\"",
        "Ollama",
        "OpenAI",
        "API",
        "HTTP",
        "GET",
        "MCP",
        "JSON",
    ];
    assert!(checks.len() > 20, "{}", checks.len());
    for check in &checks {
        let mut allowed: Vec<&str> = values.to_vec();
        // A server's own words (the fake model server's error bodies) are values too.
        if check.name == "chat" {
            allowed.extend(check.detail.split_once('(').map(|(_, rest)| rest));
            allowed.extend(check.detail.split_once("модели: ").map(|(_, rest)| rest));
        }
        // Paths and origins, as they are.
        let said = format!("{} {}", check.detail, check.fix.as_deref().unwrap_or_default());
        let paths: Vec<String> = said
            .split([' ', '(', ')', ',', '\''])
            .filter(|w| w.starts_with('/') || w.starts_with("chrome-extension:"))
            .map(str::to_owned)
            .collect();
        allowed.extend(paths.iter().map(String::as_str));
        for said in std::iter::once(check.detail.as_str()).chain(check.fix.as_deref()) {
            assert!(!said.contains("doctor-"), "{said}");
            assert_eq!(latin_words(said, &allowed), Vec::<String>::new(), "{check:?}");
        }
    }
    let text = Report { checks }.to_text(&words);
    assert!(
        text.contains("в порядке") && text.contains("ошибка") && text.contains("как исправить"),
        "{text}"
    );
}
