//! The machine a command runs on: where the build writes, which cargo builds, and the tools each
//! command needs — found where they are, installed where they are missing (through apt on Debian
//! and Ubuntu, through cargo for the pinned `wasm-bindgen-cli`), each looked for once per run.
//!
//! Must not: install anything when `WAYMARK_NO_INSTALL` is set (it names what is missing instead),
//! install outside apt and cargo, or let a check go unrun because its tool is missing: the lint tools
//! are required, never skipped.

use std::cell::{Cell, OnceCell};
use std::ffi::OsString;
use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context as _, Result};

use crate::shell::{cmd, have, is_executable, is_root, probe, run_to_stderr, say, succeeds, which};

/// The target the two wasm modules are built for.
pub const WASM_TARGET: &str = "wasm32-unknown-unknown";

/// How the wasm modules are compiled here.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum WasmToolchain {
    /// rustup's wasm target (the first choice).
    Rustup,
    /// Debian's Rust for web builds, compiling std for wasm from source (where rustup cannot
    /// download the target, or `WAYMARK_WASM_TOOLCHAIN=debian` asks for it).
    Debian,
}

/// This run's machine: its paths and the tools found so far.
pub struct Machine {
    /// The repository's root (the working directory of every command).
    pub root: PathBuf,
    /// Where cargo builds: its default `target/`, or `CARGO_TARGET_DIR`.
    pub target_dir: PathBuf,
    /// The unpacked extension: `dist/extension/`, or `WAYMARK_DIST`.
    pub dist: PathBuf,
    /// The cargo that runs this xtask (rustup's, or Debian's chosen by build.sh).
    cargo: OsString,
    apt_updated: Cell<bool>,
    wasm: OnceCell<WasmToolchain>,
    wasm_bindgen: OnceCell<()>,
    chromium: OnceCell<PathBuf>,
    node: OnceCell<()>,
}

/// A variable of the environment, unless unset or empty (as bash's `${NAME:-}` tests it).
pub fn var(name: &str) -> Option<OsString> {
    std::env::var_os(name).filter(|v| !v.is_empty())
}

