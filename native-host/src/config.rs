//! The host's configuration: `config.toml` under the user's config folder, overridden by environment
//! variables (`docs`: INTERFACES.md "Configuration").
//!
//! File: `$XDG_CONFIG_HOME/waymark/config.toml`, else `~/.config/waymark/config.toml` (`%APPDATA%\waymark\
//! config.toml` on Windows). A missing file means defaults. Keys (all optional):
//!
//! ```toml
//! llm_base_url = "http://127.0.0.1:11434/v1"   # WAYMARK_LLM_BASE_URL
//! llm_model = "qwen2.5:7b-instruct"            # WAYMARK_LLM_MODEL
//! llm_api_key = "sk-…"                         # WAYMARK_LLM_API_KEY, then OPENAI_API_KEY
//! llm_timeout_secs = 60                        # WAYMARK_LLM_TIMEOUT_SECS
//! llm_supports_images = false                  # WAYMARK_LLM_IMAGES: send screenshots to the model
//! state_dir = "~/.local/state/waymark"         # WAYMARK_STATE_DIR
//! max_tool_steps = 10                          # WAYMARK_MAX_TOOL_STEPS
//! banner_budget_ms = 2500                      # WAYMARK_BANNER_BUDGET_MS: closing banners, per request
//! log = "info"                                 # WAYMARK_LOG
//!
//! [[mcp_servers]]                              # external MCP servers (not used yet)
//! name = "files"
//! command = "npx"
//! args = ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]
//! env = { TOKEN = "…" }
//! ```
//!
//! An environment variable set to the empty string counts as unset. Loading is a pure function of an
//! environment lookup and the file's text ([`Config::load_from`]), so tests never touch the real
//! environment. What this module must not do: print or log a secret — the API key and MCP servers'
//! environment values never appear in `Debug` output or in errors.

// Wired into the agent loop next; until then nothing in the binary reads the configuration.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::Deserialize;

/// Where a local Ollama answers with its OpenAI-compatible API.
pub const DEFAULT_LLM_BASE_URL: &str = "http://127.0.0.1:11434/v1";
/// A small local model with tool calling that runs on an ordinary laptop (`ollama pull qwen2.5:7b-instruct`).
pub const DEFAULT_LLM_MODEL: &str = "qwen2.5:7b-instruct";
pub const DEFAULT_LLM_TIMEOUT_SECS: u64 = 60;
pub const DEFAULT_MAX_TOOL_STEPS: u32 = 10;
/// Seed 002 §5: automatic banner closing gets at most 2.5 s in total.
pub const DEFAULT_BANNER_BUDGET_MS: u64 = 2500;
/// The step limit's accepted range (also what the settings page checks).
pub const MAX_TOOL_STEPS_RANGE: (u64, u64) = (1, 1000);
/// The banner budget's accepted range in milliseconds; 0 turns automatic banner closing off.
pub const BANNER_BUDGET_MS_RANGE: (u64, u64) = (0, 30_000);
pub const DEFAULT_LOG: &str = "info";

/// The host's settings, after defaults, the file and the environment.
#[derive(Clone, PartialEq)]
pub struct Config {
    /// OpenAI-compatible endpoint, without a trailing `/` (e.g. `http://127.0.0.1:11434/v1`).
    pub llm_base_url: String,
    pub llm_model: String,
    /// Secret: never logged (see the `Debug` impl).
    pub llm_api_key: Option<String>,
    pub llm_timeout_secs: u64,
    /// Whether user messages may carry a screenshot as an image part.
    pub llm_supports_images: bool,
    /// Sessions, logs, the local socket.
    pub state_dir: PathBuf,
    /// Tool steps per user request before the summary and the question whether to go on.
    pub max_tool_steps: u32,
    /// Milliseconds the automatic banner closing may spend in one request (seed 002 §5).
    pub banner_budget_ms: u64,
    /// The `tracing` filter.
    pub log: String,
    pub mcp_servers: Vec<McpServerConfig>,
    /// The file the settings were read from, if there was one.
    pub source: Option<PathBuf>,
}

impl fmt::Debug for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Config")
            .field("llm_base_url", &self.llm_base_url)
            .field("llm_model", &self.llm_model)
            .field("llm_api_key", &self.llm_api_key.as_ref().map(|_| Masked))
            .field("llm_timeout_secs", &self.llm_timeout_secs)
            .field("llm_supports_images", &self.llm_supports_images)
            .field("state_dir", &self.state_dir)
            .field("max_tool_steps", &self.max_tool_steps)
            .field("banner_budget_ms", &self.banner_budget_ms)
            .field("log", &self.log)
            .field("mcp_servers", &self.mcp_servers)
            .field("source", &self.source)
            .finish()
    }
}

