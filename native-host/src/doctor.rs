//! `waymark-host doctor`: checks what Waymark needs and says what to fix — the configuration, the LLM
//! endpoint, the native-messaging manifests of Chrome, Chromium and Edge, and whether a browser is
//! connected (a running host's socket under `<state_dir>/run/` that accepts a connection).
//!
//! Each check is a function of its inputs (an environment lookup, folders, a URL), so tests run them on
//! temp dirs and a local fake LLM. The report is printed for people (one line per check) or as JSON for
//! the settings page. What it must not do: show the API key — only whether one is set.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Serialize;
use waymark_protocol::EXTENSION_ID;

use crate::config::{self, Config};
use crate::install::{Browser, Places, Platform, Scope};

/// How long the LLM endpoint may take to answer the check.
pub const LLM_TIMEOUT: Duration = Duration::from_secs(3);

/// The outcome of one check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Ok,
    /// Worth knowing, not broken (a browser that is not installed, no browser open right now).
    Warning,
    /// Waymark cannot work until this is fixed.
    Problem,
}

/// One line of the report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Check {
    /// Short stable name: `config`, `llm`, `manifest:chrome`, `browser`.
    pub name: String,
    pub status: Status,
    /// What was found, in a sentence.
    pub detail: String,
    /// What to do about it, when something is wrong.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
}

impl Check {
    fn new(name: impl Into<String>, status: Status, detail: impl Into<String>, fix: Option<String>) -> Check {
        Check {
            name: name.into(),
            status,
            detail: detail.into(),
            fix,
        }
    }
}

/// Every check, in the order they ran.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Report {
    pub checks: Vec<Check>,
}

impl Report {
    /// Whether any check found something that stops Waymark from working.
    pub fn broken(&self) -> bool {
        self.checks.iter().any(|c| c.status == Status::Problem)
    }

    /// One line per check: `ok`, `warning` or `problem`, what was found, and the fix.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for check in &self.checks {
            let mark = match check.status {
                Status::Ok => "ok     ",
                Status::Warning => "warning",
                Status::Problem => "problem",
            };
            out.push_str(&format!("{mark}  {}: {}", check.name, check.detail));
            if let Some(fix) = &check.fix {
                out.push_str(&format!(" — {fix}"));
            }
            out.push('\n');
        }
        out
    }
}

/// Runs every check against the real environment and folders.
pub async fn run() -> Report {
    let env = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    let mut checks = Vec::new();
    let (check, config) = check_config(&env, read_config_file(&env));
    checks.push(check);
    if let Some(config) = &config {
        checks.push(check_llm(config).await);
    }
    match Places::from_env(Platform::CURRENT, &env) {
        Some(places) => checks.extend(check_manifests(&places, EXTENSION_ID)),
        None => checks.push(Check::new(
            "manifests",
            Status::Problem,
            "cannot find your home folder, so the browsers' manifests cannot be checked",
            Some("set HOME".to_owned()),
        )),
    }
    if let Some(config) = &config {
        checks.push(check_browser(&config.state_dir));
    }
    Report { checks }
}

/// The config file's path and text (`None` text: no file; `Err`: a file that cannot be read).
type FileRead = (Option<PathBuf>, Result<Option<String>, String>);

fn read_config_file(env: &impl Fn(&str) -> Option<String>) -> FileRead {
    let Some(path) = config::config_file_path(env) else {
        return (None, Ok(None));
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e.to_string()),
    };
    (Some(path), text)
}

