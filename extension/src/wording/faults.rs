//! What the panel and the settings page say about faults in the host's own setup: a state directory it
//! cannot write (at connect time, and when a save fails later) and a configuration that does not load,
//! each with where it is and the fix. Part of `wording`: every sentence a user hears lives there or
//! here, one function per sentence, from typed faults (never from the words of a message).

use waymark_protocol::{FaultKind, HostFault};

/// Where else the state may go, said in every fix of a state-directory fault.
const ELSEWHERE: &str = "or choose another folder with state_dir in config.toml or the WAYMARK_STATE_DIR \
                         environment variable";

/// The keys the settings page sets, so a bad one can be set there.
const ON_SETTINGS_PAGE: [&str; 5] = [
    "llm_base_url",
    "llm_model",
    "llm_api_key",
    "max_tool_steps",
    "banner_budget_ms",
];

/// A fault the host found when it started, said once in the panel.
pub fn host_fault(fault: &HostFault) -> String {
    if fault.kind.is_state_dir() {
        let (what, fix) = state_dir_fault(fault);
        format!(
            "Waymark cannot save anything: {what}. No task is kept for a restart, no step log is \
             written, and MCP clients cannot reach this browser. To fix it, {fix}, then restart the \
             browser."
        )
    } else {
        format!(
            "Waymark's settings do not load: {}. Chat cannot start until they do. To fix it, {}.",
            detail(fault),
            config_fix(fault)
        )
    }
}

/// The agent could not save its session (`AgentEvent::NotSaved`).
pub fn not_saved(fault: &HostFault) -> String {
    let (what, fix) = state_dir_fault(fault);
    format!("Not saved: {what}. If the browser closes, this task is lost. To fix it, {fix}.")
}

/// The settings page, when the config file does not load as it stands.
pub fn settings_not_loaded(fault: &HostFault) -> String {
    match fault.kind {
        FaultKind::ConfigDoesNotParse => format!(
            "Waymark's settings do not load: {}. The fields show the defaults. Save to replace the \
             file with them; the old file is kept beside it.",
            detail(fault)
        ),
        _ => format!(
            "Settings not loaded: {}. To fix it, {}.",
            detail(fault),
            config_fix(fault)
        ),
    }
}

/// The settings page, when the config file holds values its fields refuse (`problems`: "1 problem").
pub fn config_file_problems(problems: &str) -> String {
    format!("The config file has {problems}.")
}

/// The settings page, after a save that replaced a file that did not parse.
pub fn saved_keeping_copy(copy: &str) -> String {
    format!("Saved. The old config file, which did not load, was kept as {copy}.")
}

/// What is wrong with the state directory, and what to do, as parts of a sentence.
fn state_dir_fault(fault: &HostFault) -> (String, String) {
    let path = fault.path.as_deref().unwrap_or("Waymark's state folder");
    match fault.kind {
        FaultKind::StateNotAFolder => (
            format!("{path} is a file, where Waymark's folder must be"),
            format!("move that file away, {ELSEWHERE}"),
        ),
        FaultKind::StatePermissionDenied => (
            format!("Waymark may not write in {path}"),
            format!(
                "make that folder yours again (on Linux or macOS, in a terminal: sudo chown -R \"$USER\" \
                 '{path}'), {ELSEWHERE}"
            ),
        ),
        FaultKind::StateReadOnly => (
            format!("{path} is on a read-only disk"),
            "choose a folder on a writable disk with state_dir in config.toml or the \
             WAYMARK_STATE_DIR environment variable"
                .to_owned(),
        ),
        _ => (
            match &fault.detail {
                Some(detail) => format!("Waymark cannot write in {path} ({detail})"),
                None => format!("Waymark cannot write in {path}"),
            },
            format!("check that disk and folder, {ELSEWHERE}"),
        ),
    }
}

