//! `waymark-host doctor` as a person at a terminal meets it: the real binary, with its own log level
//! (not silenced), in an environment of its own (a temp home, no CA certificates, an https model
//! address), so nothing reaches the machine's configuration, browsers or network.
#![allow(clippy::unwrap_used)] // test code

use std::process::Command;

#[test]
fn no_ca_certificates_is_named_as_the_cause_and_the_verdict_is_said_once() {
    let home = tempfile::tempdir().unwrap();
    let empty = home.path().join("no-certificates.pem");
    std::fs::write(&empty, "").unwrap();
    std::fs::create_dir(home.path().join("no-certificates")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_waymark-host"))
        .arg("doctor")
        .env_clear()
        .env("HOME", home.path())
        .env("XDG_CONFIG_HOME", home.path().join("config"))
        .env("WAYMARK_STATE_DIR", home.path().join("state"))
        .env("WAYMARK_LLM_BASE_URL", "https://127.0.0.1:9/v1")
        // Where rustls (and OpenSSL) look for the system's certificates: here, nowhere.
        .env("SSL_CERT_FILE", &empty)
        .env("SSL_CERT_DIR", home.path().join("no-certificates"))
        .env("LANG", "C.UTF-8")
        .output()
        .unwrap();
    let report = String::from_utf8(out.stdout).unwrap();
    let complaint = String::from_utf8(out.stderr).unwrap();
    assert!(!out.status.success(), "{report}");
    let llm = report.lines().find(|l| l.contains(" llm: ")).unwrap();
    assert!(llm.contains("no CA certificates"), "{llm}");
    assert!(llm.contains("sudo apt install ca-certificates"), "{llm}");
    assert!(!llm.contains("Ollama"), "the server is not to blame: {llm}");
    assert_eq!(
        complaint.matches("some checks found a problem").count(),
        1,
        "said once: {complaint}"
    );
}
