//! Waymark's browser extension, compiled to wasm. One module serves the extension's three contexts;
//! each context's JavaScript loader calls its own entry point:
//!
//! ```text
//!  sw.js          -> start_service_worker(), on_connect(port)   worker.rs: the relay to the host
//!  sidepanel.js   -> start_panel()                              panel.rs:  the chat for screen readers
//!  content.js     -> start_content()                            content.rs: the page side (every frame)
//!  settings.js    -> start_settings()                           settings.rs: settings and the doctor's checks
//! ```
//!
//! `commands` and `wording` are plain Rust (no browser types) so they are unit-tested natively; the
//! rest compiles natively too (so clippy sees it) but only runs in the browser.

pub mod commands;
pub mod wording;

mod act;
mod activity;
mod banners;
mod chrome;
mod content;
mod detect;
mod effect;
mod frames;
mod mask;
mod overlay;
mod page;
mod panel;
mod secret;
mod settings;
mod tabs;
mod watch;
mod worker;
