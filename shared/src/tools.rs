//! Page tools: what can be done in a tab, the result every tool returns, and how an element is
//! described. The same types serve the panel's commands, the agent and MCP clients.
//!
//! What each tool is (whether it changes the page, the number it names, how the gate lets it through,
//! what the session keeps of it, how long it may wait, how MCP clients call it) is said once per tool,
//! in `tools/table.rs` ([`PageTool::spec`]).
//!
//! Every result has the shape `{"status": "ok"|"error", "error"?: "…", "data"?: {…}}` (see
//! `docs/protocol.md`). Numbers (`index`) refer to the latest list of the tab.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::reason::PageReason;
use crate::secret::SecretKind;

mod spec;
mod table;

pub use spec::{
    Access, Field, Kept, McpTool, Road, Shape, Shared, ToolSpec, Unique, DOWNLOAD_WAIT_DEFAULT_MS,
    WAIT_DEFAULT_MS,
};

/// A tool to run in a tab's content script.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "tool", rename_all = "snake_case")]
pub enum PageTool {
    /// Number the interactive elements (renewing the numbering) and return a page of them.
    ListInteractives {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        limit: Option<u32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        offset: Option<u32>,
        /// `viewport`: only what is on screen now (the model's observation); `page` (the default):
        /// everything.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        scope: Option<ListScope>,
    },
    OverlayShow,
    OverlayHide,
    /// Describe the element with this number, for the policy gate and for questions to the user.
    Describe {
        index: u32,
    },
    /// Find controls by (part of) their name and/or role, case-, accent- and space-insensitively, in the
    /// current numbering (renewed first).
    Find {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        text: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        role: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        limit: Option<u32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        offset: Option<u32>,
    },
    /// A short summary of the page: title, URL, headings and a snippet of its text (never the whole page).
    Extract,
    /// Scroll the page, or the element (or scrollable container) with this number.
    Scroll {
        direction: ScrollDirection,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        index: Option<u32>,
    },
    /// Wait until the page has settled (loaded, and no changes to the document for a moment), at most
    /// `ms` milliseconds (default 5000).
    Wait {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ms: Option<u32>,
    },
    /// The tabs of the current window, with their numbers for [`PageTool::SwitchTab`].
    ListTabs,
    /// Bring the tab with this number (from [`PageTool::ListTabs`], counting from 1) to the front.
    SwitchTab {
        index: u32,
    },
    /// Press a key in the page: on the element with this number, or where the focus is.
    Press {
        key: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        index: Option<u32>,
    },
    /// Open an address in the tab.
    Navigate {
        url: String,
    },
    Back,
    Forward,
    Reload,
    /// Open an address in a new tab, next to the current one.
    OpenInNewTab {
        url: String,
    },
    /// Act on the element with this number.
    OverlayAct {
        index: u32,
        action: ActKind,
        /// What to type, or which option to select (by label or value).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        text: Option<String>,
    },
    /// The last resort when [`PageTool::OverlayAct`] did not work: act on the control with this number
    /// the way a person's pointer and keyboard would, at the point on screen where it is drawn (the
    /// topmost element there, with the full sequence of pointer, mouse and key events).
    ActByIndex {
        index: u32,
        action: ActKind,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        text: Option<String>,
    },
    /// Move the keyboard focus to the next numbered control after the focused one (of this role, if
    /// given), scrolling it into view; the answer says which control has the focus.
    FocusNext {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        role: Option<String>,
    },
    /// As [`PageTool::FocusNext`], backwards.
    FocusPrev {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        role: Option<String>,
    },
    /// What is on screen in the tab, as an image, with the numbered badges visible. `data`:
    /// [`Screenshot`].
    Screenshot,
    /// Close cookie, consent, newsletter and similar banners in every frame (preferring "reject" and
    /// "only necessary" over "accept"), within `budget_ms` (default 800), then renew the numbering.
    /// `data`: `{"closed": [names of what was pressed], "spent_ms": n}`.
    CloseBanners {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        budget_ms: Option<u32>,
    },
    /// Put files from this computer into the file input with this number. Callers give `paths`; the
    /// host reads the files (only after the user's yes: an upload sends a file to a web site) and fills
    /// `files` for the content script.
    Upload {
        index: u32,
        paths: Vec<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        files: Vec<FileData>,
    },
    /// Click the control with this number and wait (at most `timeout_ms`, default 30000) for the
    /// download it starts to finish. `data`: [`Download`].
    ClickAndWaitDownload {
        index: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        timeout_ms: Option<u32>,
    },
    /// Wait (at most `timeout_ms`, default 30000) for the browser's current or next download to
    /// finish. `data`: [`Download`].
    DownloadWait {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        timeout_ms: Option<u32>,
    },
    /// What `action` would do, without doing it: the element it would reach (by number, or the focused
    /// one for a key without a number), the form it would submit, where it would go, the option it
    /// would choose, and where all that is ([`Pin`]). `data`: [`Effect`]. The policy gate asks this
    /// before every page-changing tool and judges the answer, never the name in the call.
    Preview {
        action: Box<PageTool>,
    },
    /// The banners of every frame and the one button of each that would close it (reject preferred),
    /// described for the gate but not pressed. `data`: `{"banners": [`[`BannerButton`]`]}`.
    FindBanners,
    /// Press these banner buttons (from [`PageTool::FindBanners`], after the gate judged each).
    /// `data`: `{"closed": [labels], "pressed": n}`. Sent only by the gate.
    PressBanners {
        pins: Vec<Pin>,
    },
}

