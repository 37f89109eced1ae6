//! The doctor's state-directory check: can Waymark write where it keeps sessions (`sessions/`), step
//! logs (`logs/`) and the browser's socket (`run/`)? The probe is [`crate::state_dir`]'s (the same
//! the host runs when it starts); this room words its finding as a check with the fix.
//!
//! What it must not do: decide anything itself from the words of an error: the fault is typed.

use std::path::Path;

use waymark_i18n::{say, Words};
use waymark_protocol::{FaultKind, HostFault};

use super::{Check, Status};
use crate::state_dir::{self, Probed};

const NAME: &str = "state";

/// Whether every folder the host writes in takes a new file.
pub fn check_state_dir(state_dir: &Path, words: &Words) -> Check {
    let path = state_dir.display().to_string();
    match state_dir::probe(state_dir) {
        Ok(Probed::Writable) => Check::new(
            NAME,
            Status::Ok,
            say!(words, "doctor-state-writable", path = path),
            None,
        ),
        Ok(Probed::Creatable) => Check::new(
            NAME,
            Status::Ok,
            say!(words, "doctor-state-creatable", path = path),
            None,
        ),
        Err(fault) => fault_check(fault, words),
    }
}

pub(super) fn fault_check(fault: HostFault, words: &Words) -> Check {
    let path = fault.path.unwrap_or_default();
    let path = path.as_str();
    let (detail, fix) = match fault.kind {
        FaultKind::StateNotAFolder => (
            say!(words, "doctor-state-not-a-folder", path = path),
            say!(words, "doctor-fix-state-move"),
        ),
        FaultKind::StatePermissionDenied => (
            say!(words, "doctor-state-denied", path = path),
            give_back(path, words),
        ),
        FaultKind::StateReadOnly => (
            say!(words, "doctor-state-read-only", path = path),
            say!(words, "doctor-fix-state-read-only"),
        ),
        _ => (
            match fault.detail.as_deref() {
                Some(why) => say!(words, "doctor-state-unwritable", path = path, detail = why),
                None => say!(words, "doctor-state-refused", path = path),
            },
            say!(words, "doctor-fix-state-check"),
        ),
    };
    Check::new(NAME, Status::Problem, detail, Some(fix))
}

/// How to make a folder the user's own again (it is usually left by a command run with `sudo`).
#[cfg(unix)]
fn give_back(path: &str, words: &Words) -> String {
    say!(words, "doctor-fix-state-chown", path = path)
}

#[cfg(not(unix))]
fn give_back(path: &str, words: &Words) -> String {
    say!(words, "doctor-fix-state-permission", path = path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::doctor::tests::english;
    use crate::state_dir::SUBFOLDERS;
    use std::io::ErrorKind;

    #[test]
    fn a_missing_or_writable_folder_passes() {
        let dir = tempfile::tempdir().unwrap();
        let state = dir.path().join("waymark");
        let check = check_state_dir(&state, &english());
        assert_eq!(check.status, Status::Ok, "{check:?}");
        assert!(check.detail.contains("does not exist yet"), "{check:?}");
        assert!(!state.exists(), "the check created the folder");

        for sub in SUBFOLDERS {
            std::fs::create_dir_all(state.join(sub)).unwrap();
        }
        let check = check_state_dir(&state, &english());
        assert_eq!(check.status, Status::Ok, "{check:?}");
        // That the probe leaves nothing behind is the probe's own test (`state_dir.rs`).
        assert!(check.detail.contains("is writable"), "{check:?}");
    }

    #[test]
    fn a_file_in_the_way_is_a_problem_with_the_fix() {
        let dir = tempfile::tempdir().unwrap();
        let state = dir.path().join("waymark");
        std::fs::write(&state, "").unwrap();
        let check = check_state_dir(&state, &english());
        assert_eq!(check.status, Status::Problem, "{check:?}");
        assert!(check.detail.contains("is a file, not a folder"), "{check:?}");
        assert!(
            check.fix.as_deref().unwrap().contains("WAYMARK_STATE_DIR"),
            "{check:?}"
        );

        // Deeper: a file where a parent folder must be.
        let check = check_state_dir(&state.join("inner"), &english());
        assert_eq!(check.status, Status::Problem, "{check:?}");

        // A subfolder that is a file.
        std::fs::remove_file(&state).unwrap();
        std::fs::create_dir(&state).unwrap();
        std::fs::write(state.join("sessions"), "").unwrap();
        let check = check_state_dir(&state, &english());
        assert_eq!(check.status, Status::Problem, "{check:?}");
        assert!(check.detail.contains("sessions"), "{check:?}");
    }

    #[test]
    fn a_folder_that_refuses_says_how_to_make_it_writable() {
        let path = Path::new("state");
        let refused = state_dir::fault_of(path, &std::io::Error::from(ErrorKind::PermissionDenied));
        let check = fault_check(refused, &english());
        assert_eq!(check.status, Status::Problem);
        assert!(check.detail.contains("permission denied"), "{check:?}");
        let fix = check.fix.unwrap();
        assert!(fix.contains("WAYMARK_STATE_DIR"), "{fix}");
        #[cfg(unix)]
        assert!(fix.contains("chown"), "{fix}");

        let read_only = state_dir::fault_of(path, &std::io::Error::from(ErrorKind::ReadOnlyFilesystem));
        assert!(fault_check(read_only, &english())
            .detail
            .contains("read-only disk"));
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
        let check = check_state_dir(&state, &english());
        std::fs::set_permissions(&state, std::fs::Permissions::from_mode(0o700)).unwrap();
        if binds {
            assert_eq!(check.status, Status::Problem, "{check:?}");
            assert!(check.detail.contains("permission denied"), "{check:?}");
        } else {
            assert_eq!(check.status, Status::Ok, "{check:?}");
        }
    }
}
