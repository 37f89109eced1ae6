//! A fresh Debian-family root in a temporary folder, made by debootstrap from the mirror this machine's
//! apt uses, for the checks that need a machine nobody prepared: `package-check` (the `.deb` installed
//! and purged) and `fresh-check` (the README's two commands). Commands run in it by chroot with a clean
//! environment; dropping it stops what still runs there, unmounts and removes it.
//!
//! Must not: change this machine outside the root (nothing of this machine's is bind-mounted into it;
//! `/proc`, `/sys`, `/dev/pts` and `/dev/shm` are mounted fresh), bring into it anything of this
//! machine's but how it reaches the network (DNS, added CA certificates, proxy variables), or remove a
//! root while something is still mounted in it (it is left in place and said so).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context as _, Result};

use crate::shell::{cmd, output, run_to_stderr, say, succeeds, tail};
use crate::tools::var;

/// Which system the root is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Distro {
    /// Debian 12 (bookworm), with the suites a normal installation has: main, updates, security.
    Debian12,
    /// Ubuntu 24.04 LTS (noble), with main, universe, updates and security.
    Ubuntu2404,
}

impl Distro {
    fn codename(self) -> &'static str {
        match self {
            Distro::Debian12 => "bookworm",
            Distro::Ubuntu2404 => "noble",
        }
    }

    /// The words people know it by.
    pub fn name(self) -> &'static str {
        match self {
            Distro::Debian12 => "Debian 12",
            Distro::Ubuntu2404 => "Ubuntu 24.04 LTS",
        }
    }

    /// The root's `/etc/apt/sources.list`, from its mirror.
    fn sources(self, mirror: &str) -> String {
        let mirror = mirror.trim_end_matches('/');
        match self {
            Distro::Debian12 => {
                let security = security_mirror();
                let security = security.trim_end_matches('/');
                format!(
                    "deb {mirror} bookworm main\ndeb {mirror} bookworm-updates main\n\
                     deb {security} bookworm-security main\n"
                )
            }
            Distro::Ubuntu2404 => {
                let parts = "main universe";
                format!(
                    "deb {mirror} noble {parts}\ndeb {mirror} noble-updates {parts}\n\
                     deb {mirror} noble-security {parts}\n"
                )
            }
        }
    }

    /// Its mirror: the one this machine's apt uses for Debian (WAYMARK_DEBIAN_MIRROR overrides it), or
    /// Ubuntu's archive (WAYMARK_UBUNTU_MIRROR).
    fn mirror(self) -> Result<String> {
        match self {
            Distro::Debian12 => debian_mirror(),
            Distro::Ubuntu2404 => Ok(var("WAYMARK_UBUNTU_MIRROR").map_or_else(
                || "http://archive.ubuntu.com/ubuntu".to_owned(),
                |m| m.to_string_lossy().into_owned(),
            )),
        }
    }
}

/// The temporary root. Dropping it stops its processes, unmounts what was mounted there, then removes
/// it, only once nothing is mounted there any more.
pub struct Root {
    pub path: PathBuf,
    mounted: Vec<PathBuf>,
}