impl Machine {
    /// The machine as the environment describes it, with the repository root as working directory.
    pub fn new() -> Result<Self> {
        // The checkout we are run in (build.sh enters its root; `cargo xtask` may be run from any
        // folder inside it). Not the folder this binary was compiled in: checkouts that share a
        // CARGO_TARGET_DIR share this binary too.
        let here = std::env::current_dir().context("reading the current folder")?;
        let root = here
            .ancestors()
            .find(|dir| dir.join("xtask/Cargo.toml").is_file() && dir.join("build.sh").is_file())
            .with_context(|| format!("{} is not inside a Waymark checkout", here.display()))?
            .to_path_buf();
        std::env::set_current_dir(&root).with_context(|| format!("entering {}", root.display()))?;
        let target_dir = var("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from);
        let dist = var("WAYMARK_DIST").map_or_else(|| root.join("dist/extension"), PathBuf::from);
        // cargo tells the programs it runs which cargo it is; build.sh may have chosen Debian's.
        let cargo = var("CARGO").unwrap_or_else(|| "cargo".into());
        Ok(Self {
            root,
            target_dir,
            dist,
            cargo,
            apt_updated: Cell::new(false),
            wasm: OnceCell::new(),
            wasm_bindgen: OnceCell::new(),
            chromium: OnceCell::new(),
            node: OnceCell::new(),
        })
    }

    /// A cargo command with `args`.
    pub fn cargo<I, S>(&self, args: I) -> Command
    where
        I: IntoIterator<Item = S>,
        S: AsRef<std::ffi::OsStr>,
    {
        cmd(&self.cargo, args)
    }

    /// Installs Debian packages, or says why it cannot.
    pub fn apt_install(&self, packages: &[&str]) -> Result<()> {
        let list = packages.join(" ");
        if var("WAYMARK_NO_INSTALL").is_some() {
            bail!("missing: {list} (WAYMARK_NO_INSTALL is set, so not installing)");
        }
        if !have("apt-get") {
            bail!("missing: {list}; this is not a Debian/Ubuntu machine: install the equivalents yourself");
        }
        let apt = |args: &[&str]| {
            let mut command = if is_root() {
                cmd("apt-get", args)
            } else {
                cmd("sudo", [&["apt-get"], args].concat())
            };
            command.env("DEBIAN_FRONTEND", "noninteractive");
            command
        };
        if !is_root() && !have("sudo") {
            bail!("missing: {list}; run as root or install them: apt-get install {list}");
        }
        if !self.apt_updated.get() {
            say("apt-get update");
            run_to_stderr(&mut apt(&["update", "-q"]))?;
            self.apt_updated.set(true);
        }
        say(format!("apt-get install {list}"));
        run_to_stderr(&mut apt(&[
            &["install", "-y", "-q", "--no-install-recommends"],
            packages,
        ]
        .concat()))
    }

    /// Installs those of `packages` dpkg does not have installed.
    pub fn apt_install_missing(&self, packages: &[&str]) -> Result<()> {
        let missing: Vec<&str> = packages
            .iter()
            .copied()
            .filter(|p| {
                probe(&mut cmd("dpkg-query", ["-W", "-f=${Status}", p]))
                    .is_none_or(|status| !status.contains("install ok installed"))
            })
            .collect();
        if missing.is_empty() {
            return Ok(());
        }
        self.apt_install(&missing)
    }

    /// The wasm toolchain: rustup's target, added if missing; where rustup cannot download it,
    /// Debian's Rust for web builds.
    pub fn wasm_toolchain(&self) -> Result<WasmToolchain> {
        if let Some(found) = self.wasm.get() {
            return Ok(*found);
        }
        let found = self.find_wasm_toolchain()?;
        Ok(*self.wasm.get_or_init(|| found))
    }

    fn find_wasm_toolchain(&self) -> Result<WasmToolchain> {
        // WAYMARK_WASM_TOOLCHAIN=debian forces the fallback (to check it on a machine that has rustup).
        if have("rustup") && var("WAYMARK_WASM_TOOLCHAIN").is_none_or(|v| v != "debian") {
            if rustup_has_target(WASM_TARGET) {
                return Ok(WasmToolchain::Rustup);
            }
            say(format!("rustup target add {WASM_TARGET}"));
            if run_to_stderr(&mut cmd(
                "timeout",
                ["90", "rustup", "target", "add", WASM_TARGET],
            ))
            .is_ok()
            {
                return Ok(WasmToolchain::Rustup);
            }
            say("rustup could not fetch the wasm target; using Debian's Rust for web builds instead");
        }
        let debian_ready = is_executable(Path::new("/usr/bin/rustc"))
            && probe(&mut cmd("/usr/bin/rustc", ["--print", "sysroot"])).is_some_and(|sysroot| {
                Path::new(sysroot.trim())
                    .join("lib/rustlib/src/rust/library")
                    .is_dir()
            })
            && have("wasm-ld-19");
        if !debian_ready {
            self.apt_install(&["rustc-web", "cargo-web", "rust-web-src", "lld-19"])?;
        }
        Ok(WasmToolchain::Debian)
    }

    /// `wasm-bindgen` at exactly the version Cargo.toml pins (the generated glue must match the crate).
    pub fn ensure_wasm_bindgen(&self) -> Result<()> {
        if self.wasm_bindgen.get().is_some() {
            return Ok(());
        }
        let manifest = std::fs::read_to_string(self.root.join("Cargo.toml")).context("reading Cargo.toml")?;
        let pinned = wasm_bindgen_pin(&manifest)?;
        let installed = probe(&mut cmd("wasm-bindgen", ["--version"]));
        if installed.as_deref().and_then(|v| v.split_whitespace().nth(1)) != Some(pinned.as_str()) {
            say(format!(
                "installing wasm-bindgen-cli {pinned} with cargo (once: it compiles, about 8 minutes on 2 cores)"
            ));
            // Not --locked: the registry here lacks one of its locked dependencies.
            run_to_stderr(&mut self.cargo(["install", "wasm-bindgen-cli", "--version", &pinned, "--force"]))?;
        }
        let _ = self.wasm_bindgen.set(());
        Ok(())
    }

    /// Chromium itself: branded Chrome and Edge ignore --load-extension, so tests and the demo need it.
    pub fn chromium(&self) -> Result<PathBuf> {
        if let Some(found) = self.chromium.get() {
            return Ok(found.clone());
        }
        let candidates = [
            var("WAYMARK_CHROMIUM"),
            Some("chromium".into()),
            Some("chromium-browser".into()),
        ];
        let found = match candidates.into_iter().flatten().find_map(which) {
            Some(found) => found,
            None => {
                self.apt_install(&["chromium"])?;
                which("chromium").context("apt installed chromium, but it is not on PATH")?
            }
        };
        Ok(self.chromium.get_or_init(|| found).clone())
    }

    /// Chromium's translations, where it is Debian's: without them it speaks only English, and the
    /// tests run Waymark in Russian too (tests/e2e/language.test.mjs), which needs `chrome.i18n` to
    /// say `ru`.
    pub fn ensure_chromium_languages(&self) -> Result<()> {
        if self.chromium()? != Path::new("/usr/bin/chromium")
            || Path::new("/usr/lib/chromium/locales/ru.pak").is_file()
        {
            return Ok(());
        }
        self.apt_install(&["chromium-l10n"])
    }

    /// Node.js 18 or later with npm, and the end-to-end tests' packages as their lock file pins them.
    pub fn ensure_node(&self) -> Result<()> {
        if self.node.get().is_some() {
            return Ok(());
        }
        let major = probe(&mut cmd("node", ["-p", "process.versions.node.split('.')[0]"]))
            .and_then(|v| v.trim().parse::<u32>().ok())
            .unwrap_or(0);
        if major < 18 {
            self.apt_install(&["nodejs", "npm"])?;
        }
        if !have("npm") {
            self.apt_install(&["npm"])?;
        }
        let lock = self.root.join("tests/e2e/package-lock.json");
        let stamp = self.root.join("tests/e2e/node_modules/.waymark-lock");
        let read = |path: &Path| std::fs::read(path).ok();
        if read(&stamp).is_none() || read(&stamp) != read(&lock) {
            say("npm ci (tests/e2e)");
            let mut npm = cmd("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"]);
            run_to_stderr(npm.current_dir(self.root.join("tests/e2e")))?;
            std::fs::copy(&lock, &stamp).context("recording the installed lock file")?;
        }
        let _ = self.node.set(());
        Ok(())
    }