/// Where an action lands: the tab, the frame's document and, for an action on an element, the element.
/// The gate pins every page-changing action to what it judged; the extension refuses it when the tab
/// shows another document (a navigation, a reload) or the element is gone or changed, so a yes never
/// acts on another tab, document or origin than the one it was asked about.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pin {
    pub tab: i32,
    /// The frame's browser id (0 for the top frame).
    pub frame: i32,
    /// A random token the frame's content script chose when the document started: a new document at the
    /// same address has another one. Never shown to the page.
    pub document: String,
    /// The element's id in that document (held by the content script, never in page attributes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub element: Option<u64>,
}

/// `data` of [`PageTool::Preview`]: what an action would do, as the extension can see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Effect {
    /// Where it would happen.
    pub pin: Pin,
    /// The address of the tab's page (its top frame), which names the site to the user.
    pub page_url: String,
    /// The name the tab's page gives its site (`og:site_name`, `application-name`), page text: said
    /// after the host name, never instead of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub site_name: Option<String>,
    /// The element it would reach; absent for actions on the tab (navigation) and for a key pressed
    /// where nothing has the focus.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<ElementInfo>,
    /// The target was found by the keyboard focus (a key without a number).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub focused: bool,
    /// For choosing in a list: the option that would be chosen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub option: Option<OptionChoice>,
    /// For a navigation: whether the tab's page links to the address's site (it named it).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub linked: bool,
    /// For reloading or moving through history: the address of the form post this would send again
    /// (the document it would show came from posting a form there), which the browser does not ask
    /// about when an extension reloads a tab.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resends: Option<String>,
    /// For a key: what the page says about keys where it lands ([`KeyContext`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keys: Option<KeyContext>,
}

/// What the page says about a key pressed in it, beyond the element the key reaches: whether Escape
/// would close something, and which control the page itself says the key activates.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyContext {
    /// Something is open that Escape closes: a dialog, a popover, an expanded menu or list.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub open_layer: bool,
    /// The control whose `aria-keyshortcuts` names this key: the page's own word for what it does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shortcut: Option<ElementInfo>,
}

/// The item a control acts on, as the page shows it: its row, list item or card, or the heading above
/// it. Page text, for the question ("Delete … for 'Quarterly report' (row 3 of 'Inbox')") and for the
/// check at the yes that the control still acts on the same item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Item {
    pub kind: ItemKind,
    /// The item's words: a row's header cell (or its cells' words), a list item's or card's heading
    /// (or its words), the heading's text.
    pub name: String,
    /// Its place among its siblings, from 1 (rows and list items).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<u32>,
    /// The name of the table or list it is in (its caption, label, or the heading above it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub of: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ItemKind {
    Row,
    ListItem,
    Card,
    /// Only the nearest heading above the control says what it is about.
    Heading,
}

