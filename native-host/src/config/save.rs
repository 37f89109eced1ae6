//! Saving the settings page's changes into `config.toml`: every other entry kept, the result checked
//! by loading it before anything is written, the file replaced whole and private (0600: it may hold the
//! API key). A file that does not parse (not TOML, a key Waymark does not know, a value of the wrong
//! type) cannot keep its entries, so it is copied aside first (`config.toml.broken-<time>`, private)
//! and the page's settings replace it; the answer says where the copy is.
//!
//! What it must not do: lose a file the person wrote (a broken one is kept before it is replaced), keep
//! a value that would not load, or show the API key (`Debug` masks it).

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

/// What a save did.
#[derive(Debug)]
pub struct Saved {
    /// The settings now in effect (the environment still wins).
    pub config: Config,
    /// Where the file that did not parse was kept, when the save replaced one.
    pub kept_copy: Option<PathBuf>,
}

/// Writes `change` into the config file at `path`, keeping every other entry (comments are not kept:
/// the file is rewritten from its parsed form). The result is checked with [`Config::load_from`]
/// before anything is written, so a bad URL or an out-of-range number leaves the file untouched. A
/// file that does not parse is copied aside and replaced by the change alone. The file is written to
/// a temp file and renamed, mode 0600: it may hold the API key.
pub fn save_to(
    path: &Path,
    env: &impl Fn(&str) -> Option<String>,
    change: &SettingsChange,
) -> Result<Saved, SaveError> {
    let old = match std::fs::read(path) {
        Ok(bytes) => Some(bytes),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(source) => {
            return Err(ConfigError::Read {
                path: path.to_path_buf(),
                source,
            }
            .into())
        }
    };
    // Checked against the file alone: a value the environment overrides must still be valid in the file.
    let without_overrides = |name: &str| match name {
        "HOME" | "USERPROFILE" | "XDG_CONFIG_HOME" | "APPDATA" | "XDG_STATE_HOME" | "LOCALAPPDATA" => {
            env(name)
        }
        _ => None,
    };
    let check = |text: &str| Config::load_from(&without_overrides, Some(text)).map_err(|e| relabel(e, path));
    // `None`: no file; `Some(None)`: not TOML (or not text at all).
    let table: Option<Option<toml::Table>> = old.as_deref().map(|bytes| {
        std::str::from_utf8(bytes)
            .ok()
            .and_then(|text| toml::from_str(text).ok())
    });
    let (text, broken) = match table {
        None => (changed(toml::Table::new(), change, path)?, false),
        Some(None) => (changed(toml::Table::new(), change, path)?, true),
        Some(Some(table)) => {
            let text = changed(table, change, path)?;
            match check(&text) {
                // TOML of another shape (the change sets only known keys): its entries cannot be kept.
                Err(ConfigError::Parse { .. }) => (changed(toml::Table::new(), change, path)?, true),
                other => {
                    other?;
                    (text, false)
                }
            }
        }
    };
    check(&text)?;
    let kept_copy = match (&old, broken) {
        (Some(bytes), true) => Some(keep_copy(path, bytes)?),
        _ => None,
    };
    crate::atomic_file::write_private(path, text.as_bytes()).map_err(|source| SaveError::Write {
        path: path.to_path_buf(),
        source,
    })?;
    let mut config = Config::load_from(env, Some(&text))?;
    config.source = Some(path.to_path_buf());
    Ok(Saved { config, kept_copy })
}

/// `table` with the change applied, as the file's text.
fn changed(mut table: toml::Table, change: &SettingsChange, path: &Path) -> Result<String, ConfigError> {
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
            // Out-of-range numbers are refused by the check, with the key's own message.
            let n = i64::try_from(n).unwrap_or(i64::MAX);
            table.insert(key.to_owned(), toml::Value::Integer(n));
        }
    }
    toml::to_string(&table).map_err(|e| ConfigError::Parse {
        path: path.to_path_buf(),
        message: e.to_string(),
        place: None,
    })
}

/// Keeps a file that does not parse beside it, private (it may hold the API key), under a name no
/// other copy has: `config.toml.broken-<unix seconds>`, then `-2`, `-3`… within the same second.
fn keep_copy(path: &Path, bytes: &[u8]) -> Result<PathBuf, SaveError> {
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let name = path
        .file_name()
        .map_or_else(|| "config.toml".into(), |n| n.to_string_lossy().into_owned());
    let copy = (1..)
        .map(|n| match n {
            1 => path.with_file_name(format!("{name}.broken-{stamp}")),
            n => path.with_file_name(format!("{name}.broken-{stamp}-{n}")),
        })
        .find(|candidate| !candidate.exists())
        .unwrap_or_else(|| path.with_file_name(format!("{name}.broken-{stamp}")));
    crate::atomic_file::write_private(&copy, bytes).map_err(|source| SaveError::Write {
        path: copy.clone(),
        source,
    })?;
    Ok(copy)
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
        ConfigError::Parse { message, place, .. } => ConfigError::Parse {
            path: path.to_path_buf(),
            message,
            place,
        },
        other => other,
    }
}

/// [`save_to`] with the real environment and the real file.
pub fn save(change: &SettingsChange) -> Result<Saved, SaveError> {
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
        let config = save_to(&path, &env, &change).unwrap().config;
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
    }

    /// A file that does not parse is kept beside it, private, and the page's settings replace it.
    #[test]
    fn a_file_that_does_not_parse_is_kept_aside_and_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("waymark").join("config.toml");
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let env = env_of(&[HOME]);
        let change = SettingsChange {
            llm_model: Some("llama3.1".into()),
            ..SettingsChange::default()
        };
        // Not TOML; a key Waymark does not know; a value of the wrong type; not even UTF-8.
        let broken: [&[u8]; 4] = [
            b"llm_model = ",
            b"llm_modle = \"typo\"\nlog = \"debug\"\n",
            b"max_tool_steps = \"many\"\n",
            b"llm_model = \"\xff\"\n",
        ];
        for old in broken {
            std::fs::write(&path, old).unwrap();
            let saved = save_to(&path, &env, &change).unwrap();
            assert_eq!(saved.config.llm_model, "llama3.1");
            let copy = saved.kept_copy.expect("a copy is kept");
            assert_eq!(copy.parent(), path.parent());
            assert!(
                copy.file_name()
                    .unwrap()
                    .to_string_lossy()
                    .starts_with("config.toml.broken-"),
                "{copy:?}"
            );
            assert_eq!(std::fs::read(&copy).unwrap(), old);
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt as _;
                let mode = std::fs::metadata(&copy).unwrap().permissions().mode() & 0o777;
                assert_eq!(mode, 0o600);
            }
            let text = std::fs::read_to_string(&path).unwrap();
            assert!(Config::load_from(&env, Some(&text)).is_ok(), "{text}");
        }
        // Four copies, none overwritten, and no temp file left.
        let names: Vec<String> = std::fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names.len(), 5, "{names:?}");

        // A file that parses keeps its entries and no copy is made; a value out of range in it is
        // refused with its key, the file as it was.
        std::fs::write(&path, "log = \"debug\"\n").unwrap();
        let saved = save_to(&path, &env, &change).unwrap();
        assert_eq!(saved.kept_copy, None);
        assert_eq!(saved.config.log.as_deref(), Some("debug"));
        std::fs::write(&path, "llm_timeout_secs = 0\n").unwrap();
        let err = save_to(&path, &env, &change).unwrap_err().to_string();
        assert!(err.contains("llm_timeout_secs"), "{err}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "llm_timeout_secs = 0\n");
    }
}
