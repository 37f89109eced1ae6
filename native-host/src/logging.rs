//! What the host logs, and where: `tracing` to stderr (which the browser passes through to its own
//! log), filtered by `WAYMARK_LOG`, else by `log` in `config.toml`, else `info` when the browser starts
//! the host and `warn` for a command run by a person.
//!
//! What it must not do: write to stdout (the browser's pipe), or keep the host from starting: a config
//! that does not load or a filter that does not parse falls back to the default, said once as a warning.

use tracing_subscriber::EnvFilter;

use crate::config::Config;

/// The filter when nothing sets one: the browser's log wants to know what the host does; a person
/// running a command wants its own output, with warnings only.
fn default_filter(from_browser: bool) -> &'static str {
    if from_browser {
        "info"
    } else {
        "warn"
    }
}

/// The filter to use: `WAYMARK_LOG` (looked up through `env`), else the config's `log`, else the
/// default. An empty variable counts as unset, as everywhere in the configuration.
fn chosen_filter(
    env: &impl Fn(&str) -> Option<String>,
    configured: Option<String>,
    from_browser: bool,
) -> String {
    env("WAYMARK_LOG")
        .filter(|v| !v.trim().is_empty())
        .or(configured)
        .unwrap_or_else(|| default_filter(from_browser).to_owned())
}

/// Starts logging to stderr, once, at the start of `main`.
pub fn init(from_browser: bool) {
    let env = |name: &str| std::env::var(name).ok();
    // A config that does not load is said when it is used (a chat, doctor); here it only means the
    // default filter.
    let configured = Config::load().ok().and_then(|config| config.log);
    let chosen = chosen_filter(&env, configured, from_browser);
    let (filter, refused) = match EnvFilter::try_new(&chosen) {
        Ok(filter) => (filter, None),
        Err(e) => (EnvFilter::new(default_filter(from_browser)), Some(e)),
    };
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_target(false)
        .init();
    if let Some(e) = refused {
        tracing::warn!("the log filter {chosen:?} is not valid ({e}); using the default");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env_of(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |name: &str| {
            pairs
                .iter()
                .find(|(key, _)| *key == name)
                .map(|(_, value)| (*value).to_owned())
        }
    }

    #[test]
    fn the_variable_wins_over_the_config_which_wins_over_the_default() {
        let configured = || Some("debug".to_owned());
        let set = env_of(&[("WAYMARK_LOG", "trace")]);
        assert_eq!(chosen_filter(&set, configured(), true), "trace");
        let unset = env_of(&[]);
        assert_eq!(chosen_filter(&unset, configured(), true), "debug");
        assert_eq!(chosen_filter(&unset, configured(), false), "debug");
        let empty = env_of(&[("WAYMARK_LOG", "")]);
        assert_eq!(chosen_filter(&empty, configured(), false), "debug");
    }

    #[test]
    fn without_either_the_browser_gets_info_and_commands_warn() {
        let unset = env_of(&[]);
        assert_eq!(chosen_filter(&unset, None, true), "info");
        assert_eq!(chosen_filter(&unset, None, false), "warn");
    }
}
