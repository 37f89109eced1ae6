//! The configuration's faults as the user hears them, in their language (`config.ftl`): what is
//! wrong ([`ConfigError::said`], [`SaveError::said`]) and what to do about it ([`ConfigError::fix`]),
//! with the file, the key, the value and what was expected as values by name. The English `Display`
//! of the same errors stays for the logs.
//!
//! What it must not do: decide anything from the words (the faults are typed), or say a secret: the
//! API key's value is masked before it reaches an error.

use std::fmt;
use std::path::Path;

use waymark_i18n::{say, Words};

use super::{ConfigError, SaveError, ON_SETTINGS_PAGE};

/// What a setting must be, for the sentence that refuses a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expected {
    BaseUrl,
    ModelName,
    ApiKey,
    Seconds { min: u64, max: u64 },
    TrueOrFalse,
    AbsolutePath,
    Steps { min: u64, max: u64 },
    Milliseconds { min: u64, max: u64 },
    LogFilter,
    McpServer,
}

/// English, for the logs and `Display`.
impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expected::BaseUrl => f.write_str(
                "an http:// or https:// URL of an OpenAI-compatible API, such as http://127.0.0.1:11434/v1",
            ),
            Expected::ModelName => f.write_str("a model name"),
            Expected::ApiKey => {
                f.write_str("an API key of visible ASCII characters (no spaces or line breaks)")
            }
            Expected::Seconds { min, max } => write!(f, "a whole number of seconds from {min} to {max}"),
            Expected::TrueOrFalse => f.write_str("true or false"),
            Expected::AbsolutePath => f.write_str("an absolute path"),
            Expected::Steps { min, max } => write!(f, "a whole number of steps from {min} to {max}"),
            Expected::Milliseconds { min, max } => {
                write!(f, "a whole number of milliseconds from {min} to {max}")
            }
            Expected::LogFilter => f.write_str("a tracing filter such as info or debug"),
            Expected::McpServer => f.write_str("a name and a command for every [[mcp_servers]] entry"),
        }
    }
}

impl Expected {
    /// What was expected, in the user's language (a phrase, said inside a sentence).
    pub fn said(&self, words: &Words) -> String {
        match *self {
            Expected::BaseUrl => say!(words, "config-expected-url"),
            Expected::ModelName => say!(words, "config-expected-model"),
            Expected::ApiKey => say!(words, "config-expected-api-key"),
            Expected::Seconds { min, max } => say!(words, "config-expected-seconds", min = min, max = max),
            Expected::TrueOrFalse => say!(words, "config-expected-true-or-false"),
            Expected::AbsolutePath => say!(words, "config-expected-absolute-path"),
            Expected::Steps { min, max } => say!(words, "config-expected-steps", min = min, max = max),
            Expected::Milliseconds { min, max } => {
                say!(words, "config-expected-milliseconds", min = min, max = max)
            }
            Expected::LogFilter => say!(words, "config-expected-log-filter"),
            Expected::McpServer => say!(words, "config-expected-mcp-server"),
        }
    }
}

/// Where in the file the TOML parser stopped: the line and column (from 1), the key of that line
/// when it has one, and whether that key is one Waymark does not know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    pub line: usize,
    pub column: usize,
    pub key: Option<String>,
    pub unknown_key: bool,
}

impl ConfigError {
    /// What is wrong, in the user's language: a clause without a closing full stop (the sentence
    /// around it adds its own), like the English `Display`.
    pub fn said(&self, words: &Words) -> String {
        match self {
            ConfigError::Read { path, source } => unreadable(words, path, source),
            ConfigError::Parse {
                path,
                place: Some(place),
                ..
            } => {
                let path = path.display().to_string();
                match &place.key {
                    Some(key) if place.unknown_key => say!(
                        words,
                        "config-unknown-key",
                        path = path,
                        key = key.as_str(),
                        line = place.line
                    ),
                    Some(key) => say!(
                        words,
                        "config-parse-at-key",
                        path = path,
                        key = key.as_str(),
                        line = place.line,
                        column = place.column
                    ),
                    None => say!(
                        words,
                        "config-parse-at",
                        path = path,
                        line = place.line,
                        column = place.column
                    ),
                }
            }
            ConfigError::Parse {
                path,
                message,
                place: None,
            } => say!(
                words,
                "config-parse",
                path = path.display().to_string(),
                detail = message.as_str()
            ),
            ConfigError::BadFileValue {
                path,
                key,
                value,
                expected,
            } => say!(
                words,
                "config-bad-file-value",
                key = *key,
                value = value.as_str(),
                path = path.display().to_string(),
                expected = expected.said(words)
            ),
            ConfigError::BadEnvValue {
                name,
                value,
                expected,
            } => say!(
                words,
                "config-bad-env-value",
                name = *name,
                value = value.as_str(),
                expected = expected.said(words)
            ),
            ConfigError::NoStateDir => say!(words, "config-no-state-dir"),
        }
    }