/// Prints `"***"` in place of a secret.
struct Masked;

impl fmt::Debug for Masked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("\"***\"")
    }
}

/// An external MCP server the agent may start (`[[mcp_servers]]`).
#[derive(Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct McpServerConfig {
    pub name: String,
    pub command: String,
    #[serde(default)]
    pub args: Vec<String>,
    /// Extra environment for the server; values are often tokens, so `Debug` masks them.
    #[serde(default)]
    pub env: BTreeMap<String, String>,
}

impl fmt::Debug for McpServerConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let env: BTreeMap<&str, Masked> = self.env.keys().map(|k| (k.as_str(), Masked)).collect();
        f.debug_struct("McpServerConfig")
            .field("name", &self.name)
            .field("command", &self.command)
            .field("args", &self.args)
            .field("env", &env)
            .finish()
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read the configuration file {}: {source}", path.display())]
    Read { path: PathBuf, source: std::io::Error },
    #[error("the configuration file {} is not valid: {message}", path.display())]
    Parse { path: PathBuf, message: String },
    #[error("{key} = {value} in {} is not valid: expected {expected}", path.display())]
    BadFileValue {
        path: PathBuf,
        key: &'static str,
        value: String,
        expected: &'static str,
    },
    #[error("the environment variable {name}={value} is not valid: expected {expected}")]
    BadEnvValue {
        name: &'static str,
        value: String,
        expected: &'static str,
    },
    #[error("no folder for Waymark's state: set WAYMARK_STATE_DIR (or HOME)")]
    NoStateDir,
}

/// The file's shape: every key optional, unknown keys refused (a typo must not be silently ignored).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileConfig {
    llm_base_url: Option<String>,
    llm_model: Option<String>,
    llm_api_key: Option<String>,
    llm_timeout_secs: Option<i64>,
    llm_supports_images: Option<bool>,
    state_dir: Option<String>,
    max_tool_steps: Option<i64>,
    banner_budget_ms: Option<i64>,
    log: Option<String>,
    #[serde(default)]
    mcp_servers: Vec<McpServerConfig>,
}

/// Where a value came from, for error messages.
enum Origin<'a> {
    Env(&'static str),
    File { path: &'a Path, key: &'static str },
}

impl Origin<'_> {
    /// `shown` is how the bad value appears in the message (secrets are masked by the caller).
    fn error(&self, shown: String, expected: &'static str) -> ConfigError {
        match self {
            Origin::Env(name) => ConfigError::BadEnvValue {
                name,
                value: shown,
                expected,
            },
            Origin::File { path, key } => ConfigError::BadFileValue {
                path: path.to_path_buf(),
                key,
                value: shown,
                expected,
            },
        }
    }
}

impl Config {
    /// Loads from the real environment and the real file.
    pub fn load() -> Result<Config, ConfigError> {
        let env = |name: &str| std::env::var(name).ok();
        let text = match config_file_path(&env) {
            Some(path) => match std::fs::read_to_string(&path) {
                Ok(text) => Some(text),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
                Err(source) => return Err(ConfigError::Read { path, source }),
            },
            None => None,
        };
        Config::load_from(&env, text.as_deref())
    }

