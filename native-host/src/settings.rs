//! The settings page's requests (`get_settings`, `save_settings`, `run_doctor`): reads and writes the
//! config file through [`config`] and runs the [`doctor`]'s checks. A config file that does not load
//! is said with its typed fault; one that does not parse comes with the defaults and the
//! environment's values, which a save writes in its place (the old file kept as a copy).
//!
//! Every sentence the page shows from here — a fault, a refusal, the doctor's findings — is said in
//! the connection's language (the `words` the hello set).
//!
//! What it must not do: send the API key back, log it, or save a value that would not load again —
//! the page learns only whether a key is set.

use waymark_protocol::{
    CheckStatus, DoctorCheck, DoctorReport, EnvSetting, FaultKind, RequestId, SaveSettings, SettingsProblem,
    SettingsReply, SettingsView,
};

use waymark_i18n::Words;

use crate::config::{self, Config, ConfigError, SaveError, SettingsChange};
use crate::doctor;

/// The settings in effect, from the real environment and file; a fault said in `words`.
pub fn get(id: RequestId, words: &Words) -> SettingsReply {
    let env = |name: &str| std::env::var(name).ok();
    match Config::load() {
        Ok(config) => reply(id, false, &config, &env),
        Err(e) => not_loaded(id, &e, &env, words),
    }
}

/// The answer when the config does not load: its fault, and for a file that does not parse the
/// settings without it (defaults and environment), which saving will write in its place.
fn not_loaded(
    id: RequestId,
    error: &ConfigError,
    env: &impl Fn(&str) -> Option<String>,
    words: &Words,
) -> SettingsReply {
    let fault = error.fault(words);
    let without_file = (fault.kind == FaultKind::ConfigDoesNotParse)
        .then(|| Config::load_from(env, None).ok())
        .flatten();
    let mut answer = match without_file {
        Some(config) => reply(id, false, &config, env),
        None => refused(id, "", None),
    };
    answer.problem = Some(SettingsProblem {
        field: field_of(error),
        message: error.said(words),
        config: Some(fault),
    });
    answer
}

/// Saves into the real config file; a refusal said in `words`.
pub fn save(request: SaveSettings, words: &Words) -> SettingsReply {
    let env = |name: &str| std::env::var(name).ok();
    let change = SettingsChange {
        llm_base_url: request.llm_base_url,
        llm_model: request.llm_model,
        llm_api_key: request.llm_api_key,
        max_tool_steps: request.max_tool_steps,
        banner_budget_ms: request.banner_budget_ms,
    };
    match config::save(&change) {
        Ok(saved) => {
            tracing::info!("settings saved from the settings page");
            let mut answer = reply(request.id, true, &saved.config, &env);
            if let Some(copy) = saved.kept_copy {
                tracing::warn!(copy = %copy.display(), "the config file did not parse; it was kept as a copy");
                answer.kept_copy = Some(copy.display().to_string());
            }
            answer
        }
        Err(e) => {
            tracing::warn!("settings not saved: {e}");
            let field = match &e {
                SaveError::Invalid(e) => field_of(e),
                _ => None,
            };
            refused(request.id, &e.said(words), field)
        }
    }
}

/// The doctor's checks, for the settings page, said in `words`.
pub async fn run_doctor(id: RequestId, words: &Words) -> DoctorReport {
    let report = doctor::run(words).await;
    DoctorReport {
        id,
        checks: report
            .checks
            .into_iter()
            .map(|c| DoctorCheck {
                name: c.name,
                status: match c.status {
                    doctor::Status::Ok => CheckStatus::Ok,
                    doctor::Status::Warning => CheckStatus::Warning,
                    doctor::Status::Problem => CheckStatus::Problem,
                },
                detail: c.detail,
                fix: c.fix,
            })
            .collect(),
    }
}

fn reply(
    id: RequestId,
    saved: bool,
    config: &Config,
    env: &impl Fn(&str) -> Option<String>,
) -> SettingsReply {
    let config_file = config
        .source
        .clone()
        .or_else(|| config::config_file_path(env))
        .map(|p| p.display().to_string());
    SettingsReply {
        id,
        saved,
        settings: Some(SettingsView {
            llm_base_url: config.llm_base_url.clone(),
            llm_model: config.llm_model.clone(),
            api_key_set: config.llm_api_key.is_some(),
            max_tool_steps: config.max_tool_steps,
            banner_budget_ms: config.banner_budget_ms,
            config_file,
            from_env: config::env_overrides(env)
                .into_iter()
                .map(|(key, variable)| EnvSetting {
                    key: key.to_owned(),
                    variable: variable.to_owned(),
                })
                .collect(),
        }),
        problem: None,
        kept_copy: None,
    }
}

