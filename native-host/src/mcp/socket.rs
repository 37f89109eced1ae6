//! The running host's local socket: where `waymark-host mcp` reaches the browser tools. Each host (one
//! per running browser profile) listens on `run/host-<pid>.sock` under the state directory, next to
//! `run/host-<pid>.json` saying which browser profile it serves; both are removed when it exits.
//!
//! What it must not do: let anyone but this user in. The `run` directory is created `0700` (and made
//! so if it exists) and the socket is `0600`; a path that is not ours is refused, not used.

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

#[derive(Debug, thiserror::Error)]
pub enum SocketError {
    #[error("cannot prepare {path}: {source}")]
    Dir { path: PathBuf, source: std::io::Error },
    #[error("cannot listen on {path}: {source}")]
    Bind { path: PathBuf, source: std::io::Error },
    #[cfg_attr(unix, allow(dead_code))]
    #[error(
        "local sockets are not available on this platform yet; `waymark-host mcp` cannot reach the browser"
    )]
    Unsupported,
}

/// The profile directory of the browser that started this process, read from its command line
/// (Linux only; `None` elsewhere or when the browser runs its default profile).
pub fn browser_profile() -> Option<String> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The process name may contain spaces and parentheses: fields after the last ')' are plain.
    let ppid = stat.rsplit(')').next()?.split_whitespace().nth(1)?;
    let cmdline = std::fs::read(format!("/proc/{ppid}/cmdline")).ok()?;
    cmdline
        .split(|b| *b == 0)
        .filter_map(|arg| std::str::from_utf8(arg).ok())
        .find_map(|arg| arg.strip_prefix("--user-data-dir=").map(str::to_owned))
}

#[cfg(unix)]
mod unix {
    use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
    use std::path::{Path, PathBuf};
    use std::time::{SystemTime, UNIX_EPOCH};

    use tokio::net::UnixListener;

    use super::{HostRecord, SocketError};

    /// The socket and record of this host; both are removed when it is dropped.
    pub struct Published {
        pub record: HostRecord,
        record_path: PathBuf,
        listener: Option<UnixListener>,
    }

    impl Published {
        /// The listener, taken once to serve.
        pub fn take_listener(&mut self) -> Option<UnixListener> {
            self.listener.take()
        }
    }

    impl Drop for Published {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.record.socket);
            let _ = std::fs::remove_file(&self.record_path);
        }
    }

    /// Creates `dir` as a private directory, or checks and tightens an existing one.
    pub fn private_dir(dir: &Path) -> Result<(), SocketError> {
        let fail = |source| SocketError::Dir {
            path: dir.to_owned(),
            source,
        };
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
            .map_err(fail)?;
        let meta = std::fs::symlink_metadata(dir).map_err(fail)?;
        if !meta.is_dir() {
            return Err(fail(std::io::Error::other("it is not a directory")));
        }
        // Only the owner may change the mode: for a directory of another user this fails, and the
        // socket is not put there.
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700)).map_err(fail)
    }

    /// Removes sockets whose host is gone (nothing accepts on them any more).
    fn sweep(dir: &Path) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().is_some_and(|e| e == "sock")
                && std::os::unix::net::UnixStream::connect(&path).is_err()
            {
                let _ = std::fs::remove_file(&path);
                let _ = std::fs::remove_file(path.with_extension("json"));
            }
        }
    }

    /// Listens on `dir/host-<pid>.sock` and writes the record next to it.
    pub fn publish(dir: &Path, pid: u32, profile: Option<String>) -> Result<Published, SocketError> {
        private_dir(dir)?;
        sweep(dir);
        let socket = dir.join(format!("host-{pid}.sock"));
        let _ = std::fs::remove_file(&socket);
        let bind = |source| SocketError::Bind {
            path: socket.clone(),
            source,
        };
        let listener = UnixListener::bind(&socket).map_err(bind)?;
        std::fs::set_permissions(&socket, std::fs::Permissions::from_mode(0o600)).map_err(bind)?;
        let started = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let record = HostRecord {
            pid,
            started,
            profile,
            socket: socket.clone(),
        };
        let record_path = record.socket.with_extension("json");
        let json = serde_json::to_vec_pretty(&record).unwrap_or_default();
        std::fs::write(&record_path, json).map_err(bind)?;
        Ok(Published {
            record,
            record_path,
            listener: Some(listener),
        })
    }
}

#[cfg(unix)]
pub use unix::publish;

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

/// Publishes this host's socket in `dir` and serves [`BrowserServer`] to every client that connects,
/// until the task is aborted (which removes the socket). Failing to publish is logged, not fatal: the
/// panel and the agent work without it.
#[cfg(unix)]
pub async fn serve(dir: PathBuf, pid: u32, server: super::server::BrowserServer) {
    use rmcp::ServiceExt as _;
    let mut published = match publish(&dir, pid, browser_profile()) {
        Ok(published) => published,
        Err(e) => return tracing::warn!("MCP clients cannot reach this browser: {e}"),
    };
    let Some(listener) = published.take_listener() else {
        return;
    };
    tracing::info!(socket = %published.record.socket.display(), "MCP clients can connect");
    let mut clients = tokio::task::JoinSet::new();
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(e) => {
                tracing::warn!("MCP socket: {e}");
                continue;
            }
        };
        while clients.try_join_next().is_some() {}
        let server = server.clone();
        clients.spawn(async move {
            let (read, write) = stream.into_split();
            match server.serve((read, write)).await {
                Ok(running) => {
                    let _ = running.waiting().await;
                }
                Err(e) => tracing::info!("an MCP client left during the handshake: {e}"),
            }
        });
    }
}

#[cfg(not(unix))]
pub async fn serve(_dir: PathBuf, _pid: u32, _server: super::server::BrowserServer) {
    tracing::warn!("{}", SocketError::Unsupported);
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