    /// Real web applications nobody here wrote, for tests/e2e/real_apps*.test.mjs: WordPress,
    /// MediaWiki, Adminer and Roundcube from Debian's packages, with PHP's command-line server,
    /// MariaDB's server binaries, Dovecot and a Python SMTP server (no service of their own), and
    /// JupyterLab from PyPI in a venv under target/ ([`Machine::real_apps_venv`]). The tests serve
    /// them themselves, from a temporary folder, on 127.0.0.1 (tests/e2e/lib/real_apps.mjs,
    /// more_apps.mjs): no system web server, database, mail server or configuration is used or
    /// changed. Installs only what is missing.
    pub fn ensure_real_apps(&self) -> Result<()> {
        self.apt_install_missing(&[
            "php-cli",
            "php-mysql",
            "php-sqlite3",
            "php-intl",
            "php-mbstring",
            "php-xml",
            "mariadb-server-core",
            "mariadb-client-core",
            "wordpress",
            "wordpress-theme-twentytwentythree",
            "mediawiki",
            "adminer",
            "roundcube-core",
            "roundcube-sqlite3",
            "dovecot-imapd",
            "python3-aiosmtpd",
            "python3-venv",
        ])?;
        self.ensure_jupyterlab()
    }

    /// Where JupyterLab's venv is (the end-to-end tests read it from `WAYMARK_REAL_APPS_VENV`).
    pub fn real_apps_venv(&self) -> PathBuf {
        self.target_dir.join("real-apps-venv")
    }

    /// JupyterLab at the versions [`JUPYTER_PINS`] names, in its venv: installed once, reused while
    /// the pins are the same.
    fn ensure_jupyterlab(&self) -> Result<()> {
        let venv = self.real_apps_venv();
        let pins_file = venv.join(".waymark-pins");
        let wanted = JUPYTER_PINS.map(|pin| format!("{pin}\n")).concat();
        if std::fs::read_to_string(&pins_file).ok().as_deref() == Some(wanted.as_str()) {
            return Ok(());
        }
        if var("WAYMARK_NO_INSTALL").is_some() {
            bail!(
                "missing: JupyterLab in {} (WAYMARK_NO_INSTALL is set, so not installing)",
                venv.display()
            );
        }
        say(format!(
            "installing JupyterLab into {} (once, about 30 seconds)",
            venv.display()
        ));
        let python = venv.join("bin/python");
        if !python.is_file() {
            // Debian's Python, whatever else is on PATH: the one python3-venv was installed for.
            run_to_stderr(cmd("/usr/bin/python3", ["-m", "venv"]).arg(&venv))?;
        }
        let mut pip = cmd(&python, ["-m", "pip", "install", "--quiet"]);
        run_to_stderr(pip.args(JUPYTER_PINS))?;
        std::fs::write(&pins_file, &wanted).context("recording the installed pins")
    }

