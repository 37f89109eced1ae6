//! What the host finds wrong in its own setup when it starts — a configuration that does not load, a
//! state directory that takes no files — as typed [`HostFault`]s the `welcome` carries, so the panel
//! says each once, with the fix, instead of the user finding out when nothing was saved.
//!
//! What it must not do: create or change anything (the state directory's probe leaves nothing
//! behind), or fail: a fault is reported, never fatal.

use waymark_protocol::HostFault;

use crate::config::{Config, ConfigError};
use crate::state_dir;

/// The faults of the real configuration and state directory.
pub fn at_start() -> Vec<HostFault> {
    of(Config::load())
}

/// The faults of a configuration as it loaded: its own error, else its state directory's.
pub fn of(config: Result<Config, ConfigError>) -> Vec<HostFault> {
    match config {
        Ok(config) => state_dir::probe(&config.state_dir).err().into_iter().collect(),
        // Found before the browser says its language: English (the panel says the fault's kind, its
        // place and the fix in the user's own).
        Err(error) => vec![error.fault(&waymark_i18n::Words::english())],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use waymark_protocol::FaultKind;

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
        assert_eq!(of(with_state_dir(&dir.path().join("state"), None)), vec![]);
    }

    /// A file where the folder must be refuses root too, so this holds wherever the tests run.
    #[test]
    fn a_state_dir_under_a_file_is_a_fault_naming_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("not-a-folder");
        std::fs::write(&file, "").unwrap();
        let faults = of(with_state_dir(&file.join("waymark"), None));
        let [fault] = &faults[..] else {
            panic!("{faults:?}")
        };
        assert_eq!(fault.kind, FaultKind::StateNotAFolder);
        assert_eq!(fault.path, Some(file.display().to_string()));
    }

    #[test]
    fn a_config_that_does_not_load_is_the_fault_said() {
        let dir = tempfile::tempdir().unwrap();
        let faults = of(with_state_dir(dir.path(), Some("llm_model = ")));
        let [fault] = &faults[..] else {
            panic!("{faults:?}")
        };
        assert_eq!(fault.kind, FaultKind::ConfigDoesNotParse);
        assert!(
            fault.path.as_deref().unwrap().ends_with("config.toml"),
            "{fault:?}"
        );
        let faults = of(with_state_dir(dir.path(), Some("max_tool_steps = 0")));
        let [fault] = &faults[..] else {
            panic!("{faults:?}")
        };
        assert_eq!(fault.kind, FaultKind::ConfigBadValue);
        assert_eq!(fault.key.as_deref(), Some("max_tool_steps"));
    }
}
