//! Reading the configuration: the file's shape (every key optional, unknown keys refused), each
//! setting taken from the environment, else the file, else its default, and checked, so a bad value is
//! an error that names where it came from and what was expected.
//!
//! What it must not do: touch the real environment or file system (it is a pure function of an
//! environment lookup and the file's text), or show a secret in an error (the API key is masked).

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::env::{config_file_path, default_state_dir, expand_home, pick, pick_number};
use super::*;

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
pub(super) enum Origin<'a> {
    Env(&'static str),
    File { path: &'a Path, key: &'static str },
}

impl Origin<'_> {
    /// `shown` is how the bad value appears in the message (secrets are masked by the caller).
    pub(super) fn error(&self, shown: String, expected: Expected) -> ConfigError {
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

/// The TOML parser's message on one line, as it is read aloud: its snippet of the file (the lines
/// drawn with `|` and the caret under the fault) left out but for the key of the line at fault, the
/// rest joined with colons. The line's value is never repeated: it may be the API key.
fn one_line(message: &str) -> String {
    let mut key = None;
    let mut parts = Vec::new();
    for line in message.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let numbered = line.trim_start_matches(|c: char| c.is_ascii_digit());
        match numbered.trim_start().strip_prefix('|') {
            Some(quoted) if numbered.len() < line.len() => {
                key = quoted
                    .split_once('=')
                    .map(|(k, _)| k.trim().to_owned())
                    .filter(|k| !k.is_empty());
            }
            Some(_) => {}
            None => parts.push(line.to_owned()),
        }
    }
    if let (Some(key), Some(first)) = (key, parts.first_mut()) {
        first.push_str(&format!(" ({key})"));
    }
    parts.join(": ")
}

/// The keys a config file may have at its top level (the fields of [`FileConfig`]).
const FILE_KEYS: [&str; 10] = [
    "llm_base_url",
    "llm_model",
    "llm_api_key",
    "llm_timeout_secs",
    "llm_supports_images",
    "state_dir",
    "max_tool_steps",
    "banner_budget_ms",
    "log",
    "mcp_servers",
];

/// Where the parser stopped at byte `at` of `text`: its line and column, the key of that line, and
/// whether the file (as TOML) has a top-level key Waymark does not know there — the parser's
/// refusal of an unknown field, found again from the file itself rather than from its words.
fn place_of(text: &str, at: usize) -> Place {
    let before = text.get(..at).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = before[start..].chars().count() + 1;
    let line_text = text[start..].lines().next().unwrap_or_default();
    let key = line_text
        .split_once('=')
        .map(|(k, _)| k.trim().trim_matches('"').to_owned())
        .filter(|k| !k.is_empty() && !k.starts_with('['));
    let unknown_key = match (&key, toml::from_str::<toml::Table>(text)) {
        (Some(key), Ok(table)) => table.contains_key(key) && !FILE_KEYS.contains(&key.as_str()),
        _ => false,
    };
    Place {
        line,
        column,
        key,
        unknown_key,
    }
}

