//! Building Waymark and putting it to use: the host binary, the unpacked extension in
//! `dist/extension/` (two wasm modules and their size budget), and the commands `build` (plain
//! `./build.sh`), `install` and `demo`.
//!
//! Must not: choose browsers for anyone (`install` passes the person's choice to the host, and only
//! where nobody can be asked registers the browsers installed here for this user, saying so), replace
//! a `waymark-host` on PATH that is not its own link, or let a wasm module past its size budget
//! through a test run.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context as _, Result};

use crate::shell::{cmd, copy_dir, run, run_to_stderr, say};
use crate::tools::{on_a_terminal, var, Machine, WasmToolchain, WASM_TARGET};

/// The two wasm modules of the one extension crate (see extension/src/lib.rs): `content` for every
/// frame of every page, `extension` for the worker, side panel and settings.
pub const WASM_MODULES: [&str; 2] = ["content", "extension"];

/// Each module's budget in KiB, zipped (the store's package is zipped). The content module is held
/// tighter: every frame of a tab Waymark is used in loads it (since injection on demand, not every
/// page). Acting as a person acts (keys, values, what changed) and knowing secrets by their value
/// (what was typed, dotted fonts, closed shadow roots) took it from 250 to 267 KiB: 280 leaves room for
/// one more such step, and a first use in a tab pays it once. The extension module is loaded once per
/// extension context (the worker, an open panel, the settings page), never into a page, and carries
/// what speaks to the user and the request guard: it reached 370 with the guard, and 385 leaves room
/// for the page's own dialogs (about 6 KiB of them) and a third language's wording without a raise at
/// each step.
fn wasm_gzip_budget_kib(module: &str) -> u64 {
    match module {
        "content" => 280,
        _ => 385,
    }
}

/// A cargo profile the host is built with.
#[derive(Clone, Copy)]
pub enum Profile {
    /// `dev`: what the tests run (`cargo test` builds it anyway).
    Dev,
    /// `release`: what is installed and packaged.
    Release,
}

impl Profile {
    fn name(self) -> &'static str {
        match self {
            Profile::Dev => "dev",
            Profile::Release => "release",
        }
    }
}

/// Where cargo leaves the host built with `profile`.
pub fn host_bin(m: &Machine, profile: Profile) -> PathBuf {
    let dir = match profile {
        Profile::Dev => "debug",
        Profile::Release => "release",
    };
    m.target_dir.join(dir).join("waymark-host")
}

/// Builds the host with `profile`.
pub fn build_host(m: &Machine, profile: Profile) -> Result<()> {
    say(format!("building waymark-host ({})", profile.name()));
    run_to_stderr(&mut m.cargo([
        "build",
        "--locked",
        "-p",
        "waymark-host",
        "--profile",
        profile.name(),
    ]))
}

