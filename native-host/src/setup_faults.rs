//! What the host finds wrong in its own setup when it starts — a configuration that does not load, a
//! state directory that takes no files — as typed [`HostFault`]s the `welcome` carries, so the panel
//! says each once, with the fix, instead of the user finding out when nothing was saved.
//!
//! A configuration's fault is kept typed until the browser's hello names the user's language, and said
//! in it then ([`SetupFault::said`]).
//!
//! What it must not do: create or change anything (the state directory's probe leaves nothing
//! behind), or fail: a fault is reported, never fatal.

use std::sync::Arc;

use waymark_i18n::Words;
use waymark_protocol::HostFault;

use crate::config::{Config, ConfigError};
use crate::state_dir;

/// A fault of the host's setup, found when it started.
#[derive(Debug, Clone)]
pub enum SetupFault {
    /// The configuration does not load: said when the user's language is known.
    Config(Arc<ConfigError>),
    /// The state directory takes no files (its fault carries the system's reason only).
    State(HostFault),
}

impl SetupFault {
    /// The fault as the welcome carries it, its detail in `words`.
    pub fn said(&self, words: &Words) -> HostFault {
        match self {
            SetupFault::Config(error) => error.fault(words),
            SetupFault::State(fault) => fault.clone(),
        }
    }
}

/// The faults of the real configuration and state directory.
pub fn at_start() -> Vec<SetupFault> {
    of(Config::load())
}

/// The faults of a configuration as it loaded: its own error, else its state directory's.
pub fn of(config: Result<Config, ConfigError>) -> Vec<SetupFault> {
    match config {
        Ok(config) => state_dir::probe(&config.state_dir)
            .err()
            .map(SetupFault::State)
            .into_iter()
            .collect(),
        Err(error) => vec![SetupFault::Config(Arc::new(error))],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use waymark_protocol::FaultKind;

    fn said(faults: Vec<SetupFault>, language: &str) -> Vec<HostFault> {
        let words = Words::new(language);
        faults.iter().map(|f| f.said(&words)).collect()
    }

    fn with_state_dir(state_dir: &std::path::Path, file: Option<&str>) -> Result<Config, ConfigError> {
        let state_dir = state_dir.to_string_lossy().into_owned();
        let env = move |name: &str| match name {
            "HOME" => Some(crate::test_paths::abs("/home/ada")),
            "WAYMARK_STATE_DIR" => Some(state_dir.clone()),
            _ => None,
        };
        Config::load_from(&env, file)
    }

    #[test]
    fn a_good_setup_has_no_fault() {
        let dir = tempfile::tempdir().unwrap();
        assert!(of(with_state_dir(&dir.path().join("state"), None)).is_empty());
    }

    /// A file where the folder must be refuses root too, so this holds wherever the tests run.
    #[test]
    fn a_state_dir_under_a_file_is_a_fault_naming_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("not-a-folder");
        std::fs::write(&file, "").unwrap();
        let faults = said(of(with_state_dir(&file.join("waymark"), None)), "en");
        let [fault] = &faults[..] else {
            panic!("{faults:?}")
        };
        assert_eq!(fault.kind, FaultKind::StateNotAFolder);
        assert_eq!(fault.path, Some(file.display().to_string()));
    }

    #[test]
    fn a_config_that_does_not_load_is_the_fault_said() {
        let dir = tempfile::tempdir().unwrap();
        let faults = said(of(with_state_dir(dir.path(), Some("llm_model = "))), "en");
        let [fault] = &faults[..] else {
            panic!("{faults:?}")
        };
        assert_eq!(fault.kind, FaultKind::ConfigDoesNotParse);
        assert!(
            fault.path.as_deref().unwrap().ends_with("config.toml"),
            "{fault:?}"
        );
        let faults = said(of(with_state_dir(dir.path(), Some("max_tool_steps = 0"))), "en");
        let [fault] = &faults[..] else {
            panic!("{faults:?}")
        };
        assert_eq!(fault.kind, FaultKind::ConfigBadValue);
        assert_eq!(fault.key.as_deref(), Some("max_tool_steps"));

        // Said in the language the hello names.
        let faults = said(of(with_state_dir(dir.path(), Some("max_tool_steps = 0"))), "ru");
        let detail = faults[0].detail.as_deref().unwrap();
        assert!(
            detail.contains("не подходит: нужно целое число шагов от 1 до 1000"),
            "{detail}"
        );
    }
}