/// The configuration: the file found and parsed, which values the environment sets, or the error.
pub fn check_config(
    env: &impl Fn(&str) -> Option<String>,
    (path, text): FileRead,
) -> (Check, Option<Config>) {
    let shown = path
        .as_ref()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| "config.toml".to_owned());
    let text = match text {
        Ok(text) => text,
        Err(e) => {
            let check = Check::new(
                "config",
                Status::Problem,
                format!("cannot read {shown}: {e}"),
                Some(format!("make {shown} readable by you, or remove it")),
            );
            return (check, None);
        }
    };
    match Config::load_from(env, text.as_deref()) {
        Ok(config) => {
            let file = match &text {
                Some(_) => format!("read {shown}"),
                None => format!("no file at {shown}, defaults used"),
            };
            let from_env: Vec<&str> = config::env_overrides(env)
                .into_iter()
                .map(|(_, name)| name)
                .collect();
            let from_env = if from_env.is_empty() {
                String::new()
            } else {
                format!("; from the environment: {}", from_env.join(", "))
            };
            let key = if config.llm_api_key.is_some() {
                "an API key is set"
            } else {
                "no API key"
            };
            let detail = format!(
                "{file}{from_env}; model {}, {key}, step limit {}",
                config.llm_model, config.max_tool_steps
            );
            (Check::new("config", Status::Ok, detail, None), Some(config))
        }
        Err(e) => {
            let fix = match &e {
                config::ConfigError::BadEnvValue { name, .. } => format!("change or unset {name}"),
                config::ConfigError::NoStateDir => "set WAYMARK_STATE_DIR or HOME".to_owned(),
                _ => format!("edit {shown}, or save the settings page again"),
            };
            (
                Check::new("config", Status::Problem, e.to_string(), Some(fix)),
                None,
            )
        }
    }
}

/// The LLM endpoint: `GET {base_url}/models` with the key, within [`LLM_TIMEOUT`].
pub async fn check_llm(config: &Config) -> Check {
    check_llm_with(config, LLM_TIMEOUT).await
}

async fn check_llm_with(config: &Config, timeout: Duration) -> Check {
    let url = format!("{}/models", config.llm_base_url);
    let base = &config.llm_base_url;
    let unreachable = |why: &str| {
        Check::new(
            "llm",
            Status::Problem,
            format!("nothing answers at {base} ({why})"),
            Some(
                "is Ollama (or your LLM server) running? set WAYMARK_LLM_BASE_URL or the endpoint on the settings page"
                    .to_owned(),
            ),
        )
    };
    let client = match reqwest::Client::builder().timeout(timeout).build() {
        Ok(client) => client,
        Err(e) => return unreachable(&e.to_string()),
    };
    let mut request = client.get(&url);
    if let Some(key) = &config.llm_api_key {
        request = request.bearer_auth(key);
    }
    match request.send().await {
        Ok(response) => {
            let status = response.status();
            if status.is_success() {
                Check::new(
                    "llm",
                    Status::Ok,
                    format!("{base} answers (model {})", config.llm_model),
                    None,
                )
            } else if status.as_u16() == 401 || status.as_u16() == 403 {
                Check::new(
                    "llm",
                    Status::Problem,
                    format!("{base} refused the API key (HTTP {})", status.as_u16()),
                    Some("set the right key on the settings page or in WAYMARK_LLM_API_KEY".to_owned()),
                )
            } else if status.as_u16() == 404 {
                // Some servers have no model list; they answered, so the address is right enough.
                Check::new(
                    "llm",
                    Status::Warning,
                    format!("{base} answers but has no /models list (HTTP 404)"),
                    Some("check that the URL ends with the API's version, such as /v1".to_owned()),
                )
            } else {
                Check::new(
                    "llm",
                    Status::Problem,
                    format!("{base} answered HTTP {}", status.as_u16()),
                    Some("check the server's log, or the endpoint URL".to_owned()),
                )
            }
        }
        Err(e) if e.is_timeout() => unreachable(&format!("no answer within {} s", timeout.as_secs())),
        Err(_) => unreachable("connection refused or the address does not resolve"),
    }
}

/// Where a browser finds Waymark's host manifest.
enum Location {
    /// The manifest file the browser reads (it may be missing).
    File(PathBuf),
    /// This browser is not installed for the user: nothing to check.
    NoBrowser(String),
    /// The browser is there, but nothing points it at a manifest (Windows: no registry entry).
    #[cfg_attr(not(windows), allow(dead_code))]
    Unregistered(String),
}

