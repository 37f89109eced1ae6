//! `waymark-host`: the native half of Waymark.
//!
//! ```text
//!  extension (service worker) <-[native messaging: stdin/stdout]-> waymark-host
//! ```
//!
//! The browser starts this binary with the calling extension's origin as its first argument; once
//! [`origin`] has checked that the caller is Waymark (or an id the user registered), it speaks native
//! messaging on stdin/stdout until the browser closes the pipe. Everything else
//! (`install`, `--help`, …) is a command for people and scripts. Logs go to stderr, which the browser
//! passes through to its own log ([`waymark_host::logging`]); in native messaging stdout belongs to
//! [`waymark_host::framing`] alone. What a command says to the person at the terminal is in the
//! terminal's language ([`Language::of_this_terminal`]); the logs stay English.

use waymark_host::language::Language;
use waymark_host::{connection, dispatch, doctor, install, mcp, origin, policy};
use waymark_i18n::{say, Words};

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "waymark-host",
    version,
    about = "Waymark's native host: started by the browser over native messaging.",
    after_help = "The browser starts it as `waymark-host chrome-extension://<id>/`; it serves Waymark's id \
                  and the ids registered with `waymark-host install --extension-id ID`, and refuses any \
                  other. Register it with `waymark-host install`, remove it with `waymark-host uninstall`."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Register this host with browsers: write the native-messaging manifest where each one looks, and
    /// record what was written. Without --browser it asks which browsers (on a terminal only; elsewhere
    /// it refuses and says what to pass).
    Install {
        /// Which browsers: chrome, chromium, edge, all three, or found (those installed here; none
        /// found registers none). Repeat the option or separate names with commas (--browser chrome,edge).
        #[arg(long, value_enum, value_delimiter = ',', value_name = "BROWSER")]
        browser: Vec<BrowserArg>,
        /// Register for every user of this computer (as root or an administrator): the browsers'
        /// system-wide places instead of this user's.
        #[arg(long, conflicts_with = "user_data_dir")]
        system: bool,
        /// A custom profile folder: write the manifest into DIR/NativeMessagingHosts/.
        #[arg(long, value_name = "DIR")]
        user_data_dir: Option<PathBuf>,
        /// The extension allowed to start the host. An id other than Waymark's own is also recorded
        /// next to config.toml: the host serves only Waymark and the ids recorded this way.
        #[arg(long, value_name = "ID", default_value = install::default_extension_id())]
        extension_id: String,
    },
    /// Remove exactly what install wrote (its record says what): every registration, or those of
    /// --browser, or the one in --user-data-dir. Manifests no longer Waymark's are left alone.
    Uninstall {
        /// Only these browsers: chrome, chromium, edge, or all three (comma-separated or repeated).
        #[arg(long, value_enum, value_delimiter = ',', value_name = "BROWSER")]
        browser: Vec<BrowserArg>,
        /// What install --system wrote for every user (as root or an administrator).
        #[arg(long, conflicts_with = "user_data_dir")]
        system: bool,
        /// Only what install wrote into this profile folder.
        #[arg(long, value_name = "DIR", conflicts_with = "browser")]
        user_data_dir: Option<PathBuf>,
    },
    /// Classify proposed page actions: one JSON action per line on stdin, one JSON policy decision per
    /// line on stdout, in the same order.
    Classify,
    /// Check the configuration, the LLM endpoint, the browsers' host manifests and whether a browser is
    /// connected, and say what to fix. Exits non-zero when something is broken.
    Doctor {
        /// Print the report as JSON (what the settings page shows).
        #[arg(long)]
        json: bool,
    },
    /// An MCP server on stdio (for Claude Desktop, Cursor, …) whose tools act in the browser that runs
    /// now, through the Waymark extension and its policy gate.
    Mcp {
        /// Use the host of the browser process with this pid's host (see --list).
        #[arg(long)]
        pid: Option<u32>,
        /// Use the browser whose profile directory contains this text.
        #[arg(long)]
        profile: Option<String>,
        /// List the running browsers with Waymark and exit.
        #[arg(long)]
        list: bool,
    },
}