/// What in a page's structure marks a control as dangerous, whatever language its words are in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Danger {
    /// It sits in a `role=alertdialog`: the page interrupts to ask about something urgent.
    AlertDialog,
    /// Its class or a variant attribute says so (`btn-danger`, `button--destructive`,
    /// `data-variant="destructive"`, `color="danger"`).
    Marked,
    /// `aria-describedby` points at a warning (a `role=alert`, or an element the page marks as one).
    Warning,
}

/// The option a choice would make.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OptionChoice {
    /// The option's label, as the list shows it.
    pub label: String,
    /// The list acts as soon as it changes (an `onchange` handler, or no form with a button to send the
    /// choice): choosing is then the action itself.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub acts_on_change: bool,
}

/// What activating a control (or Enter in a field) would submit.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Submission {
    /// Where the form is sent, resolved (a submit button's own `formaction` counts).
    pub action: String,
    /// `get`, `post` or `dialog`.
    pub method: String,
    /// The label of the control that submits: the button itself, or for Enter in a field the form's
    /// default button, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub submitter: Option<String>,
    /// The form holds a secret field, as the one secret predicate ([`crate::secret`]) finds it: a
    /// password when it holds one, else the kind of its first secret field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret: Option<SecretKind>,
    /// The answer opens in another tab or window (`target`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub new_tab: bool,
    /// What Waymark typed into the form's fields that they still hold (never a secret field's): what
    /// sending the form would carry, for the gate to weigh against where it goes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub carries: Vec<String>,
}

/// Where activating a link (or a control inside one) goes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkInfo {
    /// The address, resolved.
    pub href: String,
    /// It opens in another tab or window (`target`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub new_tab: bool,
    /// It downloads its address instead of opening it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub download: bool,
}

/// One banner's way out, as [`PageTool::FindBanners`] describes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BannerButton {
    /// The button, pinned.
    pub pin: Pin,
    /// What the banner is about: `cookie`, `newsletter` or `app`.
    pub kind: String,
    /// What pressing it does to the banner: `reject`, `dismiss`, `close`, `save`, `settings`, `accept`.
    pub choice: String,
    /// The button as the gate judges any control.
    pub target: ElementInfo,
}

/// A file's contents on its way into a page's file input.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileData {
    /// The file name the page sees (no directories).
    pub name: String,
    /// The media type, such as `application/pdf`.
    pub mime: String,
    /// The bytes, base64-encoded.
    pub base64: String,
}

/// `data` of [`PageTool::Screenshot`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Screenshot {
    /// `image/png` or `image/jpeg`.
    pub mime: String,
    /// The image, base64-encoded.
    pub base64: String,
    pub width: u32,
    pub height: u32,
}

/// `data` of [`PageTool::ClickAndWaitDownload`] and [`PageTool::DownloadWait`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Download {
    /// The file's name in the browser's download folder.
    pub filename: String,
    /// Where it came from.
    pub url: String,
    #[serde(default)]
    pub mime: String,
    pub bytes: u64,
    /// `complete` or `interrupted` (then `error` says why).
    pub state: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ListScope {
    Viewport,
    Page,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScrollDirection {
    Up,
    Down,
    Top,
    Bottom,
}

/// What [`PageTool::OverlayAct`] does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActKind {
    Click,
    Type,
    Select,
    /// A right click: the page's own context menu, where it has one.
    RightClick,
    /// The pointer rested on the control (a menu that opens on hover, a tooltip).
    Hover,
    /// Set the control's value (`text`): a slider's, a spin button's or a rating's number, by the keys
    /// such a widget takes; a list's option or a field's text as `select` and `type` do.
    Set,
}

impl ActKind {
    /// Every action, in the order the tools' descriptions list them.
    pub const ALL: [ActKind; 6] = [
        ActKind::Click,
        ActKind::Type,
        ActKind::Select,
        ActKind::RightClick,
        ActKind::Hover,
        ActKind::Set,
    ];

    pub fn verb(self) -> &'static str {
        match self {
            ActKind::Click => "click",
            ActKind::Type => "type",
            ActKind::Select => "select",
            ActKind::RightClick => "right_click",
            ActKind::Hover => "hover",
            ActKind::Set => "set",
        }
    }
}