/// Linux and macOS: a file in the browser's data folder, else the system-wide one (`install --system`,
/// the Debian package) — the order the browser reads them in.
#[cfg(not(windows))]
fn locate(browser: Browser, places: &Places) -> Location {
    let platform = Platform::CURRENT;
    let user = browser.manifest_path(platform, Scope::User, places);
    let system = browser.manifest_path(platform, Scope::System, places);
    if user.exists() {
        Location::File(user)
    } else if system.exists() {
        Location::File(system)
    } else if browser.found(platform, Scope::User, places) || browser.found(platform, Scope::System, places) {
        Location::File(user)
    } else {
        Location::NoBrowser(format!(
            "{} is not installed for this user (no {})",
            browser.label(),
            browser.user_data_dir(platform, places).display()
        ))
    }
}

/// Windows: the file named by the browser's registry key, the user's before the computer's (what
/// `reg query` reads, as the browser does).
#[cfg(windows)]
fn locate(browser: Browser, places: &Places) -> Location {
    let user_key = browser.registry_key(Scope::User);
    for key in [user_key.clone(), browser.registry_key(Scope::System)] {
        let output = std::process::Command::new("reg")
            .args(["query", &key, "/ve"])
            .output();
        match output {
            Ok(out) if out.status.success() => {
                return match crate::install::registry_default(&String::from_utf8_lossy(&out.stdout)) {
                    Some(path) => Location::File(path),
                    None => Location::Unregistered(format!("the registry key {key} names no manifest")),
                }
            }
            Ok(_) => continue,
            Err(e) => return Location::Unregistered(format!("cannot read the registry with reg.exe: {e}")),
        }
    }
    let data = browser.user_data_dir(Platform::Windows, places);
    if data.is_dir() || browser.found(Platform::Windows, Scope::System, places) {
        Location::Unregistered(format!(
            "{} is installed but has no registry entry for Waymark ({user_key})",
            browser.label()
        ))
    } else {
        Location::NoBrowser(format!(
            "{} is not installed for this user (no {})",
            browser.label(),
            data.display()
        ))
    }
}

/// Each browser's host manifest: found where the browser looks, pointing at an existing binary,
/// allowing Waymark's id.
pub fn check_manifests(places: &Places, extension_id: &str) -> Vec<Check> {
    let origin = format!("chrome-extension://{extension_id}/");
    let mut checks = Vec::new();
    for browser in Browser::ALL {
        let name = format!("manifest:{}", browser.key());
        let label = browser.label();
        let install = Some(format!("run waymark-host install --browser {}", browser.key()));
        let path = match locate(browser, places) {
            Location::File(path) => path,
            Location::NoBrowser(detail) => {
                checks.push(Check::new(name, Status::Warning, detail, None));
                continue;
            }
            Location::Unregistered(detail) => {
                checks.push(Check::new(name, Status::Problem, detail, install));
                continue;
            }
        };
        let check = match std::fs::read(&path) {
            Err(_) => Check::new(
                name,
                Status::Problem,
                format!("{label} has no Waymark host manifest at {}", path.display()),
                install,
            ),
            Ok(bytes) => match serde_json::from_slice::<serde_json::Value>(&bytes) {
                Err(e) => Check::new(
                    name,
                    Status::Problem,
                    format!("{} is not valid JSON: {e}", path.display()),
                    install,
                ),
                Ok(manifest) => {
                    let binary = manifest["path"].as_str().map(PathBuf::from);
                    let allowed = manifest["allowed_origins"]
                        .as_array()
                        .is_some_and(|list| list.iter().any(|o| o.as_str() == Some(origin.as_str())));
                    match binary {
                        None => Check::new(
                            name,
                            Status::Problem,
                            format!("{} names no host binary", path.display()),
                            install,
                        ),
                        Some(bin) if !bin.is_file() => Check::new(
                            name,
                            Status::Problem,
                            format!(
                                "{} points at {}, which does not exist",
                                path.display(),
                                bin.display()
                            ),
                            install,
                        ),
                        Some(_) if !allowed => Check::new(
                            name,
                            Status::Problem,
                            format!("{} does not allow {origin}", path.display()),
                            install,
                        ),
                        Some(bin) => Check::new(
                            name,
                            Status::Ok,
                            format!("{label} starts {}", bin.display()),
                            None,
                        ),
                    }
                }
            },
        };
        checks.push(check);
    }
    checks
}

