//! The doctor's state-directory check: can Waymark write where it keeps sessions (`sessions/`), step
//! logs (`logs/`) and the browser's socket (`run/`)? A folder left owned by another user (created
//! with `sudo`), a file in its place or a read-only disk otherwise means that nothing is saved and
//! nobody says so.
//!
//! What it must not do: leave anything behind. It writes one probe file in each folder that exists
//! and removes it; a folder that does not exist yet is not created — its nearest existing parent is
//! probed with a folder made and removed at once.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use super::{Check, Status};

const NAME: &str = "state";

/// The folders under the state directory the host writes in.
const SUBFOLDERS: [&str; 3] = ["sessions", "logs", "run"];

/// Why Waymark cannot write where it keeps its state.
#[derive(Debug)]
pub(super) enum Fault {
    /// Something that is not a folder stands where a folder must be.
    NotAFolder(PathBuf),
    /// The folder refused a new file.
    Io { path: PathBuf, error: std::io::Error },
}

/// Whether every folder the host writes in takes a new file.
pub fn check_state_dir(state_dir: &Path) -> Check {
    match probe_state_dir(state_dir) {
        Ok(true) => Check::new(
            NAME,
            Status::Ok,
            format!(
                "{} is writable (sessions, step logs, the browser's socket)",
                state_dir.display()
            ),
            None,
        ),
        Ok(false) => Check::new(
            NAME,
            Status::Ok,
            format!(
                "{} does not exist yet; Waymark can create it",
                state_dir.display()
            ),
            None,
        ),
        Err(fault) => fault_check(fault),
    }
}

/// `Ok(true)`: the folder and its subfolders take files; `Ok(false)`: it does not exist, and it could
/// be created.
pub(super) fn probe_state_dir(state_dir: &Path) -> Result<bool, Fault> {
    if state_dir.is_dir() {
        probe_file(state_dir)?;
        for sub in SUBFOLDERS {
            let dir = state_dir.join(sub);
            if dir.is_dir() {
                probe_file(&dir)?;
            } else if dir.exists() {
                return Err(Fault::NotAFolder(dir));
            }
        }
        return Ok(true);
    }
    // Missing (or not a folder): walk up to what exists; that must be a folder that takes a new one.
    let mut at = state_dir;
    loop {
        if at.exists() {
            if !at.is_dir() {
                return Err(Fault::NotAFolder(at.to_owned()));
            }
            probe_folder(at)?;
            return Ok(false);
        }
        match at.parent() {
            Some(parent) => at = parent,
            None => return Ok(false),
        }
    }
}

fn probe_name() -> String {
    format!(".waymark-doctor-{}", std::process::id())
}

fn probe_file(dir: &Path) -> Result<(), Fault> {
    let probe = dir.join(probe_name());
    let fail = |error| Fault::Io {
        path: dir.to_owned(),
        error,
    };
    std::fs::File::create_new(&probe).map_err(fail)?;
    std::fs::remove_file(&probe).map_err(fail)
}

fn probe_folder(dir: &Path) -> Result<(), Fault> {
    let probe = dir.join(probe_name());
    let fail = |error| Fault::Io {
        path: dir.to_owned(),
        error,
    };
    std::fs::create_dir(&probe).map_err(fail)?;
    std::fs::remove_dir(&probe).map_err(fail)
}

/// Where else the state may go, said in every fix.
const ELSEWHERE: &str = "or choose another folder with WAYMARK_STATE_DIR or state_dir in config.toml";

pub(super) fn fault_check(fault: Fault) -> Check {
    let (detail, fix) = match fault {
        Fault::NotAFolder(path) => (
            format!(
                "{} is a file, not a folder, so Waymark saves nothing",
                path.display()
            ),
            format!("move that file away, {ELSEWHERE}"),
        ),
        Fault::Io { path, error } => match error.kind() {
            ErrorKind::PermissionDenied => (
                format!(
                    "Waymark cannot write in {} (permission denied), so it saves no session, no step \
                     log and no socket for MCP clients",
                    path.display()
                ),
                format!("{}, {ELSEWHERE}", give_back(&path)),
            ),
            ErrorKind::ReadOnlyFilesystem => (
                format!(
                    "{} is on a read-only disk, so Waymark saves nothing",
                    path.display()
                ),
                "choose a folder on a writable disk with WAYMARK_STATE_DIR or state_dir in config.toml"
                    .to_owned(),
            ),
            _ => (
                format!("Waymark cannot write in {}: {error}", path.display()),
                format!("check that disk and folder, {ELSEWHERE}"),
            ),
        },
    };
    Check::new(NAME, Status::Problem, detail, Some(fix))
}

