//! The processes of a Windows system, read through `sysinfo`: a process's parent, image path, user
//! (its SID), command line and working directory. The pipe's client process id comes from
//! `GetNamedPipeClientProcessId` (`mcp::socket`). Names of users are not looked up: only the pipe's
//! owner can open it, so the user is the one running the browser.
//!
//! Must not: fail loudly: a process that is gone, or one this user may not read, is `None` or shows
//! no image path, and the walk stops there.

use std::path::Path;

use sysinfo::{Pid, ProcessRefreshKind, ProcessesToUpdate, System, UpdateKind};

use super::{Proc, Processes};

/// The system's process list, read process by process as the walk asks.
pub struct SystemProcesses {
    system: std::cell::RefCell<System>,
}

impl SystemProcesses {
    pub(super) fn new() -> Self {
        Self {
            system: std::cell::RefCell::new(System::new()),
        }
    }
}

impl Processes for SystemProcesses {
    fn get(&self, pid: u32) -> Option<Proc> {
        let mut system = self.system.borrow_mut();
        let id = Pid::from_u32(pid);
        system.refresh_processes_specifics(
            ProcessesToUpdate::Some(&[id]),
            false,
            ProcessRefreshKind::nothing()
                .with_exe(UpdateKind::Always)
                .with_cmd(UpdateKind::Always)
                .with_cwd(UpdateKind::Always)
                .with_user(UpdateKind::Always),
        );
        let process = system.process(id)?;
        Some(Proc {
            pid,
            parent: process.parent().map(Pid::as_u32),
            exe: process.exe().map(Path::to_owned),
            user: process.user_id().map(|user| user.to_string()),
            args: process
                .cmd()
                .iter()
                .map(|arg| arg.to_string_lossy().into_owned())
                .collect(),
            cwd: process.cwd().map(Path::to_owned),
            started: Some(process.start_time()),
        })
    }

    fn is_file(&self, path: &Path) -> bool {
        path.is_file()
    }

    fn user_name(&self, _user: &str) -> Option<String> {
        None
    }
}
