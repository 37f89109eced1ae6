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
use std::process::{Command, Stdio};

use anyhow::{bail, Context as _, Result};

use crate::package::package;
use crate::root::{Distro, Root};
use crate::shell::{cmd, have, is_root, output, probe, run_to_stderr, say};
use crate::tools::Machine;

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
    let root = Root::make(Distro::Debian12, &m.root.join("target/debootstrap-cache"))?;
    // The CA certificates the package depends on are in almost every Debian, and once there apt keeps
    // them (apt itself recommends them), so purging Waymark does not take them away: they are put in
    // first, and "nothing left" means nothing of Waymark's.
    root.apt(&["install", "--no-install-recommends", "ca-certificates"])?;
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
    // The extension a user loads unpacked beside it: whole, and with the key that gives it the id the
    // host allows.
    let shipped = root.inside("/usr/share/waymark-host/extension");
    for file in [
        "manifest.json",
        "sidepanel.html",
        "pkg/content_bg.wasm",
        "pkg/extension_bg.wasm",
    ] {
        if !shipped.join(file).is_file() {
            bail!("the package has no {file} in /usr/share/waymark-host/extension");
        }
    }
    // The id a browser gives an unpacked extension is the first 32 hex digits of the SHA-256 of its
    // key, written with the letters a–p; worked out in the root with its own tools, it must be the id
    // the registered host allows, or the user's "Load unpacked" meets a host that refuses it.
    let id = output(&mut root.run(&[
        "sh",
        "-c",
        "key=$(sed -n 's/.*\"key\": *\"\\([^\"]*\\)\".*/\\1/p' /usr/share/waymark-host/extension/manifest.json) \
         && [ -n \"$key\" ] && printf %s \"$key\" | base64 -d | sha256sum | cut -c1-32 | tr 0-9a-f a-p || true",
    ]))?;
    let id = id.trim();
    if id.len() != 32 {
        bail!("the packaged extension has no key, so its id would not be the one the host allows");
    }
    let registered = std::fs::read_to_string(root.inside(CHROMIUM))?;
    if !registered.contains(&format!("chrome-extension://{id}/")) {
        bail!("the packaged extension's id {id} is not among the origins the registered host allows:\n{registered}");
    }
    say(format!(
        "   the unpacked extension is in /usr/share/waymark-host/extension; its key gives it the id {id}, which the host allows"
    ));
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
    let said = feed(reconfigure.stderr(Stdio::piped()), "1 3\n")?;
    eprint!("{said}");
    // What README advises for a screen reader must work on a minimal system without a Perl error.
    if said.contains("Can't locate") || said.contains("falling back to frontend") {
        bail!("the plain-text frontend complained");
    }
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

/// What package-check does in a root, besides running commands there.
trait PackageRoot {
    fn feed(&self, args: &[&str], input: &str) -> Result<()>;
    fn apt(&self, args: &[&str]) -> Result<()>;
    fn expect_unchanged(&self, before: &BTreeSet<String>) -> Result<()>;
    fn manifests(&self) -> Result<Vec<String>>;
    fn expect_manifests(&self, expected: &[&str], what: &str) -> Result<()>;
}

impl PackageRoot for Root {
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
