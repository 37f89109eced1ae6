//! Saving the settings page's changes into `config.toml`: every other entry kept, the result checked
//! by loading it before anything is written, the file replaced whole and private (0600: it may hold the
//! API key).
//!
//! What it must not do: overwrite a file that does not parse (the person may have entries it would
//! lose), keep a value that would not load, or show the API key (`Debug` masks it).

use std::fmt;
use std::path::Path;

use super::env::config_file_path;
use super::*;

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
    crate::atomic_file::write_private(path, text.as_bytes()).map_err(|source| SaveError::Write {
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

/// [`save_to`] with the real environment and the real file.
pub fn save(change: &SettingsChange) -> Result<Config, SaveError> {
    let env = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    let path = config_file_path(&env).ok_or(SaveError::NoConfigDir)?;
    save_to(&path, &env, change)
}

#[cfg(test)]
mod tests {
    use super::super::testing::{env_of, HOME};
    use super::*;

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
        assert_eq!(again.log.as_deref(), Some("debug"));
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
                    max_tool_steps: Some(MAX_TOOL_STEPS_RANGE.0 - 1),
                    ..SettingsChange::default()
                },
                "max_tool_steps",
            ),
            (
                SettingsChange {
                    banner_budget_ms: Some(BANNER_BUDGET_MS_RANGE.1 + 1),
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
}
