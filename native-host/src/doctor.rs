//! `waymark-host doctor`: checks what Waymark needs and says what to fix — the configuration, the LLM
//! endpoint (its model list, then one chat request of the agent's shape: [`chat`]), whether the state
//! directory takes files ([`state`]), the native-messaging manifests of Chrome, Chromium and Edge, and
//! whether a browser is connected (a running host's socket under `<state_dir>/run/` that accepts a
//! connection).
//!
//! Each check is a function of its inputs (an environment lookup, folders, a URL), so tests run them on
//! temp dirs and a local fake LLM. The report is printed for people (one line per check) or as JSON for
//! the settings page. Every finding and fix is said in the `Words` it is given: the settings page's
//! connection language, or the terminal's locale for `waymark-host doctor`; the checks' names stay
//! as they are (the settings page and scripts know them by those).
//!
//! What it must not do: show the API key — only whether one is set.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Serialize;
use waymark_i18n::{say, Words};
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

    /// One line per check in `words`: `ok`, `warning` or `problem` (padded to one width), the check's
    /// name, what was found, and the fix.
    pub fn to_text(&self, words: &Words) -> String {
        let mark = |status| match status {
            Status::Ok => say!(words, "doctor-mark-ok"),
            Status::Warning => say!(words, "doctor-mark-warning"),
            Status::Problem => say!(words, "doctor-mark-problem"),
        };
        let width = [Status::Ok, Status::Warning, Status::Problem]
            .map(|s| mark(s).chars().count())
            .into_iter()
            .max()
            .unwrap_or_default();
        let mut out = String::new();
        for check in &self.checks {
            let mark = format!("{:<width$}", mark(check.status));
            let name = check.name.as_str();
            let detail = check.detail.as_str();
            out.push_str(&match &check.fix {
                Some(fix) => say!(
                    words,
                    "doctor-text-line-fix",
                    mark = mark,
                    name = name,
                    detail = detail,
                    fix = fix.as_str()
                ),
                None => say!(
                    words,
                    "doctor-text-line",
                    mark = mark,
                    name = name,
                    detail = detail
                ),
            });
            out.push('\n');
        }
        out
    }
}

/// Runs every check against the real environment and folders, saying what they find in `words`.
pub async fn run(words: &Words) -> Report {
    let env = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    let mut checks = Vec::new();
    let (check, config) = check_config(&env, read_config_file(&env), words);
    checks.push(check);
    if let Some(config) = &config {
        checks.push(state::check_state_dir(&config.state_dir, words));
        let llm = check_llm(config, words).await;
        // Where nothing answers, a chat request would only say so again.
        let answers = llm.status != Status::Problem;
        checks.push(llm);
        if answers {
            checks.push(chat::check_chat(config, words).await);
        }
    }
    match Places::from_env(Platform::CURRENT, &env) {
        Some(places) => checks.extend(check_manifests(&places, EXTENSION_ID, words)),
        None => checks.push(Check::new(
            "manifests",
            Status::Problem,
            say!(words, "doctor-no-home"),
            Some(say!(words, "doctor-fix-set-home")),
        )),
    }
    if let Some(config) = &config {
        // Name the browsers this user has, not one they may not (any of the three when none is found).
        let mut browsers = Places::from_env(Platform::CURRENT, &env)
            .map(|places| crate::install::found(Scope::User, &places))
            .unwrap_or_default();
        if browsers.is_empty() {
            browsers = Browser::ALL.to_vec();
        }
        checks.push(check_browser(&config.state_dir, &browsers, words));
    }
    Report { checks }
}

/// The config file's path and text (`None` text: no file; `Err`: a file that cannot be read).
type FileRead = (Option<PathBuf>, Result<Option<String>, std::io::Error>);

fn read_config_file(env: &impl Fn(&str) -> Option<String>) -> FileRead {
    let Some(path) = config::config_file_path(env) else {
        return (None, Ok(None));
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    };
    (Some(path), text)
}

