//! `fake-llm`: a scripted OpenAI-compatible chat-completions server for Waymark's tests.
//!
//! It answers `POST /v1/chat/completions` (also `/chat/completions`) from a [`Script`]: one [`Step`] per
//! request, in order. A step is a reply (any assistant message in OpenAI's JSON shape, or a convenient
//! tool call) or a misbehaviour (an HTTP status with an optional `Retry-After`, a body that is not JSON,
//! a tool call whose arguments are not JSON), optionally after a delay. When the script is exhausted it
//! answers 500 with a message saying so. Every request body is recorded, so a test can check what the
//! client sent ([`FakeLlm::requests`], or `GET /_fake/requests` for tests written in other languages).
//! `POST /_fake/steps` appends steps (a script's JSON) to what is left, for a test that learns them late.
//! `GET /v1/models` lists one model. Every answer comes whole (Waymark never asks for a stream).
//!
//! What it must not do: listen anywhere but 127.0.0.1, or reach out to any network itself. It is a test
//! tool: nothing of Waymark's runtime depends on it.
//!
//! Its parts: `script` (what to answer: [`Script`], [`Step`], [`Action`]), `server` (listening,
//! routing, recording: [`FakeLlm`]), `reply` (a step as an OpenAI-shaped HTTP answer).

mod reply;
mod script;
mod server;

pub use script::{Action, Script, Step};
pub use server::{FakeLlm, FakeLlmError};