/// Why a command stopped, besides the errors of the parts it ran: English for the logs, said to the
/// person in the terminal's language.
#[derive(Debug, thiserror::Error)]
enum Refusal {
    #[error("stopped: nothing registered")]
    Stopped,
    #[error("a profile folder belongs to one browser: name at most one --browser with --user-data-dir")]
    OneBrowserPerProfile,
    #[error("cannot tell where this waymark-host binary is")]
    WhereAmI,
    #[error("some registrations could not be removed; they stay recorded, so uninstall can try again")]
    RegistrationsLeft,
    #[error("some checks found a problem; see the lines marked problem")]
    DoctorBroken,
}

impl Refusal {
    fn said(&self, words: &Words) -> String {
        match self {
            Refusal::Stopped => say!(words, "cli-install-stopped"),
            Refusal::OneBrowserPerProfile => say!(words, "cli-install-one-browser"),
            Refusal::WhereAmI => say!(words, "cli-install-where-am-i"),
            Refusal::RegistrationsLeft => say!(words, "cli-uninstall-failed"),
            Refusal::DoctorBroken => say!(words, "doctor-broken"),
        }
    }
}

/// A command's error as the person at the terminal hears it: in `words` when it is one Waymark
/// says, else as it is.
fn said(error: &anyhow::Error, words: &Words) -> String {
    if let Some(refusal) = error.downcast_ref::<Refusal>() {
        refusal.said(words)
    } else if let Some(error) = error.downcast_ref::<install::InstallError>() {
        error.said(words)
    } else if let Some(error) = error.downcast_ref::<waymark_host::config::ConfigError>() {
        error.said(words)
    } else {
        format!("{error:#}")
    }
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum BrowserArg {
    Chrome,
    Chromium,
    Edge,
    All,
    /// The browsers installed here (what a script that cannot ask means).
    Found,
}

/// The places `install` and `uninstall` use. Registering for every user needs no home folder: a
/// package's maintainer scripts may run without HOME.
fn places_for(scope: install::Scope) -> Result<install::Places, install::InstallError> {
    let env = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    let platform = install::Platform::CURRENT;
    install::Places::from_env(platform, &env)
        .or_else(|| {
            let root_home = |name: &str| match name {
                "HOME" => Some("/".to_owned()),
                _ => env(name),
            };
            (scope == install::Scope::System)
                .then(|| install::Places::from_env(platform, &root_home))
                .flatten()
        })
        .ok_or(install::InstallError::NoHome)
}

fn scope_of(system: bool) -> install::Scope {
    if system {
        install::Scope::System
    } else {
        install::Scope::User
    }
}

/// The browsers named with `--browser`, `all` standing for the three and `found` for those `found`.
fn browsers_of(args: &[BrowserArg], found: &[install::Browser]) -> Vec<install::Browser> {
    use install::Browser;
    let mut out: Vec<Browser> = Vec::new();
    for arg in args {
        let named: &[Browser] = match arg {
            BrowserArg::Chrome => &[Browser::Chrome],
            BrowserArg::Chromium => &[Browser::Chromium],
            BrowserArg::Edge => &[Browser::Edge],
            BrowserArg::All => &Browser::ALL,
            BrowserArg::Found => found,
        };
        for browser in named {
            if !out.contains(browser) {
                out.push(*browser);
            }
        }
    }
    out
}

/// No `--browser`: ask on a terminal; never choose for somebody who cannot answer. `None`: they chose
/// none.
fn choose_browsers(
    scope: install::Scope,
    places: &install::Places,
    words: &Words,
) -> anyhow::Result<Option<Vec<install::Browser>>> {
    use std::io::IsTerminal as _;
    let found = install::found(scope, places);
    if !(std::io::stdin().is_terminal() && std::io::stderr().is_terminal()) {
        return Err(install::InstallError::NoChoice { found }.into());
    }
    let answer = install::ask(
        &found,
        &mut std::io::stdin().lock(),
        &mut std::io::stderr(),
        words,
    )?;
    match answer {
        install::Answer::Browsers(chosen) => Ok(Some(chosen)),
        install::Answer::Nothing => {
            eprintln!("{}", say!(words, "cli-install-nothing"));
            Ok(None)
        }
        install::Answer::Stopped => Err(Refusal::Stopped.into()),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    // The browser passes the caller's origin (and on Windows `--parent-window=…`); never a subcommand.
    let from_browser = args
        .get(1)
        .is_some_and(|a| a.starts_with("chrome-extension://") || a.starts_with("--parent-window"));
    waymark_host::logging::init(from_browser);
    let result = if from_browser {
        run_native_messaging(&args)
    } else {
        run_command(Cli::parse())
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // The browser's log reads English; a person at a terminal hears their language, once
            // (a log line as well would say the same sentence twice on the same stderr).
            let words = if from_browser {
                tracing::error!("{e:#}");
                std::sync::Arc::new(Words::english())
            } else {
                Language::of_this_terminal().words()
            };
            eprintln!("waymark-host: {}", said(&e, &words));
            ExitCode::FAILURE
        }
    }
}

fn run_native_messaging(args: &[String]) -> anyhow::Result<()> {
    // Nothing is read from stdin before the caller is known to be ours.
    let caller = origin::check_caller(args).context("refusing to serve")?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let info = dispatch::HostInfo::current();
        tracing::info!(
            version = info.version,
            pid = info.pid,
            extension = caller,
            "host started by the browser"
        );
        connection::serve(tokio::io::stdin(), tokio::io::stdout(), info).await?;
        tracing::info!("browser closed the connection; exiting");
        anyhow::Ok(())
    })?;
    // tokio's stdin reader may still sit in a blocking read on a thread; leave without waiting for it.
    runtime.shutdown_background();
    Ok(())
}