/// Builds the unpacked extension into `m.dist`: both wasm modules, their glue, the manifest and the
/// static files.
pub fn build_extension(m: &Machine) -> Result<()> {
    let toolchain = m.wasm_toolchain()?;
    m.ensure_wasm_bindgen()?;
    let named = match toolchain {
        WasmToolchain::Rustup => "rustup",
        WasmToolchain::Debian => "debian",
    };
    say(format!(
        "building the extension (two wasm modules, {named} toolchain)"
    ));
    if m.dist.exists() {
        std::fs::remove_dir_all(&m.dist).with_context(|| format!("removing {}", m.dist.display()))?;
    }
    let pkg = m.dist.join("pkg");
    std::fs::create_dir_all(&pkg).with_context(|| format!("making {}", pkg.display()))?;
    // `cargo rustc` gives this crate alone `-D warnings`, so code a module leaves unused fails the
    // build. The `wasm` profile builds for size; the name and producers sections are debug data nobody
    // reads in the field. (wasm-opt was measured: it makes the raw module about 10% smaller but the
    // zipped one bigger, so it is not used.)
    let features = |module: &str| {
        let rustc = [
            "rustc",
            "--locked",
            "-p",
            "waymark-extension",
            "--lib",
            "--profile",
            "wasm",
            "--target",
        ];
        let mut args: Vec<String> = rustc.iter().map(|a| (*a).to_owned()).collect();
        args.extend([WASM_TARGET, "--no-default-features", "--features", module].map(str::to_owned));
        args
    };
    for module in WASM_MODULES {
        let wasm = match toolchain {
            WasmToolchain::Rustup => {
                run_to_stderr(m.cargo(features(module)).args(["--", "-D", "warnings"]))?;
                m.target_dir.join(WASM_TARGET).join("wasm/waymark_extension.wasm")
            }
            WasmToolchain::Debian => {
                let dir = m.target_dir.join("debian-web");
                let mut debian = cmd("/usr/bin/cargo", features(module));
                debian
                    .arg("--target-dir")
                    .arg(&dir)
                    .args(["-Z", "build-std=std,panic_abort", "--", "-D", "warnings"])
                    .env("RUSTC", "/usr/bin/rustc")
                    .env("RUSTC_BOOTSTRAP", "1")
                    .env("CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER", "wasm-ld-19");
                run_to_stderr(&mut debian)?;
                dir.join(WASM_TARGET).join("wasm/waymark_extension.wasm")
            }
        };
        let mut bindgen = cmd(
            "wasm-bindgen",
            [
                "--target",
                "web",
                "--no-typescript",
                "--remove-name-section",
                "--remove-producers-section",
            ],
        );
        bindgen
            .args(["--out-name", module, "--out-dir"])
            .arg(&pkg)
            .arg(&wasm);
        run_to_stderr(&mut bindgen)?;
    }
    std::fs::copy(m.root.join("manifest.json"), m.dist.join("manifest.json"))
        .context("copying manifest.json")?;
    copy_dir(&m.root.join("extension/static"), &m.dist)?;
    // The catalogues of languages other than English, which the extension loads at start (i18n/).
    copy_dir(&m.root.join("i18n/locales"), &m.dist.join("locales"))?;
    let sizes: Vec<String> = wasm_sizes(m)?
        .iter()
        .map(|s| format!("{} {} KiB ({} KiB gzip)", s.module, s.kib, s.gzip_kib))
        .collect();
    say(format!(
        "extension ready: {} (wasm: {})",
        m.dist.display(),
        sizes.join("; ")
    ));
    Ok(())
}

/// One built wasm module's size, raw and zipped the way a store and a cache would.
struct WasmSize {
    module: &'static str,
    kib: u64,
    gzip_kib: u64,
}

/// What a frame and the extension's own pages load: each module's size.
fn wasm_sizes(m: &Machine) -> Result<Vec<WasmSize>> {
    WASM_MODULES
        .iter()
        .map(|module| {
            let file = m.dist.join(format!("pkg/{module}_bg.wasm"));
            let kib = std::fs::metadata(&file)
                .with_context(|| format!("reading {}", file.display()))?
                .len()
                / 1024;
            Ok(WasmSize {
                module,
                kib,
                gzip_kib: gzip_bytes(&file)? / 1024,
            })
        })
        .collect()
}

/// The size of `file` compressed by `gzip -9`.
fn gzip_bytes(file: &Path) -> Result<u64> {
    let out = Command::new("gzip")
        .arg("-9c")
        .arg(file)
        .output()
        .context("could not start gzip")?;
    if !out.status.success() {
        bail!("gzip -9c {} failed ({})", file.display(), out.status);
    }
    Ok(out.stdout.len() as u64)
}

/// Fails when a wasm module passes its zipped budget.
pub fn check_wasm_budget(m: &Machine) -> Result<()> {
    for size in wasm_sizes(m)? {
        let budget = wasm_gzip_budget_kib(size.module);
        if size.gzip_kib > budget {
            bail!(
                "the {} wasm module is {} KiB gzip, over its budget of {budget} KiB",
                size.module,
                size.gzip_kib
            );
        }
    }
    Ok(())
}

/// `./build.sh`: the extension in dist/extension/ and the release host.
pub fn build(m: &Machine) -> Result<()> {
    build_host(m, Profile::Release)?;
    build_extension(m)?;
    say(format!("host: {}", host_bin(m, Profile::Release).display()));
    Ok(())
}