/// Whether a browser is connected now: a host recorded under `<state_dir>/run/` whose socket accepts.
pub fn check_browser(state_dir: &Path) -> Check {
    let run = crate::mcp::socket::run_dir(state_dir);
    let connected = crate::mcp::socket::live(&run);
    if connected.is_empty() {
        Check::new(
            "browser",
            Status::Warning,
            format!(
                "no browser is connected (no host recorded in {} answers)",
                run.display()
            ),
            Some("open Chrome with Waymark".to_owned()),
        )
    } else {
        let n = connected.len();
        let which = if n == 1 { "browser is" } else { "browsers are" };
        Check::new("browser", Status::Ok, format!("{n} {which} connected"), None)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use fake_llm::{FakeLlm, Script};

    use super::*;
    use crate::test_paths::{abs, path};

    fn env_of(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: BTreeMap<String, String> = pairs.iter().map(|(k, v)| ((*k).to_owned(), abs(v))).collect();
        move |name: &str| map.get(name).cloned()
    }

    fn config_with(base_url: &str, key: Option<&str>) -> Config {
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
        let (check, config) = check_config(&env, (path.clone(), text));
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

        let (check, _) = check_config(&env, (path.clone(), Ok(None)));
        assert!(check.detail.contains("defaults used"), "{check:?}");

        let (check, config) = check_config(&env, (path.clone(), Ok(Some("max_tool_steps = 0".into()))));
        assert_eq!(check.status, Status::Problem);
        assert!(config.is_none());
        assert!(check.detail.contains("max_tool_steps"), "{check:?}");
        assert!(
            check.fix.as_deref().unwrap_or("").contains("config.toml"),
            "{check:?}"
        );

        let bad_env = env_of(&[("HOME", "/home/ada"), ("WAYMARK_MAX_TOOL_STEPS", "lots")]);
        let (check, _) = check_config(&bad_env, (path.clone(), Ok(None)));
        assert_eq!(
            check.fix.as_deref(),
            Some("change or unset WAYMARK_MAX_TOOL_STEPS")
        );

        let (check, _) = check_config(&env, (path, Err("permission denied".into())));
        assert_eq!(check.status, Status::Problem);
        assert!(check.detail.contains("permission denied"), "{check:?}");
    }

    #[tokio::test]
    async fn llm_check_passes_against_a_server_that_answers() {
        let llm = FakeLlm::start(Script::new([])).await.unwrap();
        let check = check_llm(&config_with(llm.base_url(), Some("sk-test"))).await;
        assert_eq!(check.status, Status::Ok, "{check:?}");
        assert!(check.detail.contains(llm.base_url()), "{check:?}");
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
        let check = check_llm(&config_with(&base, None)).await;
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
        let check = check_llm_with(&config_with(&base, None), Duration::from_millis(300)).await;
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
        let checks = check_manifests(&places, EXTENSION_ID);
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
        let checks = check_manifests(&places, EXTENSION_ID);
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
        let checks = check_manifests(&places, EXTENSION_ID);
        assert_eq!(checks[2].status, Status::Ok, "{checks:?}");
    }

    #[cfg(any(unix, windows))]
    #[tokio::test]
    async fn browser_check_needs_a_socket_that_accepts() {
        let dir = tempfile::tempdir().unwrap();
        let check = check_browser(dir.path());
        assert_eq!(check.status, Status::Warning);
        assert_eq!(check.fix.as_deref(), Some("open Chrome with Waymark"));

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
        assert_eq!(check_browser(dir.path()).status, Status::Warning);

        let _live = crate::mcp::socket::publish(&run, 2, None).unwrap();
        let check = check_browser(dir.path());
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
        assert_eq!(report.to_text().lines().count(), 2);
        assert!(report
            .to_text()
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
}