impl Root {
    /// A new `distro` root (`minbase`: what debootstrap's smallest variant has, no more), its packages
    /// cached in `cache` across runs, with `/proc` and a pty; `apt-get update` run in it.
    pub fn make(distro: Distro, cache: &Path) -> Result<Root> {
        let mirror = distro.mirror()?;
        let tmp = var("TMPDIR").map_or_else(|| PathBuf::from("/tmp"), PathBuf::from);
        let made =
            output(cmd("mktemp", ["-d"]).arg(tmp.join(format!("waymark-{}.XXXXXX", distro.codename()))))?;
        let mut root = Root {
            path: PathBuf::from(made.trim()),
            mounted: Vec::new(),
        };
        // mktemp makes it 0700; a root file system is 0755 (apt's _apt user reads through it).
        run_to_stderr(cmd("chmod", ["0755"]).arg(&root.path))?;
        std::fs::create_dir_all(cache)?;
        say(format!(
            "debootstrap {} ({}) into a temp folder, from {mirror}",
            distro.name(),
            distro.codename()
        ));
        let log = std::fs::File::create(root.log())?;
        let mut debootstrap = cmd("debootstrap", ["--variant=minbase"]);
        debootstrap
            .arg(format!("--cache-dir={}", cache.display()))
            .arg(distro.codename())
            .arg(&root.path)
            .arg(&mirror);
        if distro == Distro::Ubuntu2404 {
            // Debian's debootstrap checks Ubuntu's signatures only with Ubuntu's keyring installed.
            debootstrap.arg("/usr/share/debootstrap/scripts/gutsy");
            if !Path::new("/usr/share/keyrings/ubuntu-archive-keyring.gpg").is_file() {
                debootstrap.arg("--no-check-gpg");
            }
        }
        if !debootstrap
            .stdout(log.try_clone()?)
            .stderr(log)
            .status()
            .is_ok_and(|s| s.success())
        {
            eprintln!("{}", tail(&root.log(), 20));
            bail!("debootstrap failed");
        }
        std::fs::write(root.inside("/etc/apt/sources.list"), distro.sources(&mirror))?;
        std::fs::copy("/etc/resolv.conf", root.inside("/etc/resolv.conf")).ok();
        root.trust_this_machines_network()?;
        // What a running system has: /proc (the host finds its own path there), /sys, a pty for apt's
        // log, and shared memory (Chromium's renderers need it). Fresh mounts, nothing of this machine's.
        root.mount(&["-t", "proc", "proc"], "/proc")?;
        root.mount(&["-t", "sysfs", "-o", "ro", "sysfs"], "/sys")?;
        root.mount(
            &["-t", "devpts", "-o", "newinstance,ptmxmode=0666", "devpts"],
            "/dev/pts",
        )?;
        std::fs::create_dir_all(root.inside("/dev/shm"))?;
        root.mount(&["-t", "tmpfs", "-o", "mode=1777", "tmpfs"], "/dev/shm")?;
        if !succeeds(&mut root.run(&["apt-get", "update", "-q"])) {
            bail!("apt-get update failed in the root");
        }
        Ok(root)
    }

    /// The certificate authorities this machine's administrator added (a proxy's, a company's: in
    /// `/usr/local/share/ca-certificates`), which its network needs for https: part of the machine,
    /// not of preparing it. The root trusts them once its `ca-certificates` package is installed, as
    /// that package's trigger reads the same folder.
    fn trust_this_machines_network(&self) -> Result<()> {
        let ours = Path::new("/usr/local/share/ca-certificates");
        let Ok(entries) = std::fs::read_dir(ours) else {
            return Ok(());
        };
        let theirs = self.inside("/usr/local/share/ca-certificates");
        std::fs::create_dir_all(&theirs)?;
        for entry in entries.flatten() {
            if entry.path().extension().is_some_and(|e| e == "crt") {
                std::fs::copy(entry.path(), theirs.join(entry.file_name()))?;
            }
        }
        Ok(())
    }

    fn mount(&mut self, args: &[&str], at: &str) -> Result<()> {
        let target = self.inside(at);
        run_to_stderr(cmd("mount", args).arg(&target))?;
        self.mounted.push(target);
        Ok(())
    }

    /// debootstrap's own log, beside the root.
    fn log(&self) -> PathBuf {
        PathBuf::from(format!("{}.log", self.path.display()))
    }

    /// `inside` (an absolute path in the root) as a path on this machine.
    pub fn inside(&self, inside: &str) -> PathBuf {
        self.path.join(inside.trim_start_matches('/'))
    }

    /// `args` run in the root as root, with a clean environment but for how this machine reaches the
    /// network (its proxy and certificate variables, which a new machine of its kind has too).
    pub fn run(&self, args: &[&str]) -> Command {
        let mut command = Command::new("chroot");
        command.arg(&self.path).args([
            "/usr/bin/env",
            "-i",
            "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
            "HOME=/root",
            "LANG=C.UTF-8",
            "DEBIAN_FRONTEND=noninteractive",
        ]);
        command.args(network_environment());
        command.args(args);
        command
    }