/// The answer of every tool. An error says what went wrong twice: in words for a person (`error`) and
/// as a machine-readable `kind`, which is what code decides by — never the words. A frame's refusal
/// also says why, typed (`reason`): the content script has no words, and the service worker says the
/// reason in the user's language into `error` where the frame's answer arrives.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolResult {
    pub status: ToolStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Why it was not done, when it was not (`status: error`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<ErrorKind>,
    /// Why a frame refused or failed the tool, typed; `error` is said from it. (Boxed: most results
    /// have none, and every result stays small.)
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "reason_of"
    )]
    pub reason: Option<Box<PageReason>>,
    /// With `kind: waiting_for_user`: the question the user is asked (its id names the answer).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question: Option<crate::RequestId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
}

/// A result's reason, read as the JSON value every result's `data` is read as already: the reason's
/// own reader then exists once in the extension's wasm (which has a size budget), not once for every
/// message a result travels in.
fn reason_of<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<Box<PageReason>>, D::Error> {
    let Some(value) = Option::<Value>::deserialize(deserializer)? else {
        return Ok(None);
    };
    PageReason::from_value(&value)
        .map(|reason| Some(Box::new(reason)))
        .map_err(serde::de::Error::custom)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolStatus {
    Ok,
    Error,
}

/// Why a tool was not done: what callers (the agent, the step log, MCP clients) act on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// The number no longer means what it meant (or there is none such): the page was numbered again
    /// and `data` holds the fresh list.
    Stale,
    /// The page the action was judged on is gone (a navigation, a reload): `data` holds the new list.
    PageChanged,
    /// The user does this step (a password, a code, a captcha): the gate handed it over.
    HandedOver,
    /// The user said no.
    Declined,
    /// The user is asked first (`question`); the outcome comes with their answer.
    WaitingForUser,
    /// The question closed unanswered: it expired, its page changed, or its asker stopped waiting.
    Unanswered,
    /// The page, the browser or a server did not answer in time.
    TimedOut,
    /// The call itself was wrong: an unknown tool, an argument missing or out of range, a file that
    /// is not there, a field that takes no files.
    BadArguments,
    /// The page or the browser cannot be reached (a browser page, no browser connected).
    Unreachable,
    /// Not allowed at all: a client the user did not admit, a step that is Waymark's own.
    NotAllowed,
    /// The user is being asked whether this outside MCP client may use the browser at all; the call
    /// was not run and can be tried again (it runs once the user has said yes).
    AwaitingConsent,
    /// The user stopped the agent before this step's outcome came back: it may or may not have
    /// happened, so the page is looked at again before anything else.
    Stopped,
    /// The request guard stopped what the action made the page send and could not ask about it: the
    /// page was replaced by the browser's "blocked" page. Nothing was sent.
    Blocked,
    /// The page shows its own dialog (`alert`, `confirm`, `prompt`, "leave this page?"), which blocks
    /// it until the user answers it in the browser's dialog: the call was not done, or its outcome is
    /// the page's to show once the user has answered. `data.dialog` is `{id, kind, text}` (see
    /// [`crate::WorkerToPanel::PageDialog`]), `data.raised` whether this call made the page show it.
    /// The call can be made again once the dialog is gone.
    PageDialog,
    /// Anything else the page or a server said went wrong.
    Failed,
}

impl ToolResult {
    pub fn ok(data: Value) -> Self {
        Self {
            status: ToolStatus::Ok,
            error: None,
            kind: None,
            reason: None,
            question: None,
            data: Some(data),
        }
    }

    /// A failure of kind [`ErrorKind::Failed`]: the words say what went wrong.
    pub fn error(message: impl Into<String>) -> Self {
        Self::failed(ErrorKind::Failed, message)
    }

    /// A failure of this kind, said in these words.
    pub fn failed(kind: ErrorKind, message: impl Into<String>) -> Self {
        Self {
            status: ToolStatus::Error,
            error: Some(message.into()),
            kind: Some(kind),
            reason: None,
            question: None,
            data: None,
        }
    }

