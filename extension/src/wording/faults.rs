//! What the panel and the settings page say about faults in the host's own setup: a state directory it
//! cannot write (at connect time, and when a save fails later) and a configuration that does not load,
//! each with where it is and the fix. Part of `wording`: one message per sentence (`faults.ftl`), from
//! typed faults (never from the words of a message).

use waymark_i18n::{say, Words};
use waymark_protocol::{FaultKind, HostFault};

use super::language::with_words;

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
    with_words(|w| {
        if fault.kind.is_state_dir() {
            state_fault(w, fault, true)
        } else {
            say!(
                w,
                "fault-config",
                detail = detail(fault),
                fix = config_fix(w, fault)
            )
        }
    })
}

/// The agent could not save its session (`AgentEvent::NotSaved`).
pub fn not_saved(fault: &HostFault) -> String {
    with_words(|w| state_fault(w, fault, false))
}

/// The settings page, when the config file does not load as it stands.
pub fn settings_not_loaded(fault: &HostFault) -> String {
    with_words(|w| match fault.kind {
        FaultKind::ConfigDoesNotParse => say!(w, "fault-settings-unparsed", detail = detail(fault)),
        _ => say!(
            w,
            "fault-settings-not-loaded",
            detail = detail(fault),
            fix = config_fix(w, fault)
        ),
    })
}

/// The settings page, when the config file holds `count` values its fields refuse.
pub fn config_file_problems(count: usize) -> String {
    with_words(|w| say!(w, "fault-config-file-problems", count = count))
}

/// The settings page, after a save that replaced a file that did not parse.
pub fn saved_keeping_copy(copy: &str) -> String {
    with_words(|w| say!(w, "settings-saved-kept-copy", copy = copy))
}

/// A state folder Waymark cannot write: at start (`at_start`: what it costs, then restart the
/// browser) or when a save failed (this task is lost if the browser closes).
fn state_fault(w: &Words, fault: &HostFault, at_start: bool) -> String {
    let path = fault
        .path
        .clone()
        .unwrap_or_else(|| say!(w, "fault-state-folder"));
    let path = path.as_str();
    match (fault.kind, at_start) {
        (FaultKind::StateNotAFolder, true) => say!(w, "fault-state-not-a-folder", path = path),
        (FaultKind::StateNotAFolder, false) => say!(w, "fault-unsaved-not-a-folder", path = path),
        (FaultKind::StatePermissionDenied, true) => say!(w, "fault-state-denied", path = path),
        (FaultKind::StatePermissionDenied, false) => say!(w, "fault-unsaved-denied", path = path),
        (FaultKind::StateReadOnly, true) => say!(w, "fault-state-read-only", path = path),
        (FaultKind::StateReadOnly, false) => say!(w, "fault-unsaved-read-only", path = path),
        (_, at_start) => match (fault.detail.as_deref(), at_start) {
            (Some(why), true) => say!(w, "fault-state-unwritable-why", path = path, why = why),
            (Some(why), false) => say!(w, "fault-unsaved-unwritable-why", path = path, why = why),
            (None, true) => say!(w, "fault-state-unwritable", path = path),
            (None, false) => say!(w, "fault-unsaved-unwritable", path = path),
        },
    }
}

/// What to do about a configuration that does not load: a sentence of its own.
fn config_fix(w: &Words, fault: &HostFault) -> String {
    let file = fault.path.as_deref().unwrap_or("config.toml");
    let key = fault.key.as_deref().unwrap_or_default();
    match fault.kind {
        FaultKind::ConfigBadValue if ON_SETTINGS_PAGE.contains(&key) => {
            say!(w, "fault-fix-in-settings", key = key, file = file)
        }
        FaultKind::ConfigBadValue => say!(w, "fault-fix-edit", key = key, file = file),
        FaultKind::ConfigBadEnv => say!(w, "fault-fix-env", key = key),
        FaultKind::ConfigUnreadable => say!(w, "fault-fix-unreadable", file = file),
        FaultKind::NoStateDir => say!(w, "fault-fix-no-state-dir"),
        _ => say!(w, "fault-fix-replace", file = file),
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