    /// Every file and folder a check may find: all but the package manager's bookkeeping and logs.
    pub fn snapshot(&self) -> Result<BTreeSet<String>> {
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

    /// Stops every process whose root is this one (a database or browser a test left running).
    fn stop_processes(&self) {
        let Ok(ours) = std::fs::canonicalize(&self.path) else {
            return;
        };
        let Ok(processes) = std::fs::read_dir("/proc") else {
            return;
        };
        for process in processes.flatten() {
            let pid = process.file_name().to_string_lossy().into_owned();
            if !pid.bytes().all(|b| b.is_ascii_digit()) {
                continue;
            }
            if std::fs::read_link(process.path().join("root")).is_ok_and(|root| root == ours) {
                succeeds(&mut cmd("kill", ["-KILL", &pid]));
            }
        }
    }
}

impl Drop for Root {
    fn drop(&mut self) {
        self.stop_processes();
        for mounted in self.mounted.iter().rev() {
            if !succeeds(Command::new("umount").arg(mounted)) {
                succeeds(Command::new("umount").arg("-l").arg(mounted));
            }
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

/// This machine's network settings as `NAME=value` words: proxies and where certificates are.
fn network_environment() -> Vec<String> {
    std::env::vars()
        .filter(|(name, _)| {
            let upper = name.to_uppercase();
            upper.ends_with("_PROXY")
                || upper.starts_with("SSL_CERT_")
                || upper.ends_with("_CA_BUNDLE")
                || upper.ends_with("_CA_CERTS")
                || upper == "NODE_EXTRA_CA_CERTS"
                || upper == "PIP_CERT"
                || upper == "GIT_SSL_CAINFO"
        })
        .map(|(name, value)| format!("{name}={value}"))
        .collect()
}

/// The mirror this machine's apt uses for Debian itself (WAYMARK_DEBIAN_MIRROR overrides it).
fn debian_mirror() -> Result<String> {
    if let Some(mirror) = var("WAYMARK_DEBIAN_MIRROR") {
        return Ok(mirror.to_string_lossy().into_owned());
    }
    apt_sources()
        .iter()
        .find_map(|(text, prefix)| debian_uri(text, prefix))
        .context("no Debian mirror in this machine's apt sources: set WAYMARK_DEBIAN_MIRROR")
}

/// This machine's apt sources, each with the prefix its lines name mirrors after: deb822 files on
/// `URIs:` lines, one-line lists after `deb `.
fn apt_sources() -> Vec<(String, &'static str)> {
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
    let deb822 = listed("/etc/apt/sources.list.d", ".sources")
        .into_iter()
        .map(|file| (file, "URIs:"));
    let one_line = std::iter::once(PathBuf::from("/etc/apt/sources.list"))
        .chain(listed("/etc/apt/sources.list.d", ".list"))
        .map(|file| (file, "deb "));
    deb822
        .chain(one_line)
        .map(|(file, prefix)| (std::fs::read_to_string(file).unwrap_or_default(), prefix))
        .collect()
}

/// Where Debian's security updates come from: the machine's apt sources' `debian-security` mirror, else
/// Debian's own.
fn security_mirror() -> String {
    apt_sources()
        .iter()
        .find_map(|(text, prefix)| {
            text.lines()
                .filter_map(|line| line.strip_prefix(*prefix)?.split_whitespace().next())
                .find(|uri| uri.trim_end_matches('/').ends_with("/debian-security"))
                .map(str::to_owned)
        })
        .unwrap_or_else(|| "http://deb.debian.org/debian-security".to_owned())
}

/// The first URI of Debian itself (not of debian-security) on a `prefix` line of `text`.
fn debian_uri(text: &str, prefix: &str) -> Option<String> {
    text.lines()
        .filter_map(|line| line.strip_prefix(prefix)?.split_whitespace().next())
        .find(|uri| uri.trim_end_matches('/').ends_with("/debian"))
        .map(str::to_owned)
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

    #[test]
    fn a_debian_root_has_the_suites_a_normal_installation_has() {
        let sources = Distro::Debian12.sources("http://deb.debian.org/debian/");
        assert!(sources.starts_with(
            "deb http://deb.debian.org/debian bookworm main\n\
             deb http://deb.debian.org/debian bookworm-updates main\n\
             deb "
        ));
        assert!(
            sources.ends_with("/debian-security bookworm-security main\n"),
            "{sources}"
        );
        assert!(Distro::Ubuntu2404
            .sources("http://archive.ubuntu.com/ubuntu")
            .contains("noble-security main universe"));
    }
}
