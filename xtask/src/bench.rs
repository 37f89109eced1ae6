//! `./build.sh bench [miniwob|browsing|guard|tokens] [ARGS…]`: the overlay benchmark next to its peers
//! (bench/overlay.mjs), MiniWoB++ tasks solved through Waymark's numbers (bench/miniwob.mjs), what
//! Waymark costs the pages a user merely browses, its first use in a tab and a busy page with the
//! numbers shown (bench/browsing.mjs, which also serves MediaWiki as the end-to-end tests do), or what
//! the request guard adds to an action (bench/request_guard.mjs), or the tokens the agent sends a
//! model (bench/tokens.mjs, with the scripted model); bench/README.md says what each measures. Builds
//! what they run; extra arguments go to the script.
//!
//! Must not: fetch the peers' code itself (the scripts download the pinned wheels with pip the first
//! time); this only makes sure pip is there.

use anyhow::Result;

use crate::build::{build_extension, build_host, with_browser, Profile};
use crate::shell::{cmd, have, run};
use crate::tools::Machine;

/// Runs one benchmark script with the host, the extension and Chromium it measures.
pub fn bench(m: &Machine, args: &[String]) -> Result<()> {
    build_host(m, Profile::Dev)?;
    build_extension(m)?;
    m.chromium()?;
    m.ensure_node()?;
    if !have("pip3") && !have("pip") {
        m.apt_install(&["python3-pip"])?;
    }
    let (script, rest) = match args.split_first() {
        Some((first, rest)) if first == "miniwob" => ("bench/miniwob.mjs", rest),
        Some((first, rest)) if first == "guard" => ("bench/request_guard.mjs", rest),
        Some((first, rest)) if first == "tokens" => {
            crate::e2e::build_fake_llm(m)?;
            ("bench/tokens.mjs", rest)
        }
        Some((first, rest)) if first == "browsing" => {
            m.ensure_real_apps()?;
            ("bench/browsing.mjs", rest)
        }
        _ => ("bench/overlay.mjs", args),
    };
    let mut node = cmd("node", [script]);
    node.args(rest)
        .env("WAYMARK_LOG", "warn")
        .env("WAYMARK_FAKE_LLM_BIN", m.target_dir.join("debug/fake-llm"));
    run(with_browser(m, &mut node)?)
}