    /// Loads from an environment lookup and the config file's text (`None`: no file). The file's path,
    /// for messages, is derived from `env` like [`config_file_path`].
    pub fn load_from(
        env: &impl Fn(&str) -> Option<String>,
        file_text: Option<&str>,
    ) -> Result<Config, ConfigError> {
        let lookup = |name: &str| env(name).filter(|v| !v.is_empty());
        let path = config_file_path(&lookup).unwrap_or_else(|| PathBuf::from("config.toml"));
        let file: FileConfig = match file_text {
            Some(text) => toml::from_str(text).map_err(|e| ConfigError::Parse {
                path: path.clone(),
                message: e.to_string().trim_end().to_owned(),
            })?,
            None => FileConfig::default(),
        };
        let in_file = |key| Origin::File { path: &path, key };

        // Each setting: the environment wins over the file, the file over the default.
        let (raw, origin) = pick(
            &lookup,
            "WAYMARK_LLM_BASE_URL",
            file.llm_base_url,
            in_file("llm_base_url"),
        );
        let llm_base_url = match raw {
            Some(raw) => parse_base_url(&raw, &origin)?,
            None => DEFAULT_LLM_BASE_URL.to_owned(),
        };

        let (raw, origin) = pick(&lookup, "WAYMARK_LLM_MODEL", file.llm_model, in_file("llm_model"));
        let llm_model = match raw {
            Some(raw) if raw.trim().is_empty() => {
                return Err(origin.error(format!("{raw:?}"), "a model name"))
            }
            Some(raw) => raw.trim().to_owned(),
            None => DEFAULT_LLM_MODEL.to_owned(),
        };

        let (raw, origin) = match lookup("WAYMARK_LLM_API_KEY") {
            Some(v) => (Some(v), Origin::Env("WAYMARK_LLM_API_KEY")),
            None => match file.llm_api_key {
                Some(v) => (Some(v), in_file("llm_api_key")),
                None => (lookup("OPENAI_API_KEY"), Origin::Env("OPENAI_API_KEY")),
            },
        };
        let llm_api_key = match raw {
            Some(key) => {
                let key = key.trim().to_owned();
                // It goes into an HTTP header: visible ASCII only. Never echo it.
                if key.is_empty() || !key.bytes().all(|b| b.is_ascii_graphic()) {
                    return Err(origin.error(
                        "\"***\"".to_owned(),
                        "an API key of visible ASCII characters (no spaces or line breaks)",
                    ));
                }
                Some(key)
            }
            None => None,
        };

        let (raw, origin) = pick_number(
            &lookup,
            "WAYMARK_LLM_TIMEOUT_SECS",
            file.llm_timeout_secs,
            in_file("llm_timeout_secs"),
        );
        let llm_timeout_secs = match raw {
            Some(raw) => parse_in_range(&raw, 1, 3600, &origin, "a whole number of seconds from 1 to 3600")?,
            None => DEFAULT_LLM_TIMEOUT_SECS,
        };

        let llm_supports_images = match lookup("WAYMARK_LLM_IMAGES") {
            Some(raw) => match raw.trim().to_ascii_lowercase().as_str() {
                "1" | "true" | "yes" | "on" => true,
                "0" | "false" | "no" | "off" => false,
                _ => return Err(Origin::Env("WAYMARK_LLM_IMAGES").error(format!("{raw:?}"), "true or false")),
            },
            None => file.llm_supports_images.unwrap_or(false),
        };

        let (raw, origin) = pick(&lookup, "WAYMARK_STATE_DIR", file.state_dir, in_file("state_dir"));
        let state_dir = match raw {
            Some(raw) => {
                let dir = expand_home(raw.trim(), &lookup);
                if !dir.is_absolute() {
                    return Err(origin.error(format!("{raw:?}"), "an absolute path"));
                }
                dir
            }
            None => default_state_dir(&lookup).ok_or(ConfigError::NoStateDir)?,
        };

        let (raw, origin) = pick_number(
            &lookup,
            "WAYMARK_MAX_TOOL_STEPS",
            file.max_tool_steps,
            in_file("max_tool_steps"),
        );
        let max_tool_steps = match raw {
            Some(raw) => {
                let (min, max) = MAX_TOOL_STEPS_RANGE;
                let n = parse_in_range(&raw, min, max, &origin, "a whole number of steps from 1 to 1000")?;
                u32::try_from(n).unwrap_or(DEFAULT_MAX_TOOL_STEPS)
            }
            None => DEFAULT_MAX_TOOL_STEPS,
        };

        let (raw, origin) = pick_number(
            &lookup,
            "WAYMARK_BANNER_BUDGET_MS",
            file.banner_budget_ms,
            in_file("banner_budget_ms"),
        );
        let banner_budget_ms = match raw {
            Some(raw) => {
                let (min, max) = BANNER_BUDGET_MS_RANGE;
                parse_in_range(
                    &raw,
                    min,
                    max,
                    &origin,
                    "a whole number of milliseconds from 0 to 30000",
                )?
            }
            None => DEFAULT_BANNER_BUDGET_MS,
        };

        let (raw, origin) = pick(&lookup, "WAYMARK_LOG", file.log, in_file("log"));
        let log = match raw {
            Some(raw) if raw.trim().is_empty() => {
                return Err(origin.error(format!("{raw:?}"), "a tracing filter such as info or debug"))
            }
            Some(raw) => raw.trim().to_owned(),
            None => DEFAULT_LOG.to_owned(),
        };

        for server in &file.mcp_servers {
            if server.name.trim().is_empty() || server.command.trim().is_empty() {
                return Err(in_file("mcp_servers").error(
                    format!("{{ name = {:?}, command = {:?} }}", server.name, server.command),
                    "a name and a command for every [[mcp_servers]] entry",
                ));
            }
        }

        Ok(Config {
            llm_base_url,
            llm_model,
            llm_api_key,
            llm_timeout_secs,
            llm_supports_images,
            state_dir,
            max_tool_steps,
            banner_budget_ms,
            log,
            mcp_servers: file.mcp_servers,
            source: file_text.map(|_| path),
        })
    }
}

