//! Which program an outside MCP client is: read from the process at the other end of the local
//! socket, never from what the client says about itself. The user's consent is remembered by it
//! ([`ProgramKey`]: the executable, an interpreter's script, and the user), so another program that
//! gives itself an allowed client's name is asked about anew.
//!
//! The socket's peer is usually `waymark-host mcp`, the proxy the client started (this host's own
//! executable, or one named `waymark-host`: another install): then the client is the proxy's parent. A program that runs the proxy itself is its own client; one that connects to
//! the socket directly is the peer itself. From there the walk goes up past shells (`sh -c`,
//! `cmd /c`), which clients use to start servers and which decide nothing, as far as processes of the
//! same user go, at most [`MAX_LAUNCHERS`] steps. It never walks past an interpreter (`node`,
//! `python3`, …): the script it runs is the program, and is part of the key, so two programs built on
//! the same SDK are told apart. A proxy whose parent is gone (re-parented to the first process) or a
//! system where processes cannot be read gives [`ProgramKey::Connection`]: consent then holds for that
//! connection only.
//!
//! The walk itself is pure over [`Processes`]; [`linux`] reads `/proc`, [`windows`] the system's
//! process list. What it must not do: trust anything the client process can choose about itself
//! beyond its own executable and arguments (its name, its title), or walk into another user's process.

use std::path::{Path, PathBuf};

#[cfg(target_os = "linux")]
pub mod linux;
#[cfg(windows)]
pub mod windows;

/// How many launchers (shells) the walk goes past, at most.
pub const MAX_LAUNCHERS: usize = 4;

/// What the walk needs of one process.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Proc {
    pub pid: u32,
    pub parent: Option<u32>,
    /// The executable's path, when it can be read (another user's process: not).
    pub exe: Option<PathBuf>,
    /// The user it runs as: a number on Unix, a SID on Windows.
    pub user: Option<String>,
    /// Its arguments, the program's own name first.
    pub args: Vec<String>,
    /// Its working directory, for a script named by a relative path.
    pub cwd: Option<PathBuf>,
    /// When it started (seconds), where a parent's id may name a newer process that took the id
    /// of one that ended (Windows does not re-parent orphans).
    pub started: Option<u64>,
}

/// A system's processes, as far as this user may read them.
pub trait Processes {
    fn get(&self, pid: u32) -> Option<Proc>;
    /// Whether `path` is a file (a script an interpreter runs).
    fn is_file(&self, path: &Path) -> bool;
    /// A user's name (or number), for saying who runs a program; `None` when not worth saying.
    fn user_name(&self, user: &str) -> Option<String>;
}

/// What the user's consent to an outside client is remembered by.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ProgramKey {
    /// A program told by its executable, an interpreter's or launcher's arguments up to its script,
    /// and the user it runs as.
    Known {
        exe: PathBuf,
        args: Vec<String>,
        user: Option<String>,
    },
    /// Waymark could not tell which program connected: this connection (by its number) only.
    Connection(u64),
}

/// The program at the other end of one MCP connection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Program {
    pub key: ProgramKey,
    /// For listening: the executable's file name, with an interpreter's script ("node client.mjs");
    /// empty when unknown.
    pub short: String,
    /// For `/details`: the executable's full path and the arguments in the key.
    pub full: String,
    /// Who runs it, by name when the system says it.
    pub user: Option<String>,
}

impl Program {
    /// A program Waymark could not identify, on connection `serial`.
    pub fn unknown(serial: u64) -> Self {
        Self {
            key: ProgramKey::Connection(serial),
            short: String::new(),
            full: String::new(),
            user: None,
        }
    }

    /// Whether Waymark knows which program this is.
    pub fn known(&self) -> bool {
        matches!(self.key, ProgramKey::Known { .. })
    }
}

/// A path as the kernel gives it for an executable replaced while it ran (an upgrade): without the
/// mark.
fn undeleted(path: &Path) -> PathBuf {
    let text = path.to_string_lossy();
    PathBuf::from(text.strip_suffix(" (deleted)").unwrap_or(&text))
}