    /// A desktop with a real screen reader for tests/e2e/screen-reader: Xvfb, D-Bus and the
    /// accessibility bus, PulseAudio (a sink nobody hears), a window manager, Speech Dispatcher with
    /// espeak-ng, Orca, and xdotool for real key presses.
    pub fn ensure_orca(&self) -> Result<()> {
        self.apt_install_missing(&[
            "xvfb",
            "xdotool",
            "dbus-x11",
            "at-spi2-core",
            "orca",
            "speech-dispatcher",
            "speech-dispatcher-espeak-ng",
            "espeak-ng",
            "python3-pyatspi",
            "python3-speechd",
            "x11-utils",
            "dconf-cli",
            "openbox",
            "pulseaudio",
            "pulseaudio-utils",
        ])
    }

    /// rustfmt and clippy, which the test never skips: where they cannot run, it fails. rustup
    /// installs them from rust-toolchain.toml; Debian's Rust comes with them (build.sh installs it so).
    pub fn ensure_lint_tools(&self) -> Result<()> {
        let works = |tool: &str| succeeds(&mut self.cargo([tool, "--version"]));
        if !(works("fmt") && works("clippy")) && have("rustup") {
            say("rustup component add rustfmt clippy");
            // Its failure is reported below, as the tool that is still missing.
            let _ = run_to_stderr(&mut cmd("rustup", ["component", "add", "rustfmt", "clippy"]));
        }
        if !works("fmt") {
            bail!("rustfmt is missing, so the format check cannot run: install it");
        }
        if !works("clippy") {
            bail!("clippy is missing, so the lints cannot run: install it");
        }
        Ok(())
    }
}

/// What JupyterLab's venv holds: the application, its server and the Python kernel its notebooks run.
const JUPYTER_PINS: [&str; 3] = ["jupyterlab==4.4.10", "jupyter-server==2.21.1", "ipykernel==7.4.0"];

/// Whether rustup has the standard library for `target` installed.
pub fn rustup_has_target(target: &str) -> bool {
    probe(&mut cmd("rustup", ["target", "list", "--installed"]))
        .is_some_and(|list| list.lines().any(|line| line.trim() == target))
}

/// Whether a person is there to answer: stdin and stderr are both a terminal.
pub fn on_a_terminal() -> bool {
    std::io::stdin().is_terminal() && std::io::stderr().is_terminal()
}

/// The version Cargo.toml pins wasm-bindgen to (`wasm-bindgen = "=X.Y.Z"`): the CLI must match it.
pub fn wasm_bindgen_pin(cargo_toml: &str) -> Result<String> {
    let read = cargo_toml
        .lines()
        .find_map(|line| line.strip_prefix("wasm-bindgen = \"="))
        .and_then(|rest| rest.split('"').next())
        .unwrap_or("");
    let parts: Vec<&str> = read.split('.').collect();
    let exact = parts.len() == 3
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    if !exact {
        bail!("Cargo.toml must pin wasm-bindgen exactly, as wasm-bindgen = \"=X.Y.Z\" (read: '{read}')");
    }
    Ok(read.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wasm_bindgen_pin_is_read_exactly_or_refused() {
        let manifest = "[workspace.dependencies]\nserde = \"1\"\nwasm-bindgen = \"=0.2.130\"\n";
        assert_eq!(wasm_bindgen_pin(manifest).unwrap(), "0.2.130");
        for wrong in [
            "wasm-bindgen = \"0.2.130\"",
            "wasm-bindgen = \"=0.2\"",
            "wasm-bindgen = { version = \"=0.2.1\" }",
        ] {
            let error = wasm_bindgen_pin(wrong).unwrap_err().to_string();
            assert!(
                error.starts_with("Cargo.toml must pin wasm-bindgen exactly"),
                "{wrong}: {error}"
            );
        }
    }

    #[test]
    fn the_repositorys_own_pin_is_readable() {
        let manifest =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../Cargo.toml")).unwrap();
        assert!(wasm_bindgen_pin(&manifest).is_ok());
    }
}