/// The settings a person may change from the settings page; `None` leaves a value as it is.
#[derive(Clone, Default, PartialEq)]
pub struct SettingsChange {
    pub llm_base_url: Option<String>,
    pub llm_model: Option<String>,
    /// `Some("")` removes the key from the file; secret, so `Debug` masks it.
    pub llm_api_key: Option<String>,
    pub max_tool_steps: Option<u64>,
    pub banner_budget_ms: Option<u64>,
}

impl fmt::Debug for SettingsChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SettingsChange")
            .field("llm_base_url", &self.llm_base_url)
            .field("llm_model", &self.llm_model)
            .field("llm_api_key", &self.llm_api_key.as_ref().map(|_| Masked))
            .field("max_tool_steps", &self.max_tool_steps)
            .field("banner_budget_ms", &self.banner_budget_ms)
            .finish()
    }
}

/// Why the settings could not be saved.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    /// The new values, or the file they would land in, are not valid; the message names the key.
    #[error(transparent)]
    Invalid(#[from] ConfigError),
    #[error("no folder for Waymark's configuration: set XDG_CONFIG_HOME (or HOME)")]
    NoConfigDir,
    #[error("cannot write the configuration file {}: {source}", path.display())]
    Write { path: PathBuf, source: std::io::Error },
}

/// Writes `change` into the config file at `path`, keeping every other entry (comments are not kept:
/// the file is rewritten from its parsed form). The result is checked with [`Config::load_from`]
/// before anything is written, so a bad URL or an out-of-range number leaves the file untouched. The
/// file is written to a temp file and renamed, mode 0600: it may hold the API key.
pub fn save_to(
    path: &Path,
    env: &impl Fn(&str) -> Option<String>,
    change: &SettingsChange,
) -> Result<Config, SaveError> {
    let old = match std::fs::read_to_string(path) {
        Ok(text) => Some(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(source) => {
            return Err(ConfigError::Read {
                path: path.to_path_buf(),
                source,
            }
            .into())
        }
    };
    // A file that does not parse is not overwritten: the person may have entries we would lose.
    let mut table: toml::Table = match &old {
        Some(text) => toml::from_str(text).map_err(|e| ConfigError::Parse {
            path: path.to_path_buf(),
            message: e.to_string().trim_end().to_owned(),
        })?,
        None => toml::Table::new(),
    };
    let mut set_text = |key: &str, value: &Option<String>| {
        if let Some(value) = value {
            let value = value.trim();
            if value.is_empty() {
                table.remove(key);
            } else {
                table.insert(key.to_owned(), toml::Value::String(value.to_owned()));
            }
        }
    };
    set_text("llm_base_url", &change.llm_base_url);
    set_text("llm_model", &change.llm_model);
    set_text("llm_api_key", &change.llm_api_key);
    for (key, value) in [
        ("max_tool_steps", change.max_tool_steps),
        ("banner_budget_ms", change.banner_budget_ms),
    ] {
        if let Some(n) = value {
            // Out-of-range numbers are refused by the check below, with the key's own message.
            let n = i64::try_from(n).unwrap_or(i64::MAX);
            table.insert(key.to_owned(), toml::Value::Integer(n));
        }
    }
    let text = toml::to_string(&table).map_err(|e| ConfigError::Parse {
        path: path.to_path_buf(),
        message: e.to_string(),
    })?;
    // Checked against the file alone: a value the environment overrides must still be valid in the file.
    let without_overrides = |name: &str| match name {
        "HOME" | "USERPROFILE" | "XDG_CONFIG_HOME" | "APPDATA" | "XDG_STATE_HOME" | "LOCALAPPDATA" => {
            env(name)
        }
        _ => None,
    };
    let file_path = path.to_path_buf();
    Config::load_from(&without_overrides, Some(&text)).map_err(|e| relabel(e, &file_path))?;
    write_private(path, &text).map_err(|source| SaveError::Write {
        path: path.to_path_buf(),
        source,
    })?;
    let mut config = Config::load_from(env, Some(&text))?;
    config.source = Some(file_path);
    Ok(config)
}

/// Errors from checking a file's text name the file it is saved to.
fn relabel(error: ConfigError, path: &Path) -> ConfigError {
    match error {
        ConfigError::BadFileValue {
            key, value, expected, ..
        } => ConfigError::BadFileValue {
            path: path.to_path_buf(),
            key,
            value,
            expected,
        },
        ConfigError::Parse { message, .. } => ConfigError::Parse {
            path: path.to_path_buf(),
            message,
        },
        other => other,
    }
}

/// Temp file + rename, 0600 on Unix ([`crate::private_file`]); also keeps the registered extension ids
/// (`origin`).
pub(crate) fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    crate::private_file::write_private(path, text.as_bytes())
}

