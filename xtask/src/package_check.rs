//! `./build.sh package-check`: the `.deb` on a fresh Debian 12. debootstrap makes a bookworm root in a
//! temporary folder; inside it the package is installed with apt (dependencies from the mirror),
//! registered, checked, reconfigured, removed and purged, and nothing of it may be left. Too slow for
//! every CI run (a few minutes, Debian's base downloaded once into target/debootstrap-cache), so a
//! command of its own; README.md has its output.
//!
//! Must not: change this machine outside that temporary root (it is unmounted and removed at the end,
//! and left in place, said so, only while something is still mounted in it).

use std::collections::BTreeSet;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use anyhow::{bail, Context as _, Result};

use crate::package::package;
use crate::shell::{cmd, have, is_root, output, probe, run_to_stderr, say, succeeds, tail};
use crate::tools::{var, Machine};

const CHROMIUM: &str = "/etc/chromium/native-messaging-hosts/io.waymark.host.json";
const CHROME: &str = "/etc/opt/chrome/native-messaging-hosts/io.waymark.host.json";
const EDGE: &str = "/etc/opt/edge/native-messaging-hosts/io.waymark.host.json";

/// The package installed, used and purged in a fresh bookworm root.
pub fn package_check(m: &Machine) -> Result<()> {
    if !is_root() {
        bail!("package-check needs root (debootstrap and chroot)");
    }
    package(m)?;
    if !have("debootstrap") {
        m.apt_install(&["debootstrap"])?;
    }
    let deb = std::fs::read_dir(m.root.join("dist/package"))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .find(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("waymark-host_"))
        })
        .context("no waymark-host_*.deb in dist/package")?;
    let mirror = debian_mirror()?;
    let cache = m.root.join("target/debootstrap-cache");
    let tmp = var("TMPDIR").map_or_else(|| PathBuf::from("/tmp"), PathBuf::from);
    let made = output(cmd("mktemp", ["-d"]).arg(tmp.join("waymark-bookworm.XXXXXX")))?;
    let root = Root {
        path: PathBuf::from(made.trim()),
    };
    // mktemp makes it 0700; a root file system is 0755 (apt's _apt user reads through it).
    run_to_stderr(cmd("chmod", ["0755"]).arg(&root.path))?;
    std::fs::create_dir_all(&cache)?;
    say("debootstrap bookworm into a temp dir (from the Debian mirror this machine's apt uses)");
    let log = std::fs::File::create(root.log())?;
    let mut debootstrap = cmd("debootstrap", ["--variant=minbase"]);
    debootstrap
        .arg(format!("--cache-dir={}", cache.display()))
        .arg("bookworm")
        .arg(&root.path)
        .arg(&mirror);
    if !debootstrap
        .stdout(log.try_clone()?)
        .stderr(log)
        .status()
        .is_ok_and(|s| s.success())
    {
        eprintln!("{}", tail(&root.log(), 20));
        bail!("debootstrap failed");
    }
    // What a running Debian has: /proc (the host finds its own path there) and a pty for apt's log.
    run_to_stderr(cmd("mount", ["-t", "proc", "proc"]).arg(root.path.join("proc")))?;
    succeeds(
        cmd(
            "mount",
            ["-t", "devpts", "-o", "newinstance,ptmxmode=0666", "devpts"],
        )
        .arg(root.path.join("dev/pts")),
    );
    if !succeeds(&mut root.run(&["apt-get", "update", "-q"])) {
        bail!("apt-get update failed in the root");
    }
    let before = root.snapshot()?;
    let pkg = format!("/tmp/{}", deb.file_name().unwrap_or_default().to_string_lossy());
    std::fs::copy(&deb, root.inside(&pkg))?;

    say(format!("1. preseeded (chromium), then apt install {pkg}"));
    root.feed(
        &["debconf-set-selections"],
        "waymark-host waymark-host/browsers multiselect chromium\n",
    )?;
    root.apt(&["install", &pkg])?;
    root.expect_manifests(&[CHROMIUM], "the preseeded install registered")?;
    run_to_stderr(&mut root.run(&["waymark-host", "--version"]))?;
    run_to_stderr(&mut root.run(&["cat", CHROMIUM]))?;
    let mode = output(&mut root.run(&["stat", "-c", "%a", "/var/lib/waymark/installed.toml"]))?;
    if mode.trim() != "600" {
        bail!("the record is not 0600");
    }
    say("   apt purge");
    root.apt(&["purge", "waymark-host"])?;
    root.expect_unchanged(&before)?;
    say("   nothing left: the root's files are as before the install");

    say("2. apt install without a terminal and without an answer: no browser is registered");
    root.apt(&["install", &pkg])?;
    root.expect_manifests(&[], "registered without being asked")?;
    say("   waymark-host install, not on a terminal");
    let refused = root
        .run(&["waymark-host", "install"])
        .stdout(Stdio::null())
        .output()?;
    if refused.status.success() {
        bail!("install chose browsers by itself");
    }
    std::io::stderr().write_all(&refused.stderr)?;
    say("   waymark-host install --system on a terminal, answering 2 (Chromium)");
    let on_terminal = format!(
        "chroot '{}' /usr/bin/env -i PATH=/usr/bin:/bin HOME=/root waymark-host install --system",
        root.path.display()
    );
    let said = feed(
        cmd("script", ["-qec", &on_terminal, "/dev/null"]).stderr(Stdio::inherit()),
        "2\n",
    )?;
    eprint!("{}", said.replace('\r', ""));
    root.expect_manifests(&[CHROMIUM], "the answer 2 registered")?;
    say("   dpkg-reconfigure, answering Google Chrome and Microsoft Edge (debconf's plain-text frontend)");
    let mut reconfigure = root.run(&[
        "env",
        "DEBIAN_FRONTEND=teletype",
        "dpkg-reconfigure",
        "waymark-host",
    ]);
    eprint!("{}", feed(reconfigure.stderr(Stdio::piped()), "1 3\n")?);
    root.expect_manifests(&[CHROME, EDGE], "reconfigure left")?;
    say("   waymark-host doctor (its LLM check fails here: no model server in the root)");
    let doctor = probe(&mut root.run(&["waymark-host", "doctor"])).unwrap_or_default();
    doctor
        .lines()
        .filter(|l| l.contains("manifest"))
        .for_each(|l| eprintln!("{l}"));
    say("   apt remove");
    root.apt(&["remove", "waymark-host"])?;
    let manifests = root.manifests()?;
    let record = root.inside("/var/lib/waymark");
    if !manifests.is_empty() || record.exists() || root.inside("/usr/bin/waymark-host").exists() {
        let kept = if record.exists() {
            record.display().to_string()
        } else {
            String::new()
        };
        bail!("apt remove left: {} {kept}", manifests.join(" "));
    }
    say("   apt purge");
    root.apt(&["purge", "waymark-host"])?;
    if !output(&mut root.run(&["debconf-show", "waymark-host"]))?.is_empty() {
        bail!("debconf still remembers waymark-host");
    }
    for entry in std::fs::read_dir(root.inside("/var/cache/debconf"))? {
        let path = entry?.path();
        let named = path.extension().is_some_and(|e| e == "dat")
            && String::from_utf8_lossy(&std::fs::read(&path)?).contains("waymark");
        if named {
            bail!("debconf's database still names waymark");
        }
    }
    root.expect_unchanged(&before)?;
    std::fs::remove_file(root.inside(&pkg))?;
    let mut find = Command::new("find");
    find.arg(&root.path)
        .args(["-mindepth", "1", "-xdev", "-iname", "*waymark*", "-print"]);
    let left = output(&mut find)?;
    if !left.trim().is_empty() {
        bail!("something named waymark is left: {left}");
    }
    say("   nothing left: the root's files are as before, no file is named waymark, debconf forgot it");
    say("package-check passed");
    Ok(())
}

