//! Where the configuration lives and what the environment changes: the config file's and the state's
//! default folders (XDG, `%APPDATA%`, the home folder), `~` in paths, and the `WAYMARK_*` variables that
//! win over the file (an empty one counts as unset).
//!
//! What it must not do: read the real environment itself (every function takes a lookup, so tests never
//! touch it), or take a relative folder from a variable (relative XDG values are ignored, as XDG says).

use std::path::PathBuf;

use super::parse::Origin;

/// The environment's value if set, else the file's.
pub(super) fn pick<'a>(
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
pub(super) fn pick_number<'a>(
    env: &impl Fn(&str) -> Option<String>,
    name: &'static str,
    from_file: Option<i64>,
    file_origin: Origin<'a>,
) -> (Option<String>, Origin<'a>) {
    pick(env, name, from_file.map(|n| n.to_string()), file_origin)
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

/// An absolute path from an environment variable (relative values are ignored, as XDG says).
fn absolute_env(env: &impl Fn(&str) -> Option<String>, name: &str) -> Option<PathBuf> {
    env(name).map(PathBuf::from).filter(|p| p.is_absolute())
}

fn home(env: &impl Fn(&str) -> Option<String>) -> Option<PathBuf> {
    absolute_env(env, "HOME").or_else(|| absolute_env(env, "USERPROFILE"))
}

/// `~/x` → `$HOME/x`.
pub(super) fn expand_home(raw: &str, env: &impl Fn(&str) -> Option<String>) -> PathBuf {
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
pub(super) fn default_state_dir(env: &impl Fn(&str) -> Option<String>) -> Option<PathBuf> {
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
    use super::super::testing::{env_of, FILE, HOME};
    use super::super::{Config, ConfigError, BANNER_BUDGET_MS_RANGE, MAX_TOOL_STEPS_RANGE};
    use super::*;
    use crate::test_paths::path;

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
        assert_eq!(config.log.as_deref(), Some("waymark_host=trace"));
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
    fn bad_environment_values_name_the_variable_the_value_and_the_expectation() {
        // The ranges' own ends, so the test follows the constants and checks the message names them.
        let (steps_min, steps_max) = MAX_TOOL_STEPS_RANGE;
        let steps = format!("from {steps_min} to {steps_max}");
        let (budget_min, budget_max) = BANNER_BUDGET_MS_RANGE;
        let budget = format!("milliseconds from {budget_min} to {budget_max}");
        let cases = [
            ("WAYMARK_MAX_TOOL_STEPS", "abc".to_owned(), steps.clone()),
            (
                "WAYMARK_MAX_TOOL_STEPS",
                (steps_min - 1).to_string(),
                steps.clone(),
            ),
            ("WAYMARK_MAX_TOOL_STEPS", (steps_max + 1).to_string(), steps),
            ("WAYMARK_BANNER_BUDGET_MS", (budget_max + 1).to_string(), budget),
            ("WAYMARK_LLM_TIMEOUT_SECS", "-1".to_owned(), "seconds".to_owned()),
            (
                "WAYMARK_LLM_BASE_URL",
                "localhost:11434".to_owned(),
                "http:// or https://".to_owned(),
            ),
            (
                "WAYMARK_LLM_IMAGES",
                "maybe".to_owned(),
                "true or false".to_owned(),
            ),
            (
                "WAYMARK_STATE_DIR",
                "relative/dir".to_owned(),
                "an absolute path".to_owned(),
            ),
            ("WAYMARK_LLM_MODEL", "  ".to_owned(), "a model name".to_owned()),
        ];
        for (name, value, expected) in cases {
            let err = Config::load_from(&env_of(&[HOME, (name, &value)]), None).unwrap_err();
            let text = err.to_string();
            assert!(matches!(err, ConfigError::BadEnvValue { .. }), "{text}");
            assert!(text.contains(name), "{text}");
            assert!(text.contains(&format!("{value:?}")), "{text}");
            assert!(text.contains(&expected), "{text}");
        }
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
}
