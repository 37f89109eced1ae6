//! The processes of a Linux system, read from `/proc`: a process's parent and user from `status`, its
//! executable from the `exe` link (which the kernel keeps, whatever the process says of itself), its
//! arguments from `cmdline` and its working directory from `cwd`. Another user's process shows
//! little or nothing, and the walk stops there.
//!
//! Must not: read anything but these few files, or fail loudly: a process that is gone is `None`.

use std::path::Path;

use super::{Proc, Processes};

/// `/proc` itself.
pub struct ProcFs;

impl Processes for ProcFs {
    fn get(&self, pid: u32) -> Option<Proc> {
        let dir = Path::new("/proc").join(pid.to_string());
        let status = std::fs::read_to_string(dir.join("status")).ok()?;
        let (parent, user) = parse_status(&status);
        let args = std::fs::read(dir.join("cmdline"))
            .map(|bytes| parse_cmdline(&bytes))
            .unwrap_or_default();
        Some(Proc {
            pid,
            parent,
            exe: std::fs::read_link(dir.join("exe")).ok(),
            user,
            args,
            cwd: std::fs::read_link(dir.join("cwd")).ok(),
            // A parent's id is always a live process here: an orphan is handed to a reaper.
            started: None,
        })
    }

    fn is_file(&self, path: &Path) -> bool {
        path.is_file()
    }

    fn user_name(&self, user: &str) -> Option<String> {
        let passwd = std::fs::read_to_string("/etc/passwd").unwrap_or_default();
        Some(passwd_name(&passwd, user).unwrap_or_else(|| user.to_owned()))
    }
}

/// The parent's id (`PPid`) and the real user id (the first of `Uid`) from `/proc/<pid>/status`.
pub fn parse_status(status: &str) -> (Option<u32>, Option<String>) {
    let field = |name: &str| {
        status
            .lines()
            .find_map(|line| line.strip_prefix(name))
            .and_then(|rest| rest.split_whitespace().next())
    };
    let parent = field("PPid:").and_then(|p| p.parse().ok());
    let user = field("Uid:").map(str::to_owned);
    (parent, user)
}

/// The arguments in `/proc/<pid>/cmdline`: NUL-separated (a trailing NUL ends the last).
pub fn parse_cmdline(bytes: &[u8]) -> Vec<String> {
    let bytes = bytes.strip_suffix(&[0]).unwrap_or(bytes);
    if bytes.is_empty() {
        return Vec::new();
    }
    bytes
        .split(|b| *b == 0)
        .map(|arg| String::from_utf8_lossy(arg).into_owned())
        .collect()
}

/// The name of the user with this id in an `/etc/passwd` text.
pub fn passwd_name(passwd: &str, uid: &str) -> Option<String> {
    passwd.lines().find_map(|line| {
        let mut fields = line.split(':');
        let name = fields.next()?;
        (fields.nth(1)? == uid).then(|| name.to_owned())
    })
}
