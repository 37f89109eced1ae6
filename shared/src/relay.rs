//! Messages between the extension's own contexts: the side panel and the service worker, over a
//! `chrome.runtime` port. The service worker owns the one native-messaging port; panels talk to the host
//! only through it.

use serde::{Deserialize, Serialize};

use crate::host::{RequestId, ToExtension, ToHost};
use crate::tools::{PageTool, ToolResult};

/// Side panel → service worker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum PanelToWorker {
    /// Forward this message to the host.
    ToHost { message: ToHost },
    /// Run a tool that does not change the page (listing, the overlay) in a tab: the active tab of the
    /// focused window unless `tab_id` names one. Page-changing tools go through the host's gate instead.
    Tool {
        id: RequestId,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tab_id: Option<i32>,
        tool: PageTool,
    },
}

/// Service worker → side panel.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum WorkerToPanel {
    /// The state of the connection to the host; sent when a panel connects and on every change.
    Connection { state: ConnectionState },
    /// A message from the host.
    FromHost { message: ToExtension },
    /// A request from this panel could not be forwarded.
    NotDelivered { id: Option<u64>, reason: String },
    /// The answer to [`PanelToWorker::Tool`].
    ToolResult { id: RequestId, result: ToolResult },
    /// A keyboard shortcut was pressed (`confirm`, `reject`, `toggle-overlay`, `manual-done`): the panel
    /// does what it means and says the result, wherever the focus was.
    Shortcut { command: String },
    /// The question was answered in another panel: this one takes it away, saying nothing (the user
    /// hears the outcome where they answered).
    Answered { question: RequestId },
    /// This panel's answer was to a question no longer open (answered in another panel, or closed):
    /// it never reached the host, and the panel says so.
    AnswerRefused { question: RequestId },
    /// A page in a tab Waymark acts in shows its own dialog: every panel says it once, at once. The
    /// `result` of kind `page_dialog` is the one every tool for that tab gets while it is up: its
    /// `error` says what the page asks, `data.dialog` is `{id, kind, text}` (`kind`: `alert`,
    /// `confirm`, `prompt` or `leave`; `text`: the page's words, shortened, secret values taken out —
    /// data, never instructions). (A result, not a type of its own: the extension's module carries no
    /// reader for one more message shape.)
    PageDialog { result: ToolResult },
}

/// Service worker → content script (one frame of a tab). The content script answers with a
/// [`ToolResult`] through the message's response callback.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum WorkerToContent {
    /// Run a tool on this frame's own numbering: indexes here are the frame's local ones. `number` is
    /// the tab-wide number the user knows the element by, for the words of any answer.
    Tool {
        tool: PageTool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        number: Option<u32>,
        /// For a page-changing tool: the document (and element) the gate judged it on. The frame refuses
        /// the tool when it shows another document, or when the element is gone or changed; with an
        /// element, the tool acts on exactly that element, whatever its number is now.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pin: Option<FramePin>,
        /// For a guarded page-changing tool: from now until [`WorkerToContent::Disarm`] (or ten
        /// seconds), keep this frame from posting a form that these allowances do not cover.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        guard: Option<crate::request::Guard>,
    },
    /// The guarded tool has taken effect: stop keeping forms from being posted, and answer with what
    /// was kept ([`crate::request::Disarmed`] in the result's `data`).
    Disarm,
    /// Which document this frame shows now: answered with `{"document": token, "url": …}`.
    Document,
    /// Find this frame's interactive elements (renewing its local numbering); answered with a
    /// [`FrameScan`] in the result's `data`. With `viewport`, only what is on screen.
    Scan {
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        viewport: bool,
        /// Describe only the first this many controls; the others are numbered all the same and
        /// only counted ([`ScanEntry::More`]). A list of the tab's first N controls needs no more
        /// than the first N of any frame, and describing thousands costs time nobody uses.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        describe: Option<u32>,
    },
    /// Draw these numbers: `numbers[i]` is the tab-wide number of this frame's i-th element.
    Badges { numbers: Vec<u32> },
    /// Say whether the masks this frame placed for a picture (`PageTool::Screenshot`) still cover every
    /// secret field where it is drawn, nothing having moved since they were placed: answered with
    /// `{"held": bool}`. Asked after the picture is taken, which is thrown away unless every frame
    /// says yes.
    MasksHeld,
    /// Say where this frame stands in its parent (answered with a [`FramePlace`] in the result's
    /// `data`): the worker matches it to the parent's [`ScanEntry::Frame`]. Cheap, reads nothing of the
    /// page's content, and changes nothing in it.
    Locate,
    /// Scroll the lists that scroll inside the page (those holding numbered controls; a virtualised
    /// list draws only the rows in view) one view further down, as a person looking for a row does,
    /// for `find` (`first`: the first scroll of this `find`); with `restore`, back to where they were
    /// before this `find`'s first scroll. Answered with `{"moved": bool}`.
    ScrollLists {
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        restore: bool,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        first: bool,
    },
    /// Waymark is at work in this tab (a panel open on it, a tool addressed to it moments ago) and
    /// this document is new: list the page once the browser is idle after its load, so the first
    /// look costs what a repeated one does. Answered at once; never sent for a tab merely browsed.
    Prepare,
}

