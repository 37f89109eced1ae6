//! `waymark-host mcp`: an MCP server on stdio for Claude Desktop, Cursor and other clients. It joins the
//! client's stdio to the local socket of a running host ([`super::socket`]), message for message: the
//! MCP server itself runs in that host, next to the browser connection and the policy gate.
//!
//! The client's session outlives the host behind it. Started before the browser, or left behind when
//! the host restarts or the browser closes, the client is answered by a stand-in ([`super::offline`]:
//! the same tools, every call a retryable error of kind `unreachable` saying what to do) while the
//! proxy looks for a host; the first that answers takes the session over ([`super::relay`]), so the
//! client never has to be restarted.
//!
//! Several browser profiles may run at once: the newest host is used unless `--pid` or `--profile`
//! names another.
//!
//! What it says to its client and to the person at the terminal while no browser is there is in the
//! terminal's language ([`crate::language::Language::from_environment`]); the logs stay English.
//!
//! What it must not do: answer for a host (a call the host went away in the middle of is said to be
//! of unknown outcome, never done), or speak on stdout anything but MCP.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use rmcp::ServiceExt as _;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, Lines};
use waymark_i18n::{say, Words};

use super::offline::Offline;
use super::relay::Relay;
use super::socket::{self, HostRecord};

/// Which running host to use.
#[derive(Debug, Default, Clone)]
pub struct Choice {
    pub pid: Option<u32>,
    /// Part of the browser profile's directory.
    pub profile: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum ProxyError {
    #[error("the client's stdio failed: {0}")]
    Io(#[from] std::io::Error),
}

/// What a person should do when no browser is there.
fn no_browser(dir: &Path, words: &Words) -> String {
    say!(words, "mcp-no-browser", path = dir.display().to_string())
}

/// The hosts that answer, newest first, filtered by `choice`.
pub fn candidates(dir: &Path, choice: &Choice) -> Vec<HostRecord> {
    socket::records(dir)
        .into_iter()
        .filter(|r| choice.pid.is_none_or(|pid| r.pid == pid))
        .filter(|r| match &choice.profile {
            None => true,
            Some(part) => r.profile.as_deref().is_some_and(|p| p.contains(part.as_str())),
        })
        .collect()
}

/// Lines for `waymark-host mcp --list`, in `words`.
pub fn describe(dir: &Path, words: &Words) -> Vec<String> {
    let records = socket::records(dir);
    if records.is_empty() {
        return vec![no_browser(dir, words)];
    }
    records
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let profile = r
                .profile
                .clone()
                .unwrap_or_else(|| say!(words, "mcp-default-profile"));
            let socket = r.socket.display().to_string();
            if i == 0 {
                say!(
                    words,
                    "mcp-list-newest",
                    pid = r.pid,
                    profile = profile,
                    socket = socket
                )
            } else {
                say!(
                    words,
                    "mcp-list-host",
                    pid = r.pid,
                    profile = profile,
                    socket = socket
                )
            }
        })
        .collect()
}

/// How often, while no browser's host answers, the proxy looks for one.
const LOOK_EVERY: Duration = Duration::from_millis(250);

/// How many bytes may wait in the pipe to the stand-in server in each direction.
const PIPE_BYTES: usize = 1 << 20;

/// Why no host answers, for the stand-in server's errors and the client's log.
fn why_none(dir: &Path, choice: &Choice, words: &Words) -> String {
    let running = describe(dir, words).join("; ");
    match (choice.pid, &choice.profile) {
        (None, None) => no_browser(dir, words),
        (Some(pid), None) => say!(words, "mcp-no-match-pid", pid = pid, running = running),
        (None, Some(profile)) => say!(
            words,
            "mcp-no-match-profile",
            profile = profile.as_str(),
            running = running
        ),
        (Some(pid), Some(profile)) => say!(
            words,
            "mcp-no-match",
            pid = pid,
            profile = profile.as_str(),
            running = running
        ),
    }
}

