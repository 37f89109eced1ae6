//! `./build.sh fresh-check [debian|ubuntu|all]`: the README's two set-up commands on a machine nobody
//! prepared. A pristine root (debootstrap's smallest variant, with the suites a normal installation
//! has: `root.rs`) gets a clean clone of this checkout's commit, and inside it, as root, with no
//! terminal and a clean environment, exactly `./build.sh install` and then `./build.sh test`; each
//! command's exit code and duration are printed, its whole output kept in `target/fresh-check/`.
//! Slow (the whole toolchain and every test's parts installed from nothing), so a command of its own;
//! README.md records its result.
//!
//! Must not: bring anything of this machine's into the root but the clone (no cache, no toolchain, no
//! bind mount), or test uncommitted changes without saying so.

use std::io::{BufRead as _, BufReader, Write as _};
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use anyhow::{bail, Context as _, Result};

use crate::root::{Distro, Root};
use crate::shell::{cmd, duration, have, is_root, output, run_to_stderr, say, tail};
use crate::tools::Machine;

/// The README's set-up commands, exactly as written there.
const COMMANDS: [&str; 2] = ["./build.sh install", "./build.sh test"];

/// One command's outcome in a root.
struct Outcome {
    command: &'static str,
    code: Option<i32>,
    took: Duration,
}

/// `./build.sh fresh-check`: the set-up commands in a pristine Debian 12 root (`ubuntu`: Ubuntu 24.04
/// LTS; `all`: both, one after the other).
pub fn fresh_check(m: &Machine, args: &[String]) -> Result<()> {
    let distros = match args.first().map(String::as_str) {
        None | Some("debian") => vec![Distro::Debian12],
        Some("ubuntu") => vec![Distro::Ubuntu2404],
        Some("all") => vec![Distro::Debian12, Distro::Ubuntu2404],
        Some(other) => bail!("fresh-check takes debian, ubuntu or all, not '{other}'"),
    };
    if !is_root() {
        bail!("fresh-check needs root (debootstrap and chroot)");
    }
    if !have("debootstrap") {
        m.apt_install(&["debootstrap"])?;
    }
    if distros.contains(&Distro::Ubuntu2404) {
        m.apt_install_missing(&["ubuntu-keyring"])?;
    }
    let commit = output(&mut cmd("git", ["rev-parse", "HEAD"]))?.trim().to_owned();
    if !output(&mut cmd("git", ["status", "--porcelain", "--untracked-files=no"]))?
        .trim()
        .is_empty()
    {
        say("the checkout has uncommitted changes: fresh-check tests the commit, without them");
    }
    let logs = m.target_dir.join("fresh-check");
    std::fs::create_dir_all(&logs)?;
    let mut failed = false;
    let mut report = String::new();
    for distro in distros {
        let outcomes = check(m, distro, &commit, &logs)?;
        report.push_str(&format!(
            "{} (debootstrap minbase; {}), commit {}:\n",
            distro.name(),
            match distro {
                Distro::Debian12 => "main, updates, security",
                Distro::Ubuntu2404 => "main, universe, updates, security",
            },
            &commit[..12.min(commit.len())]
        ));
        for outcome in &outcomes {
            failed |= outcome.code != Some(0);
            report.push_str(&format!(
                "  {:<20} {:<14} {}\n",
                outcome.command,
                match outcome.code {
                    Some(code) => format!("exit {code}"),
                    None => "killed".to_owned(),
                },
                duration(outcome.took)
            ));
        }
    }
    say("fresh-check:");
    eprint!("{report}");
    if failed {
        bail!(
            "a set-up command failed on a fresh machine (its output: {})",
            logs.display()
        );
    }
    Ok(())
}

/// The commands in one fresh root, until one fails.
fn check(m: &Machine, distro: Distro, commit: &str, logs: &Path) -> Result<Vec<Outcome>> {
    let root = Root::make(distro, &m.target_dir.join("debootstrap-cache"))?;
    let clone = root.inside("/root/waymark");
    say(format!(
        "a clean clone of {} into the root's /root/waymark",
        &commit[..12.min(commit.len())]
    ));
    run_to_stderr(
        cmd("git", ["clone", "--quiet", "--no-hardlinks"])
            .arg(&m.root)
            .arg(&clone),
    )?;
    run_to_stderr(
        cmd("git", ["-C"])
            .arg(&clone)
            .args(["checkout", "--quiet", "--detach", commit]),
    )?;
    let mut outcomes = Vec::new();
    for command in COMMANDS {
        let log = logs.join(format!(
            "{}-{}.log",
            match distro {
                Distro::Debian12 => "debian12",
                Distro::Ubuntu2404 => "ubuntu2404",
            },
            command.trim_start_matches("./build.sh ")
        ));
        say(format!(
            "in the root, as root, no terminal: cd ~/waymark && {command}"
        ));
        let outcome = run_in(&root, command, &log)?;
        let ok = outcome.code == Some(0);
        say(format!(
            "{command}: {} after {} (output: {})",
            match outcome.code {
                Some(code) => format!("exit {code}"),
                None => "killed".to_owned(),
            },
            duration(outcome.took),
            log.display()
        ));
        outcomes.push(outcome);
        if !ok {
            eprintln!("{}", tail(&log, 40));
            break;
        }
    }
    Ok(outcomes)
}

/// Runs `command` in the root's clone, its output kept in `log` and its `==>` steps shown as they come
/// with the minutes since it started.
fn run_in(root: &Root, command: &'static str, log: &Path) -> Result<Outcome> {
    let script = format!("cd /root/waymark && {command} 2>&1");
    let mut child = root
        .run(&["bash", "-c", &script])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .context("could not start chroot")?;
    let started = Instant::now();
    let mut kept = std::fs::File::create(log).with_context(|| format!("making {}", log.display()))?;
    let out = child.stdout.take().context("no output")?;
    for line in BufReader::new(out).lines() {
        let line = line.unwrap_or_default();
        writeln!(kept, "{line}")?;
        if line.starts_with("==> ") || line.starts_with("build.sh: ") {
            eprintln!("   [{}] {line}", duration(started.elapsed()));
        }
    }
    let status = child.wait()?;
    Ok(Outcome {
        command,
        code: status.code(),
        took: started.elapsed(),
    })
}
