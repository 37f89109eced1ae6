//! The real `waymark-host` binary, driven through its real stdin/stdout the way the browser drives it.
#![allow(clippy::unwrap_used)] // test code: a panic is the failure report

use std::io::{Read, Write};
use std::process::{Command, Stdio};

use serde_json::{json, Value};
use waymark_protocol::{MAX_MESSAGE_FROM_BROWSER, PROTOCOL_VERSION};

mod common;
use common::test_paths::tree;
use common::{frame, frame_bytes, origin, read_frames};

/// The extension's first message, in the protocol this host speaks.
fn hello() -> Value {
    json!({"type": "hello", "protocol": PROTOCOL_VERSION, "extension_version": "test"})
}

#[test]
fn speaks_native_messaging_survives_bad_frames_and_exits_cleanly_on_eof() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_waymark-host"))
        .arg(origin())
        .env("WAYMARK_LOG", "warn")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = frame(&hello());
    input.extend(frame_bytes(b"]]] not json".to_vec()));
    // A header announcing more than the limit, followed by too few bytes: refused without reading the
    // rest into memory.
    let over = u32::try_from(MAX_MESSAGE_FROM_BROWSER + 1).unwrap();
    input.extend(over.to_ne_bytes());
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(&input).unwrap();
    stdin.flush().unwrap();
    drop(stdin);
    let mut stdout = Vec::new();
    child.stdout.take().unwrap().read_to_end(&mut stdout).unwrap();
    let status = child.wait().unwrap();
    let replies = read_frames(&stdout);
    assert!(status.success(), "exit status {status}");
    assert_eq!(replies[0]["type"], "welcome");
    assert_eq!(replies[0]["protocol"], PROTOCOL_VERSION);
    assert_eq!(replies[0]["pid"], child.id());
    assert_eq!(replies[0]["host_version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(replies[1]["code"], "malformed_frame");
    assert_eq!(replies[2]["code"], "oversized_frame");
    assert_eq!(replies.len(), 3);
}

/// The welcome of a host started with `state_dir` and the config folder `config`.
fn welcome_with(state_dir: &std::path::Path, config: &std::path::Path) -> Value {
    let mut child = Command::new(env!("CARGO_BIN_EXE_waymark-host"))
        .arg(origin())
        .env("WAYMARK_LOG", "error")
        .env("WAYMARK_STATE_DIR", state_dir)
        .env("XDG_CONFIG_HOME", config)
        .env("APPDATA", config)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(&frame(&hello())).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    read_frames(&out.stdout).remove(0)
}

/// A state directory under a file, then a config file that does not parse: each is in the welcome,
/// typed, with where it is. (A file in the way refuses root too, so this holds wherever tests run.)
#[test]
fn the_welcome_says_what_is_wrong_with_the_state_directory_and_the_config() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config");
    let file = dir.path().join("a-file");
    std::fs::write(&file, "").unwrap();
    let good = welcome_with(&dir.path().join("state"), &config);
    assert_eq!(good["type"], "welcome");
    assert_eq!(good.get("faults"), None, "{good}");

    let welcome = welcome_with(&file.join("waymark"), &config);
    assert_eq!(
        welcome["faults"],
        json!([{"kind": "state_not_a_folder", "path": file.display().to_string()}])
    );

    std::fs::create_dir_all(config.join("waymark")).unwrap();
    let config_file = config.join("waymark").join("config.toml");
    std::fs::write(&config_file, "llm_model = ").unwrap();
    let welcome = welcome_with(&dir.path().join("state"), &config);
    let fault = &welcome["faults"][0];
    assert_eq!(fault["kind"], "config_does_not_parse", "{welcome}");
    assert_eq!(fault["path"], config_file.display().to_string(), "{welcome}");
}

#[test]
fn answers_many_pings_in_order() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_waymark-host"))
        .arg(origin())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input: Vec<u8> = (0..500)
        .flat_map(|id| frame(&json!({"type": "ping", "id": id})))
        .collect();
    let writer = std::thread::spawn(move || stdin.write_all(&input).unwrap());
    let mut stdout = Vec::new();
    let reader = child.stdout.take().unwrap();
    writer.join().unwrap();
    reader.take(u64::MAX).read_to_end(&mut stdout).unwrap();
    assert!(child.wait().unwrap().success());
    let ids: Vec<u64> = read_frames(&stdout)
        .iter()
        .map(|r| r["id"].as_u64().unwrap())
        .collect();
    assert_eq!(ids, (0..500).collect::<Vec<u64>>());
}

