//! `cargo xtask <command>`: Waymark's build, test and release commands. `./build.sh` is the entry
//! point people and CI use: it makes sure cargo is there (apt, rustup's pinned toolchain) and hands
//! its arguments to this. One file per family of commands; `tools.rs` finds or installs what they
//! need, `shell.rs` runs programs.
//!
//! Must not: skip a check that cannot run (it fails instead), build without `--locked`, or write in
//! the checkout outside target/, dist/ and tests/e2e/node_modules/.

mod bench;
mod build;
mod e2e;
mod fresh_check;
mod llm_check;
mod package;
mod package_check;
mod root;
mod shell;
mod stall;
mod test;
mod tools;
mod windows;

use std::process::ExitCode;

use anyhow::{bail, Result};

/// What `./build.sh help` prints.
const USAGE: &str = "\
Waymark's one entry point.

  ./build.sh           build dist/extension/ (the unpacked extension) and the host binary
  ./build.sh install [--browser chrome,chromium,edge|all]  build, register the host for this user
                       with the browsers chosen (asked on a terminal; where nobody can be asked, the
                       browsers installed here), and put waymark-host on PATH
  ./build.sh demo      build, open a throwaway Chromium profile with Waymark and a demo page
  ./build.sh test      every test: format, lints, unit, integration, end to end in headless Chromium
  ./build.sh e2e [FILE…]  only the end-to-end tests (all, or the named tests/e2e/*.test.mjs files)
  ./build.sh orca      Waymark with a real screen reader: Orca in a real Chromium under Xvfb, real key
                       presses, every utterance captured (tests/e2e/screen-reader/)
  ./build.sh bench     the overlay benchmark next to its peers (bench/README.md); extra arguments go to it
  ./build.sh bench miniwob  MiniWoB++ tasks solved through Waymark's numbers (bench/README.md)
  ./build.sh bench guard    what the request guard adds to an action, in milliseconds (bench/README.md)
  ./build.sh windows   the host built for Windows, linted, and all its tests run in Wine
  ./build.sh package   release artefacts in dist/package/: the store zip and listing, the host's .deb
  ./build.sh package-check  that .deb installed, registered, removed and purged in a fresh Debian 12
  ./build.sh fresh-check [debian|ubuntu|all]  as root: the README's two set-up commands, exactly, in a
                       pristine Debian 12 (or Ubuntu 24.04) root, with each one's exit code and duration
  ./build.sh llm-check the LLM client against a real OpenAI-compatible server (llama-cpp-python, PyPI)

It installs what it needs and is missing (on Debian and Ubuntu through apt; elsewhere it says what to
install). Rust is the version rust-toolchain.toml pins, through rustup (apt's package or rustup's own
download); only where rustup cannot be had, Debian's Rust for web builds. Set WAYMARK_NO_INSTALL=1 to forbid installing anything, WAYMARK_RUST=debian to use
Debian's Rust even where rustup is, WAYMARK_WASM_TOOLCHAIN=debian to build only the wasm with it, and
WAYMARK_E2E_CONCURRENCY=N to run N end-to-end files at once (default 1). Also read:
CARGO_TARGET_DIR (where cargo builds), WAYMARK_DIST (where the unpacked extension goes; dist/extension),
WAYMARK_CHROMIUM (the Chromium to test with), WAYMARK_DEBIAN_MIRROR (package-check's mirror),
WAYMARK_ORCA_REPORT=FILE (orca keeps its per-announcement table there as JSON).
(`cargo xtask COMMAND` runs the same commands once Rust is installed.)
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("build.sh: {error:#}");
            ExitCode::FAILURE
        }
    }
}

/// Runs the command `args` name (plain `build` when they name none).
fn run(args: &[String]) -> Result<()> {
    let (command, rest) = match args.split_first() {
        Some((command, rest)) => (command.as_str(), rest),
        None => ("build", args),
    };
    if matches!(command, "-h" | "--help" | "help") {
        #[allow(clippy::print_stdout)] // what a person asked to read
        {
            print!("{USAGE}");
        }
        return Ok(());
    }
    let m = tools::Machine::new()?;
    match command {
        "build" => build::build(&m),
        "install" => build::install(&m, rest),
        "demo" => build::demo(&m),
        "test" => test::test(&m),
        "e2e" => e2e::e2e(&m, rest),
        "orca" => e2e::orca(&m),
        "bench" => bench::bench(&m, rest),
        "windows" => windows::windows(&m),
        "package" => package::package(&m),
        "package-check" => package_check::package_check(&m),
        "fresh-check" => fresh_check::fresh_check(&m, rest),
        "llm-check" => llm_check::llm_check(&m),
        other => bail!(
            "unknown command '{other}'; try: ./build.sh \
             [build|install|demo|test|e2e|orca|bench|windows|package|package-check|fresh-check|llm-check]"
        ),
    }
}
