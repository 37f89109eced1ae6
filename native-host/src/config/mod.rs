//! The host's configuration: `config.toml` under the user's config folder, overridden by environment
//! variables (README "Configuration"; `docs/requirements.md` "Configuration").
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
//! log = "info"                                 # WAYMARK_LOG: what the host logs to stderr
//!
//! [[mcp_servers]]                              # external MCP servers whose tools the agent may call
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
//!
//! The module's rooms: [`parse`] reads and checks the file's text ([`Config::load_from`]), [`env`] finds
//! the folders and lets the environment override the file, [`save`] writes the settings page's changes,
//! [`said`] says the faults to the user in their language.

mod env;
mod parse;
mod said;
mod save;

pub use env::{config_file_path, env_overrides};
pub use said::{Expected, Place};
pub use save::{save, SaveError, SettingsChange};

use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;

use serde::Deserialize;
use waymark_protocol::{FaultKind, HostFault};

/// Where a local Ollama answers with its OpenAI-compatible API.
pub const DEFAULT_LLM_BASE_URL: &str = "http://127.0.0.1:11434/v1";
/// A small local model with tool calling that runs on an ordinary laptop (`ollama pull qwen2.5:7b-instruct`).
pub const DEFAULT_LLM_MODEL: &str = "qwen2.5:7b-instruct";
pub const DEFAULT_LLM_TIMEOUT_SECS: u64 = 60;
pub const DEFAULT_MAX_TOOL_STEPS: u32 = 10;
/// Automatic banner closing gets at most 2.5 s in total (`docs/requirements.md` "Closing banners").
pub const DEFAULT_BANNER_BUDGET_MS: u64 = 2500;
/// The step limit's accepted range (also what the settings page checks).
pub const MAX_TOOL_STEPS_RANGE: (u64, u64) = (1, 1000);
/// The banner budget's accepted range in milliseconds; 0 turns automatic banner closing off.
pub const BANNER_BUDGET_MS_RANGE: (u64, u64) = (0, 30_000);

/// The keys the settings page sets (so a fault in one of them can be fixed there).
pub const ON_SETTINGS_PAGE: [&str; 5] = [
    "llm_base_url",
    "llm_model",
    "llm_api_key",
    "max_tool_steps",
    "banner_budget_ms",
];

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
    /// Milliseconds the automatic banner closing may spend in one request (`docs/requirements.md`
    /// "Closing banners").
    pub banner_budget_ms: u64,
    /// The `tracing` filter (`log`, or `WAYMARK_LOG`); `None`: the host's default ([`crate::logging`]).
    pub log: Option<String>,
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
    /// `message` is the parser's own account (English, for the logs); `place` where it stopped.
    #[error("the configuration file {} is not valid: {message}", path.display())]
    Parse {
        path: PathBuf,
        message: String,
        place: Option<Place>,
    },
    #[error("{key} = {value} in {} is not valid: expected {expected}", path.display())]
    BadFileValue {
        path: PathBuf,
        key: &'static str,
        value: String,
        expected: Expected,
    },
    #[error("the environment variable {name}={value} is not valid: expected {expected}")]
    BadEnvValue {
        name: &'static str,
        value: String,
        expected: Expected,
    },
    #[error("no folder for Waymark's state: set WAYMARK_STATE_DIR (or HOME)")]
    NoStateDir,
}

impl ConfigError {
    /// The fault as the panel and the settings page are told it: its kind, the file, the key or the
    /// variable, and what is wrong in the user's `words` as the detail.
    pub fn fault(&self, words: &waymark_i18n::Words) -> HostFault {
        let (kind, file, key) = match self {
            ConfigError::Read { path, .. } => (FaultKind::ConfigUnreadable, Some(path), None),
            ConfigError::Parse { path, .. } => (FaultKind::ConfigDoesNotParse, Some(path), None),
            ConfigError::BadFileValue { path, key, .. } => {
                (FaultKind::ConfigBadValue, Some(path), Some((*key).to_owned()))
            }
            ConfigError::BadEnvValue { name, .. } => {
                (FaultKind::ConfigBadEnv, None, Some((*name).to_owned()))
            }
            ConfigError::NoStateDir => (FaultKind::NoStateDir, None, None),
        };
        HostFault {
            kind,
            path: file.map(|p| p.display().to_string()),
            key,
            detail: Some(self.said(words)),
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
}

/// What the tests of every room share: an environment lookup and a file that sets every key.
#[cfg(test)]
mod testing {
    use std::collections::BTreeMap;

    use crate::test_paths::abs;

    pub fn env_of(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: BTreeMap<String, String> = pairs.iter().map(|(k, v)| ((*k).to_owned(), abs(v))).collect();
        move |name: &str| map.get(name).cloned()
    }

    pub const HOME: (&str, &str) = ("HOME", "/home/ada");

    pub const FILE: &str = r#"
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
}