/// The server answering the client now: its lines, and where to write to it.
struct Server {
    lines: Lines<BufReader<Box<dyn AsyncRead + Unpin + Send>>>,
    writer: Box<dyn AsyncWrite + Unpin + Send>,
    /// Whether it is the stand-in ([`Offline`]) rather than a browser's host.
    offline: bool,
}

impl Server {
    fn over(stream: impl AsyncRead + AsyncWrite + Send + 'static, offline: bool) -> Self {
        let (reader, writer) = tokio::io::split(stream);
        let reader: Box<dyn AsyncRead + Unpin + Send> = Box::new(reader);
        Self {
            lines: BufReader::new(reader).lines(),
            writer: Box::new(writer),
            offline,
        }
    }

    /// The stand-in, run in this process until its pipe is dropped.
    fn offline(dir: &Path, choice: &Choice, words: &Arc<Words>) -> Self {
        let (ours, theirs) = tokio::io::duplex(PIPE_BYTES);
        let (dir, choice, words) = (dir.to_owned(), choice.clone(), words.clone());
        let offline = Offline::new(move || why_none(&dir, &choice, &words));
        tokio::spawn(async move {
            match offline.serve(theirs).await {
                Ok(running) => {
                    let _ = running.waiting().await;
                }
                // The client left, or a host took over, before the handshake: nothing to do.
                Err(e) => tracing::debug!("the stand-in server ended early: {e}"),
            }
        });
        Self::over(ours, true)
    }

    async fn send(&mut self, line: &str) -> std::io::Result<()> {
        self.writer.write_all(line.as_bytes()).await?;
        self.writer.write_all(b"\n").await?;
        self.writer.flush().await
    }
}

/// The chosen host that answers, if any (a host killed without cleaning up leaves its record behind:
/// the next one is tried).
#[cfg(any(unix, windows))]
async fn host(dir: &Path, choice: &Choice) -> Option<Server> {
    for record in candidates(dir, choice) {
        match socket::connect(&record).await {
            Ok(stream) => {
                tracing::info!(pid = record.pid, "joined the browser's Waymark host");
                return Some(Server::over(stream, false));
            }
            Err(e) => tracing::debug!(socket = %record.socket.display(), "skipped: {e}"),
        }
    }
    None
}

#[cfg(not(any(unix, windows)))]
async fn host(_dir: &Path, _choice: &Choice) -> Option<Server> {
    None
}

/// Runs the proxy until the client closes its side. The client's session outlives the servers
/// behind it: with no browser's host to join, the stand-in [`Offline`] answers (every call then says
/// what to do); the proxy keeps looking, and the first host that answers takes the session over, as
/// does the next one when a host goes away ([`Relay`]). The stand-in speaks `words`.
pub async fn run(state_dir: &Path, choice: &Choice, words: Arc<Words>) -> Result<(), ProxyError> {
    let dir = socket::run_dir(state_dir);
    let mut from_client = BufReader::new(tokio::io::stdin()).lines();
    let mut to_client = tokio::io::stdout();
    let mut relay = Relay::default();
    let mut server = match host(&dir, choice).await {
        Some(server) => server,
        None => {
            tracing::warn!("{} Waiting for it.", why_none(&dir, choice, &Words::english()));
            Server::offline(&dir, choice, &words)
        }
    };
    let mut look = tokio::time::interval(LOOK_EVERY);
    look.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            line = from_client.next_line() => {
                // The client is done: so is the proxy (the server sees its side close).
                let Some(line) = line? else { return Ok(()) };
                relay.client_said(&line);
                if server.send(&line).await.is_err() {
                    server = lost(&mut relay, &mut to_client, &dir, choice, &words).await?;
                }
            }
            line = server.lines.next_line() => match line {
                Ok(Some(line)) => {
                    if let Some(line) = relay.server_said(&line) {
                        say(&mut to_client, &line).await?;
                    }
                }
                // The host went away (the browser closed, or it restarted).
                Ok(None) | Err(_) => server = lost(&mut relay, &mut to_client, &dir, choice, &words).await?,
            },
            _ = look.tick(), if server.offline && relay.idle() => {
                if let Some(mut joined) = host(&dir, choice).await {
                    let mut replayed = true;
                    for line in relay.replay() {
                        replayed &= joined.send(&line).await.is_ok();
                    }
                    if replayed {
                        server = joined;
                    } else {
                        relay.lost(&words);
                    }
                }
            }
        }
    }
}

