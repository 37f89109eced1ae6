//! The walk from a socket's peer to the client program, over made-up process tables, and once over
//! this system's own processes.
#![allow(clippy::unwrap_used)] // test code: a panic is the failure report

use std::collections::HashMap;

use super::*;

const HOST: &str = "/opt/waymark/waymark-host";

/// A made-up process table, with a few script files.
#[derive(Default)]
struct Table(HashMap<u32, Proc>);

impl Table {
    fn with(mut self, pid: u32, parent: u32, exe: &str, args: &[&str]) -> Self {
        self.0.insert(
            pid,
            Proc {
                pid,
                parent: Some(parent),
                exe: (!exe.is_empty()).then(|| PathBuf::from(exe)),
                user: Some("1000".into()),
                args: args.iter().map(|a| (*a).to_owned()).collect(),
                cwd: Some(PathBuf::from("/files/project")),
                started: None,
            },
        );
        self
    }

    fn change(mut self, pid: u32, change: impl FnOnce(&mut Proc)) -> Self {
        change(self.0.get_mut(&pid).unwrap());
        self
    }
}

impl Processes for Table {
    fn get(&self, pid: u32) -> Option<Proc> {
        self.0.get(&pid).cloned()
    }
    fn is_file(&self, path: &Path) -> bool {
        [
            "/files/a/client.mjs",
            "/files/b/client.mjs",
            "/files/evil.js",
            "/files/project/client.py",
        ]
        .iter()
        .any(|file| path == Path::new(file))
    }
    fn user_name(&self, user: &str) -> Option<String> {
        (user == "1000").then(|| "ada".to_owned())
    }
}

fn of(table: &Table, peer: u32) -> Program {
    identify(table, Some(peer), Path::new(HOST), 7)
}

fn desktop() -> Table {
    Table::default().with(1, 0, "/sbin/init", &["/sbin/init"]).with(
        100,
        1,
        "/usr/bin/claude-desktop",
        &["/usr/bin/claude-desktop", "--x"],
    )
}

#[test]
fn the_proxys_parent_is_the_client_and_is_told_by_its_executable_and_user() {
    let table = desktop().with(200, 100, HOST, &[HOST, "mcp"]);
    let program = of(&table, 200);
    assert_eq!(
        program.key,
        ProgramKey::Known {
            exe: "/usr/bin/claude-desktop".into(),
            args: vec![],
            user: Some("1000".into()),
        }
    );
    assert_eq!(program.short, "claude-desktop");
    assert_eq!(program.full, "/usr/bin/claude-desktop");
    assert_eq!(program.user.as_deref(), Some("ada"));
    assert!(program.known());
}

#[test]
fn a_program_that_runs_the_proxy_or_the_socket_itself_is_its_own_client() {
    let table = desktop()
        .with(300, 100, "/home/ada/.cache/x/evil", &["evil"])
        .with(301, 300, HOST, &[HOST, "mcp"]);
    assert_eq!(
        of(&table, 301).short,
        "evil",
        "the proxy's parent, not the proxy's"
    );
    // Connected straight to the socket: the peer is the program.
    assert_eq!(of(&table, 300).short, "evil");
    assert_eq!(of(&table, 300).key, of(&table, 301).key);
    // Another install's waymark-host is a proxy too, and a program naming itself so gains nothing:
    // whoever started it is the client.
    let table = table
        .with(302, 300, "/tmp/waymark-host", &["waymark-host", "mcp"])
        .with(
            303,
            100,
            "/home/ada/.cargo/bin/waymark-host",
            &["waymark-host", "mcp"],
        );
    assert_eq!(of(&table, 302).short, "evil");
    assert_eq!(of(&table, 303).short, "claude-desktop");
}

#[test]
fn shells_between_the_client_and_the_proxy_are_walked_past() {
    let table = desktop()
        .with(110, 100, "/usr/bin/bash", &["bash", "-lc", "waymark-host mcp"])
        .with(111, 110, "/usr/bin/dash", &["sh", "-c", "waymark-host mcp"])
        .with(112, 111, HOST, &[HOST, "mcp"]);
    assert_eq!(of(&table, 112).short, "claude-desktop");
    // On Windows, through cmd.exe (forward slashes: a separator on every system this test runs on).
    let table = Table::default()
        .with(100, 4, "C:/Program Files/Claude/claude.exe", &["claude.exe"])
        .with(
            110,
            100,
            "C:/Windows/System32/cmd.exe",
            &["cmd.exe", "/c", "waymark-host.exe", "mcp"],
        )
        .with(112, 110, HOST, &[HOST, "mcp"]);
    let program = identify(&table, Some(112), Path::new(HOST), 1);
    assert_eq!(program.short, "claude");
}

#[test]
fn the_walk_stops_at_another_users_process_and_after_a_few_shells() {
    // A shell started by a root daemon (cron, say): the shell's own command line is the program.
    let table = Table::default()
        .with(50, 1, "/usr/sbin/cron", &["cron"])
        .change(50, |p| p.user = Some("0".into()))
        .with(51, 50, "/usr/bin/dash", &["sh", "-c", "waymark-host mcp"])
        .with(52, 51, HOST, &[HOST, "mcp"]);
    let program = of(&table, 52);
    assert_eq!(program.short, "dash");
    assert_eq!(program.full, "/usr/bin/dash -c waymark-host mcp");
    // Five shells deep: the fifth from the top is where it stops.
    let mut table = desktop();
    for pid in 101..=105 {
        table = table.with(pid, pid - 1, "/usr/bin/bash", &["bash", "-c", "next"]);
    }
    let table = table.with(106, 105, HOST, &[HOST, "mcp"]);
    assert_eq!(of(&table, 106).short, "bash");
    // A parent whose executable cannot be read is not walked into.
    let table = desktop()
        .change(100, |p| p.exe = None)
        .with(110, 100, "/usr/bin/bash", &["bash", "-c", "x"])
        .with(111, 110, HOST, &[HOST, "mcp"]);
    assert_eq!(of(&table, 111).short, "bash");
}

