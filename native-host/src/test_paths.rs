//! Paths for tests on every platform: absolute ones, and what a folder holds. The tests are written
//! with Unix paths (`/home/ada`); on Windows, where those are not absolute, they get a drive and
//! backslashes (`C:\home\ada`), so the same test checks the same behaviour there (`./build.sh windows`
//! runs it in Wine). The integration tests use it too (`tests/common/mod.rs` includes this file).
//!
//! Must not: be compiled into the host (it is test code, `#[cfg(test)]` in `lib.rs`).

use std::path::{Path, PathBuf};

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

/// Every file and folder under `dir`, relative, with `/` separators, sorted: what a test compares to
/// say exactly what was written.
pub fn tree(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for item in std::fs::read_dir(&d).unwrap() {
            let p = item.unwrap().path();
            out.push(p.strip_prefix(dir).unwrap().to_string_lossy().replace('\\', "/"));
            if p.is_dir() {
                stack.push(p);
            }
        }
    }
    out.sort();
    out
}