/// An executable's name, lower case, without `.exe`, for the tables below.
fn base_name(exe: &Path) -> String {
    let name = exe
        .file_name()
        .map(|n| n.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    name.strip_suffix(".exe").map(str::to_owned).unwrap_or(name)
}

/// Shells and the like: they start what they are told and decide nothing themselves.
fn is_launcher(exe: &Path) -> bool {
    matches!(
        base_name(exe).as_str(),
        "sh" | "bash"
            | "dash"
            | "zsh"
            | "ksh"
            | "mksh"
            | "ash"
            | "fish"
            | "tcsh"
            | "csh"
            | "busybox"
            | "env"
            | "cmd"
            | "powershell"
            | "pwsh"
    )
}

/// Interpreters: the script they run is the program.
fn is_interpreter(exe: &Path) -> bool {
    let name = base_name(exe);
    let versioned = |stem: &str| {
        name.strip_prefix(stem)
            .is_some_and(|rest| rest.chars().all(|c| c.is_ascii_digit() || c == '.' || c == 'w'))
    };
    matches!(
        name.as_str(),
        "node" | "nodejs" | "deno" | "bun" | "java" | "osascript"
    ) || ["python", "pypy", "ruby", "perl", "php"]
        .iter()
        .any(|s| versioned(s))
}

/// Identifies the program behind the socket peer `peer` (a process id, when the system gave one).
/// `own_exe` is the host's own executable: a peer running it is the proxy. `serial` numbers the
/// connection, for a program that cannot be identified.
pub fn identify(table: &impl Processes, peer: Option<u32>, own_exe: &Path, serial: u64) -> Program {
    let unknown = || Program::unknown(serial);
    let parent_of = |at: &Proc| {
        at.parent
            .filter(|&p| p > 1)
            .and_then(|p| table.get(p))
            .filter(|parent| match (parent.started, at.started) {
                (Some(parent), Some(child)) => parent <= child,
                _ => true,
            })
    };
    let Some(mut at) = peer.and_then(|p| table.get(p)) else {
        return unknown();
    };
    // Another install of Waymark (a build beside the installed one) starts proxies too. A program
    // that names itself so gains nothing: its parent is then the client, and that is whoever started it.
    let proxy = |exe: &Path| undeleted(exe) == undeleted(own_exe) || base_name(exe) == "waymark-host";
    if at.exe.as_deref().is_some_and(proxy) {
        // `waymark-host mcp`: its parent started it. A proxy whose parent has gone has been handed
        // to the first process (or a reaper), which is nobody's client.
        let Some(parent) = parent_of(&at) else {
            return unknown();
        };
        at = parent;
    }
    for _ in 0..MAX_LAUNCHERS {
        if !at.exe.as_deref().is_some_and(is_launcher) {
            break;
        }
        let Some(parent) = parent_of(&at) else { break };
        if parent.user != at.user || parent.exe.is_none() {
            break;
        }
        at = parent;
    }
    let Some(exe) = at.exe.clone() else {
        return unknown();
    };
    let exe = undeleted(&exe);
    let (args, script) = if is_interpreter(&exe) || is_launcher(&exe) {
        script_args(table, &at)
    } else {
        (Vec::new(), None)
    };
    let name = exe
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = name.strip_suffix(".exe").map(str::to_owned).unwrap_or(name);
    let short = match &script {
        Some(script) => format!("{name} {script}"),
        None => name,
    };
    let full = std::iter::once(exe.display().to_string())
        .chain(args.iter().cloned())
        .collect::<Vec<_>>()
        .join(" ");
    let user = at.user.as_deref().and_then(|u| table.user_name(u));
    Program {
        key: ProgramKey::Known {
            exe,
            args,
            user: at.user,
        },
        short,
        full,
        user,
    }
}

/// An interpreter's arguments up to and including its script (as a full path), and the script's file
/// name. Options before the script stay in (a module preloaded with `--require` makes another
/// program); without a script file (`-e`, `-c`, `-m`), every argument is the program.
fn script_args(table: &impl Processes, at: &Proc) -> (Vec<String>, Option<String>) {
    let mut kept = Vec::new();
    for arg in at.args.iter().skip(1) {
        if !arg.starts_with('-') {
            let path = Path::new(arg);
            let full = match &at.cwd {
                Some(cwd) if path.is_relative() => cwd.join(path),
                _ => path.to_owned(),
            };
            if table.is_file(&full) {
                let name = full.file_name().map(|n| n.to_string_lossy().into_owned());
                kept.push(full.display().to_string());
                return (kept, name);
            }
        }
        kept.push(arg.clone());
    }
    (kept, None)
}

/// The host's own executable, as the system names it (for telling its proxy).
pub fn own_exe() -> PathBuf {
    std::env::current_exe().unwrap_or_default()
}

/// The program behind a peer process id, read from this system's process list: the identity of one
/// connection. Blocking (it reads the process list); `serial` numbers the connection.
pub fn of_peer(peer: Option<u32>, serial: u64) -> Program {
    #[cfg(target_os = "linux")]
    return identify(&linux::ProcFs, peer, &own_exe(), serial);
    #[cfg(windows)]
    return identify(&windows::SystemProcesses::new(), peer, &own_exe(), serial);
    // Elsewhere (macOS) processes are not read yet: consent holds for the connection.
    #[cfg(not(any(target_os = "linux", windows)))]
    {
        let _ = peer;
        Program::unknown(serial)
    }
}

#[cfg(test)]
mod tests;
