//! The running host's local socket: where `waymark-host mcp` reaches the browser tools. Each host (one
//! per running browser profile) listens on its own socket and writes `run/host-<pid>.json` under the
//! state directory saying where that socket is and which browser profile it serves; both go when the
//! host exits. The socket is `run/host-<pid>.sock` on Linux and macOS ([`unix`]) and a named pipe on
//! Windows ([`windows`]); everything above `publish`, `Published::accept` and `connect` is the
//! same on both.
//!
//! What it must not do: let anyone but this user in. On Unix the `run` directory is `0700` (made so if
//! it exists) and the socket `0600`; on Windows the pipe's access list admits its owner only. A path
//! that is not ours is refused, not used.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// Where the sockets live under the state directory.
pub fn run_dir(state_dir: &Path) -> PathBuf {
    state_dir.join("run")
}

/// What a host publishes about itself next to its socket.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HostRecord {
    pub pid: u32,
    /// Seconds since the Unix epoch when the host started.
    pub started: u64,
    /// The browser's profile directory (`--user-data-dir`), when it can be told.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<String>,
    pub socket: PathBuf,
}

impl HostRecord {
    /// The record of a host starting now.
    #[cfg_attr(not(any(unix, windows)), allow(dead_code))]
    fn now(pid: u32, profile: Option<String>, socket: PathBuf) -> Self {
        let started = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        Self {
            pid,
            started,
            profile,
            socket,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum SocketError {
    #[error("cannot prepare {path}: {source}")]
    Dir { path: PathBuf, source: std::io::Error },
    #[error("cannot listen on {path}: {source}")]
    Bind { path: PathBuf, source: std::io::Error },
    #[cfg_attr(any(unix, windows), allow(dead_code))]
    #[error(
        "local sockets are not available on this platform yet; `waymark-host mcp` cannot reach the browser"
    )]
    Unsupported,
}

/// The profile directory of the browser that started this process, read from its command line;
/// `None` when the browser runs its default profile, or where it cannot be told (macOS).
#[cfg(target_os = "linux")]
pub fn browser_profile() -> Option<String> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The process name may contain spaces and parentheses: fields after the last ')' are plain.
    let ppid = stat.rsplit(')').next()?.split_whitespace().nth(1)?;
    let cmdline = std::fs::read(format!("/proc/{ppid}/cmdline")).ok()?;
    profile_arg(
        cmdline
            .split(|b| *b == 0)
            .filter_map(|arg| std::str::from_utf8(arg).ok()),
    )
}

/// Windows: Chrome starts a host through `cmd.exe`, so the browser is an ancestor, not the parent;
/// the nearest one whose command line names a profile wins.
#[cfg(windows)]
pub fn browser_profile() -> Option<String> {
    use sysinfo::{Pid, ProcessRefreshKind, ProcessesToUpdate, System, UpdateKind};
    let mut system = System::new();
    let mut look = |pid: Pid| {
        system.refresh_processes_specifics(
            ProcessesToUpdate::Some(&[pid]),
            false,
            ProcessRefreshKind::nothing().with_cmd(UpdateKind::Always),
        );
        system.process(pid).map(|p| {
            let args: Vec<String> = p.cmd().iter().map(|a| a.to_string_lossy().into_owned()).collect();
            (p.parent(), args)
        })
    };
    let (mut parent, _) = look(Pid::from_u32(std::process::id()))?;
    for _ in 0..4 {
        let (next, args) = look(parent?)?;
        if let Some(profile) = profile_arg(args.iter().map(String::as_str)) {
            return Some(profile);
        }
        parent = next;
    }
    None
}

#[cfg(not(any(target_os = "linux", windows)))]
pub fn browser_profile() -> Option<String> {
    None
}

/// The value of `--user-data-dir=` among a browser's arguments.
#[cfg_attr(not(any(target_os = "linux", windows)), allow(dead_code))]
fn profile_arg<'a>(mut args: impl Iterator<Item = &'a str>) -> Option<String> {
    args.find_map(|arg| {
        arg.strip_prefix("--user-data-dir=")
            .map(|dir| dir.trim_matches('"').to_owned())
    })
}

#[cfg(unix)]
mod unix;
#[cfg(unix)]
pub use unix::{answers, connect, peer, publish};

