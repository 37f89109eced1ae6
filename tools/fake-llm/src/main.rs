//! `fake-llm --script FILE.json [--port N]`: serves a [`fake_llm::Script`] on 127.0.0.1 until killed.
//!
//! The first line on stdout is `listening on http://127.0.0.1:PORT/v1`, so a test started from Node can
//! read the base URL; requests received so far are at `GET /_fake/requests`. It never binds another
//! address.

// This binary is a test tool, not the native host: its stdout carries the "listening on" line by design.
#![allow(clippy::print_stdout)]

use std::io::Write as _;

use anyhow::{bail, Context};
use fake_llm::{FakeLlm, Script};

const USAGE: &str = "usage: fake-llm --script FILE.json [--port N]";

fn main() -> anyhow::Result<()> {
    let mut script_path = None;
    let mut port = 0_u16;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--script" => script_path = Some(args.next().context(USAGE)?),
            "--port" => {
                let value = args.next().context(USAGE)?;
                port = value
                    .parse()
                    .with_context(|| format!("--port {value:?} is not a port number (0-65535)"))?;
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(());
            }
            other => bail!("unexpected argument {other:?}\n{USAGE}"),
        }
    }
    let script_path = script_path.context(USAGE)?;
    let text = std::fs::read_to_string(&script_path)
        .with_context(|| format!("cannot read the script {script_path}"))?;
    let script = Script::from_json(&text).with_context(|| {
        format!("{script_path} is not a fake-llm script (see tools/fake-llm/src/script.rs)")
    })?;

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let server = FakeLlm::start_on(script, port).await?;
        println!("listening on {}", server.base_url());
        std::io::stdout().flush()?;
        // Serve until the test that started us kills the process.
        std::future::pending::<()>().await;
        drop(server);
        anyhow::Ok(())
    })
}
