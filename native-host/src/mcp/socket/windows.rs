//! The local socket on Windows: a named pipe `\\.\pipe\waymark-<pid>-<nonce>` that only this user can
//! open. Pipe names are one namespace for the whole machine, so three things keep other users out:
//!
//! - the pipe's security descriptor, `D:P(A;;GA;;;OW)`: a protected list with one entry, full access
//!   for the pipe's owner (the user running the browser), so no inherited or default entry lets
//!   anyone else in;
//! - the first instance is created with `FILE_FLAG_FIRST_PIPE_INSTANCE` (interprocess does), so a
//!   pipe someone else made under our name makes publishing fail instead of serving their pipe, and
//!   the random nonce, kept only in the record under the user's own `run` directory, makes the name
//!   impossible to guess ahead;
//! - remote clients are rejected (`PIPE_REJECT_REMOTE_CLIENTS`, interprocess's default).
//!
//! `waymark-host mcp` opens only pipe names of this form that it read from a record in that directory.

use std::collections::hash_map::RandomState;
use std::hash::BuildHasher as _;
use std::path::{Path, PathBuf};

use std::time::Duration;

use interprocess::local_socket::tokio::{prelude::*, Listener, Stream};
use interprocess::local_socket::{ConnectOptions, GenericFilePath, ListenerOptions, Name};
use interprocess::os::windows::local_socket::ListenerOptionsExt as _;
use interprocess::os::windows::security_descriptor::SecurityDescriptor;
use interprocess::ConnectWaitMode;
use widestring::U16CString;

use super::{record_path, write_record, HostRecord, SocketError};

/// One client's connection.
pub type Connection = Stream;

/// Access for the owner only, nothing inherited.
const OWNER_ONLY: &str = "D:P(A;;GA;;;OW)";

/// How long `waymark-host mcp` waits for a host whose pipe instances are all busy.
const CONNECT_WAIT: Duration = Duration::from_secs(5);

/// What every Waymark pipe name starts with.
const PREFIX: &str = r"\\.\pipe\waymark-";

/// The pipe and record of this host; the pipe closes and the record is removed when it is dropped.
pub struct Published {
    pub record: HostRecord,
    record_path: PathBuf,
    listener: Listener,
}

impl Published {
    /// Waits for the next client.
    pub async fn accept(&self) -> std::io::Result<Connection> {
        self.listener.accept().await
    }
}

/// The process at the other end of `connection`, as the system says
/// (`GetNamedPipeClientProcessId`): the client's own words play no part.
pub fn peer(connection: &Connection) -> Option<u32> {
    connection.peer_creds().ok()?.pid()
}

impl Drop for Published {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.record_path);
    }
}

/// The record directory. Under the user's profile (`%LOCALAPPDATA%`) it inherits an access list that
/// only admits that user, the administrators and the system.
fn private_dir(dir: &Path) -> Result<(), SocketError> {
    let fail = |source| SocketError::Dir {
        path: dir.to_owned(),
        source,
    };
    std::fs::create_dir_all(dir).map_err(fail)?;
    let meta = std::fs::symlink_metadata(dir).map_err(fail)?;
    if !meta.is_dir() {
        return Err(fail(std::io::Error::other("it is not a directory")));
    }
    Ok(())
}

/// `socket` as a pipe name, if it is one of ours.
fn pipe_name(socket: &Path) -> std::io::Result<Name<'_>> {
    let text = socket.to_str().unwrap_or_default();
    if !text.starts_with(PREFIX) || text.len() == PREFIX.len() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("{} is not a Waymark pipe", socket.display()),
        ));
    }
    socket.to_fs_name::<GenericFilePath>()
}

/// What a look at the pipe `socket` finds, without waiting.
#[derive(Debug, PartialEq, Eq)]
enum Probe {
    /// A host accepted (the probe connection is closed at once) or is busy with other clients.
    Alive,
    /// No such pipe: the host is gone.
    Gone,
    /// Not one of our names, or refused: treated as not there, but its record is left alone.
    Unknown,
}

fn probe(socket: &Path) -> Probe {
    let Ok(name) = pipe_name(socket) else {
        return Probe::Unknown;
    };
    // A zero timeout: when every instance is busy, say so at once instead of waiting for one.
    let options = ConnectOptions::new()
        .name(name)
        .wait_mode(ConnectWaitMode::Timeout(Duration::ZERO));
    match options.connect_sync() {
        Ok(_) => Probe::Alive,
        Err(e) if e.kind() == std::io::ErrorKind::TimedOut => Probe::Alive,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Probe::Gone,
        Err(_) => Probe::Unknown,
    }
}

/// Whether a host is there on the pipe `socket` now.
pub fn answers(socket: &Path) -> bool {
    probe(socket) == Probe::Alive
}

/// Removes records whose pipe is gone (the host died without cleaning up).
fn sweep(dir: &Path) {
    for record in super::records(dir) {
        if probe(&record.socket) == Probe::Gone {
            let _ = std::fs::remove_file(record_path(dir, record.pid));
        }
    }
}

/// A name no other process can predict: the standard library seeds each `RandomState` from the
/// system's random source.
fn nonce() -> u64 {
    RandomState::new().hash_one(std::process::id())
}

/// Creates the pipe `\\.\pipe\waymark-<pid>-<nonce>` and writes the record in `dir`.
pub fn publish(dir: &Path, pid: u32, profile: Option<String>) -> Result<Published, SocketError> {
    private_dir(dir)?;
    sweep(dir);
    let socket = PathBuf::from(format!("{PREFIX}{pid}-{:016x}", nonce()));
    let bind = |source| SocketError::Bind {
        path: socket.clone(),
        source,
    };
    let sddl = U16CString::from_str(OWNER_ONLY).map_err(|e| bind(std::io::Error::other(e)))?;
    let descriptor = SecurityDescriptor::deserialize(&sddl).map_err(bind)?;
    let listener = ListenerOptions::new()
        .name(pipe_name(&socket).map_err(bind)?)
        .security_descriptor(descriptor)
        .create_tokio()
        .map_err(bind)?;
    let published = Published {
        record: HostRecord::now(pid, profile, socket.clone()),
        record_path: record_path(dir, pid),
        listener,
    };
    write_record(&published.record_path, &published.record).map_err(bind)?;
    Ok(published)
}

/// Opens a connection to the host that published `record`, waiting a little if it is busy.
pub async fn connect(record: &HostRecord) -> std::io::Result<Connection> {
    ConnectOptions::new()
        .name(pipe_name(&record.socket)?)
        .wait_mode(ConnectWaitMode::Timeout(CONNECT_WAIT))
        .connect_tokio()
        .await
}