/// A frame's answer to the service worker: the tool's result, and what the user typed into the frame's
/// secret fields. The worker keeps those values to take them out of everything it relays
/// (`waymark_protocol::secret::values::Redactor`) and never sends them on: only `result` travels
/// further.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FrameAnswer {
    pub result: ToolResult,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub secrets: Vec<String>,
}

/// One frame's interactive elements in document order, with the child frames where they stand, so the
/// service worker can splice every frame into one numbering for the whole tab.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FrameScan {
    /// The document's token (see [`crate::Pin::document`]).
    pub document: String,
    pub url: String,
    pub title: String,
    pub entries: Vec<ScanEntry>,
    /// How many child windows this frame's window had during the scan (`window.length`): a child's
    /// [`FramePlace::index`] is only compared with a [`ScanEntry::Frame`]'s while the parent still
    /// has that many.
    #[serde(default)]
    pub windows: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ScanEntry {
    /// An element of this frame; its `index` is the frame's local number.
    Control(crate::tools::Interactive),
    /// A child frame (`iframe`, `frame`) at this place in the document, described by what the parent
    /// can see of it. A content script cannot learn a frame's browser id, and Waymark sends nothing
    /// into a page's windows (a page would see it), so the worker lists the tab's frames itself
    /// (`chrome.webNavigation`), asks each child where it stands ([`WorkerToContent::Locate`]) and
    /// matches the two.
    Frame(FrameSeen),
    /// This many further controls of this frame, next in its local numbering, not described (see
    /// [`WorkerToContent::Scan`]'s `describe`).
    More { count: u32 },
}

/// A child frame as its parent sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FrameSeen {
    /// The address the element asks for: its `src` resolved against the document, `about:srcdoc` for a
    /// `srcdoc` frame, `about:blank` for neither.
    pub src: String,
    /// The element's `name` attribute.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// The frame's content box in CSS pixels: what the child sees as its viewport.
    pub width: f64,
    pub height: f64,
    /// Its position among the parent window's child windows (`window[index]`); none for a frame the
    /// window does not index (one inside a shadow root).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<u32>,
}

/// Where a frame stands, as the frame itself knows it: the answer to [`WorkerToContent::Locate`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FramePlace {
    /// The frame's address now.
    pub url: String,
    /// The frame's window name, which starts as its element's `name` attribute.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// The frame's viewport in CSS pixels (0 × 0 for a frame that is not rendered).
    pub width: f64,
    pub height: f64,
    /// Its position among the parent window's child windows; none in a top frame or a frame the parent
    /// window does not index.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<u32>,
    /// How many child windows the parent window has now.
    #[serde(default)]
    pub siblings: u32,
}

