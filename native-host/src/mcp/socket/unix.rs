//! The local socket on Linux and macOS: a Unix socket `run/host-<pid>.sock`, mode `0600`, in a `run`
//! directory of mode `0700`. A directory that is not ours cannot be made `0700`, so nothing is put there.

use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
use std::path::{Path, PathBuf};

use tokio::net::{UnixListener, UnixStream};

use super::{record_path, write_record, HostRecord, SocketError};

/// One client's connection.
pub type Connection = UnixStream;

/// The socket and record of this host; both are removed when it is dropped.
pub struct Published {
    pub record: HostRecord,
    record_path: PathBuf,
    listener: UnixListener,
}

impl Published {
    /// Waits for the next client.
    pub async fn accept(&self) -> std::io::Result<Connection> {
        self.listener.accept().await.map(|(stream, _)| stream)
    }
}

/// The process at the other end of `connection`, as the kernel says (`SO_PEERCRED` on Linux): the
/// client's own words play no part.
pub fn peer(connection: &Connection) -> Option<u32> {
    let credentials = connection.peer_cred().ok()?;
    credentials.pid().and_then(|pid| u32::try_from(pid).ok())
}

impl Drop for Published {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.record.socket);
        let _ = std::fs::remove_file(&self.record_path);
    }
}

/// Creates `dir` as a private directory, or checks and tightens an existing one.
fn private_dir(dir: &Path) -> Result<(), SocketError> {
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

/// Whether a host accepts on `socket` now (a socket left by a host that died refuses).
pub fn answers(socket: &Path) -> bool {
    std::os::unix::net::UnixStream::connect(socket).is_ok()
}

/// Removes sockets whose host is gone, with their records.
fn sweep(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().is_some_and(|e| e == "sock") && !answers(&path) {
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
    let record = HostRecord::now(pid, profile, socket.clone());
    // From here on the drop removes what was made, even if writing the record fails.
    let published = Published {
        record,
        record_path: record_path(dir, pid),
        listener,
    };
    write_record(&published.record_path, &published.record).map_err(bind)?;
    Ok(published)
}

/// Opens a connection to the host that published `record`.
pub async fn connect(record: &HostRecord) -> std::io::Result<Connection> {
    UnixStream::connect(&record.socket).await
}