/// [`save_to`] with the real environment and the real file.
pub fn save(change: &SettingsChange) -> Result<Config, SaveError> {
    let env = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    let path = config_file_path(&env).ok_or(SaveError::NoConfigDir)?;
    save_to(&path, &env, change)
}

/// Which environment variable, if any, sets each setting the settings page shows (the page shows these
/// read-only, since a saved file value would not take effect).
pub fn env_overrides(env: &impl Fn(&str) -> Option<String>) -> Vec<(&'static str, &'static str)> {
    let set = |name: &str| env(name).is_some_and(|v| !v.is_empty());
    let mut out = Vec::new();
    for (key, name) in [
        ("llm_base_url", "WAYMARK_LLM_BASE_URL"),
        ("llm_model", "WAYMARK_LLM_MODEL"),
        ("max_tool_steps", "WAYMARK_MAX_TOOL_STEPS"),
        ("banner_budget_ms", "WAYMARK_BANNER_BUDGET_MS"),
        ("llm_timeout_secs", "WAYMARK_LLM_TIMEOUT_SECS"),
        ("state_dir", "WAYMARK_STATE_DIR"),
        ("log", "WAYMARK_LOG"),
    ] {
        if set(name) {
            out.push((key, name));
        }
    }
    if set("WAYMARK_LLM_API_KEY") {
        out.push(("llm_api_key", "WAYMARK_LLM_API_KEY"));
    }
    out
}

/// The environment's value if set, else the file's.
fn pick<'a>(
    env: &impl Fn(&str) -> Option<String>,
    name: &'static str,
    from_file: Option<String>,
    file_origin: Origin<'a>,
) -> (Option<String>, Origin<'a>) {
    match env(name) {
        Some(v) => (Some(v), Origin::Env(name)),
        None => (from_file, file_origin),
    }
}

/// Like [`pick`] for a number the file holds as an integer.
fn pick_number<'a>(
    env: &impl Fn(&str) -> Option<String>,
    name: &'static str,
    from_file: Option<i64>,
    file_origin: Origin<'a>,
) -> (Option<String>, Origin<'a>) {
    pick(env, name, from_file.map(|n| n.to_string()), file_origin)
}

fn parse_in_range(
    raw: &str,
    min: u64,
    max: u64,
    origin: &Origin<'_>,
    expected: &'static str,
) -> Result<u64, ConfigError> {
    match raw.trim().parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(origin.error(format!("{raw:?}"), expected)),
    }
}

fn parse_base_url(raw: &str, origin: &Origin<'_>) -> Result<String, ConfigError> {
    let url = raw.trim().trim_end_matches('/');
    let rest = url
        .strip_prefix("http://")
        .or_else(|| url.strip_prefix("https://"));
    match rest {
        Some(rest) if !rest.is_empty() && !rest.starts_with('/') && !url.contains(char::is_whitespace) => {
            Ok(url.to_owned())
        }
        _ => Err(origin.error(
            format!("{raw:?}"),
            "an http:// or https:// URL of an OpenAI-compatible API, such as http://127.0.0.1:11434/v1",
        )),
    }
}

/// An absolute path from an environment variable (relative values are ignored, as XDG says).
fn absolute_env(env: &impl Fn(&str) -> Option<String>, name: &str) -> Option<PathBuf> {
    env(name).map(PathBuf::from).filter(|p| p.is_absolute())
}

fn home(env: &impl Fn(&str) -> Option<String>) -> Option<PathBuf> {
    absolute_env(env, "HOME").or_else(|| absolute_env(env, "USERPROFILE"))
}

/// `~/x` → `$HOME/x`.
fn expand_home(raw: &str, env: &impl Fn(&str) -> Option<String>) -> PathBuf {
    if raw == "~" {
        if let Some(home) = home(env) {
            return home;
        }
    }
    if let Some(rest) = raw.strip_prefix("~/").or_else(|| raw.strip_prefix("~\\")) {
        if let Some(home) = home(env) {
            return home.join(rest);
        }
    }
    PathBuf::from(raw)
}

