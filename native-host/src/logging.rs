//! What the host logs, and where: `tracing` to stderr (which the browser passes through to its own
//! log), filtered by `WAYMARK_LOG`, else by `log` in `config.toml`, else `info` when the browser starts
//! the host and `warn` for a command run by a person.
//!
//! Whatever the filter, the libraries the host uses log at most at `info` ([`from_a_library`]): at
//! `debug` and `trace` they print whole messages (rmcp prints every tool call with its arguments and
//! every result), which would put page text, and what a model wanted typed into a password field, on
//! stderr. The host's own events at those levels name no page text and no secret.
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
    use tracing_subscriber::layer::SubscriberExt as _;
    use tracing_subscriber::util::SubscriberInitExt as _;
    use tracing_subscriber::Layer as _;
    let libraries = tracing_subscriber::filter::filter_fn(|meta| {
        !from_a_library(meta.target()) || *meta.level() <= tracing::Level::INFO
    });
    let output = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_target(false)
        .with_filter(filter)
        .with_filter(libraries);
    tracing_subscriber::registry().with(output).init();
    if let Some(e) = refused {
        tracing::warn!("the log filter {chosen:?} is not valid ({e}); using the default");
    }
}

/// Whether an event comes from a library rather than from Waymark's own code (targets are module
/// paths: `waymark_host::gate`, `rmcp::service`).
fn from_a_library(target: &str) -> bool {
    !target.starts_with("waymark")
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
    fn libraries_are_told_from_waymarks_own_code() {
        assert!(from_a_library("rmcp::service::server"));
        assert!(from_a_library("reqwest::connect"));
        assert!(!from_a_library("waymark_host::gate"));
        assert!(!from_a_library("waymark_host"));
    }

    #[test]
    fn without_either_the_browser_gets_info_and_commands_warn() {
        let unset = env_of(&[]);
        assert_eq!(chosen_filter(&unset, None, true), "info");
        assert_eq!(chosen_filter(&unset, None, false), "warn");
    }
}