    /// What to do about it, in the user's language (a clause, like [`ConfigError::said`]).
    pub fn fix(&self, words: &Words) -> String {
        match self {
            ConfigError::Read { path, .. } => {
                say!(words, "config-fix-unreadable", path = path.display().to_string())
            }
            ConfigError::Parse { path, .. } => {
                say!(words, "config-fix-replace", path = path.display().to_string())
            }
            ConfigError::BadFileValue { path, key, .. } if ON_SETTINGS_PAGE.contains(key) => say!(
                words,
                "config-fix-in-settings",
                key = *key,
                path = path.display().to_string()
            ),
            ConfigError::BadFileValue { path, key, .. } => say!(
                words,
                "config-fix-edit",
                key = *key,
                path = path.display().to_string()
            ),
            ConfigError::BadEnvValue { name, .. } => say!(words, "config-fix-env", name = *name),
            ConfigError::NoStateDir => say!(words, "config-fix-no-state-dir"),
        }
    }
}

impl SaveError {
    /// Why the settings were not saved, in the user's language (a clause, like `Display`).
    pub fn said(&self, words: &Words) -> String {
        match self {
            SaveError::Invalid(error) => error.said(words),
            SaveError::NoConfigDir => say!(words, "config-no-config-dir"),
            SaveError::Write { path, source } if source.kind() == std::io::ErrorKind::PermissionDenied => {
                say!(
                    words,
                    "config-unwritable-denied",
                    path = path.display().to_string()
                )
            }
            SaveError::Write { path, source } => say!(
                words,
                "config-unwritable",
                path = path.display().to_string(),
                detail = source.to_string()
            ),
        }
    }
}