/// `$XDG_CONFIG_HOME/waymark/config.toml`, else `%APPDATA%\waymark\config.toml` on Windows, else
/// `~/.config/waymark/config.toml`; `None` if no folder can be found at all.
pub fn config_file_path(env: &impl Fn(&str) -> Option<String>) -> Option<PathBuf> {
    let base = absolute_env(env, "XDG_CONFIG_HOME")
        .or_else(|| {
            if cfg!(windows) {
                absolute_env(env, "APPDATA")
            } else {
                None
            }
        })
        .or_else(|| home(env).map(|h| h.join(".config")))?;
    Some(base.join("waymark").join("config.toml"))
}

/// `$XDG_STATE_HOME/waymark`, else `%LOCALAPPDATA%\waymark` on Windows, else `~/.local/state/waymark`.
fn default_state_dir(env: &impl Fn(&str) -> Option<String>) -> Option<PathBuf> {
    let base = absolute_env(env, "XDG_STATE_HOME")
        .or_else(|| {
            if cfg!(windows) {
                absolute_env(env, "LOCALAPPDATA")
            } else {
                None
            }
        })
        .or_else(|| home(env).map(|h| h.join(".local").join("state")))?;
    Some(base.join("waymark"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_paths::{abs, path};

    fn env_of(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: BTreeMap<String, String> = pairs.iter().map(|(k, v)| ((*k).to_owned(), abs(v))).collect();
        move |name: &str| map.get(name).cloned()
    }

    const HOME: (&str, &str) = ("HOME", "/home/ada");

    #[test]
    fn defaults_without_file_or_variables() {
        let config = Config::load_from(&env_of(&[HOME]), None).unwrap();
        assert_eq!(config.llm_base_url, "http://127.0.0.1:11434/v1");
        assert_eq!(config.llm_model, DEFAULT_LLM_MODEL);
        assert_eq!(config.llm_api_key, None);
        assert_eq!(config.llm_timeout_secs, 60);
        assert!(!config.llm_supports_images);
        assert_eq!(config.state_dir, path("/home/ada/.local/state/waymark"));
        assert_eq!(config.max_tool_steps, 10);
        assert_eq!(config.banner_budget_ms, 2500);
        assert_eq!(config.log, "info");
        assert!(config.mcp_servers.is_empty());
        assert_eq!(config.source, None);
    }

    #[test]
    fn xdg_folders_win_over_home() {
        let env = env_of(&[HOME, ("XDG_CONFIG_HOME", "/cfg"), ("XDG_STATE_HOME", "/state")]);
        assert_eq!(config_file_path(&env), Some(path("/cfg/waymark/config.toml")));
        let config = Config::load_from(&env, Some("")).unwrap();
        assert_eq!(config.state_dir, path("/state/waymark"));
        assert_eq!(config.source, Some(path("/cfg/waymark/config.toml")));
        // A relative XDG value is ignored, as the XDG spec says.
        let env = env_of(&[HOME, ("XDG_CONFIG_HOME", "relative")]);
        assert_eq!(
            config_file_path(&env),
            Some(path("/home/ada/.config/waymark/config.toml"))
        );
    }

    #[test]
    fn no_home_and_no_state_dir_is_a_clear_error() {
        let err = Config::load_from(&env_of(&[]), None).unwrap_err();
        assert!(err.to_string().contains("WAYMARK_STATE_DIR"), "{err}");
        let config = Config::load_from(&env_of(&[("WAYMARK_STATE_DIR", "/tmp/wm")]), None).unwrap();
        assert_eq!(config.state_dir, path("/tmp/wm"));
    }

    const FILE: &str = r#"
        llm_base_url = "https://openrouter.ai/api/v1/"
        llm_model = "qwen/qwen-2.5-72b-instruct"
        llm_api_key = "sk-from-file"
        llm_timeout_secs = 30
        llm_supports_images = true
        state_dir = "~/waymark-state"
        max_tool_steps = 25
        banner_budget_ms = 800
        log = "debug"

        [[mcp_servers]]
        name = "files"
        command = "npx"
        args = ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]
        env = { GITHUB_TOKEN = "ghp_secret" }

        [[mcp_servers]]
        name = "time"
        command = "uvx"
    "#;

    #[test]
    fn file_values_are_used() {
        let config = Config::load_from(&env_of(&[HOME]), Some(FILE)).unwrap();
        assert_eq!(config.llm_base_url, "https://openrouter.ai/api/v1");
        assert_eq!(config.llm_model, "qwen/qwen-2.5-72b-instruct");
        assert_eq!(config.llm_api_key.as_deref(), Some("sk-from-file"));
        assert_eq!(config.llm_timeout_secs, 30);
        assert!(config.llm_supports_images);
        assert_eq!(config.state_dir, path("/home/ada/waymark-state"));
        assert_eq!(config.max_tool_steps, 25);
        assert_eq!(config.banner_budget_ms, 800);
        assert_eq!(config.log, "debug");
        assert_eq!(config.mcp_servers.len(), 2);
        assert_eq!(config.mcp_servers[0].args.len(), 3);
        assert_eq!(config.mcp_servers[0].env["GITHUB_TOKEN"], "ghp_secret");
        assert!(config.mcp_servers[1].args.is_empty());
    }

    #[test]
    fn environment_overrides_the_file() {
        let env = env_of(&[
            HOME,
            ("WAYMARK_LLM_BASE_URL", "http://127.0.0.1:1234/v1"),
            ("WAYMARK_LLM_MODEL", "llama3.1"),
            ("WAYMARK_LLM_API_KEY", "sk-env"),
            ("OPENAI_API_KEY", "sk-openai"),
            ("WAYMARK_LLM_TIMEOUT_SECS", "5"),
            ("WAYMARK_LLM_IMAGES", "no"),
            ("WAYMARK_STATE_DIR", "/var/tmp/wm"),
            ("WAYMARK_MAX_TOOL_STEPS", "3"),
            ("WAYMARK_BANNER_BUDGET_MS", "0"),
            ("WAYMARK_LOG", "waymark_host=trace"),
        ]);
        let config = Config::load_from(&env, Some(FILE)).unwrap();
        assert_eq!(config.llm_base_url, "http://127.0.0.1:1234/v1");
        assert_eq!(config.llm_model, "llama3.1");
        assert_eq!(config.llm_api_key.as_deref(), Some("sk-env"));
        assert_eq!(config.llm_timeout_secs, 5);
        assert!(!config.llm_supports_images);
        assert_eq!(config.state_dir, path("/var/tmp/wm"));
        assert_eq!(config.max_tool_steps, 3);
        assert_eq!(config.banner_budget_ms, 0);
        assert_eq!(config.log, "waymark_host=trace");
    }

    #[test]
    fn api_key_falls_back_to_openai_api_key_and_empty_means_unset() {
        let env = env_of(&[HOME, ("WAYMARK_LLM_API_KEY", ""), ("OPENAI_API_KEY", "sk-openai")]);
        let config = Config::load_from(&env, None).unwrap();
        assert_eq!(config.llm_api_key.as_deref(), Some("sk-openai"));
        // The file's key is more specific than the generic OPENAI_API_KEY.
        let config = Config::load_from(&env, Some(r#"llm_api_key = "sk-file""#)).unwrap();
        assert_eq!(config.llm_api_key.as_deref(), Some("sk-file"));
    }

    #[test]
    fn debug_never_shows_secrets() {
        let env = env_of(&[HOME, ("WAYMARK_LLM_API_KEY", "sk-very-secret")]);
        let config = Config::load_from(&env, Some(FILE)).unwrap();
        let shown = format!("{config:?}");
        assert!(!shown.contains("sk-very-secret"), "{shown}");
        assert!(!shown.contains("ghp_secret"), "{shown}");
        assert!(shown.contains("llm_api_key: Some(\"***\")"), "{shown}");
        assert!(shown.contains("GITHUB_TOKEN"), "{shown}");
    }

    #[test]
    fn bad_environment_values_name_the_variable_the_value_and_the_expectation() {
        let cases = [
            ("WAYMARK_MAX_TOOL_STEPS", "abc", "from 1 to 1000"),
            ("WAYMARK_MAX_TOOL_STEPS", "0", "from 1 to 1000"),
            (
                "WAYMARK_BANNER_BUDGET_MS",
                "30001",
                "milliseconds from 0 to 30000",
            ),
            ("WAYMARK_LLM_TIMEOUT_SECS", "-1", "seconds"),
            ("WAYMARK_LLM_BASE_URL", "localhost:11434", "http:// or https://"),
            ("WAYMARK_LLM_IMAGES", "maybe", "true or false"),
            ("WAYMARK_STATE_DIR", "relative/dir", "an absolute path"),
            ("WAYMARK_LLM_MODEL", "  ", "a model name"),
        ];
        for (name, value, expected) in cases {
            let err = Config::load_from(&env_of(&[HOME, (name, value)]), None).unwrap_err();
            let text = err.to_string();
            assert!(matches!(err, ConfigError::BadEnvValue { .. }), "{text}");
            assert!(text.contains(name), "{text}");
            assert!(text.contains(&format!("{value:?}")), "{text}");
            assert!(text.contains(expected), "{text}");
        }
    }

    #[test]
    fn a_bad_api_key_is_refused_without_being_shown() {
        let env = env_of(&[HOME, ("WAYMARK_LLM_API_KEY", "sk-with space")]);
        let text = Config::load_from(&env, None).unwrap_err().to_string();
        assert!(text.contains("WAYMARK_LLM_API_KEY"), "{text}");
        assert!(!text.contains("sk-with"), "{text}");
    }

    #[test]
    fn save_keeps_other_entries_writes_0600_and_never_keeps_a_bad_value() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("waymark").join("config.toml");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(
            &path,
            "log = \"debug\"\n\n[[mcp_servers]]\nname = \"files\"\ncommand = \"npx\"\n",
        )
        .unwrap();
        let env = env_of(&[HOME]);
        let change = SettingsChange {
            llm_base_url: Some("http://127.0.0.1:9/v1".into()),
            llm_model: Some("llama3.1".into()),
            llm_api_key: Some("sk-saved".into()),
            max_tool_steps: Some(12),
            banner_budget_ms: Some(900),
        };
        let config = save_to(&path, &env, &change).unwrap();
        assert_eq!(config.llm_model, "llama3.1");
        assert_eq!(config.banner_budget_ms, 900);
        let text = std::fs::read_to_string(&path).unwrap();
        let again = Config::load_from(&env, Some(&text)).unwrap();
        assert_eq!(again.log, "debug");
        assert_eq!(again.mcp_servers.len(), 1);
        assert_eq!(again.llm_api_key.as_deref(), Some("sk-saved"));
        assert_eq!(again.max_tool_steps, 12);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600);
        }
        // An empty key removes it; `None` leaves the other values alone.
        let cleared = SettingsChange {
            llm_api_key: Some(String::new()),
            ..SettingsChange::default()
        };
        save_to(&path, &env, &cleared).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(!text.contains("sk-saved"), "{text}");
        assert!(text.contains("llama3.1"), "{text}");

        // Bad values are refused with the key named, and the file stays as it was.
        for (change, needle) in [
            (
                SettingsChange {
                    llm_base_url: Some("localhost:11434".into()),
                    ..SettingsChange::default()
                },
                "llm_base_url",
            ),
            (
                SettingsChange {
                    max_tool_steps: Some(0),
                    ..SettingsChange::default()
                },
                "from 1 to 1000",
            ),
            (
                SettingsChange {
                    banner_budget_ms: Some(99_999),
                    ..SettingsChange::default()
                },
                "banner_budget_ms",
            ),
        ] {
            let err = save_to(&path, &env, &change).unwrap_err().to_string();
            assert!(err.contains(needle), "{err}");
            assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        }
        // A file that does not parse is never overwritten.
        std::fs::write(&path, "llm_model = ").unwrap();
        assert!(save_to(&path, &env, &SettingsChange::default()).is_err());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "llm_model = ");
    }

    #[test]
    fn env_overrides_name_the_variables_set() {
        let env = env_of(&[
            HOME,
            ("WAYMARK_LLM_MODEL", "m"),
            ("WAYMARK_LLM_API_KEY", "k"),
            ("WAYMARK_LOG", ""),
        ]);
        assert_eq!(
            env_overrides(&env),
            vec![
                ("llm_model", "WAYMARK_LLM_MODEL"),
                ("llm_api_key", "WAYMARK_LLM_API_KEY")
            ]
        );
    }

    #[test]
    fn malformed_file_names_the_file() {
        let env = env_of(&[HOME]);
        let err = Config::load_from(&env, Some("llm_model = ")).unwrap_err();
        assert!(matches!(err, ConfigError::Parse { .. }));
        assert!(
            err.to_string()
                .contains(&abs("/home/ada/.config/waymark/config.toml")),
            "{err}"
        );
        // A typo in a key is an error, not silently ignored.
        let err = Config::load_from(&env, Some("llm_modle = \"x\"")).unwrap_err();
        assert!(err.to_string().contains("llm_modle"), "{err}");
        // A value of the wrong type.
        let err = Config::load_from(&env, Some("max_tool_steps = \"ten\"")).unwrap_err();
        assert!(err.to_string().contains("max_tool_steps"), "{err}");
        // A value out of range names the key.
        let err = Config::load_from(&env, Some("max_tool_steps = 0")).unwrap_err();
        let text = err.to_string();
        assert!(matches!(err, ConfigError::BadFileValue { .. }), "{text}");
        assert!(text.contains("max_tool_steps = \"0\""), "{text}");
        // An MCP server without a command.
        let err = Config::load_from(&env, Some("[[mcp_servers]]\nname = \"x\"\ncommand = \"\"")).unwrap_err();
        assert!(err.to_string().contains("mcp_servers"), "{err}");
    }
}