/// The configuration: the file found and parsed, which values the environment sets, or the error
/// with its fix ([`config::ConfigError::said`], [`config::ConfigError::fix`]).
pub fn check_config(
    env: &impl Fn(&str) -> Option<String>,
    (path, text): FileRead,
    words: &Words,
) -> (Check, Option<Config>) {
    let shown = path
        .as_ref()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| "config.toml".to_owned());
    let loaded = match text {
        Ok(text) => Config::load_from(env, text.as_deref()).map(|config| (config, text.is_some())),
        Err(source) => Err(config::ConfigError::Read {
            path: path.unwrap_or_else(|| PathBuf::from("config.toml")),
            source,
        }),
    };
    match loaded {
        Ok((config, read)) => {
            let from_env: Vec<&str> = config::env_overrides(env)
                .into_iter()
                .map(|(_, name)| name)
                .collect();
            let file = if read { "read" } else { "none" };
            let key = if config.llm_api_key.is_some() {
                "set"
            } else {
                "none"
            };
            let (model, steps) = (config.llm_model.as_str(), config.max_tool_steps);
            let detail = if from_env.is_empty() {
                say!(
                    words,
                    "doctor-config-ok",
                    file = file,
                    path = shown,
                    model = model,
                    key = key,
                    steps = steps
                )
            } else {
                say!(
                    words,
                    "doctor-config-ok-env",
                    file = file,
                    path = shown,
                    variables = from_env.join(", "),
                    model = model,
                    key = key,
                    steps = steps
                )
            };
            (Check::new("config", Status::Ok, detail, None), Some(config))
        }
        Err(e) => (
            Check::new("config", Status::Problem, e.said(words), Some(e.fix(words))),
            None,
        ),
    }
}

/// The LLM endpoint: `GET {base_url}/models` with the key, within [`LLM_TIMEOUT`]. It passes only for
/// an OpenAI-style model list (any web server answers 200 to something), and warns when the configured
/// model is not on it: some servers (llama-cpp-python) answer a request for an unknown model with
/// their own model instead of an error, so this is the one place the user can learn of it.
pub async fn check_llm(config: &Config, words: &Words) -> Check {
    check_llm_with(config, LLM_TIMEOUT, words).await
}

async fn check_llm_with(config: &Config, timeout: Duration, words: &Words) -> Check {
    let url = format!("{}/models", config.llm_base_url);
    let base = config.llm_base_url.as_str();
    let unreachable = |why: String| {
        Check::new(
            "llm",
            Status::Problem,
            say!(words, "doctor-llm-unreachable", address = base, why = why),
            Some(say!(words, "doctor-fix-llm-unreachable")),
        )
    };
    if base.starts_with("https://") && !trusts_any_certificate() {
        return Check::new(
            "llm",
            Status::Problem,
            say!(words, "doctor-llm-no-ca", address = base),
            Some(say!(words, "doctor-fix-ca")),
        );
    }
    let mut builder = reqwest::Client::builder().timeout(timeout);
    if crate::llm::is_loopback(base) {
        // As the LLM client does: a system proxy must not answer for a model on this machine.
        builder = builder.no_proxy();
    }
    let client = match builder.build() {
        Ok(client) => client,
        Err(e) => return unreachable(e.to_string()),
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
                check_model_list(config, &body, words)
            } else if status.as_u16() == 401 || status.as_u16() == 403 {
                Check::new(
                    "llm",
                    Status::Problem,
                    say!(words, "doctor-llm-auth", address = base, status = status.as_u16()),
                    Some(say!(words, "doctor-fix-api-key")),
                )
            } else if status.as_u16() == 404 {
                // Some servers have no model list; they answered, so the address is right enough.
                Check::new(
                    "llm",
                    Status::Warning,
                    say!(words, "doctor-llm-no-list", address = base),
                    Some(say!(words, "doctor-fix-version")),
                )
            } else {
                Check::new(
                    "llm",
                    Status::Problem,
                    say!(words, "doctor-llm-http", address = base, status = status.as_u16()),
                    Some(say!(words, "doctor-fix-server-log")),
                )
            }
        }
        Err(e) if e.is_timeout() => unreachable(say!(
            words,
            "doctor-llm-no-answer-within",
            seconds = timeout.as_secs()
        )),
        Err(_) => unreachable(say!(words, "doctor-llm-refused")),
    }
}

/// Whether this system has any CA certificate for https to trust (reqwest's verifier reads the same).
fn trusts_any_certificate() -> bool {
    !rustls_native_certs::load_native_certs().certs.is_empty()
}

/// A 2xx answer to `GET /models`: an OpenAI-style list (`{"data": [{"id": …}, …]}`) naming the model?
fn check_model_list(config: &Config, body: &[u8], words: &Words) -> Check {
    let base = config.llm_base_url.as_str();
    let model = config.llm_model.as_str();
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
            say!(words, "doctor-llm-not-openai", address = base),
            Some(say!(words, "doctor-fix-base-url")),
        );
    };
    // Ollama lists `name:latest` for a model pulled as `name`.
    let listed = ids
        .iter()
        .any(|id| id == model || id.strip_suffix(":latest") == Some(model));
    if listed || ids.is_empty() {
        return Check::new(
            "llm",
            Status::Ok,
            say!(words, "doctor-llm-ok", address = base, model = model),
            None,
        );
    }
    let mut offered: Vec<&str> = ids.iter().map(String::as_str).take(5).collect();
    if ids.len() > offered.len() {
        offered.push("…");
    }
    Check::new(
        "llm",
        Status::Warning,
        say!(
            words,
            "doctor-llm-model-missing",
            address = base,
            model = model,
            models = offered.join(", ")
        ),
        Some(say!(words, "doctor-fix-model")),
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
fn locate(browser: Browser, places: &Places, words: &Words) -> Location {
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
        Location::NoBrowser(say!(
            words,
            "doctor-no-browser",
            browser = browser.label(),
            path = browser.user_data_dir(platform, places).display().to_string()
        ))
    }
}

