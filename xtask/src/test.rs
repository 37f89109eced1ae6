//! `./build.sh test`, what CI runs: the format check, clippy (natively and as each wasm module
//! compiles the browser-only code), every Rust test, then the end-to-end suite in headless Chromium,
//! after the wasm size budget.
//!
//! Must not: skip a check whose tool is missing (fmt and clippy are installed or the test fails), build
//! anything without `--locked`, or need a browser or Node before the Rust tests have run.

use anyhow::{bail, Result};

use crate::build::{host_bin, Profile, WASM_MODULES};
use crate::e2e;
use crate::shell::{run, run_to_stderr, say};
use crate::tools::{Machine, WasmToolchain, WASM_TARGET};

/// Every test, in the order that fails soonest on what changes most.
pub fn test(m: &Machine) -> Result<()> {
    // The Rust checks and tests first: they need neither a browser nor Node.
    m.ensure_lint_tools()?;
    say("cargo fmt --check");
    if run_to_stderr(&mut m.cargo(["fmt", "--all", "--", "--check"])).is_err() {
        bail!("code is not formatted: run cargo fmt");
    }
    say("cargo clippy");
    run_to_stderr(&mut m.cargo([
        "clippy",
        "--locked",
        "--workspace",
        "--all-targets",
        "--quiet",
        "--",
        "-D",
        "warnings",
    ]))?;
    say("cargo test");
    run(&mut m.cargo(["test", "--locked", "--workspace"]))?;
    // cargo test has just built target/debug/waymark-host (the integration tests run it); building it
    // again with `cargo build -p` would resolve other features and recompile the dependencies.
    let host = host_bin(m, Profile::Dev);
    if !host.is_file() {
        bail!("cargo test did not build {}", host.display());
    }
    if m.wasm_toolchain()? == WasmToolchain::Rustup {
        // The browser-only code, linted as each wasm module compiles it (natively it is all one crate).
        for module in WASM_MODULES {
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
    }
    m.chromium()?;
    m.ensure_chromium_languages()?;
    m.ensure_node()?;
    m.ensure_real_apps()?;
    e2e::run_files(m, &e2e::files(m, &[])?)
}
