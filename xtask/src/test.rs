//! `./build.sh test`, what CI runs: the format check, clippy (natively and as each wasm module
//! compiles the browser-only code), every Rust test, then the end-to-end suite in headless Chromium,
//! after the wasm size budget, and last the screen-reader journey under Orca. Each stage says what it does as it starts, and the run ends with every
//! stage's duration, also when one failed.
//!
//! Must not: skip a check whose tool is missing (fmt and clippy are installed or the test fails), build
//! anything without `--locked`, or need a browser or Node before the Rust tests have run.

use std::time::{Duration, Instant};

use anyhow::{bail, Result};

use crate::build::{host_bin, Profile, WASM_MODULES};
use crate::e2e;
use crate::shell::{duration, run, run_to_stderr, say};
use crate::tools::{Machine, WasmToolchain, WASM_TARGET};

/// The stages run so far, with how long each took and whether it passed.
#[derive(Default)]
struct Stages {
    done: Vec<(&'static str, Duration, bool)>,
}

impl Stages {
    /// Runs `stage` under `name`, timed; its error is the run's.
    fn run(&mut self, name: &'static str, stage: impl FnOnce() -> Result<()>) -> Result<()> {
        let started = Instant::now();
        let result = stage();
        self.done.push((name, started.elapsed(), result.is_ok()));
        result
    }

    /// The summary said at the end: one line per stage, and the total.
    fn summary(&self) -> String {
        let total: Duration = self.done.iter().map(|(_, took, _)| *took).sum();
        let mut said = format!("summary of ./build.sh test ({} in all):\n", duration(total));
        for (name, took, passed) in &self.done {
            let mark = if *passed { "passed" } else { "FAILED" };
            said.push_str(&format!("    {name:<44} {:>12}  {mark}\n", duration(*took)));
        }
        said
    }
}

/// Every test, in the order that fails soonest on what changes most; the summary is said either way.
pub fn test(m: &Machine) -> Result<()> {
    let mut stages = Stages::default();
    let result = stages_of(m, &mut stages);
    eprintln!();
    say(stages.summary().trim_end());
    result
}

fn stages_of(m: &Machine, stages: &mut Stages) -> Result<()> {
    // The Rust checks and tests first: they need neither a browser nor Node.
    stages.run("format and lint tools", || m.ensure_lint_tools())?;
    stages.run("cargo fmt --check", || {
        say("cargo fmt --check");
        if run_to_stderr(&mut m.cargo(["fmt", "--all", "--", "--check"])).is_err() {
            bail!("code is not formatted: run cargo fmt");
        }
        Ok(())
    })?;
    stages.run("cargo clippy", || {
        // Not --quiet: on a fresh machine it compiles every dependency first, minutes of work that
        // would otherwise be silence.
        say("cargo clippy -D warnings (on a fresh machine it first compiles every dependency: minutes)");
        run_to_stderr(&mut m.cargo([
            "clippy",
            "--locked",
            "--workspace",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ]))
    })?;
    stages.run("cargo test", || {
        // --no-fail-fast: every test binary runs, so one failure does not hide the others.
        say("cargo test (every crate's unit and integration tests)");
        run(&mut m.cargo(["test", "--locked", "--workspace", "--no-fail-fast"]))
    })?;
    // cargo test has just built target/debug/waymark-host (the integration tests run it); building it
    // again with `cargo build -p` would resolve other features and recompile the dependencies.
    let host = host_bin(m, Profile::Dev);
    if !host.is_file() {
        bail!("cargo test did not build {}", host.display());
    }
    if m.wasm_toolchain()? == WasmToolchain::Rustup {
        // The browser-only code, linted as each wasm module compiles it (natively it is all one crate).
        stages.run("cargo clippy, each wasm module", || {
            for module in WASM_MODULES {
                say(format!(
                    "cargo clippy --target {WASM_TARGET} (the {module} module)"
                ));
                run_to_stderr(&mut m.cargo([
                    "clippy",
                    "--locked",
                    "-p",
                    "waymark-extension",
                    "--lib",
                    "--target",
                    WASM_TARGET,
                    "--quiet",
                    "--no-default-features",
                    "--features",
                    module,
                    "--",
                    "-D",
                    "warnings",
                ]))?;
            }
            Ok(())
        })?;
    }
    stages.run("what the end-to-end tests need", || {
        m.chromium()?;
        m.ensure_chromium_languages()?;
        m.ensure_node()?;
        m.ensure_real_apps()
    })?;
    stages.run("building the extension and the scripted model", || {
        e2e::prepare(m)
    })?;
    stages.run("end-to-end tests (real Chromium)", || {
        e2e::run_prepared(m, &e2e::files(m, &[])?)
    })?;
    // Last: what a screen-reader user hears is tested with a real one, after everything it relies on.
    stages.run("what the screen-reader journey needs", || m.ensure_orca())?;
    stages.run("the screen-reader journey (Orca)", || e2e::orca_prepared(m))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_names_every_stage_its_time_and_the_failure() {
        let mut stages = Stages::default();
        stages.run("cargo fmt --check", || Ok(())).unwrap();
        assert!(stages.run("cargo clippy", || bail!("lint")).is_err());
        let said = stages.summary();
        assert!(said.starts_with("summary of ./build.sh test ("), "{said}");
        assert!(
            said.contains("cargo fmt --check") && said.contains("passed"),
            "{said}"
        );
        assert!(said.contains("cargo clippy") && said.contains("FAILED"), "{said}");
    }
}
