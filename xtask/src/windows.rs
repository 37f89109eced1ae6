//! `./build.sh windows`: the host for Windows from Linux — cross-built with mingw-w64, linted for that
//! target, and its whole test suite (unit and integration: the MCP named pipe, `waymark-host mcp`,
//! external MCP servers, the agent's sessions) run in Wine; then `install` registers it in Wine's
//! registry and `doctor` must find the manifest there.
//!
//! Not part of `test`: Wine is large, and it is not Windows (one user, so the pipe's access list is
//! created and used but nobody else is seen being refused; no real Chrome).
//!
//! Must not: touch the native build (everything goes to its own target folder, `target/windows`).

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Result};

use crate::shell::{cmd, have, is_executable, output, probe, run_to_stderr, say, succeeds};
use crate::tools::{rustup_has_target, Machine};

const TARGET: &str = "x86_64-pc-windows-gnu";

/// Builds, lints and tests the Windows host in Wine.
pub fn windows(m: &Machine) -> Result<()> {
    if !have("rustup") {
        bail!("the Windows build needs rustup (for the {TARGET} standard library)");
    }
    if !rustup_has_target(TARGET) {
        run_to_stderr(&mut cmd("rustup", ["target", "add", TARGET]))?;
    }
    if !have("x86_64-w64-mingw32-gcc") {
        m.apt_install(&["gcc-mingw-w64-x86-64", "mingw-w64-x86-64-dev"])?;
    }
    let debian_wine = Path::new("/usr/lib/wine/wine64");
    if !is_executable(debian_wine) && !have("wine64") {
        m.apt_install(&["wine64"])?;
    }
    let wine = if is_executable(debian_wine) {
        debian_wine.to_path_buf()
    } else {
        PathBuf::from("wine64")
    };
    let dir = m.target_dir.join("windows");
    let cargo = |args: &[&str]| {
        let mut command = m.cargo(args);
        command
            .args([
                "--locked",
                "-p",
                "waymark-host",
                "--target",
                TARGET,
                "--target-dir",
            ])
            .arg(&dir);
        command
    };
    say(format!("cargo clippy --target {TARGET}"));
    run_to_stderr(cargo(&["clippy", "--all-targets"]).args(["--quiet", "--", "-D", "warnings"]))?;
    run_to_stderr(&mut cargo(&["build"]))?;
    // The test binaries (not the examples they run), from cargo's own list.
    let listing = output(cargo(&["test"]).args(["--no-run", "--message-format=json"]))?;
    let tests: Vec<&str> = listing.lines().filter_map(test_executable).collect();

    let prefix = dir.join("wine");
    let in_wine = |program: &Path| {
        let mut command = Command::new(&wine);
        command
            .arg(program)
            .env("WINEPREFIX", &prefix)
            .env("WINEDEBUG", "-all");
        command
    };
    let bcrypt = prefix.join("drive_c/windows/system32/bcryptprimitives.dll");
    if !bcrypt.is_file() {
        say(format!("preparing a Wine prefix in {}", prefix.display()));
        // Its first start makes the prefix; what it says or returns does not matter.
        succeeds(in_wine(Path::new("cmd")).args(["/c", "exit"]));
        let mut gcc = cmd("x86_64-w64-mingw32-gcc", ["-shared", "-O2", "-o"]);
        gcc.arg(&bcrypt)
            .args(["tools/wine/bcryptprimitives.c", "-ladvapi32"]);
        run_to_stderr(&mut gcc)?;
    }
    for exe in tests {
        let exe = Path::new(exe);
        say(format!(
            "in Wine: {}",
            exe.file_name().unwrap_or_default().to_string_lossy()
        ));
        run_to_stderr(&mut in_wine(exe))?;
    }
    let host = dir.join(TARGET).join("debug/waymark-host.exe");
    say("in Wine: waymark-host install, then doctor");
    run_to_stderr(in_wine(&host).args(["install", "--browser", "chrome"]))?;
    let report = probe(in_wine(&host).args(["doctor", "--json"])).unwrap_or_default();
    if !chrome_manifest_ok(&report) {
        bail!("doctor does not find the Chrome manifest install registered: {report}");
    }
    if report.contains(r"?\\") {
        bail!("the manifest names a verbatim path: {report}");
    }
    say("the Windows host passed");
    Ok(())
}

/// The executable of one line of `cargo test --message-format=json`, if it is a test binary.
fn test_executable(line: &str) -> Option<&str> {
    let profile = &line[line.find("\"profile\":{")?..];
    if !profile[..profile.find('}')?].contains("\"test\":true") {
        return None;
    }
    let start = line.find("\"executable\":\"")? + "\"executable\":\"".len();
    let rest = &line[start..];
    Some(&rest[..rest.find('"')?])
}

/// Whether doctor's JSON says the Chrome manifest is in place: `"status": "ok"` on the line naming
/// `manifest:chrome` or the two after it.
fn chrome_manifest_ok(report: &str) -> bool {
    let lines: Vec<&str> = report.lines().collect();
    lines.iter().enumerate().any(|(i, line)| {
        line.contains("\"manifest:chrome\"")
            && lines[i..lines.len().min(i + 3)]
                .iter()
                .any(|next| next.contains("\"status\": \"ok\""))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_binaries_are_picked_from_cargos_messages() {
        let test = r#"{"reason":"compiler-artifact","profile":{"opt_level":"0","test":true},"executable":"/t/deps/mcp-1.exe","fresh":true}"#;
        let example = r#"{"reason":"compiler-artifact","profile":{"opt_level":"0","test":false},"executable":"/t/examples/fixture.exe"}"#;
        let library = r#"{"reason":"compiler-artifact","profile":{"test":false},"executable":null}"#;
        assert_eq!(test_executable(test), Some("/t/deps/mcp-1.exe"));
        assert_eq!(test_executable(example), None);
        assert_eq!(test_executable(library), None);
    }

    #[test]
    fn the_chrome_manifest_counts_only_when_its_own_entry_is_ok() {
        let ok = "[\n  {\n    \"check\": \"manifest:chrome\",\n    \"status\": \"ok\",\n  },\n";
        let missing = "[\n  {\n    \"check\": \"manifest:chrome\",\n    \"detail\": \"x\",\n    \"status\": \"missing\"\n  },\n  {\n    \"status\": \"ok\"\n";
        assert!(chrome_manifest_ok(ok));
        assert!(!chrome_manifest_ok(missing));
    }
}
