//! The Waymark protocol: every message that crosses a boundary between the extension's contexts and the
//! native host, typed once and compiled both for the wasm extension and for the native host.
//!
//! ```text
//!  side panel ──[relay::PanelToWorker]──► service worker ──[host::ToHost]──────► native host
//!  side panel ◄─[relay::WorkerToPanel]─── service worker ◄─[host::ToExtension]── native host
//!                                         service worker ──[relay::WorkerToContent]──► content script
//! ```
//!
//! This crate holds data only: no I/O, no async, no platform code, so that both sides can depend on it.
//! The logic both sides must share lives here too, as pure code: `secret`, which decides whether a
//! field is secret (its value never listed, shown, matched or typed by the agent); `request`, what the
//! request guard lets through and stopped, and what of a request's body may be judged; `text`, how
//! words of a page are matched against word lists; `reason`, why a frame could not do what was asked
//! (typed, said in words by the service worker); and `words`, the words of controls never pressed
//! without the user's yes.
//! Wire format: JSON objects tagged by `"type"` (snake_case); see `docs/protocol.md` for every message
//! as literal JSON (a test keeps that document and these types in step).

pub mod host;
pub mod reason;
pub mod relay;
pub mod request;
pub mod secret;
pub mod text;
pub mod tools;
pub mod words;

pub use host::{
    Activity, AgentEvent, AgentState, AgentUpdate, Answer, Chat, CheckStatus, ClosedReason, DoctorCheck,
    DoctorReport, EnvSetting, ErrorCode, ErrorReply, FaultKind, FilePart, GetSettings, Hello, HostFault,
    PageChanged, Ping, Pong, Question, QuestionClosed, QuestionKind, RequestId, RunDoctor, RunTool,
    SaveSettings, SettingsProblem, SettingsReply, SettingsView, StopAgent, ToExtension, ToHost, ToolDone,
    UserTool, Welcome,
};
pub use reason::{ActFailure, PageReason};
pub use relay::{
    BrowserBrand, ConnectionState, Disconnection, FrameAnswer, FrameBanner, FrameBanners, FramePin,
    FramePlace, FramePreview, FrameScan, FrameSeen, PanelToWorker, ScanEntry, WorkerToContent, WorkerToPanel,
};
pub use request::{
    changes_state, AllowedRequest, Disarmed, Guard, RequestField, RequestKind, StoppedRequest,
};
pub use secret::{secret_kind, FieldFacts, Secret, SecretKind};
pub use tools::{
    ActKind, BannerButton, Danger, Download, Effect, ElementInfo, ErrorKind, FileData, FormInfo, Interactive,
    InteractiveList, Item, ItemKind, KeyContext, LinkInfo, ListScope, OptionChoice, PageTool, Pin, Road,
    Screenshot, ScrollDirection, Submission, ToolResult, ToolSpec, ToolStatus,
};

/// Version of this protocol. Both sides send it when they meet ([`Hello`], [`Welcome`]); a mismatch is
/// reported to the user instead of being half-understood.
pub const PROTOCOL_VERSION: u32 = 4;

/// Name under which the native host is registered with the browser.
pub const HOST_NAME: &str = "io.waymark.host";

/// The extension's id. It is fixed by the public `key` in `manifest.json`, so it is the same on every
/// machine and the host manifest's `allowed_origins` can name exactly it.
pub const EXTENSION_ID: &str = "cefdccnmncoeemlgklbddcicjlldkfko";

/// The browser refuses (and disconnects on) a message from the host larger than this.
pub const MAX_MESSAGE_TO_BROWSER: usize = 1024 * 1024;

/// The browser never sends more than this in one message; the host rejects larger frames.
pub const MAX_MESSAGE_FROM_BROWSER: usize = 64 * 1024 * 1024;

/// The longest chat message the agent takes, in characters: about ten pages of text. A longer one (a
/// whole document pasted by mistake) would fill the model's context and the session file, so it is
/// refused with a sentence saying so, and nothing else changes.
pub const MAX_CHAT_CHARS: usize = 20_000;
