//! Absolute paths for tests on every platform. The tests are written with Unix paths (`/home/ada`);
//! on Windows, where those are not absolute, they get a drive and backslashes (`C:\home\ada`), so the
//! same test checks the same behaviour there (`./build.sh windows` runs it in Wine).

use std::path::PathBuf;

/// `unix` as an absolute path of this platform, as text.
pub fn abs(unix: &str) -> String {
    if cfg!(windows) && unix.starts_with('/') {
        format!("C:{}", unix.replace('/', "\\"))
    } else {
        unix.to_owned()
    }
}

/// `unix` as an absolute path of this platform.
pub fn path(unix: &str) -> PathBuf {
    PathBuf::from(abs(unix))
}
