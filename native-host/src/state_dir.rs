//! Whether the host can write its state directory (sessions in `sessions/`, the step log in `logs/`,
//! the MCP socket in `run/`), and why not, as a typed [`HostFault`] the panel words with the fix
//! and `doctor` reports. A folder left owned by another user (created with `sudo`), a file in its
//! place or a read-only disk otherwise means that nothing is saved and nobody says so.
//!
//! What it must not do: leave anything behind. It writes one probe file in each folder that exists
//! and removes it; a folder that does not exist yet is not created — its nearest existing parent is
//! probed with a folder made and removed at once.

use std::io::ErrorKind;
use std::path::Path;

use waymark_protocol::{FaultKind, HostFault};

/// The folders under the state directory the host writes in.
pub const SUBFOLDERS: [&str; 3] = ["sessions", "logs", "run"];

/// How a state directory that takes files stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Probed {
    /// It exists, and it and its subfolders take new files.
    Writable,
    /// It does not exist yet, and it could be created.
    Creatable,
}

/// Whether every folder the host writes in takes a new file.
pub fn probe(state_dir: &Path) -> Result<Probed, HostFault> {
    if state_dir.is_dir() {
        probe_file(state_dir)?;
        for sub in SUBFOLDERS {
            let dir = state_dir.join(sub);
            if dir.is_dir() {
                probe_file(&dir)?;
            } else if dir.exists() {
                return Err(not_a_folder(&dir));
            }
        }
        return Ok(Probed::Writable);
    }
    // Missing (or not a folder): walk up to what exists; that must be a folder that takes a new one.
    let mut at = state_dir;
    loop {
        if at.exists() {
            if !at.is_dir() {
                return Err(not_a_folder(at));
            }
            probe_folder(at)?;
            return Ok(Probed::Creatable);
        }
        match at.parent() {
            Some(parent) => at = parent,
            None => return Ok(Probed::Creatable),
        }
    }
}

/// Why a write under `state_dir` failed with `error`: the probe's own finding when it finds the
/// culprit (a file in the way names that file), else the error as it came, at `path`.
pub fn explain(state_dir: &Path, path: &Path, error: &std::io::Error) -> HostFault {
    match probe(state_dir) {
        Err(fault) => fault,
        Ok(_) => fault_of(path, error),
    }
}

/// The fault an I/O error at `path` means.
pub fn fault_of(path: &Path, error: &std::io::Error) -> HostFault {
    let kind = match error.kind() {
        ErrorKind::PermissionDenied => FaultKind::StatePermissionDenied,
        ErrorKind::ReadOnlyFilesystem => FaultKind::StateReadOnly,
        ErrorKind::NotADirectory | ErrorKind::AlreadyExists => FaultKind::StateNotAFolder,
        _ => FaultKind::StateUnwritable,
    };
    HostFault {
        kind,
        path: Some(path.display().to_string()),
        key: None,
        detail: (kind == FaultKind::StateUnwritable).then(|| error.to_string()),
    }
}

fn not_a_folder(path: &Path) -> HostFault {
    HostFault {
        kind: FaultKind::StateNotAFolder,
        path: Some(path.display().to_string()),
        key: None,
        detail: None,
    }
}

fn probe_name() -> String {
    format!(".waymark-probe-{}", std::process::id())
}

fn probe_file(dir: &Path) -> Result<(), HostFault> {
    let probe = dir.join(probe_name());
    let fail = |error| fault_of(dir, &error);
    std::fs::File::create_new(&probe).map_err(fail)?;
    std::fs::remove_file(&probe).map_err(fail)
}

fn probe_folder(dir: &Path) -> Result<(), HostFault> {
    let probe = dir.join(probe_name());
    let fail = |error| fault_of(dir, &error);
    std::fs::create_dir(&probe).map_err(fail)?;
    std::fs::remove_dir(&probe).map_err(fail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_writable_folder_passes_and_nothing_is_left_behind() {
        let dir = tempfile::tempdir().unwrap();
        let state = dir.path().join("waymark");
        assert_eq!(probe(&state), Ok(Probed::Creatable));
        assert!(!state.exists(), "the probe created the folder");
        for sub in SUBFOLDERS {
            std::fs::create_dir_all(state.join(sub)).unwrap();
        }
        assert_eq!(probe(&state), Ok(Probed::Writable));
        let left = |dir: &Path| std::fs::read_dir(dir).unwrap().count();
        assert_eq!(left(dir.path()), 1);
        assert_eq!(left(&state), SUBFOLDERS.len());
        for sub in SUBFOLDERS {
            assert_eq!(left(&state.join(sub)), 0, "{sub}");
        }
    }

    /// A file in the way refuses even root, so this holds wherever the tests run.
    #[test]
    fn a_file_in_the_way_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("waymark");
        std::fs::write(&file, "").unwrap();
        let fault = probe(&file.join("state")).unwrap_err();
        assert_eq!(fault.kind, FaultKind::StateNotAFolder);
        assert_eq!(fault.path, Some(file.display().to_string()));

        // A real write's error, explained: the probe finds the file that stands in the way.
        let sessions = file.join("state").join("sessions");
        let error = std::fs::create_dir_all(&sessions).unwrap_err();
        let fault = explain(&file.join("state"), &sessions, &error);
        assert_eq!(fault.kind, FaultKind::StateNotAFolder);
        assert_eq!(fault.path, Some(file.display().to_string()));
    }

    #[test]
    fn io_errors_keep_their_cause_and_only_an_unknown_one_its_words() {
        let at = Path::new("state");
        let denied = fault_of(at, &std::io::Error::from(ErrorKind::PermissionDenied));
        assert_eq!(
            (denied.kind, denied.detail),
            (FaultKind::StatePermissionDenied, None)
        );
        let read_only = fault_of(at, &std::io::Error::from(ErrorKind::ReadOnlyFilesystem));
        assert_eq!(read_only.kind, FaultKind::StateReadOnly);
        let other = fault_of(at, &std::io::Error::other("the disk is on fire"));
        assert_eq!(other.kind, FaultKind::StateUnwritable);
        assert_eq!(other.detail.as_deref(), Some("the disk is on fire"));
    }
}