fn run_command(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Install {
            browser,
            system,
            user_data_dir,
            extension_id,
        } => {
            let words = Language::of_this_terminal().words();
            let host_path = std::env::current_exe()
                .and_then(|p| p.canonicalize())
                .context(Refusal::WhereAmI)?;
            let scope = scope_of(system);
            let env = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
            let places = places_for(scope)?;
            let browsers = browsers_of(&browser, &install::found(scope, &places));
            if browsers.is_empty() && browser.contains(&BrowserArg::Found) {
                // Nothing to register yet is not a failure: a script installs before the browser.
                eprintln!("{}", say!(words, "cli-install-none-found"));
                return Ok(());
            }
            let target = match user_data_dir {
                Some(dir) => {
                    if browsers.len() > 1 {
                        return Err(Refusal::OneBrowserPerProfile.into());
                    }
                    install::Target::Profile {
                        dir,
                        browser: browsers.first().copied(),
                    }
                }
                None if !browsers.is_empty() => install::Target::Browsers(browsers),
                None => match choose_browsers(scope, &places, &words)? {
                    Some(chosen) => install::Target::Browsers(chosen),
                    None => return Ok(()),
                },
            };
            let opts = install::InstallOptions {
                scope,
                target,
                extension_id,
                host_path,
                extension_store: origin::store_path(&env),
            };
            let done = install::install(&opts, &places)?;
            // Command output is for the person who ran it; stderr keeps stdout free by habit.
            if done.id_added {
                if let Some(store) = &opts.extension_store {
                    let (id, path) = (opts.extension_id.as_str(), store.display().to_string());
                    eprintln!("{}", say!(words, "cli-install-id-added", id = id, path = path));
                }
            }
            let host = waymark_protocol::HOST_NAME;
            for item in &done.written {
                let path = item.manifest.display().to_string();
                eprintln!(
                    "{}",
                    match item.browser {
                        Some(browser) => say!(
                            words,
                            "cli-install-registered",
                            host = host,
                            browser = browser.label(),
                            path = path
                        ),
                        None => say!(words, "cli-install-registered-profile", host = host, path = path),
                    }
                );
                if let Some(key) = &item.registry_key {
                    eprintln!(
                        "  {}",
                        say!(words, "cli-install-registry-key", key = key.as_str())
                    );
                }
            }
            let record = done.record.display().to_string();
            if system {
                eprintln!("{}", say!(words, "cli-install-recorded-system", path = record));
            } else {
                eprintln!("{}", say!(words, "cli-install-recorded", path = record));
            }
            if let Some(install::Note::WindowsProfile) = done.note {
                eprintln!("{}", say!(words, "cli-install-note-windows-profile"));
            }
            Ok(())
        }
        Command::Uninstall {
            browser,
            system,
            user_data_dir,
        } => {
            let scope = scope_of(system);
            let places = places_for(scope)?;
            let browsers = browsers_of(&browser, &install::found(scope, &places));
            let which = match user_data_dir {
                Some(dir) => install::Which::Profile(dir),
                None if browsers.is_empty() => install::Which::All,
                None => install::Which::Browsers(browsers),
            };
            let done = install::uninstall(scope, &which, &places)?;
            let words = Language::of_this_terminal().words();
            for step in &done {
                eprintln!("{}", step.said(&words));
            }
            let nothing = matches!(&done[..], [install::Removed::NothingRecorded { .. }]);
            if nothing && !system && places.record_path(install::Scope::System).exists() {
                eprintln!("{}", say!(words, "cli-uninstall-system-too"));
            }
            if done
                .iter()
                .any(|step| matches!(step, install::Removed::Failed { .. }))
            {
                return Err(Refusal::RegistrationsLeft.into());
            }
            Ok(())
        }
        Command::Mcp { pid, profile, list } => {
            let state_dir = mcp::proxy::state_dir()?;
            if list {
                let words = Language::of_this_terminal().words();
                for line in mcp::proxy::describe(&mcp::socket::run_dir(&state_dir), &words) {
                    eprintln!("{line}");
                }
                return Ok(());
            }
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()?;
            let choice = mcp::proxy::Choice { pid, profile };
            // The client's own words are English or anything; the person who set it up reads these.
            let words = Language::of_this_terminal().words();
            runtime.block_on(mcp::proxy::run(&state_dir, &choice, words))?;
            // Blocking stdin reads may still hold a thread: do not wait for them.
            runtime.shutdown_background();
            Ok(())
        }
        Command::Doctor { json } => {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()?;
            // No browser says the language here: the terminal's locale does.
            let words = Language::of_this_terminal().words();
            let report = runtime.block_on(doctor::run(&words));
            // The browser never starts the host with a subcommand (see `main`): stdout is the report's.
            use std::io::Write as _;
            let mut output = std::io::stdout().lock();
            if json {
                writeln!(output, "{}", serde_json::to_string_pretty(&report)?)?;
            } else {
                write!(output, "{}", report.to_text(&words))?;
            }
            output.flush()?;
            if report.broken() {
                return Err(Refusal::DoctorBroken.into());
            }
            Ok(())
        }
        Command::Classify => {
            use std::io::{BufRead as _, Write as _};
            // Writing to stdout is fine here: the browser never starts the host with a subcommand (see
            // `main`), so in this command stdout carries JSON lines, not native-messaging frames.
            let mut output = std::io::stdout().lock();
            let mut input = std::io::stdin().lock();
            let mut line = Vec::new();
            loop {
                line.clear();
                if input.read_until(b'\n', &mut line).context("cannot read stdin")? == 0 {
                    return Ok(());
                }
                if let Some(decision) = policy::classify_line(&line) {
                    writeln!(output, "{}", serde_json::to_string(&decision)?)?;
                    // One answer per line, right away: a caller may wait for it before the next line.
                    output.flush()?;
                }
            }
        }
    }
}
