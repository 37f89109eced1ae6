//! What the settings page says: its status line (loaded, saved, saving, not connected), the hints it
//! writes under the fields, the errors of a refused save, and the doctor's checks. Part of `wording`;
//! the page's fixed words are `pages.rs`'s.

use waymark_i18n::say;
use waymark_protocol::CheckStatus;

use super::language::with_words;

/// The host is not connected: `status` is the connection's status line.
pub fn settings_not_connected(status: &str) -> String {
    with_words(|w| say!(w, "settings-not-connected", status = status))
}

pub fn settings_worker_unreachable() -> String {
    with_words(|w| say!(w, "settings-worker-unreachable"))
}

/// The host refused the save: `reason` is its own sentence.
pub fn settings_refused(reason: &str) -> String {
    with_words(|w| say!(w, "settings-refused", reason = reason))
}

pub fn settings_saved() -> String {
    with_words(|w| say!(w, "settings-saved"))
}

pub fn settings_loaded() -> String {
    with_words(|w| say!(w, "settings-loaded"))
}

pub fn settings_saving() -> String {
    with_words(|w| say!(w, "settings-saving"))
}

pub fn settings_save_not_connected() -> String {
    with_words(|w| say!(w, "settings-save-not-connected"))
}

/// A field an environment variable fixes.
pub fn settings_hint_env() -> String {
    with_words(|w| say!(w, "settings-hint-env"))
}

/// Under "Where these settings come from": a field the environment sets, by its `variable`.
pub fn settings_override(field: &str, variable: &str) -> String {
    with_words(|w| say!(w, "settings-override", field = field, variable = variable))
}

/// The API key's hint: whether one is set.
pub fn settings_hint_key(set: bool) -> String {
    with_words(|w| {
        if set {
            say!(w, "settings-hint-key-set")
        } else {
            say!(w, "settings-hint-no-key")
        }
    })
}

/// Where the host keeps the settings, if it said.
pub fn settings_source(file: Option<&str>) -> String {
    with_words(|w| match file {
        Some(file) => say!(w, "settings-source-file", file = file),
        None => say!(w, "settings-source-unknown"),
    })
}

/// A save refused on the page: how many fields are at fault.
pub fn settings_problems(count: usize) -> String {
    with_words(|w| say!(w, "settings-problems", count = count))
}

pub fn settings_error_url() -> String {
    with_words(|w| say!(w, "settings-error-url"))
}

pub fn settings_error_model() -> String {
    with_words(|w| say!(w, "settings-error-model"))
}

pub fn settings_error_key() -> String {
    with_words(|w| say!(w, "settings-error-key"))
}

pub fn settings_error_steps(min: u64, max: u64) -> String {
    with_words(|w| say!(w, "settings-error-steps", min = min, max = max))
}

pub fn settings_error_budget(min: u64, max: u64) -> String {
    with_words(|w| say!(w, "settings-error-budget", min = min, max = max))
}

pub fn checks_not_connected() -> String {
    with_words(|w| say!(w, "checks-not-connected"))
}

pub fn checks_running() -> String {
    with_words(|w| say!(w, "checks-running"))
}

/// The mark before a check's line ("OK:", "Problem:").
pub fn check_mark(status: CheckStatus) -> String {
    with_words(|w| match status {
        CheckStatus::Ok => say!(w, "check-ok"),
        CheckStatus::Warning => say!(w, "check-warning"),
        CheckStatus::Problem => say!(w, "check-problem"),
    })
}

/// A check's line: its name as a person reads it, what it found, and the fix if there is one (both
/// the host's words).
pub fn check_line(name: &str, detail: &str, fix: Option<&str>) -> String {
    with_words(|w| {
        let name = check_name(w, name);
        match fix {
            Some(fix) => say!(w, "check-line-fix", name = name, detail = detail, fix = fix),
            None => say!(w, "check-line", name = name, detail = detail),
        }
    })
}

fn check_name(w: &waymark_i18n::Words, name: &str) -> String {
    match name {
        "config" => say!(w, "check-name-config"),
        "llm" => say!(w, "check-name-llm"),
        "chat" => say!(w, "check-name-chat"),
        "state" => say!(w, "check-name-state"),
        "browser" => say!(w, "check-name-browser"),
        other => match other.strip_prefix("manifest:") {
            Some(browser) => say!(w, "check-name-manifest", browser = browser),
            None => other.to_owned(),
        },
    }
}

/// The checks are done: how many found a problem.
pub fn checks_done(problems: usize) -> String {
    with_words(|w| say!(w, "checks-done", count = problems))
}