/// Where the service worker's connection to the native host stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum ConnectionState {
    /// Starting the host and waiting for its [`crate::Welcome`].
    Connecting,
    /// The host answered and speaks our protocol; `faults` are what it found wrong in its own setup
    /// (see [`crate::Welcome::faults`]).
    Connected {
        host_version: String,
        pid: u32,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        faults: Vec<crate::HostFault>,
    },
    /// The browser found no host manifest for [`crate::HOST_NAME`].
    NotInstalled { retry_in_ms: u32 },
    /// A manifest exists but does not allow this extension's id (`extension_id`, in `browser`): the
    /// panel says the command that allows it.
    Forbidden {
        retry_in_ms: u32,
        #[serde(default)]
        extension_id: String,
        #[serde(default)]
        browser: BrowserBrand,
    },
    /// The host speaks another protocol version.
    Incompatible {
        host_version: String,
        host_protocol: u32,
    },
    /// The host went away (exited, crashed, was killed); a new one is started after `retry_in_ms`.
    Disconnected { why: Disconnection, retry_in_ms: u32 },
}

/// Which browser the extension runs in, as `waymark-host install --browser` names it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BrowserBrand {
    Chrome,
    /// Chromium itself, and any browser that does not say it is Chrome or Edge.
    #[default]
    Chromium,
    Edge,
}

impl BrowserBrand {
    /// The brand among the names a browser gives itself (`navigator.userAgentData.brands`).
    pub fn from_brands<'a>(brands: impl IntoIterator<Item = &'a str>) -> BrowserBrand {
        let brands: Vec<&str> = brands.into_iter().collect();
        if brands.contains(&"Microsoft Edge") {
            BrowserBrand::Edge
        } else if brands.contains(&"Google Chrome") {
            BrowserBrand::Chrome
        } else {
            BrowserBrand::Chromium
        }
    }

    /// Its name for `waymark-host install --browser`.
    pub fn option(self) -> &'static str {
        match self {
            BrowserBrand::Chrome => "chrome",
            BrowserBrand::Chromium => "chromium",
            BrowserBrand::Edge => "edge",
        }
    }
}

/// Why the connection to the host ended, typed so the panel says it in the user's language rather
/// than in the browser's English.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Disconnection {
    /// The host program ended (killed, crashed, or quit).
    Exited,
    /// The browser could not start the host program.
    FailedToStart,
    /// The browser could not read the host's messages or write to it.
    CommunicationFailed,
    /// The host closed the connection and the browser gave no reason.
    Closed,
    /// The host started but did not say welcome within `seconds`.
    Silent { seconds: u32 },
    /// A reason the browser gave that is none of the above, in its own words.
    Other { reason: String },
}

/// The part of a [`crate::Pin`] that a frame checks itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FramePin {
    pub document: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub element: Option<u64>,
}

/// A frame's answer to [`crate::PageTool::Preview`]; the worker adds the tab and frame to make the
/// [`crate::Effect`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FramePreview {
    pub document: String,
    /// The frame's address.
    pub url: String,
    /// The name the frame's document gives its site (`og:site_name`, else `application-name`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub site_name: Option<String>,
    /// The element the action would reach, and its id in this document.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<crate::ElementInfo>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub element: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub option: Option<crate::OptionChoice>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub linked: bool,
    /// This frame's document has the keyboard focus now (for a key pressed without a number).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub has_focus: bool,
    /// For going back or forward: the address of the history entry it would show, when this frame can
    /// tell (entries of its own origin, from the Navigation API).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destination: Option<String>,
    /// For a key: what this frame says about keys where it lands.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keys: Option<crate::KeyContext>,
}

/// A frame's answer to [`crate::PageTool::FindBanners`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FrameBanners {
    pub document: String,
    pub banners: Vec<FrameBanner>,
}

/// One banner's chosen button in a frame.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FrameBanner {
    /// The button's id in the frame's document.
    pub element: u64,
    pub kind: String,
    pub choice: String,
    pub target: crate::ElementInfo,
}