#[test]
fn two_programs_on_one_interpreter_are_two_programs() {
    let table = desktop()
        .with(
            120,
            100,
            "/usr/bin/node",
            &["node", "/files/a/client.mjs", "--port", "1"],
        )
        .with(121, 120, HOST, &[HOST, "mcp"])
        .with(130, 100, "/usr/bin/python3.12", &["python3", "client.py"])
        .with(131, 130, HOST, &[HOST, "mcp"])
        .with(
            140,
            100,
            "/usr/bin/node",
            &["node", "--require", "/files/evil.js", "/files/a/client.mjs"],
        )
        .with(141, 140, HOST, &[HOST, "mcp"])
        .with(150, 100, "/usr/bin/node", &["node", "/files/b/client.mjs"])
        .with(151, 150, HOST, &[HOST, "mcp"]);
    let node = of(&table, 121);
    assert_eq!(node.short, "node client.mjs");
    assert_eq!(
        node.full, "/usr/bin/node /files/a/client.mjs",
        "the script's own arguments are not the program"
    );
    let python = of(&table, 131);
    assert_eq!(python.short, "python3.12 client.py");
    // A relative script, from its folder (joined with the system's own separator).
    let script = Path::new("/files/project").join("client.py");
    assert_eq!(python.full, format!("/usr/bin/python3.12 {}", script.display()));
    let preloaded = of(&table, 141);
    assert_eq!(preloaded.full, "/usr/bin/node --require /files/evil.js");
    let other = of(&table, 151);
    let keys = [&node.key, &python.key, &preloaded.key, &other.key];
    for (i, a) in keys.iter().enumerate() {
        for b in &keys[i + 1..] {
            assert_ne!(a, b);
        }
    }
    // Without a script file, every argument is the program.
    let table = desktop()
        .with(160, 100, "/usr/bin/node", &["node", "-e", "run()"])
        .with(161, 160, HOST, &[HOST, "mcp"]);
    assert_eq!(of(&table, 161).full, "/usr/bin/node -e run()");
    assert_eq!(of(&table, 161).short, "node");
}

#[test]
fn an_orphan_or_an_unreadable_peer_is_known_by_its_connection_only() {
    let table = desktop().with(200, 1, HOST, &[HOST, "mcp"]);
    assert_eq!(
        of(&table, 200),
        Program::unknown(7),
        "re-parented to the first process"
    );
    assert_eq!(of(&table, 999), Program::unknown(7), "gone");
    assert_eq!(identify(&table, None, Path::new(HOST), 8), Program::unknown(8));
    assert!(!Program::unknown(8).known());
    // Windows keeps a dead parent's id, which a newer process may have taken.
    let table = desktop()
        .change(100, |p| p.started = Some(2_000))
        .with(200, 100, HOST, &[HOST, "mcp"])
        .change(200, |p| p.started = Some(1_000));
    assert_eq!(of(&table, 200), Program::unknown(7));
}

#[test]
fn a_host_replaced_while_it_runs_still_knows_its_proxy() {
    let table = desktop().with(200, 100, &format!("{HOST} (deleted)"), &[HOST, "mcp"]);
    assert_eq!(of(&table, 200).short, "claude-desktop");
    let upgraded = identify(&table, Some(200), Path::new(&format!("{HOST} (deleted)")), 1);
    assert_eq!(upgraded.short, "claude-desktop");
}

#[cfg(target_os = "linux")]
mod proc_fs {
    use super::super::linux::{parse_cmdline, parse_status, passwd_name, ProcFs};
    use super::*;

    #[test]
    fn status_cmdline_and_passwd_are_read() {
        let status = "Name:\tbash\nPPid:\t4242\nUid:\t1000\t1000\t1000\t1000\n";
        assert_eq!(parse_status(status), (Some(4242), Some("1000".into())));
        assert_eq!(parse_cmdline(b"node\0/a b/c.mjs\0"), ["node", "/a b/c.mjs"]);
        assert!(parse_cmdline(b"").is_empty());
        let passwd = "root:x:0:0:root:/root:/bin/bash\nada:x:1000:1000::/home/ada:/bin/sh\n";
        assert_eq!(passwd_name(passwd, "1000").as_deref(), Some("ada"));
        assert_eq!(passwd_name(passwd, "7"), None);
    }

    /// A shell started by this test is walked past to the test itself, read from the real `/proc`.
    #[test]
    fn a_real_shell_is_walked_past_to_the_program_that_started_it() {
        let mut shell = std::process::Command::new("sh")
            .args(["-c", "sleep 30; exit 0"])
            .spawn()
            .unwrap();
        let program = identify(
            &ProcFs,
            Some(shell.id()),
            Path::new("/nonexistent/waymark-host"),
            1,
        );
        let _ = shell.kill();
        let _ = shell.wait();
        let me = std::env::current_exe().unwrap();
        let ProgramKey::Known { exe, user, .. } = &program.key else {
            panic!("{program:?}")
        };
        assert_eq!(exe, &me);
        let uid = std::fs::read_to_string("/proc/self/status").unwrap();
        assert_eq!(user, &parse_status(&uid).1);
        assert!(program.user.is_some());
    }
}