#[cfg(windows)]
mod windows;
#[cfg(windows)]
pub use windows::{answers, connect, peer, publish};

/// Elsewhere there is no local socket: the host serves the panel and the agent only.
#[cfg(not(any(unix, windows)))]
pub fn answers(_socket: &Path) -> bool {
    false
}

/// Where the record of host `pid` is kept.
fn record_path(dir: &Path, pid: u32) -> PathBuf {
    dir.join(format!("host-{pid}.json"))
}

/// Writes `record` at `path`, readable by whoever may read the directory (only this user).
#[cfg_attr(not(any(unix, windows)), allow(dead_code))]
fn write_record(path: &Path, record: &HostRecord) -> std::io::Result<()> {
    let json = serde_json::to_vec_pretty(record).map_err(std::io::Error::other)?;
    std::fs::write(path, json)
}

/// The hosts that have published a record in `dir`, newest first.
pub fn records(dir: &Path) -> Vec<HostRecord> {
    let mut found: Vec<HostRecord> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .filter_map(|path| std::fs::read(path).ok())
        .filter_map(|bytes| serde_json::from_slice(&bytes).ok())
        .collect();
    found.sort_by(|a: &HostRecord, b: &HostRecord| b.started.cmp(&a.started).then(b.pid.cmp(&a.pid)));
    found
}

/// The hosts whose socket accepts a connection now, newest first.
pub fn live(dir: &Path) -> Vec<HostRecord> {
    records(dir).into_iter().filter(|r| answers(&r.socket)).collect()
}

/// Publishes this host's socket in `dir` and serves a [`BrowserServer`] to every client that connects,
/// until the task is aborted (which removes the socket). Failing to publish is logged, not fatal: the
/// panel and the agent work without it. Each connection is served as the program at its other end
/// ([`super::identity`]), read when it connects.
///
/// [`BrowserServer`]: super::server::BrowserServer
#[cfg(any(unix, windows))]
pub async fn serve(dir: PathBuf, pid: u32, servers: super::server::ClientServers) {
    use rmcp::ServiceExt as _;
    let published = match publish(&dir, pid, browser_profile()) {
        Ok(published) => published,
        Err(e) => return tracing::warn!("MCP clients cannot reach this browser: {e}"),
    };
    tracing::info!(socket = %published.record.socket.display(), "MCP clients can connect");
    let mut clients = tokio::task::JoinSet::new();
    let mut serial: u64 = 0;
    loop {
        let stream = match published.accept().await {
            Ok(stream) => stream,
            Err(e) => {
                tracing::warn!("MCP socket: {e}");
                // A listener that fails at once would spin: give the system a moment.
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                continue;
            }
        };
        while clients.try_join_next().is_some() {}
        serial += 1;
        let pid = peer(&stream);
        let servers = servers.clone();
        clients.spawn(async move {
            // Reading the process list blocks, briefly; the peer is waiting for its answer meanwhile.
            let program = tokio::task::spawn_blocking(move || super::identity::of_peer(pid, serial))
                .await
                .unwrap_or_else(|_| super::identity::Program::unknown(serial));
            tracing::debug!(program = %program.short, known = program.known(), "an MCP client connected");
            match servers.for_program(program).serve(stream).await {
                Ok(running) => {
                    let _ = running.waiting().await;
                }
                Err(e) => tracing::info!("an MCP client left during the handshake: {e}"),
            }
        });
    }
}

#[cfg(not(any(unix, windows)))]
pub async fn serve(_dir: PathBuf, _pid: u32, _servers: super::server::ClientServers) {
    tracing::warn!("{}", SocketError::Unsupported);
}

