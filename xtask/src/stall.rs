//! A test run that hangs is stopped and named instead of holding CI until its time limit: the
//! end-to-end runner's output is passed through line by line, and when nothing has come for
//! [`QUIET_LIMIT`] the runner and every process it started are killed, and the error names the test
//! that began last (a test that waits with no timeout, or a file whose last test left a process running,
//! so that the file never ends).
//!
//! Must not: change what the runner prints, or give up on a run that is slow but still reporting
//! (each test's start and end are output).

use std::io::{BufRead as _, BufReader, Write as _};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{bail, Context as _, Result};

use crate::shell::shown;

/// How long the runner may print nothing. The slowest single test (a real application's page under a
/// busy machine) reports within a few minutes.
pub const QUIET_LIMIT: Duration = Duration::from_secs(10 * 60);

/// What the output has said so far: when it last said anything, and the test that began last.
struct Heard {
    at: Instant,
    test: String,
}

/// Runs `command` (its stdout passed through), failing if it fails or stays silent past `quiet_limit`.
pub fn run_watched(command: &mut Command, quiet_limit: Duration) -> Result<()> {
    let shown = shown(command);
    let mut child = command
        .stdout(Stdio::piped())
        .spawn()
        .with_context(|| format!("could not start `{shown}`"))?;
    let stdout = child
        .stdout
        .take()
        .context("the runner's output cannot be read")?;
    let heard = Arc::new(Mutex::new(Heard {
        at: Instant::now(),
        test: String::new(),
    }));
    let reader = {
        let heard = Arc::clone(&heard);
        std::thread::spawn(move || {
            let mut out = std::io::stdout();
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = writeln!(out, "{line}");
                if let Ok(mut heard) = heard.lock() {
                    heard.at = Instant::now();
                    if let Some(test) = line.trim_start().strip_prefix("# Subtest: ") {
                        test.clone_into(&mut heard.test);
                    }
                }
            }
        })
    };
    loop {
        if let Some(status) = child.try_wait()? {
            let _ = reader.join();
            if !status.success() {
                bail!("`{shown}` failed ({status})");
            }
            return Ok(());
        }
        let (quiet, test) = match heard.lock() {
            Ok(heard) => (heard.at.elapsed(), heard.test.clone()),
            Err(_) => (Duration::ZERO, String::new()),
        };
        if quiet > quiet_limit {
            for pid in descendants(child.id()) {
                let _ = Command::new("kill").args(["-KILL", &pid.to_string()]).status();
            }
            let _ = child.kill();
            let _ = child.wait();
            bail!(
                "the end-to-end tests said nothing for {} minutes, so they were stopped with every process \
                 they started; the test begun last was '{test}': it waits with no timeout, or its file \
                 left something running (a client, a server, a browser) after its last test",
                quiet_limit.as_secs() / 60
            );
        }
        std::thread::sleep(Duration::from_secs(1));
    }
}

/// Every process below `root` (from /proc, so Linux only; empty where there is none).
fn descendants(root: u32) -> Vec<u32> {
    let parents: Vec<(u32, u32)> = std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .filter_map(|entry| {
            let pid: u32 = entry.ok()?.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            // The parent is the second field after the command name, which is in parentheses and may
            // hold spaces.
            let parent = stat.rsplit_once(')')?.1.split_whitespace().nth(1)?.parse().ok()?;
            Some((pid, parent))
        })
        .collect();
    let mut found = vec![root];
    let mut next = 0;
    while next < found.len() {
        let parent = found[next];
        found.extend(parents.iter().filter(|(_, p)| *p == parent).map(|(pid, _)| *pid));
        next += 1;
    }
    found.remove(0);
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Command {
        let mut command = Command::new("sh");
        command.args(["-c", script]);
        command
    }

    #[test]
    fn a_run_that_ends_passes_or_fails_by_its_status() {
        assert!(run_watched(&mut sh("echo ok 1"), Duration::from_secs(5)).is_ok());
        assert!(run_watched(&mut sh("exit 3"), Duration::from_secs(5)).is_err());
    }

    #[test]
    fn a_silent_run_is_stopped_with_what_it_started_and_names_its_last_test() {
        let started = Instant::now();
        let error = run_watched(
            &mut sh("echo '# Subtest: waits for ever'; sleep 300 & echo $! > /dev/null; wait"),
            Duration::from_secs(2),
        )
        .expect_err("a silent run fails");
        assert!(started.elapsed() < Duration::from_secs(60));
        assert!(error.to_string().contains("'waits for ever'"), "{error}");
    }
}