/// Runs `command` with `input` on its stdin; what it wrote to stdout. An error if it fails.
fn feed(command: &mut Command, input: &str) -> Result<String> {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .context("could not start")?;
    child
        .stdin
        .take()
        .context("no stdin")?
        .write_all(input.as_bytes())?;
    let out = child.wait_with_output()?;
    if !out.status.success() {
        bail!("{command:?} failed ({})", out.status);
    }
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    Ok(text)
}

/// The mirror this machine's apt uses for Debian itself (WAYMARK_DEBIAN_MIRROR overrides it).
fn debian_mirror() -> Result<String> {
    if let Some(mirror) = var("WAYMARK_DEBIAN_MIRROR") {
        return Ok(mirror.to_string_lossy().into_owned());
    }
    let listed = |dir: &str, ending: &str| -> Vec<PathBuf> {
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.to_string_lossy().ends_with(ending))
            .collect();
        files.sort();
        files
    };
    // deb822 files name their mirrors on `URIs:` lines, one-line lists after `deb `.
    let deb822 = listed("/etc/apt/sources.list.d", ".sources")
        .into_iter()
        .map(|file| (file, "URIs:"));
    let one_line = std::iter::once(PathBuf::from("/etc/apt/sources.list"))
        .chain(listed("/etc/apt/sources.list.d", ".list"))
        .map(|file| (file, "deb "));
    deb822
        .chain(one_line)
        .find_map(|(file, prefix)| debian_uri(&std::fs::read_to_string(file).unwrap_or_default(), prefix))
        .context("no Debian mirror in this machine's apt sources: set WAYMARK_DEBIAN_MIRROR")
}

/// The first URI of Debian itself (not of debian-security) on a `prefix` line of `text`.
fn debian_uri(text: &str, prefix: &str) -> Option<String> {
    text.lines()
        .filter_map(|line| line.strip_prefix(prefix)?.split_whitespace().next())
        .find(|uri| uri.trim_end_matches('/').ends_with("/debian"))
        .map(str::to_owned)
}