/// Windows: the file named by the browser's registry key, the user's before the computer's (what
/// `reg query` reads, as the browser does).
#[cfg(windows)]
fn locate(browser: Browser, places: &Places, words: &Words) -> Location {
    let user_key = browser.registry_key(Scope::User);
    for key in [user_key.clone(), browser.registry_key(Scope::System)] {
        let output = std::process::Command::new("reg")
            .args(["query", &key, "/ve"])
            .output();
        match output {
            Ok(out) if out.status.success() => {
                return match crate::install::registry_default(&String::from_utf8_lossy(&out.stdout)) {
                    Some(path) => Location::File(path),
                    None => {
                        Location::Unregistered(say!(words, "doctor-registry-no-manifest", key = key.as_str()))
                    }
                }
            }
            Ok(_) => continue,
            Err(e) => {
                return Location::Unregistered(say!(
                    words,
                    "doctor-registry-unreadable",
                    detail = e.to_string()
                ))
            }
        }
    }
    let data = browser.user_data_dir(Platform::Windows, places);
    if data.is_dir() || browser.found(Platform::Windows, Scope::System, places) {
        Location::Unregistered(say!(
            words,
            "doctor-registry-missing",
            browser = browser.label(),
            key = user_key.as_str()
        ))
    } else {
        Location::NoBrowser(say!(
            words,
            "doctor-no-browser",
            browser = browser.label(),
            path = data.display().to_string()
        ))
    }
}

/// Each browser's host manifest: found where the browser looks, pointing at an existing binary,
/// allowing Waymark's id.
pub fn check_manifests(places: &Places, extension_id: &str, words: &Words) -> Vec<Check> {
    let origin = format!("chrome-extension://{extension_id}/");
    let mut checks = Vec::new();
    for browser in Browser::ALL {
        let name = format!("manifest:{}", browser.key());
        let label = browser.label();
        let install = Some(say!(words, "doctor-fix-install", key = browser.key()));
        let path = match locate(browser, places, words) {
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
        let shown = path.display().to_string();
        let shown = shown.as_str();
        let check = match std::fs::read(&path) {
            Err(_) => Check::new(
                name,
                Status::Problem,
                say!(words, "doctor-manifest-missing", browser = label, path = shown),
                install,
            ),
            Ok(bytes) => match serde_json::from_slice::<serde_json::Value>(&bytes) {
                Err(e) => Check::new(
                    name,
                    Status::Problem,
                    say!(
                        words,
                        "doctor-manifest-not-json",
                        path = shown,
                        detail = e.to_string()
                    ),
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
                            say!(words, "doctor-manifest-no-binary", path = shown),
                            install,
                        ),
                        Some(bin) if !bin.is_file() => Check::new(
                            name,
                            Status::Problem,
                            say!(
                                words,
                                "doctor-manifest-binary-missing",
                                path = shown,
                                binary = bin.display().to_string()
                            ),
                            install,
                        ),
                        Some(_) if !allowed => Check::new(
                            name,
                            Status::Problem,
                            say!(
                                words,
                                "doctor-manifest-not-allowed",
                                path = shown,
                                origin = origin.as_str()
                            ),
                            install,
                        ),
                        Some(bin) => Check::new(
                            name,
                            Status::Ok,
                            say!(
                                words,
                                "doctor-manifest-ok",
                                browser = label,
                                binary = bin.display().to_string()
                            ),
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
/// The fix names `browsers`, the ones this user has.
pub fn check_browser(state_dir: &Path, browsers: &[Browser], words: &Words) -> Check {
    let run = crate::mcp::socket::run_dir(state_dir);
    let connected = crate::mcp::socket::live(&run);
    if connected.is_empty() {
        Check::new(
            "browser",
            Status::Warning,
            say!(
                words,
                "doctor-no-browser-connected",
                path = run.display().to_string()
            ),
            Some(say!(
                words,
                "doctor-fix-open-browser",
                browsers = crate::install::spoken_choice(browsers, words)
            )),
        )
    } else {
        let said = say!(words, "doctor-browsers-connected", count = connected.len());
        Check::new("browser", Status::Ok, said, None)
    }
}

#[cfg(test)]
mod tests;