/// The host went away: what it owed is answered, and the stand-in takes the session over.
async fn lost(
    relay: &mut Relay,
    to_client: &mut tokio::io::Stdout,
    dir: &Path,
    choice: &Choice,
    words: &Arc<Words>,
) -> std::io::Result<Server> {
    tracing::warn!("the browser's Waymark host went away; waiting for it to come back");
    for line in relay.lost(words) {
        say(to_client, &line).await?;
    }
    let mut offline = Server::offline(dir, choice, words);
    for line in relay.replay() {
        offline.send(&line).await?;
    }
    Ok(offline)
}

async fn say(to_client: &mut tokio::io::Stdout, line: &str) -> std::io::Result<()> {
    to_client.write_all(line.as_bytes()).await?;
    to_client.write_all(b"\n").await?;
    to_client.flush().await
}

/// The state directory `waymark-host mcp` looks in, from the same configuration as the host.
pub fn state_dir() -> Result<PathBuf, crate::config::ConfigError> {
    crate::config::Config::load().map(|c| c.state_dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_host_is_chosen_by_pid_or_profile_and_the_newest_by_default() {
        let dir = tempfile::tempdir().unwrap();
        let write = |pid: u32, started: u64, profile: Option<&str>| {
            let record = HostRecord {
                pid,
                started,
                profile: profile.map(str::to_owned),
                socket: dir.path().join(format!("host-{pid}.sock")),
            };
            std::fs::write(
                record.socket.with_extension("json"),
                serde_json::to_vec(&record).unwrap(),
            )
            .unwrap();
        };
        write(1, 100, Some("/home/ada/.config/chromium-work"));
        write(2, 200, None);
        let pids =
            |choice: Choice| -> Vec<u32> { candidates(dir.path(), &choice).iter().map(|r| r.pid).collect() };
        assert_eq!(pids(Choice::default()), [2, 1]);
        assert_eq!(
            pids(Choice {
                pid: Some(1),
                profile: None
            }),
            [1]
        );
        let work = Choice {
            pid: None,
            profile: Some("work".into()),
        };
        assert_eq!(pids(work), [1]);
        let english = Words::english();
        assert!(describe(dir.path(), &english)[0].starts_with("pid 2 (newest, used by default)"));
        let empty = tempfile::tempdir().unwrap();
        assert!(describe(empty.path(), &english)[0].contains("No browser with Waymark is running"));

        // In Russian, every line and every reason why no host answers.
        let russian = Words::new("ru");
        let shown = [
            dir.path().display().to_string(),
            empty.path().display().to_string(),
        ];
        let mut said = describe(dir.path(), &russian);
        said.extend(describe(empty.path(), &russian));
        for choice in [
            Choice::default(),
            Choice {
                pid: Some(9),
                profile: None,
            },
            Choice {
                pid: None,
                profile: Some("home".into()),
            },
            Choice {
                pid: Some(9),
                profile: Some("home".into()),
            },
        ] {
            said.push(why_none(empty.path(), &choice, &russian));
        }
        assert!(said[0].starts_with("процесс 2 (самый новый"), "{said:?}");
        for line in &said {
            let values: Vec<&str> = shown
                .iter()
                .map(String::as_str)
                .chain([
                    "work",
                    "home",
                    "waymark-host doctor",
                    "Chrome",
                    "Chromium",
                    "Edge",
                ])
                .collect();
            // The sockets' own paths, as they are.
            let paths: Vec<&str> = line.split([' ', ',']).filter(|w| w.starts_with('/')).collect();
            let values: Vec<&str> = values.into_iter().chain(paths).collect();
            assert_eq!(
                crate::language::latin_words(line, &values),
                Vec::<String>::new(),
                "{line}"
            );
        }
    }
}
