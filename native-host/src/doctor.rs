//! `waymark-host doctor`: checks what Waymark needs and says what to fix — the configuration, the LLM
//! endpoint (its model list, then one chat request of the agent's shape: [`chat`]), whether the state
//! directory takes files ([`state`]), the native-messaging manifests of Chrome, Chromium and Edge, and
//! whether a browser is connected (a running host's socket under `<state_dir>/run/` that accepts a
//! connection).
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

mod chat;
mod state;

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
    /// Short stable name: `config`, `state`, `llm`, `chat`, `manifest:chrome`, `browser`.
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
        checks.push(state::check_state_dir(&config.state_dir));
        let llm = check_llm(config).await;
        // Where nothing answers, a chat request would only say so again.
        let answers = llm.status != Status::Problem;
        checks.push(llm);
        if answers {
            checks.push(chat::check_chat(config).await);
        }
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
                config::ConfigError::BadFileValue { key, .. } if config::ON_SETTINGS_PAGE.contains(key) => {
                    format!("set it on the settings page, or edit {key} in {shown}")
                }
                config::ConfigError::BadFileValue { key, .. } => format!("edit {key} in {shown}"),
                config::ConfigError::Parse { .. } => format!(
                    "edit {shown}, or save the settings page: it replaces the file and keeps the old one \
                     beside it"
                ),
                _ => format!("edit {shown}, or save the settings page again"),
            };
            (
                Check::new("config", Status::Problem, e.to_string(), Some(fix)),
                None,
            )
        }
    }
}

/// The LLM endpoint: `GET {base_url}/models` with the key, within [`LLM_TIMEOUT`]. It passes only for
/// an OpenAI-style model list (any web server answers 200 to something), and warns when the configured
/// model is not on it: some servers (llama-cpp-python) answer a request for an unknown model with
/// their own model instead of an error, so this is the one place the user can learn of it.
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
    let mut builder = reqwest::Client::builder().timeout(timeout);
    if crate::llm::is_loopback(base) {
        // As the LLM client does: a system proxy must not answer for a model on this machine.
        builder = builder.no_proxy();
    }
    let client = match builder.build() {
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
                let body = response.bytes().await.unwrap_or_default();
                check_model_list(config, &body)
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

/// A 2xx answer to `GET /models`: an OpenAI-style list (`{"data": [{"id": …}, …]}`) naming the model?
fn check_model_list(config: &Config, body: &[u8]) -> Check {
    let base = &config.llm_base_url;
    let model = &config.llm_model;
    let ids: Option<Vec<String>> = serde_json::from_slice::<serde_json::Value>(body)
        .ok()
        .and_then(|v| {
            let list = v.get("data")?.as_array()?.iter();
            Some(
                list.filter_map(|m| m.get("id").and_then(serde_json::Value::as_str))
                    .map(str::to_owned)
                    .collect(),
            )
        });
    let Some(ids) = ids else {
        return Check::new(
            "llm",
            Status::Problem,
            format!("{base} answers, but not as an OpenAI-compatible API (GET /models gave no model list)"),
            Some(
                "check the endpoint URL: it is the API's base, usually ending in /v1, such as                  http://127.0.0.1:11434/v1 for Ollama"
                    .to_owned(),
            ),
        );
    };
    // Ollama lists `name:latest` for a model pulled as `name`.
    let listed = ids
        .iter()
        .any(|id| id == model || id.strip_suffix(":latest") == Some(model.as_str()));
    if listed || ids.is_empty() {
        return Check::new("llm", Status::Ok, format!("{base} answers (model {model})"), None);
    }
    let mut offered: Vec<&str> = ids.iter().map(String::as_str).take(5).collect();
    if ids.len() > offered.len() {
        offered.push("…");
    }
    Check::new(
        "llm",
        Status::Warning,
        format!(
            "{base} answers, but model {model} is not among its models ({}); some servers then answer \
             with another model without saying so",
            offered.join(", ")
        ),
        Some("set WAYMARK_LLM_MODEL or the model on the settings page to one the server lists".to_owned()),
    )
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
mod tests;