    /// A frame's failure of this kind, for this reason, not yet in words (the service worker says it).
    pub fn refused(kind: ErrorKind, reason: PageReason) -> Self {
        Self {
            status: ToolStatus::Error,
            error: None,
            kind: Some(kind),
            reason: Some(Box::new(reason)),
            question: None,
            data: None,
        }
    }

    /// The same result with `data` attached (a fresh list with a refusal).
    pub fn with_data(mut self, data: Option<Value>) -> Self {
        self.data = data;
        self
    }

    /// Whether it failed for this reason.
    pub fn is(&self, kind: ErrorKind) -> bool {
        self.kind == Some(kind)
    }
}

/// `data` of [`PageTool::ListInteractives`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InteractiveList {
    pub url: String,
    pub title: String,
    /// How many interactive elements the page has in all (the list may be a page of them).
    pub total: u32,
    pub offset: u32,
    pub items: Vec<Interactive>,
}

/// One numbered element, as the user and the model see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Interactive {
    /// The overlay number.
    pub index: u32,
    /// ARIA role, explicit or implied by the tag (`button`, `link`, `textbox`, `checkbox`, …).
    pub role: String,
    /// Accessible name, shortened.
    pub name: String,
    /// Current value of fields; never for a secret field ([`crate::secret`]: passwords, one-time codes,
    /// PINs, card details), so such values cannot be listed, found or read out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// States worth saying: `checked`, `expanded`, `selected`, `required`, …
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub states: Vec<String>,
    /// Which one it is, when other controls of the list have the same role and name ("Delete" on
    /// every row): the words of its own row or item (the row's first cell, a heading).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<String>,
}

/// `data` of [`PageTool::Describe`], and the target of an [`Effect`]: what the policy gate needs to judge
/// an action on the element — all of its words (what a screen reader says, what it shows, its label,
/// its title), and what activating it would do. The fields follow the element of `waymark-host
/// classify`'s input. A secret field (see `secret`) never has a `value`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ElementInfo {
    /// Its number in the latest list; absent for a focused element that has none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<u32>,
    pub role: String,
    /// The accessible name, as a screen reader says it.
    pub name: String,
    pub tag: String,
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub input_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// What it shows: its visible text, when it has any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Its `aria-label` (or `aria-labelledby`) text, which may say something else than it shows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Short visible text of the element's surroundings (its form, dialog, card or paragraph).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub text_around: String,
    /// Visible words of the wider part of the page around it (a toolbar, the notice above a form's
    /// buttons), where a page says whether saving publishes.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub context: String,
    /// The form it belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub form: Option<FormInfo>,
    /// What activating it submits (a submit button), or what Enter in it submits (a field).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub submits: Option<Submission>,
    /// Where activating it goes (a link, or a control inside one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link: Option<LinkInfo>,
    /// A field or region that takes text.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub editable: bool,
    /// A field where Enter sends what it holds: an editable region or multi-line box, or a text box
    /// outside any form (chat and comment boxes).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sends_on_enter: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub autocomplete: Option<String>,
    /// What secret the field holds, by [`crate::secret::secret_kind`] over everything the page knows
    /// (attributes, label, `-webkit-text-security`, whether it was ever a password field): the gate
    /// treats a field described as secret as secret, whatever else it sees.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret: Option<SecretKind>,
    #[serde(default)]
    pub in_dialog: bool,
    /// A field that takes several lines (a text area, `aria-multiline`, a rich-text region): a line
    /// break typed into it is text, not Enter.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub multiline: bool,
    /// The item it acts on (its row, list item, card, or the heading above it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item: Option<Item>,
    /// The words of the page's own question it answers: the dialog it is in, or the nearest container
    /// that holds words besides its controls (a paragraph above an "OK"). Shortened, never dropped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub asks: Option<String>,
    /// What in the page's structure marks it as dangerous, if anything.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub danger: Option<Danger>,
    /// Activating it only opens a dialog of the page's own, which the page names (`aria-controls`,
    /// `popovertarget`, `commandfor`, `data-bs-target`) and hides until then; it submits nothing and
    /// goes nowhere. The dialog's own buttons are judged when they are pressed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub opens_dialog: bool,
    /// The frame's URL.
    pub url: String,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FormInfo {
    #[serde(default)]
    pub action: String,
    #[serde(default)]
    pub method: String,
}
