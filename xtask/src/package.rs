//! `./build.sh package`: release artefacts in dist/package/ — the extension as the Chrome Web Store and
//! Edge Add-ons take it (built from the release wasm, without the development key, with icons drawn
//! by tools/package, checked like a store would) with its listing text, and the host's Debian package
//! made by cargo-deb from native-host/Cargo.toml's `[package.metadata.deb]` and packaging/deb/
//! (docs/installers.md).
//!
//! Must not: build the host's package from anything but the release binary just built, or use another
//! cargo-deb than the pinned one.

use anyhow::{Context as _, Result};

use crate::build::{build_extension, build_host, Profile};
use crate::shell::{cmd, have, probe, run_to_stderr, say};
use crate::tools::Machine;

/// The cargo-deb the package is made with (installed once, `--locked`).
const CARGO_DEB_VERSION: &str = "3.8.0";

/// Makes dist/package/: the store zip and listing, and the host's `.deb`.
pub fn package(m: &Machine) -> Result<()> {
    let out = m.root.join("dist/package");
    build_host(m, Profile::Release)?;
    build_extension(m)?;
    if out.exists() {
        std::fs::remove_dir_all(&out).with_context(|| format!("removing {}", out.display()))?;
    }
    std::fs::create_dir_all(&out).with_context(|| format!("making {}", out.display()))?;
    say("the store zip");
    let mut zip = m.cargo([
        "run",
        "--locked",
        "--quiet",
        "-p",
        "waymark-package",
        "--",
        "extension",
        "--from",
    ]);
    zip.arg(&m.dist)
        .args([
            "--listing",
            "packaging/store-listing.txt",
            "--listing",
            "packaging/store-listing.ru.txt",
            "--out",
        ])
        .arg(&out);
    run_to_stderr(&mut zip)?;
    // cargo-deb works out the package's library dependencies with dpkg-shlibdeps.
    if !have("dpkg-shlibdeps") {
        m.apt_install(&["dpkg-dev"])?;
    }
    let installed = probe(&mut cmd("cargo-deb", ["--version"]));
    if installed.as_deref().and_then(|v| v.split_whitespace().last()) != Some(CARGO_DEB_VERSION) {
        say(format!(
            "installing cargo-deb {CARGO_DEB_VERSION} (once; a few minutes)"
        ));
        run_to_stderr(&mut m.cargo(["install", "cargo-deb", "--version", CARGO_DEB_VERSION, "--locked"]))?;
    }
    say("the host's Debian package");
    let mut deb = m.cargo(["deb", "-p", "waymark-host", "--no-build", "--output"]);
    // cargo-deb takes a folder when the path ends with a slash.
    deb.arg(format!("{}/", out.display()));
    run_to_stderr(&mut deb)?;
    let mut made: Vec<String> = std::fs::read_dir(&out)?
        .map(|entry| Ok(entry?.file_name().to_string_lossy().into_owned()))
        .collect::<Result<_>>()?;
    made.sort();
    say(format!("dist/package/: {}", made.join(" ")));
    Ok(())
}