impl Config {
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
                message: one_line(&e.to_string()),
                place: e.span().map(|span| place_of(text, span.start)),
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
                return Err(origin.error(format!("{raw:?}"), Expected::ModelName))
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
                    return Err(origin.error("\"***\"".to_owned(), Expected::ApiKey));
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
            Some(raw) => parse_in_range(&raw, 1, 3600, &origin, Expected::Seconds { min: 1, max: 3600 })?,
            None => DEFAULT_LLM_TIMEOUT_SECS,
        };

        let llm_supports_images = match lookup("WAYMARK_LLM_IMAGES") {
            Some(raw) => match raw.trim().to_ascii_lowercase().as_str() {
                "1" | "true" | "yes" | "on" => true,
                "0" | "false" | "no" | "off" => false,
                _ => {
                    return Err(
                        Origin::Env("WAYMARK_LLM_IMAGES").error(format!("{raw:?}"), Expected::TrueOrFalse)
                    )
                }
            },
            None => file.llm_supports_images.unwrap_or(false),
        };

        let (raw, origin) = pick(&lookup, "WAYMARK_STATE_DIR", file.state_dir, in_file("state_dir"));
        let state_dir = match raw {
            Some(raw) => {
                let dir = expand_home(raw.trim(), &lookup);
                if !dir.is_absolute() {
                    return Err(origin.error(format!("{raw:?}"), Expected::AbsolutePath));
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
                let n = parse_in_range(&raw, min, max, &origin, Expected::Steps { min, max })?;
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
                parse_in_range(&raw, min, max, &origin, Expected::Milliseconds { min, max })?
            }
            None => DEFAULT_BANNER_BUDGET_MS,
        };

        let (raw, origin) = pick(&lookup, "WAYMARK_LOG", file.log, in_file("log"));
        let log = match raw {
            Some(raw) if raw.trim().is_empty() => {
                return Err(origin.error(format!("{raw:?}"), Expected::LogFilter))
            }
            Some(raw) => Some(raw.trim().to_owned()),
            None => None,
        };

        for server in &file.mcp_servers {
            if server.name.trim().is_empty() || server.command.trim().is_empty() {
                return Err(in_file("mcp_servers").error(
                    format!("{{ name = {:?}, command = {:?} }}", server.name, server.command),
                    Expected::McpServer,
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

fn parse_in_range(
    raw: &str,
    min: u64,
    max: u64,
    origin: &Origin<'_>,
    expected: Expected,
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
        _ => Err(origin.error(format!("{raw:?}"), Expected::BaseUrl)),
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{env_of, FILE, HOME};
    use super::*;
    use crate::test_paths::{abs, path};

    #[test]
    fn defaults_without_file_or_variables() {
        let config = Config::load_from(&env_of(&[HOME]), None).unwrap();
        assert_eq!(config.llm_base_url, DEFAULT_LLM_BASE_URL);
        assert_eq!(config.llm_model, DEFAULT_LLM_MODEL);
        assert_eq!(config.llm_api_key, None);
        assert_eq!(config.llm_timeout_secs, DEFAULT_LLM_TIMEOUT_SECS);
        assert!(!config.llm_supports_images);
        assert_eq!(config.state_dir, path("/home/ada/.local/state/waymark"));
        assert_eq!(config.max_tool_steps, DEFAULT_MAX_TOOL_STEPS);
        assert_eq!(config.banner_budget_ms, DEFAULT_BANNER_BUDGET_MS);
        assert_eq!(config.log, None, "the host's own default applies");
        assert!(config.mcp_servers.is_empty());
        assert_eq!(config.source, None);
    }

    #[test]
    fn no_home_and_no_state_dir_is_a_clear_error() {
        let err = Config::load_from(&env_of(&[]), None).unwrap_err();
        assert!(err.to_string().contains("WAYMARK_STATE_DIR"), "{err}");
        let config = Config::load_from(&env_of(&[("WAYMARK_STATE_DIR", "/tmp/wm")]), None).unwrap();
        assert_eq!(config.state_dir, path("/tmp/wm"));
    }

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
        assert_eq!(config.log.as_deref(), Some("debug"));
        assert_eq!(config.mcp_servers.len(), 2);
        assert_eq!(config.mcp_servers[0].args.len(), 3);
        assert_eq!(config.mcp_servers[0].env["GITHUB_TOKEN"], "ghp_secret");
        assert!(config.mcp_servers[1].args.is_empty());
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
    fn a_bad_api_key_is_refused_without_being_shown() {
        let env = env_of(&[HOME, ("WAYMARK_LLM_API_KEY", "sk-with space")]);
        let text = Config::load_from(&env, None).unwrap_err().to_string();
        assert!(text.contains("WAYMARK_LLM_API_KEY"), "{text}");
        assert!(!text.contains("sk-with"), "{text}");
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
        // One line, as it is read aloud: where, and what is wrong, without the drawn snippet.
        let text = err.to_string();
        assert!(!text.contains('\n') && !text.contains('|'), "{text}");
        assert!(text.contains("line 1, column"), "{text}");
        // The line at fault is named by its key, never by its value (it may be the API key).
        let err = Config::load_from(&env, Some("llm_api_key = \"sk-half-pasted")).unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains("(llm_api_key)") && !text.contains("sk-half"),
            "{text}"
        );
        // A typo in a key is an error, not silently ignored.
        let err = Config::load_from(&env, Some("llm_modle = \"x\"")).unwrap_err();
        assert!(err.to_string().contains("llm_modle"), "{err}");
        assert!(!err.to_string().contains('\n'), "{err}");
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