/// `./build.sh install [--browser …]`: builds, copies the host to a stable place of this user's and
/// registers it with the browsers the person chooses.
pub fn install(m: &Machine, args: &[String]) -> Result<()> {
    build(m)?;
    let data = var("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| var("HOME").map(|home| Path::new(&home).join(".local/share")))
        .context("neither XDG_DATA_HOME nor HOME is set: where should the host go?")?
        .join("waymark/bin");
    std::fs::create_dir_all(&data).with_context(|| format!("making {}", data.display()))?;
    // The browser starts the host from a stable place, not from this checkout's target/ folder.
    let host = data.join("waymark-host");
    let fresh = data.join("waymark-host.new");
    run(cmd("install", ["-m", "0755"])
        .arg(host_bin(m, Profile::Release))
        .arg(&fresh))?;
    std::fs::rename(&fresh, &host).with_context(|| format!("moving the host into {}", host.display()))?;
    // Which browsers is the user's choice: on a terminal the host asks, or the arguments say. A script
    // or CI cannot be asked; there this developer command registers the browsers installed here, for
    // this user only, and says so (none when none is installed yet; `waymark-host uninstall` takes
    // them back). The host itself never picks browsers for anyone.
    let mut args = args.to_vec();
    if args.is_empty() && !on_a_terminal() {
        say(
            "not on a terminal, so nobody can be asked: registering the browsers installed here, for this \
             user only (choose with ./build.sh install --browser chrome,chromium,edge)",
        );
        args = vec!["--browser".into(), "found".into()];
    }
    run(cmd(&host, ["install"]).args(&args))?;
    let on_path = link_on_path(&host)?;
    eprintln!(
        "\nWaymark's host is installed at {host}{on_path}.\n\
         One step is left, once per browser: load the extension.\n  \
         1. Open chrome://extensions (Edge: edge://extensions) and turn on Developer mode.\n  \
         2. Choose \"Load unpacked\" and pick: {dist}\n  \
         3. Open the side panel from Waymark's toolbar button, or Waymark in its own window with\n     \
         Alt+Shift+Period, and type /ping. /keys lists the shortcuts.",
        host = host.display(),
        dist = m.dist.display(),
    );
    Ok(())
}

/// Puts `waymark-host` on PATH as a link to `host`: in /usr/local/bin for root, else in ~/.local/bin
/// (which Debian's and Ubuntu's login shells put on PATH once it exists). Says where, and how to reach
/// it when that folder is not on this PATH.
fn link_on_path(host: &Path) -> Result<String> {
    let bin = if crate::shell::is_root() {
        PathBuf::from("/usr/local/bin")
    } else {
        var("HOME")
            .map(|home| Path::new(&home).join(".local/bin"))
            .context("HOME is not set: where should waymark-host be linked?")?
    };
    std::fs::create_dir_all(&bin).with_context(|| format!("making {}", bin.display()))?;
    let link = bin.join("waymark-host");
    match std::fs::symlink_metadata(&link) {
        // Ours from an earlier install (a link to a waymark/bin/waymark-host): replaced. Anything else,
        // a program or a link of someone else's: left alone.
        Ok(meta)
            if meta.file_type().is_symlink()
                && std::fs::read_link(&link).is_ok_and(|to| to.ends_with("waymark/bin/waymark-host")) =>
        {
            std::fs::remove_file(&link).with_context(|| format!("replacing {}", link.display()))?
        }
        Ok(_) => {
            say(format!(
                "{} is another program's: not replacing it",
                link.display()
            ));
            return Ok(String::new());
        }
        Err(_) => {}
    }
    std::os::unix::fs::symlink(host, &link).with_context(|| format!("linking {}", link.display()))?;
    let on_path =
        std::env::var_os("PATH").is_some_and(|path| std::env::split_paths(&path).any(|dir| dir == bin));
    Ok(if on_path {
        format!(" (on PATH as waymark-host: {})", link.display())
    } else {
        format!(
            " (linked as {}; that folder is not on your PATH yet: open a new login shell, or run it by that path)",
            link.display()
        )
    })
}

/// The environment the end-to-end tests, the demo and the benchmarks read: the host, the built
/// extension and the Chromium to run (tests/e2e/lib/harness.mjs).
pub fn with_browser<'c>(m: &Machine, command: &'c mut Command) -> Result<&'c mut Command> {
    Ok(command
        .env("WAYMARK_HOST_BIN", host_bin(m, Profile::Dev))
        .env("WAYMARK_EXTENSION_DIR", &m.dist)
        .env("WAYMARK_CHROMIUM", m.chromium()?))
}

/// `./build.sh demo`: a throwaway Chromium profile with Waymark and a demo page.
pub fn demo(m: &Machine) -> Result<()> {
    build_host(m, Profile::Dev)?;
    build_extension(m)?;
    m.chromium()?;
    m.ensure_node()?;
    run(with_browser(m, &mut cmd("node", ["tests/e2e/demo.mjs"]))?)
}
