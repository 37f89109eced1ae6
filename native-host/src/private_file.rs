//! Writing a file that only its owner may read, whole or not at all: the one way the host saves what
//! may hold a secret or must survive a crash (the session, `config.toml` with the API key, the
//! registered extension ids).
//!
//! The bytes go to a temp file beside the target (same folder, so the rename stays on one file
//! system), created 0600 on Unix, flushed to disk, then renamed over the target: a crash leaves the old
//! file or the new one, never half of one. What it must not do: leave a partly written file under the
//! target's name, or a file others can read (a temp file left over by a crash is made private again
//! before it is reused).

use std::fs;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

/// Writes `bytes` to `path` atomically and privately, creating its folder if missing. On failure the
/// temp file is removed and the target is as it was.
pub fn write_private(path: &Path, bytes: &[u8]) -> io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir)?;
    }
    let temp = temp_path(path);
    let written = write_then_rename(&temp, path, bytes);
    if written.is_err() {
        let _ = fs::remove_file(&temp);
    }
    written
}

/// `<name>.tmp-<pid>` beside `path`: one process never races another over the same temp file.
fn temp_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".tmp-{}", std::process::id()));
    path.with_file_name(name)
}

fn write_then_rename(temp: &Path, path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut options = fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.mode(0o600);
    }
    let mut file = options.open(temp)?;
    #[cfg(unix)]
    {
        // `mode` applies only when the file is created; a leftover temp file is made private too.
        use std::os::unix::fs::PermissionsExt as _;
        file.set_permissions(fs::Permissions::from_mode(0o600))?;
    }
    file.write_all(bytes)?;
    file.sync_all()?;
    drop(file);
    fs::rename(temp, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_is_replaced_whole_and_private_and_no_temp_file_stays() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("deeper").join("secret.toml");
        write_private(&path, b"first").unwrap();
        write_private(&path, b"second").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "second");
        let names: Vec<_> = fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["secret.toml"]);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600);
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_leftover_readable_temp_file_is_made_private_before_it_is_used() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("current.json");
        let temp = temp_path(&path);
        fs::write(&temp, "old").unwrap();
        fs::set_permissions(&temp, fs::Permissions::from_mode(0o644)).unwrap();
        write_private(&path, b"new").unwrap();
        let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        assert!(!temp.exists());
    }

    #[test]
    fn a_failed_write_leaves_the_target_alone_and_no_temp_file() {
        let dir = tempfile::tempdir().unwrap();
        // The target is a folder: the rename fails after the temp file was written.
        let path = dir.path().join("taken");
        fs::create_dir(&path).unwrap();
        fs::write(path.join("inside"), "kept").unwrap();
        assert!(write_private(&path, b"new").is_err());
        assert!(path.is_dir());
        assert!(!temp_path(&path).exists());
    }
}