/// How to make a folder the user's own again (it is usually left by a command run with `sudo`).
#[cfg(unix)]
fn give_back(path: &Path) -> String {
    format!(
        "make it yours again: sudo chown -R \"$USER\" '{}'",
        path.display()
    )
}

#[cfg(not(unix))]
fn give_back(path: &Path) -> String {
    format!(
        "give your account write permission on {} (Properties, Security)",
        path.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_writable_folder_passes_and_nothing_is_left_behind() {
        let dir = tempfile::tempdir().unwrap();
        let state = dir.path().join("waymark");
        let check = check_state_dir(&state);
        assert_eq!(check.status, Status::Ok, "{check:?}");
        assert!(check.detail.contains("does not exist yet"), "{check:?}");
        assert!(!state.exists(), "the check created the folder");

        for sub in SUBFOLDERS {
            std::fs::create_dir_all(state.join(sub)).unwrap();
        }
        let check = check_state_dir(&state);
        assert_eq!(check.status, Status::Ok, "{check:?}");
        assert!(check.detail.contains("is writable"), "{check:?}");
        let left = |dir: &Path| std::fs::read_dir(dir).unwrap().count();
        assert_eq!(left(dir.path()), 1);
        assert_eq!(left(&state), SUBFOLDERS.len());
        for sub in SUBFOLDERS {
            assert_eq!(left(&state.join(sub)), 0, "{sub}");
        }
    }

    #[test]
    fn a_file_in_the_way_is_a_problem_with_the_fix() {
        let dir = tempfile::tempdir().unwrap();
        let state = dir.path().join("waymark");
        std::fs::write(&state, "").unwrap();
        let check = check_state_dir(&state);
        assert_eq!(check.status, Status::Problem, "{check:?}");
        assert!(check.detail.contains("is a file, not a folder"), "{check:?}");
        assert!(
            check.fix.as_deref().unwrap().contains("WAYMARK_STATE_DIR"),
            "{check:?}"
        );

        // Deeper: a file where a parent folder must be.
        let check = check_state_dir(&state.join("inner"));
        assert_eq!(check.status, Status::Problem, "{check:?}");

        // A subfolder that is a file.
        std::fs::remove_file(&state).unwrap();
        std::fs::create_dir(&state).unwrap();
        std::fs::write(state.join("sessions"), "").unwrap();
        let check = check_state_dir(&state);
        assert_eq!(check.status, Status::Problem, "{check:?}");
        assert!(check.detail.contains("sessions"), "{check:?}");
    }

    #[test]
    fn a_folder_that_refuses_says_how_to_make_it_writable() {
        let path = PathBuf::from("state");
        let refused = Fault::Io {
            path: path.clone(),
            error: std::io::Error::from(ErrorKind::PermissionDenied),
        };
        let check = fault_check(refused);
        assert_eq!(check.status, Status::Problem);
        assert!(check.detail.contains("permission denied"), "{check:?}");
        let fix = check.fix.unwrap();
        assert!(fix.contains("WAYMARK_STATE_DIR"), "{fix}");
        #[cfg(unix)]
        assert!(fix.contains("chown"), "{fix}");

        let read_only = Fault::Io {
            path,
            error: std::io::Error::from(ErrorKind::ReadOnlyFilesystem),
        };
        assert!(fault_check(read_only).detail.contains("read-only disk"));
    }

    /// The real refusal, where permissions bind (not for root, who may write anywhere).
    #[cfg(unix)]
    #[test]
    fn a_folder_without_write_permission_is_found() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let state = dir.path().join("waymark");
        std::fs::create_dir(&state).unwrap();
        std::fs::set_permissions(&state, std::fs::Permissions::from_mode(0o500)).unwrap();
        let binds = std::fs::File::create_new(state.join("try")).is_err();
        let check = check_state_dir(&state);
        std::fs::set_permissions(&state, std::fs::Permissions::from_mode(0o700)).unwrap();
        if binds {
            assert_eq!(check.status, Status::Problem, "{check:?}");
            assert!(check.detail.contains("permission denied"), "{check:?}");
        } else {
            assert_eq!(check.status, Status::Ok, "{check:?}");
        }
    }
}
