//! The native host as a library: every module of `waymark-host`, so the binary (`main.rs`, the edge:
//! arguments, logging, exit codes) and the integration tests under `tests/` use the same code and types.
//!
//! Read it in the order of the layers: [`framing`] (bytes ⇄ frames), [`connection`] (one browser
//! connection's I/O and lifetime), [`dispatch`] (which part of the host each message goes to), then
//! the parts themselves — the policy gate (`gate`), the agent (`agent`), MCP ([`mcp`]), the settings
//! page's answers (`settings`). `ARCHITECTURE.md` is the map.
//!
//! What it must not do: write to stdout in native-messaging mode anywhere but [`framing`] (stdout is
//! the browser's pipe; only the commands whose output is their stdout — `doctor`, `classify`, the `mcp`
//! proxy — write there, and the browser never starts those), or expose more than the binary and the
//! tests need: the modules the binary does not name stay private, so the compiler still finds what
//! nobody uses.

mod agent;
mod atomic_file;
mod browser;
pub mod config;
pub mod connection;
pub mod dispatch;
pub mod doctor;
pub mod framing;
mod gate;
pub mod install;
pub mod language;
mod llm;
pub mod logging;
pub mod mcp;
pub mod origin;
pub mod policy;
mod session;
mod settings;
mod setup_faults;
mod state_dir;
mod steplog;
#[cfg(test)]
mod test_paths;
mod transfer;
