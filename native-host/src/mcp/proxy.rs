//! `waymark-host mcp`: an MCP server on stdio for Claude Desktop, Cursor and other clients. It joins the
//! client's stdio to the local socket of a running host ([`super::socket`]), byte for byte: the MCP
//! server itself runs in that host, next to the browser connection and the policy gate.
//!
//! Several browser profiles may run at once: the newest host is used unless `--pid` or `--profile`
//! names another. With no browser running, every request gets a JSON-RPC error that says what to do
//! (and stderr says it too), so the client shows a sentence instead of a dead server.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

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
    #[error("{0}")]
    NoHost(String),
    #[error("the connection to the browser failed: {0}")]
    Io(#[from] std::io::Error),
}

/// What a person should do when no browser is there.
fn no_browser(dir: &Path) -> String {
    format!(
        "No browser with Waymark is running for this user (nothing listens in {}). Open Chrome, \
         Chromium or Edge with the Waymark extension, then try again; run `waymark-host doctor` if it \
         still fails.",
        dir.display()
    )
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

/// Lines for `waymark-host mcp --list`.
pub fn describe(dir: &Path) -> Vec<String> {
    let records = socket::records(dir);
    if records.is_empty() {
        return vec![no_browser(dir)];
    }
    records
        .iter()
        .enumerate()
        .map(|(i, r)| {
            format!(
                "pid {}{}: profile {}, socket {}",
                r.pid,
                if i == 0 { " (newest, used by default)" } else { "" },
                r.profile.as_deref().unwrap_or("(default)"),
                r.socket.display()
            )
        })
        .collect()
}

/// Runs the proxy until the client or the browser closes its side.
#[cfg(any(unix, windows))]
pub async fn run(state_dir: &Path, choice: &Choice) -> Result<(), ProxyError> {
    let dir = socket::run_dir(state_dir);
    let mut stream = None;
    for record in candidates(&dir, choice) {
        match socket::connect(&record).await {
            Ok(s) => {
                tracing::info!(pid = record.pid, "joined the browser's Waymark host");
                stream = Some(s);
                break;
            }
            // A host killed without cleaning up leaves its record behind: try the next one.
            Err(e) => tracing::debug!(socket = %record.socket.display(), "skipped: {e}"),
        }
    }
    let Some(stream) = stream else {
        let message = match (&choice.pid, &choice.profile) {
            (None, None) => no_browser(&dir),
            _ => format!(
                "No running Waymark host matches {choice:?}. Running now: {}",
                describe(&dir).join("; ")
            ),
        };
        return unavailable(message).await;
    };
    let (mut from_host, mut to_host) = tokio::io::split(stream);
    let upstream = async {
        tokio::io::copy(&mut tokio::io::stdin(), &mut to_host).await?;
        // The client is done: let the host see the end, and finish reading what it still sends.
        to_host.shutdown().await
    };
    let downstream = async {
        let mut stdout = tokio::io::stdout();
        tokio::io::copy(&mut from_host, &mut stdout).await?;
        stdout.flush().await
    };
    tokio::select! {
        // The browser went away: nothing more can be answered.
        done = downstream => done?,
        done = upstream => {
            done?;
        }
    }
    Ok(())
}

#[cfg(not(any(unix, windows)))]
pub async fn run(_state_dir: &Path, _choice: &Choice) -> Result<(), ProxyError> {
    unavailable(socket::SocketError::Unsupported.to_string()).await
}

/// Answers every request with `message` as a JSON-RPC error until the client closes stdin.
async fn unavailable(message: String) -> Result<(), ProxyError> {
    tracing::error!("{message}");
    let mut lines = BufReader::new(tokio::io::stdin()).lines();
    let mut stdout = tokio::io::stdout();
    while let Some(line) = lines.next_line().await? {
        let Ok(request) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        // Notifications (no id) get no answer.
        let Some(id) = request.get("id").filter(|id| !id.is_null()) else {
            continue;
        };
        let reply = json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32000, "message": message}});
        stdout.write_all(format!("{reply}\n").as_bytes()).await?;
        stdout.flush().await?;
    }
    Err(ProxyError::NoHost(message))
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
        assert!(describe(dir.path())[0].starts_with("pid 2 (newest, used by default)"));
        let empty = tempfile::tempdir().unwrap();
        assert!(describe(empty.path())[0].contains("No browser with Waymark is running"));
    }
}