/// The host binary as a command whose every folder (home, configuration, data) is under `home`, so
/// nothing it writes lands outside the test's temp dir.
fn host_in(home: &std::path::Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_waymark-host"));
    command
        .env("HOME", home)
        .env("USERPROFILE", home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("XDG_DATA_HOME", home.join(".local/share"))
        .env("APPDATA", home.join("AppData/Roaming"))
        .env("LOCALAPPDATA", home.join("AppData/Local"))
        .env("WAYMARK_LOG", "warn")
        .stdin(Stdio::null());
    command
}

#[test]
fn install_writes_the_manifest_into_a_profile_folder() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = host_in(home.path())
        .args(["install", "--user-data-dir"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stdout.is_empty(), "install prints to stderr only");
    let manifest: Value = serde_json::from_slice(
        &std::fs::read(dir.path().join("NativeMessagingHosts/io.waymark.host.json")).unwrap(),
    )
    .unwrap();
    let named = manifest["path"].as_str().unwrap();
    // A plain absolute path: Chrome starts a Windows host through cmd.exe, which cannot run `\\?\C:\…`.
    assert!(!named.starts_with(r"\\?\"), "{named}");
    assert_eq!(
        std::path::Path::new(named).canonicalize().unwrap(),
        std::path::Path::new(env!("CARGO_BIN_EXE_waymark-host"))
            .canonicalize()
            .unwrap()
    );
    assert_eq!(manifest["allowed_origins"][0], origin());

    // Uninstall takes exactly that away, and the record with it.
    let out = host_in(home.path())
        .args(["uninstall", "--user-data-dir"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(tree(dir.path()), Vec::<String>::new());
    assert_eq!(tree(home.path()), Vec::<String>::new());
}

#[test]
fn install_refuses_a_bad_extension_id_with_a_clear_message() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = host_in(home.path())
        .args(["install", "--extension-id", "abc", "--user-data-dir"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("32 letters from a to p"), "{err}");
}

#[test]
fn install_without_a_terminal_or_a_choice_refuses_and_says_what_to_pass() {
    let home = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(home.path().join(".config/chromium")).unwrap();
    let before = tree(home.path());
    let out = host_in(home.path()).arg("install").output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("not one: pass --browser chrome, chromium or edge") && err.contains("--browser all"),
        "{err}"
    );
    if cfg!(not(windows)) {
        assert!(err.contains("found here: Chromium"), "{err}");
    }
    assert_eq!(tree(home.path()), before, "nothing was written");
}

/// Per-user registration with the browsers' own folders, checked by `doctor`, then taken back browser
/// by browser. (Not on Windows, where this would write the machine's registry.)
#[cfg(not(windows))]
#[test]
fn install_for_chosen_browsers_is_recorded_seen_by_doctor_and_uninstalled_exactly() {
    let home = tempfile::tempdir().unwrap();
    // Chromium has run for this user and keeps its own things; Edge and Chrome never ran.
    std::fs::create_dir_all(home.path().join(".config/chromium/Default")).unwrap();
    let before = tree(home.path());

    let out = host_in(home.path())
        .args(["install", "--browser", "chromium", "--browser=edge"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let chromium = home
        .path()
        .join(".config/chromium/NativeMessagingHosts/io.waymark.host.json");
    let edge = home
        .path()
        .join(".config/microsoft-edge/NativeMessagingHosts/io.waymark.host.json");
    assert!(chromium.is_file() && edge.is_file(), "{err}");
    assert!(
        !home.path().join(".config/google-chrome").exists(),
        "Chrome was not chosen"
    );
    assert!(err.contains("registered io.waymark.host for Chromium: "), "{err}");
    let record = home.path().join(".local/share/waymark/installed.toml");
    assert!(
        err.contains(&format!("recorded in {}", record.display())),
        "{err}"
    );
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(&record).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }

    let out = host_in(home.path()).args(["doctor", "--json"]).output().unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let status = |name: &str| {
        report["checks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == name)
            .map(|c| c["status"].as_str().unwrap().to_owned())
    };
    assert_eq!(status("manifest:chromium").as_deref(), Some("ok"), "{report}");
    assert_eq!(status("manifest:edge").as_deref(), Some("ok"), "{report}");
    assert_eq!(status("manifest:chrome").as_deref(), Some("warning"), "{report}");

    let out = host_in(home.path())
        .args(["uninstall", "--browser", "edge"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(!edge.exists() && chromium.exists(), "{err}");
    assert!(
        !home.path().join(".config/microsoft-edge").exists(),
        "install created it: {err}"
    );
    assert!(err.contains("(Microsoft Edge)"), "{err}");

    let out = host_in(home.path()).arg("uninstall").output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert_eq!(tree(home.path()), before, "{err}");

    let out = host_in(home.path()).arg("uninstall").output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && err.contains("nothing is recorded in "),
        "{err}"
    );
}

/// Starts the host the way the browser does, with `args` for the origin and its config folder in
/// `config`; sends a hello and returns (exit success, frames written, stderr).
fn start_as_browser(args: &[&str], config: &std::path::Path) -> (bool, Vec<Value>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_waymark-host"))
        .args(args)
        .env("XDG_CONFIG_HOME", config)
        .env("APPDATA", config)
        .env("WAYMARK_LOG", "warn")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The host may have exited already: a refused write is part of what is tested, not a failure.
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all(&frame(&hello()));
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        read_frames(&out.stdout),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn another_extension_is_refused_before_a_frame_is_read() {
    let config = tempfile::tempdir().unwrap();
    let other = "chrome-extension://abcdefghijklmnopabcdefghijklmnop/";
    let (ok, frames, stderr) = start_as_browser(&[other], config.path());
    assert!(!ok, "the host served another extension");
    assert!(frames.is_empty(), "nothing is answered: {frames:?}");
    assert!(
        stderr.contains("refusing to serve")
            && stderr.contains("abcdefghijklmnopabcdefghijklmnop")
            && stderr.contains("install --extension-id"),
        "{stderr}"
    );
    // Not the exact origin form, or no origin at all (Windows' window handle alone).
    for args in [
        vec!["chrome-extension://cefdccnmncoeemlgklbddcicjlldkfko/evil"],
        vec!["chrome-extension://cefdccnmncoeemlgklbddcicjlldkfko"],
        vec!["--parent-window=0"],
    ] {
        let (ok, frames, stderr) = start_as_browser(&args, config.path());
        assert!(!ok && frames.is_empty(), "{args:?} was served");
        assert!(stderr.contains("refusing to serve"), "{args:?}: {stderr}");
    }
    // Waymark itself, on Windows with the parent window after the origin.
    let (ok, frames, _) = start_as_browser(&[&origin(), "--parent-window=0"], config.path());
    assert!(ok);
    assert_eq!(frames[0]["type"], "welcome");
}

#[test]
fn an_extension_id_registered_by_install_is_served() {
    let config = tempfile::tempdir().unwrap();
    let profile = tempfile::tempdir().unwrap();
    let id = "abcdefghijklmnopabcdefghijklmnop";
    let home = tempfile::tempdir().unwrap();
    let out = host_in(home.path())
        .args(["install", "--extension-id", id, "--user-data-dir"])
        .arg(profile.path())
        .env("XDG_CONFIG_HOME", config.path())
        .env("APPDATA", config.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let origin = format!("chrome-extension://{id}/");
    let (ok, frames, stderr) = start_as_browser(&[&origin], config.path());
    assert!(ok, "{stderr}");
    assert_eq!(frames[0]["type"], "welcome");
    // Another id is still refused.
    let (ok, _, _) = start_as_browser(
        &["chrome-extension://ponmlkjihgfedcbaponmlkjihgfedcba/"],
        config.path(),
    );
    assert!(!ok);
    // Uninstall withdraws what install granted: the id is refused again.
    let out = host_in(home.path())
        .arg("uninstall")
        .env("XDG_CONFIG_HOME", config.path())
        .env("APPDATA", config.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && err.contains(id), "{err}");
    let (ok, frames, _) = start_as_browser(&[&origin], config.path());
    assert!(!ok && frames.is_empty(), "the withdrawn id was served");
}

/// `log` in config.toml sets what the host logs when `WAYMARK_LOG` does not; without either, the host
/// started by the browser logs at info.
#[test]
fn the_config_files_log_filter_applies_when_waymark_log_is_unset() {
    let stderr_with = |config_text: Option<&str>| {
        let config = tempfile::tempdir().unwrap();
        if let Some(text) = config_text {
            let folder = config.path().join("waymark");
            std::fs::create_dir_all(&folder).unwrap();
            std::fs::write(folder.join("config.toml"), text).unwrap();
        }
        let out = Command::new(env!("CARGO_BIN_EXE_waymark-host"))
            .arg(origin())
            .env_remove("WAYMARK_LOG")
            .env("XDG_CONFIG_HOME", config.path())
            .env("APPDATA", config.path())
            .env("WAYMARK_STATE_DIR", config.path().join("state"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let default = stderr_with(None);
    assert!(default.contains("host started by the browser"), "{default}");
    let quiet = stderr_with(Some("log = \"warn\"\n"));
    assert!(!quiet.contains("host started by the browser"), "{quiet}");
    let off = stderr_with(Some("log = \"off\"\n"));
    assert!(off.is_empty(), "{off}");
}