/// The temporary bookworm root. Dropping it unmounts what was mounted there, then removes it, only
/// once nothing is mounted there any more.
struct Root {
    path: PathBuf,
}

impl Root {
    fn log(&self) -> PathBuf {
        PathBuf::from(format!("{}.log", self.path.display()))
    }

    /// `inside` (an absolute path in the root) as a path on this machine.
    fn inside(&self, inside: &str) -> PathBuf {
        self.path.join(inside.trim_start_matches('/'))
    }

    /// `args` run in the root, with a clean environment.
    fn run(&self, args: &[&str]) -> Command {
        let mut command = Command::new("chroot");
        command.arg(&self.path).args([
            "/usr/bin/env",
            "-i",
            "PATH=/usr/sbin:/usr/bin:/sbin:/bin",
            "HOME=/root",
            "LANG=C.UTF-8",
            "DEBIAN_FRONTEND=noninteractive",
        ]);
        command.args(args);
        command
    }

    /// `args` run in the root with `input` on stdin, their output shown.
    fn feed(&self, args: &[&str], input: &str) -> Result<()> {
        eprint!("{}", feed(self.run(args).stderr(Stdio::piped()), input)?);
        Ok(())
    }

    /// apt-get with `args` in the root; shows the lines about Waymark, or all of them if it fails.
    fn apt(&self, args: &[&str]) -> Result<()> {
        let out = self
            .run(&[&["apt-get", "-y", "-q"], args].concat())
            .stdin(Stdio::null())
            .output()?;
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        if !out.status.success() {
            eprint!("{said}");
            bail!("apt-get {} failed", args.join(" "));
        }
        let about = [
            "waymark",
            "registered",
            "recorded",
            "removed",
            "nothing",
            "no browser",
        ];
        for line in said.lines().filter(|l| !l.starts_with("W: ")) {
            if about.iter().any(|word| line.to_lowercase().contains(word)) {
                eprintln!("{line}");
            }
        }
        Ok(())
    }

    /// Every file and folder a check may find: all but the package manager's bookkeeping and logs.
    fn snapshot(&self) -> Result<BTreeSet<String>> {
        let mut find = self.run(&["find", "/", "-xdev", "("]);
        for skipped in [
            "/proc",
            "/sys",
            "/dev",
            "/tmp",
            "/var/log",
            "/var/cache",
            "/var/lib/dpkg",
        ] {
            find.args(["-path", skipped, "-o"]);
        }
        find.args(["-path", "/var/lib/apt", ")", "-prune", "-o", "-print"]);
        Ok(output(&mut find)?.lines().map(str::to_owned).collect())
    }

    /// Fails, saying what differs, unless the root's files are as in `before`.
    fn expect_unchanged(&self, before: &BTreeSet<String>) -> Result<()> {
        let after = self.snapshot()?;
        if &after != before {
            before.difference(&after).for_each(|gone| eprintln!("< {gone}"));
            after.difference(before).for_each(|added| eprintln!("> {added}"));
            bail!("the purge left something");
        }
        Ok(())
    }

    /// The host manifests registered system-wide, sorted.
    fn manifests(&self) -> Result<Vec<String>> {
        let found = output(&mut self.run(&["find", "/etc", "-name", "io.waymark.host.json"]))?;
        let mut found: Vec<String> = found.lines().map(str::to_owned).collect();
        found.sort();
        Ok(found)
    }

    /// Fails with `what` and the manifests found unless they are exactly `expected`.
    fn expect_manifests(&self, expected: &[&str], what: &str) -> Result<()> {
        let found = self.manifests()?;
        if found != expected {
            bail!("{what}: {}", found.join(" "));
        }
        Ok(())
    }
}

impl Drop for Root {
    fn drop(&mut self) {
        for mounted in ["dev/pts", "proc"] {
            succeeds(Command::new("umount").arg(self.path.join(mounted)));
        }
        let mounts = std::fs::read_to_string("/proc/mounts").unwrap_or_default();
        if mounts.contains(&format!(" {}/", self.path.display())) {
            say(format!(
                "left {} in place: something is still mounted in it",
                self.path.display()
            ));
        } else {
            let _ = std::fs::remove_dir_all(&self.path);
            let _ = std::fs::remove_file(self.log());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_debian_mirror_is_found_in_either_format_but_not_the_security_one() {
        let deb822 = "Types: deb\nURIs: http://deb.debian.org/debian-security\nTypes: deb\nURIs: http://deb.debian.org/debian\n";
        assert_eq!(
            debian_uri(deb822, "URIs:").as_deref(),
            Some("http://deb.debian.org/debian")
        );
        let list = "# deb http://old/debian\ndeb http://mirror.example/debian/ bookworm main\n";
        assert_eq!(
            debian_uri(list, "deb ").as_deref(),
            Some("http://mirror.example/debian/")
        );
        assert_eq!(
            debian_uri("deb http://archive.ubuntu.com/ubuntu noble main\n", "deb "),
            None
        );
    }
}
