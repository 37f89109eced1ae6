//! Running other programs the way the build does: what runs is said on stderr (`==> …`), a program
//! that fails stops the build with its command line, and stdout is kept for what a person asked to
//! see (test results, `help`), so build tools' chatter goes to stderr.
//!
//! Must not: run anything through a shell (arguments are passed as they are, never re-split), or
//! ignore a failure silently — a caller that tolerates one says so by using [`succeeds`].

use std::ffi::OsStr;
use std::io;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{bail, Context as _, Result};

/// Says what the build does next, as build.sh always has: `==> …` on stderr.
pub fn say(what: impl AsRef<str>) {
    eprintln!("==> {}", what.as_ref());
}

/// `program` as `command -v` finds it: a path as given, else the first executable of that name on PATH.
pub fn which(program: impl AsRef<OsStr>) -> Option<PathBuf> {
    let program = Path::new(program.as_ref());
    if program.as_os_str().is_empty() {
        return None;
    }
    if program.components().count() > 1 {
        return is_executable(program).then(|| program.to_path_buf());
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|candidate| is_executable(candidate))
}

/// Whether `program` is installed (on PATH, or at the path given).
pub fn have(program: impl AsRef<OsStr>) -> bool {
    which(program).is_some()
}

/// Whether `path` is a file this user may run.
pub fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt as _;
    path.metadata()
        .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// A command for `program` with `args`.
pub fn cmd<I, S>(program: impl AsRef<OsStr>, args: I) -> Command
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut command = Command::new(program);
    command.args(args);
    command
}

/// The command line, for messages: the program by its name (`cargo`, not the toolchain's path).
pub fn shown(command: &Command) -> String {
    let program = command.get_program();
    std::iter::once(Path::new(program).file_name().unwrap_or(program))
        .chain(command.get_args())
        .map(|part| part.to_string_lossy())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A duration as people say it: "42 s", "23 min 31 s".
pub fn duration(took: std::time::Duration) -> String {
    let secs = took.as_secs();
    if secs < 60 {
        format!("{secs} s")
    } else {
        format!("{} min {:02} s", secs / 60, secs % 60)
    }
}

/// Runs `command` with this process's stdin, stdout and stderr; an error if it cannot start or fails.
pub fn run(command: &mut Command) -> Result<()> {
    let status = command
        .status()
        .with_context(|| format!("could not start `{}`", shown(command)))?;
    if !status.success() {
        bail!("`{}` failed ({status})", shown(command));
    }
    Ok(())
}

/// Runs `command` with its stdout sent to stderr: build tools' output, which is not the result.
pub fn run_to_stderr(command: &mut Command) -> Result<()> {
    run(command.stdout(io::stderr()))
}

/// What `command` writes to stdout (its stderr shown as it comes); an error if it fails.
pub fn output(command: &mut Command) -> Result<String> {
    let out = command
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .with_context(|| format!("could not start `{}`", shown(command)))?;
    if !out.status.success() {
        bail!("`{}` failed ({})", shown(command), out.status);
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// What `command` writes to stdout, whether or not it succeeds (`None` if it cannot start); its
/// stderr is dropped. For probes such as `tool --version`.
pub fn probe(command: &mut Command) -> Option<String> {
    let out = command.stdin(Stdio::null()).stderr(Stdio::null()).output().ok()?;
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Whether `command` runs and succeeds, all its output dropped: a question, not a step.
pub fn succeeds(command: &mut Command) -> bool {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Whether this process runs as root (installing needs it, or sudo).
pub fn is_root() -> bool {
    probe(&mut cmd("id", ["-u"])).is_some_and(|uid| uid.trim() == "0")
}

/// Copies the folder `from` into `to` (made if missing), files and subfolders, as `cp -R from/. to/`.
pub fn copy_dir(from: &Path, to: &Path) -> Result<()> {
    std::fs::create_dir_all(to).with_context(|| format!("making {}", to.display()))?;
    for entry in std::fs::read_dir(from).with_context(|| format!("reading {}", from.display()))? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), &target)
                .with_context(|| format!("copying {} to {}", entry.path().display(), target.display()))?;
        }
    }
    Ok(())
}

/// The last `n` lines of a file, for a failure report (nothing if it cannot be read).
pub fn tail(path: &Path, n: usize) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// `text` as one word for a POSIX shell (as bash's `printf %q` would make it safe to paste).
pub fn shell_quote(text: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-./=:,+@%".contains(c);
    if !text.is_empty() && text.chars().all(plain) {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_word_with_spaces_or_quotes_is_quoted_for_the_shell() {
        assert_eq!(shell_quote("/a/venv/bin/python"), "/a/venv/bin/python");
        assert_eq!(shell_quote("PATH=/usr/bin:/bin"), "PATH=/usr/bin:/bin");
        assert_eq!(shell_quote("two words"), "'two words'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote(""), "''");
    }

    #[test]
    fn durations_are_said_in_minutes_and_seconds() {
        assert_eq!(duration(std::time::Duration::from_secs(42)), "42 s");
        assert_eq!(duration(std::time::Duration::from_secs(1411)), "23 min 31 s");
    }

    #[test]
    fn a_failing_command_is_an_error_naming_it() {
        let error = run(&mut cmd("false", ["--flag"])).unwrap_err().to_string();
        assert!(error.starts_with("`false --flag` failed"), "{error}");
        assert!(run(&mut cmd("true", [""; 0])).is_ok());
    }
}
