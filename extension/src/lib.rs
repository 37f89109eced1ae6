//! Waymark's browser extension, compiled to wasm as two modules, one per side of the extension:
//!
//! ```text
//!  content module (feature "content"): in every frame of the tabs Waymark is used in
//!    content.js     -> start_content()                  content/: numbering, acting, masks, banners
//!  extension module (feature "extension"): in the extension's own contexts
//!    sw.js          -> start_service_worker(), on_connect(port), on_committed(details), on_command(name)
//!                                                       worker.rs: the relay to the host
//!                   -> on_navigation_request(details), guard_timings()
//!                                                       guard/: the request guard
//!                   -> on_frame_committed(details), on_tab_removed(id), on_tab_activated(info)
//!                                                       tabs/in_use.rs: the script into tabs in use
//!    sidepanel.js   -> start_panel()                    panel.rs:  the chat for screen readers
//!                                                       panel_window.rs: the panel in its own window
//!    settings.js    -> start_settings()                 settings.rs: settings and the doctor's checks
//! ```
//!
//! Two modules, not one: the content module is loaded into every frame of every page of a tab Waymark
//! is used in, so it carries only what a page needs (about half the code), and a page can never load
//! the code that speaks to the host. `chrome` (bindings) and `frames` (both sides of locating a frame) serve
//! both modules.
//!
//! `commands` and `wording` are plain Rust (no browser types) so they are unit-tested natively; the
//! rest compiles natively too (both features are on by default, so clippy sees all of it) but only
//! runs in the browser.

#[cfg(feature = "extension")]
pub mod commands;
#[cfg(feature = "extension")]
pub mod wording;

// Shared by both modules; each module uses part of them.
#[cfg_attr(not(all(feature = "content", feature = "extension")), allow(dead_code))]
mod chrome;
#[cfg_attr(not(all(feature = "content", feature = "extension")), allow(dead_code))]
mod frames;

#[cfg(feature = "content")]
mod act;
#[cfg(feature = "content")]
mod around;
#[cfg(feature = "content")]
mod banners;
#[cfg(feature = "content")]
mod content;
#[cfg(feature = "content")]
mod detect;
#[cfg(feature = "content")]
mod dom;
#[cfg(feature = "content")]
mod dot_font;
#[cfg(feature = "content")]
mod effect;
#[cfg(feature = "content")]
mod forms;
#[cfg(feature = "content")]
mod mask;
#[cfg(feature = "content")]
mod natives;
#[cfg(feature = "content")]
mod overlay;
#[cfg(feature = "content")]
mod page;
#[cfg(feature = "content")]
mod plain_text;
#[cfg(feature = "content")]
mod secret;
#[cfg(feature = "content")]
mod secret_values;
#[cfg(feature = "content")]
mod shown;
#[cfg(feature = "content")]
mod typed;
#[cfg(feature = "content")]
mod watch;

#[cfg(feature = "extension")]
mod activity;
#[cfg(feature = "extension")]
mod guard;
#[cfg(feature = "extension")]
mod locales;
#[cfg(feature = "extension")]
mod page_words;
#[cfg(feature = "extension")]
mod panel;
#[cfg(feature = "extension")]
mod panel_window;
#[cfg(feature = "extension")]
mod settings;
#[cfg(feature = "extension")]
mod tabs;
#[cfg(feature = "extension")]
mod worker;
