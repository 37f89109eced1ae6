//! The end-to-end tests: `./build.sh e2e [FILE…]` (all of tests/e2e/*.test.mjs, or the files named),
//! the end of `./build.sh test`, and `./build.sh orca`, the same parts under a real screen reader.
//! Each builds what its tests run — the host, the scripted model, the extension — then runs them in
//! real Chromium with `node --test`.
//!
//! Must not: run the tests on a wasm module over its size budget, or build the host with other
//! features than `cargo test` does (that would compile everything twice).

use anyhow::{Context as _, Result};

use crate::build::{build_extension, check_wasm_budget, with_browser};
use crate::shell::{cmd, run_to_stderr, say};
use crate::stall::{run_watched, QUIET_LIMIT};
use crate::tools::{var, Machine};

/// The end-to-end test files: those named, or every `tests/e2e/*.test.mjs` in name order.
pub fn files(m: &Machine, named: &[String]) -> Result<Vec<String>> {
    if !named.is_empty() {
        return Ok(named.to_vec());
    }
    files_in(m, "tests/e2e")
}

/// The scripted model's binary (tools/fake-llm), built.
pub fn build_fake_llm(m: &Machine) -> Result<()> {
    run_to_stderr(&mut m.cargo(["build", "--locked", "-p", "fake-llm", "--bin", "fake-llm"]))
}

/// Builds what the end-to-end tests run besides the host (which `cargo test` built): the scripted
/// model and the extension, whose wasm must be within its budget.
pub fn prepare(m: &Machine) -> Result<()> {
    build_fake_llm(m)?;
    build_extension(m)?;
    check_wasm_budget(m)
}

/// Runs `files` in headless Chromium, one file at a time unless WAYMARK_E2E_CONCURRENCY says more:
/// each file starts its own browser, and on a 2-core machine two browsers at once make waits that
/// hold on an idle machine time out.
pub fn run_prepared(m: &Machine, files: &[String]) -> Result<()> {
    let concurrency = var("WAYMARK_E2E_CONCURRENCY")
        .and_then(|n| n.to_str().and_then(|n| n.parse::<u32>().ok()))
        .filter(|n| *n > 0)
        .unwrap_or(1);
    say(format!(
        "end-to-end tests in headless Chromium: {} files, {concurrency} at a time",
        files.len()
    ));
    let mut node = cmd("node", ["--test", &format!("--test-concurrency={concurrency}")]);
    node.args(files)
        .env("WAYMARK_FAKE_LLM_BIN", m.target_dir.join("debug/fake-llm"))
        .env("WAYMARK_REAL_APPS_VENV", m.real_apps_venv());
    // A file that hangs (a wait with no timeout, a process left running) is stopped and named.
    run_watched(with_browser(m, &mut node)?, QUIET_LIMIT)
}

/// Builds the scripted model and the extension, checks the wasm budget, and runs `files` in headless
/// Chromium. The host is the one `cargo test` built.
pub fn run_files(m: &Machine, files: &[String]) -> Result<()> {
    prepare(m)?;
    run_prepared(m, files)
}

/// `./build.sh e2e [FILE…]`: the end-to-end tests alone, for working on them; builds what they run,
/// with the same features as `cargo test` so nothing is compiled twice.
pub fn e2e(m: &Machine, named: &[String]) -> Result<()> {
    m.chromium()?;
    m.ensure_chromium_languages()?;
    m.ensure_node()?;
    run_to_stderr(&mut m.cargo(["test", "--locked", "--workspace", "--no-run"]))?;
    let files = files(m, named)?;
    if files.iter().any(|f| f.contains("real_apps")) {
        m.ensure_real_apps()?;
    }
    run_files(m, &files)
}

/// `./build.sh orca`: one real Chromium (not headless) with Waymark under Orca, driven by xdotool.
/// WAYMARK_ORCA_REPORT=FILE keeps the per-announcement table as JSON.
pub fn orca(m: &Machine) -> Result<()> {
    m.chromium()?;
    m.ensure_node()?;
    m.ensure_orca()?;
    run_to_stderr(&mut m.cargo(["test", "--locked", "--workspace", "--no-run"]))?;
    prepare(m)?;
    orca_prepared(m)
}

/// Runs the screen-reader journey (tests/e2e/screen-reader) with what [`prepare`] built, on a desktop
/// of its own with Orca speaking; stopped and named like the other files when it falls silent.
pub fn orca_prepared(m: &Machine) -> Result<()> {
    say("Waymark with Orca (real speech: about 10 minutes on 2 cores)");
    let mut desktop = cmd(
        "tests/e2e/screen-reader/desktop.sh",
        ["node", "--test", "--test-concurrency=1"],
    );
    desktop
        .args(files_in(m, "tests/e2e/screen-reader")?)
        .env("WAYMARK_FAKE_LLM_BIN", m.target_dir.join("debug/fake-llm"));
    run_watched(with_browser(m, &mut desktop)?, QUIET_LIMIT)
}

/// The `*.test.mjs` files of one folder, in name order, relative to the root.
fn files_in(m: &Machine, folder: &str) -> Result<Vec<String>> {
    let dir = m.root.join(folder);
    let mut files = Vec::new();
    for entry in std::fs::read_dir(&dir).with_context(|| format!("reading {}", dir.display()))? {
        let name = entry?.file_name().to_string_lossy().into_owned();
        if name.ends_with(".test.mjs") {
            files.push(format!("{folder}/{name}"));
        }
    }
    files.sort();
    Ok(files)
}