fn refused(id: RequestId, message: &str, field: Option<String>) -> SettingsReply {
    SettingsReply {
        id,
        saved: false,
        settings: None,
        problem: Some(SettingsProblem {
            field,
            message: message.to_owned(),
            config: None,
        }),
        kept_copy: None,
    }
}

/// The settings page's field a config error is about, so the page can link the message to it.
fn field_of(error: &ConfigError) -> Option<String> {
    match error {
        ConfigError::BadFileValue { key, .. } => Some((*key).to_owned()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_paths::abs;

    #[test]
    fn the_reply_says_a_key_is_set_but_never_carries_it() {
        let env = |name: &str| match name {
            "HOME" => Some(abs("/home/ada")),
            "WAYMARK_LLM_API_KEY" => Some("sk-never-sent".to_owned()),
            _ => None,
        };
        let config = Config::load_from(&env, None).unwrap();
        let reply = reply(4, false, &config, &env);
        let json = serde_json::to_string(&reply).unwrap();
        assert!(!json.contains("sk-never-sent"), "{json}");
        let view = reply.settings.unwrap();
        assert!(view.api_key_set);
        assert_eq!(view.from_env[0].variable, "WAYMARK_LLM_API_KEY");
        assert_eq!(view.banner_budget_ms, config::DEFAULT_BANNER_BUDGET_MS);
    }

    #[test]
    fn a_file_that_does_not_parse_is_said_with_the_settings_a_save_would_write() {
        let env = |name: &str| match name {
            "HOME" => Some(abs("/home/ada")),
            "WAYMARK_LLM_MODEL" => Some("from-env".to_owned()),
            _ => None,
        };
        let err = Config::load_from(&env, Some("llm_model = ")).unwrap_err();
        let answer = not_loaded(3, &err, &env, &Words::english());
        let problem = answer.problem.unwrap();
        assert_eq!(problem.config.unwrap().kind, FaultKind::ConfigDoesNotParse);
        let view = answer.settings.unwrap();
        assert_eq!(view.llm_model, "from-env");
        assert!(view.config_file.unwrap().ends_with("config.toml"));

        // A value out of range: its field, and no settings to show in its place.
        let err = Config::load_from(&env, Some("max_tool_steps = 0")).unwrap_err();
        let answer = not_loaded(4, &err, &env, &Words::english());
        assert_eq!(answer.settings, None);
        let problem = answer.problem.unwrap();
        assert_eq!(problem.field.as_deref(), Some("max_tool_steps"));
        assert_eq!(problem.config.unwrap().kind, FaultKind::ConfigBadValue);
    }

    /// The page of a Russian browser hears the problem, and the fault's detail, in Russian.
    #[test]
    fn a_config_that_does_not_load_is_said_in_the_pages_language() {
        let env = |name: &str| (name == "HOME").then(|| abs("/home/ada"));
        let words = Words::new("ru");
        let err = Config::load_from(&env, Some("max_tool_steps = 0")).unwrap_err();
        let problem = not_loaded(5, &err, &env, &words).problem.unwrap();
        let path = abs("/home/ada/.config/waymark/config.toml");
        for said in [
            problem.message.as_str(),
            problem.config.unwrap().detail.as_deref().unwrap(),
        ] {
            assert!(said.contains("от 1 до 1000"), "{said}");
            assert_eq!(
                crate::language::latin_words(said, &[&path, "max_tool_steps"]),
                Vec::<String>::new(),
                "{said}"
            );
        }
    }

    #[test]
    fn a_refused_value_names_its_field() {
        let env = |name: &str| (name == "HOME").then(|| abs("/home/ada"));
        let err = Config::load_from(&env, Some("max_tool_steps = 0")).unwrap_err();
        assert_eq!(field_of(&err).as_deref(), Some("max_tool_steps"));
    }
}