/// A file that cannot be read: the refusal said in words when it is one, else the system's reason.
fn unreadable(words: &Words, path: &Path, source: &std::io::Error) -> String {
    let path = path.display().to_string();
    match source.kind() {
        std::io::ErrorKind::PermissionDenied => say!(words, "config-unreadable-denied", path = path),
        _ => say!(
            words,
            "config-unreadable",
            path = path,
            detail = source.to_string()
        ),
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::config::testing::{env_of, HOME};
    use crate::config::{Config, SettingsChange};
    use crate::language::latin_words;

    /// Words of configuration syntax a person types as they are (they are values, not English).
    const SYNTAX: [&str; 12] = [
        "http://",
        "https://",
        "OpenAI",
        "API",
        "ASCII",
        "true",
        "false",
        "info",
        "debug",
        "mcp_servers",
        "HOME",
        "/v1",
    ];

    fn every_error() -> Vec<(ConfigError, Vec<String>)> {
        let env = env_of(&[HOME]);
        let mut errors = Vec::new();
        for text in [
            "llm_model = ",
            "llm_modle = \"x\"",
            "max_tool_steps = \"ten\"",
            "max_tool_steps = 0",
            "llm_timeout_secs = 0",
            "banner_budget_ms = 99999",
            "llm_base_url = \"localhost\"",
            "llm_model = \" \"",
            "state_dir = \"relative\"",
            "log = \" \"",
            "llm_api_key = \"a b\"",
            "[[mcp_servers]]\nname = \"x\"\ncommand = \"\"",
        ] {
            errors.push(Config::load_from(&env, Some(text)).unwrap_err());
        }
        errors.push(Config::load_from(&env_of(&[HOME, ("WAYMARK_LLM_IMAGES", "maybe")]), None).unwrap_err());
        errors.push(Config::load_from(&env_of(&[]), None).unwrap_err());
        errors.push(ConfigError::Read {
            path: PathBuf::from("/home/ada/config.toml"),
            source: std::io::Error::from(std::io::ErrorKind::PermissionDenied),
        });
        errors.push(ConfigError::Parse {
            path: PathBuf::from("/home/ada/config.toml"),
            message: "x".into(),
            place: None,
        });
        errors
            .into_iter()
            .map(|e| {
                let mut values = vec![];
                match &e {
                    ConfigError::Read { path, .. } | ConfigError::Parse { path, .. } => {
                        values.push(path.display().to_string());
                        if let ConfigError::Parse {
                            place: Some(Place { key: Some(key), .. }),
                            ..
                        } = &e
                        {
                            values.push(key.clone());
                        }
                        if let ConfigError::Parse {
                            message, place: None, ..
                        } = &e
                        {
                            values.push(message.clone());
                        }
                    }
                    ConfigError::BadFileValue { path, key, value, .. } => {
                        values.extend([path.display().to_string(), (*key).to_owned(), value.clone()])
                    }
                    ConfigError::BadEnvValue { name, value, .. } => {
                        values.extend([(*name).to_owned(), value.clone()])
                    }
                    ConfigError::NoStateDir => {}
                }
                (e, values)
            })
            .collect()
    }

    #[test]
    fn every_config_fault_and_its_fix_are_said_in_russian() {
        let words = Words::new("ru");
        for (error, values) in every_error() {
            let mut allowed: Vec<&str> = values.iter().map(String::as_str).collect();
            allowed.extend(SYNTAX);
            allowed.extend(["WAYMARK_STATE_DIR", "config.toml"]);
            for said in [error.said(&words), error.fix(&words)] {
                assert!(!said.is_empty() && !said.contains("config-"), "{said}");
                assert_eq!(
                    latin_words(&said, &allowed),
                    Vec::<String>::new(),
                    "{error}: {said}"
                );
                assert!(said.chars().any(|c| ('а'..='я').contains(&c)), "{said}");
            }
        }
        // What was expected is said, numbers and all.
        let env = env_of(&[HOME]);
        let said = Config::load_from(&env, Some("max_tool_steps = 0"))
            .unwrap_err()
            .said(&words);
        assert!(
            said.contains("от 1 до 1000") && said.contains("max_tool_steps"),
            "{said}"
        );
        // A key Waymark does not know is named as one, and the line.
        let said = Config::load_from(&env, Some("log = \"info\"\nllm_modle = \"x\""))
            .unwrap_err()
            .said(&words);
        assert!(
            said.contains("неизвестный ключ llm_modle") && said.contains("строка 2"),
            "{said}"
        );
    }

    /// The panel of a Russian browser whose chat cannot start hears why and the fix, in Russian.
    #[test]
    fn a_chat_that_cannot_start_says_why_and_the_fix() {
        let words = Words::new("ru");
        let error = Config::load_from(&env_of(&[HOME]), Some("max_tool_steps = 0")).unwrap_err();
        let said = crate::agent::cannot_start(&error, &words);
        assert!(
            said.starts_with("Чат не запускается: значение max_tool_steps"),
            "{said}"
        );
        assert!(
            said.contains("Как исправить: задайте значение на странице настроек"),
            "{said}"
        );
        let ConfigError::BadFileValue { path, .. } = &error else {
            panic!("{error}")
        };
        let path = path.display().to_string();
        assert_eq!(
            latin_words(&said, &[&path, "max_tool_steps"]),
            Vec::<String>::new(),
            "{said}"
        );
    }

    #[test]
    fn save_faults_are_said_in_russian() {
        let words = Words::new("ru");
        let path = PathBuf::from("/home/ada/config.toml");
        let shown = path.display().to_string();
        for error in [
            SaveError::NoConfigDir,
            SaveError::Write {
                path: path.clone(),
                source: std::io::Error::from(std::io::ErrorKind::PermissionDenied),
            },
        ] {
            let said = error.said(&words);
            assert_eq!(
                latin_words(&said, &[&shown, "XDG_CONFIG_HOME", "HOME"]),
                Vec::<String>::new(),
                "{said}"
            );
        }
        // A refused value, through a real save.
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("config.toml");
        let change = SettingsChange {
            banner_budget_ms: Some(40_000),
            ..SettingsChange::default()
        };
        let error = crate::config::save::save_to(&file, &env_of(&[HOME]), &change).unwrap_err();
        let said = error.said(&words);
        let shown = file.display().to_string();
        assert!(said.contains("от 0 до 30000"), "{said}");
        assert_eq!(
            latin_words(&said, &[&shown, "banner_budget_ms", "40000"]),
            Vec::<String>::new(),
            "{said}"
        );
    }

    #[test]
    fn english_is_said_as_the_logs_say_it() {
        let words = Words::english();
        for (error, _) in every_error() {
            let said = error.said(&words);
            match &error {
                // The log keeps the parser's own account; the user hears where.
                ConfigError::Parse { place: Some(_), .. } => assert!(said.contains("line"), "{said}"),
                _ => assert_eq!(said, error.to_string()),
            }
        }
    }
}