/// What to do about a configuration that does not load.
fn config_fix(fault: &HostFault) -> String {
    let file = fault.path.as_deref().unwrap_or("config.toml");
    let key = fault.key.as_deref().unwrap_or_default();
    match fault.kind {
        FaultKind::ConfigBadValue if ON_SETTINGS_PAGE.contains(&key) => {
            format!("set it in the settings (/settings), or edit {key} in {file}")
        }
        FaultKind::ConfigBadValue => format!("edit {key} in {file}"),
        FaultKind::ConfigBadEnv => format!("change or unset {key} where the browser is started"),
        FaultKind::ConfigUnreadable => format!("make {file} readable by you, or remove it"),
        FaultKind::NoStateDir => "set WAYMARK_STATE_DIR or HOME where the browser is started".to_owned(),
        _ => format!(
            "edit {file}, or open the settings (/settings) and save: that replaces the file and keeps the \
             old one beside it"
        ),
    }
}

/// The host's words for a fault, without a closing full stop (the sentence adds its own).
fn detail(fault: &HostFault) -> &str {
    fault.detail.as_deref().unwrap_or("").trim().trim_end_matches('.')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(kind: FaultKind) -> HostFault {
        HostFault {
            kind,
            path: Some("/home/ada/.local/state/waymark".into()),
            key: None,
            detail: (kind == FaultKind::StateUnwritable).then(|| "Input/output error".into()),
        }
    }

    fn config(kind: FaultKind, key: Option<&str>, detail: &str) -> HostFault {
        HostFault {
            kind,
            path: Some("/home/ada/.config/waymark/config.toml".into()),
            key: key.map(str::to_owned),
            detail: Some(detail.into()),
        }
    }

    #[test]
    fn a_state_dir_fault_says_where_what_it_costs_and_the_fix() {
        let said = host_fault(&state(FaultKind::StatePermissionDenied));
        assert!(
            said.starts_with(
                "Waymark cannot save anything: Waymark may not write in /home/ada/.local/state/waymark."
            ),
            "{said}"
        );
        assert!(
            said.contains("sudo chown -R \"$USER\" '/home/ada/.local/state/waymark'"),
            "{said}"
        );
        assert!(said.contains("WAYMARK_STATE_DIR"), "{said}");
        let said = host_fault(&state(FaultKind::StateNotAFolder));
        assert!(
            said.contains("is a file, where Waymark's folder must be"),
            "{said}"
        );
        assert!(said.contains("move that file away"), "{said}");
        let said = not_saved(&state(FaultKind::StateUnwritable));
        assert!(said.starts_with("Not saved: Waymark cannot write in"), "{said}");
        assert!(said.contains("(Input/output error)"), "{said}");
        assert!(said.contains("this task is lost"), "{said}");
        assert!(not_saved(&state(FaultKind::StateReadOnly)).contains("read-only disk"));
    }

    #[test]
    fn a_config_fault_says_what_and_where_to_fix_it() {
        let broken = config(
            FaultKind::ConfigDoesNotParse,
            None,
            "the configuration file /home/ada/.config/waymark/config.toml is not valid: TOML parse \
             error at line 1, column 13 (llm_model): invalid string",
        );
        let said = host_fault(&broken);
        assert!(
            said.starts_with("Waymark's settings do not load: the configuration file /home/ada"),
            "{said}"
        );
        assert!(said.contains("invalid string. Chat cannot start"), "{said}");
        assert!(
            said.contains("/settings") && said.contains("keeps the old one"),
            "{said}"
        );
        let page = settings_not_loaded(&broken);
        assert!(page.contains("Save to replace the file"), "{page}");

        let bad = |key: &str| config(FaultKind::ConfigBadValue, Some(key), "not valid");
        assert!(host_fault(&bad("max_tool_steps")).contains("set it in the settings"));
        let said = host_fault(&bad("llm_timeout_secs"));
        assert!(
            said.contains("edit llm_timeout_secs in /home/ada/.config/waymark/config.toml")
                && !said.contains("/settings"),
            "{said}"
        );
        let env = config(
            FaultKind::ConfigBadEnv,
            Some("WAYMARK_MAX_TOOL_STEPS"),
            "not valid",
        );
        assert!(settings_not_loaded(&env).contains("change or unset WAYMARK_MAX_TOOL_STEPS"));
        assert_eq!(
            saved_keeping_copy("/c/config.toml.broken-1"),
            "Saved. The old config file, which did not load, was kept as /c/config.toml.broken-1."
        );
    }
}