#[cfg(test)]
#[test]
fn the_profile_is_read_from_the_browsers_arguments() {
    let args = [
        "chrome",
        "--no-first-run",
        "--user-data-dir=/profiles/work",
        "--flag",
    ];
    assert_eq!(profile_arg(args.into_iter()), Some("/profiles/work".to_owned()));
    let quoted = [r#"--user-data-dir="C:\Profiles\Work""#];
    assert_eq!(
        profile_arg(quoted.into_iter()),
        Some(r"C:\Profiles\Work".to_owned())
    );
    assert_eq!(profile_arg(["chrome", "--incognito"].into_iter()), None);
}

/// What every platform must do: a client that reads the record reaches the host, bytes go both ways,
/// and the record goes when the host does.
#[cfg(all(test, any(unix, windows)))]
mod round_trip {
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

    use super::*;

    #[tokio::test]
    async fn a_client_reaches_the_host_through_its_record_and_the_record_goes_with_it() {
        let state = tempfile::tempdir().unwrap();
        let dir = run_dir(state.path());
        let published = publish(&dir, 4243, Some("work".into())).unwrap();
        let found = records(&dir);
        assert_eq!(found, vec![published.record.clone()]);
        assert_eq!(live(&dir), found, "a published host answers");
        // The probe's connection is the first to be accepted; it has closed already.
        let mut probe = published.accept().await.unwrap();
        assert_eq!(probe.read(&mut [0u8; 1]).await.unwrap(), 0);
        drop(probe);

        let echo = async {
            let mut conn = published.accept().await.unwrap();
            let mut buf = [0u8; 5];
            conn.read_exact(&mut buf).await.unwrap();
            conn.write_all(&buf).await.unwrap();
            conn.flush().await.unwrap();
        };
        let client = async {
            let mut conn = connect(&found[0]).await.unwrap();
            conn.write_all(b"hello").await.unwrap();
            conn.flush().await.unwrap();
            let mut buf = [0u8; 5];
            conn.read_exact(&mut buf).await.unwrap();
            buf
        };
        let ((), got) = tokio::join!(echo, client);
        assert_eq!(&got, b"hello");

        drop(published);
        assert!(records(&dir).is_empty(), "the record goes with the host");
        // On Windows a host that is gone has exited, and its pipe closed with the process. Inside one
        // process the pipe outlives the listener while connections linger (and Wine 8 then blocks the
        // probe), so this half is checked on Unix only.
        #[cfg(unix)]
        assert!(
            !answers(&found[0].socket),
            "nothing answers after the host is gone"
        );
    }
}

#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).map_or(0, |m| m.permissions().mode() & 0o777)
    }

    #[tokio::test]
    async fn the_socket_is_private_described_and_removed_with_the_host() {
        let state = tempfile::tempdir().unwrap();
        let dir = run_dir(state.path());
        let published = publish(&dir, 4242, Some("/profiles/work".into())).unwrap();
        let socket = published.record.socket.clone();
        assert_eq!(socket, dir.join("host-4242.sock"));
        assert_eq!(mode(&dir), 0o700);
        assert_eq!(mode(&socket), 0o600);
        assert_eq!(records(&dir), vec![published.record.clone()]);
        drop(published);
        assert!(!socket.exists());
        assert!(records(&dir).is_empty(), "the record goes with the socket");
    }

    #[tokio::test]
    async fn an_existing_directory_is_tightened_and_dead_sockets_are_swept() {
        let state = tempfile::tempdir().unwrap();
        let dir = run_dir(state.path());
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        // A host killed without cleaning up: its socket exists but nothing listens.
        let dead = dir.join("host-1.sock");
        drop(std::os::unix::net::UnixListener::bind(&dead).unwrap());
        std::fs::write(dead.with_extension("json"), b"{}").unwrap();
        let published = publish(&dir, 2, None).unwrap();
        assert_eq!(mode(&dir), 0o700);
        assert!(!dead.exists());
        assert!(!dead.with_extension("json").exists());
        assert!(published.record.socket.exists());
    }

    #[test]
    fn a_file_where_the_directory_should_be_is_refused() {
        let state = tempfile::tempdir().unwrap();
        std::fs::write(run_dir(state.path()), b"not a directory").unwrap();
        assert!(matches!(
            publish(&run_dir(state.path()), 3, None),
            Err(SocketError::Dir { .. })
        ));
    }

    #[test]
    fn records_are_newest_first_and_unreadable_ones_are_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let record = |pid, started| HostRecord {
            pid,
            started,
            profile: None,
            socket: dir.path().join(format!("host-{pid}.sock")),
        };
        for r in [record(10, 100), record(11, 300), record(12, 200)] {
            std::fs::write(r.socket.with_extension("json"), serde_json::to_vec(&r).unwrap()).unwrap();
        }
        std::fs::write(dir.path().join("host-13.json"), b"{broken").unwrap();
        let pids: Vec<u32> = records(dir.path()).iter().map(|r| r.pid).collect();
        assert_eq!(pids, [11, 12, 10]);
    }
}
