//! Writing a file whole or not at all: the one way the host saves what must survive a crash or may
//! hold a secret (the session, `config.toml` with the API key, the registered extension ids, the
//! install record) and what a browser must find whole (the native-messaging manifests).
//!
//! The bytes go to a temp file of its own beside the target (the same folder, so the rename stays on
//! one file system), created new under a name no other write uses (two installs at once, or two saves,
//! never share one), with the target's permission bits — exactly those on Unix, whatever the umask —
//! then flushed to disk and renamed over the target: a crash leaves the old file or the new one, never
//! half of one.
//!
//! What it must not do: leave a partly written file under the target's name, leave its temp file
//! behind after a failure, or let a private file be readable by others, even while it is written.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Permission bits of a file only its owner may read (the session, the config, the records).
pub const PRIVATE: u32 = 0o600;

/// How many taken temp names (left by a crashed process that had the same id) are skipped before
/// giving up.
const TEMP_TRIES: u32 = 64;

/// Numbers the temp files of this process, so two writes at once never pick the same name.
static TEMP_COUNT: AtomicU64 = AtomicU64::new(0);

/// Writes `bytes` to `path` whole, only its owner able to read it, creating its folder if missing.
pub fn write_private(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write(path, bytes, PRIVATE)
}

/// Writes `bytes` to `path` whole, with permission bits `mode` on Unix (ignored elsewhere), creating
/// its folder if missing. On failure the temp file is removed and the target is as it was.
pub fn write(path: &Path, bytes: &[u8], mode: u32) -> io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir)?;
    }
    let (temp, file) = create_temp(path, mode)?;
    let written = fill_then_rename(file, &temp, path, bytes, mode);
    if written.is_err() {
        let _ = fs::remove_file(&temp);
    }
    written
}

/// Creates `.<name>.<pid>.<n>.tmp` beside `path`, new, with `mode`.
fn create_temp(path: &Path, mode: u32) -> io::Result<(PathBuf, File)> {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.mode(mode);
    }
    #[cfg(not(unix))]
    let _ = mode;
    for _ in 0..TEMP_TRIES {
        let n = TEMP_COUNT.fetch_add(1, Ordering::Relaxed);
        let temp = path.with_file_name(format!(".{name}.{}.{n}.tmp", std::process::id()));
        match options.open(&temp) {
            Ok(file) => return Ok((temp, file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        format!("no free temp file name beside {}", path.display()),
    ))
}

fn fill_then_rename(mut file: File, temp: &Path, path: &Path, bytes: &[u8], mode: u32) -> io::Result<()> {
    #[cfg(unix)]
    {
        // The umask narrows `mode` at creation; the file gets exactly `mode`.
        use std::os::unix::fs::PermissionsExt as _;
        file.set_permissions(fs::Permissions::from_mode(mode))?;
    }
    #[cfg(not(unix))]
    let _ = mode;
    file.write_all(bytes)?;
    file.sync_all()?;
    drop(file);
    fs::rename(temp, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names_in(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn the_file_is_replaced_whole_and_private_and_no_temp_file_stays() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("deeper").join("secret.toml");
        write_private(&path, b"first").unwrap();
        write_private(&path, b"second").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "second");
        assert_eq!(names_in(path.parent().unwrap()), ["secret.toml"]);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, PRIVATE);
        }
    }

    /// A manifest the browser reads as another user gets the bits asked for, not the umask's.
    #[cfg(unix)]
    #[test]
    fn the_file_gets_exactly_the_mode_asked_for() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        for mode in [0o644, 0o600, 0o640] {
            let path = dir.path().join(format!("m{mode:o}.json"));
            write(&path, b"{}", mode).unwrap();
            assert_eq!(fs::metadata(&path).unwrap().permissions().mode() & 0o777, mode);
        }
    }

    /// A temp file left by a crashed process (of the same id) is never written into or made
    /// readable: the write takes a name of its own.
    #[cfg(unix)]
    #[test]
    fn a_leftover_temp_file_is_left_alone() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("current.json");
        let next = TEMP_COUNT.load(Ordering::Relaxed);
        let mut left: Vec<PathBuf> = Vec::new();
        // Names this process may pick next (other tests may take some of them first).
        for n in next..next + 8 {
            let temp = dir
                .path()
                .join(format!(".current.json.{}.{n}.tmp", std::process::id()));
            fs::write(&temp, "old").unwrap();
            fs::set_permissions(&temp, fs::Permissions::from_mode(0o644)).unwrap();
            left.push(temp);
        }
        write_private(&path, b"new").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "new");
        for temp in &left {
            assert_eq!(fs::read_to_string(temp).unwrap(), "old");
        }
    }

    #[test]
    fn writes_at_once_to_one_file_each_land_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("record.toml");
        let bodies: Vec<String> = (0..8).map(|i| format!("{i}").repeat(10_000)).collect();
        std::thread::scope(|scope| {
            for body in &bodies {
                let path = &path;
                scope.spawn(move || write_private(path, body.as_bytes()).unwrap());
            }
        });
        let text = fs::read_to_string(&path).unwrap();
        assert!(bodies.contains(&text), "a mix of writes landed");
        assert_eq!(names_in(dir.path()), ["record.toml"]);
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
        assert_eq!(names_in(dir.path()), ["taken"]);
    }
}
