//! Page tools: what can be done in a tab, the result every tool returns, and how an element is
//! described. The same types serve the panel's commands, the agent and MCP clients.
//!
//! Every result has the shape `{"status": "ok"|"error", "error"?: "…", "data"?: {…}}` (see
//! `docs/protocol.md`). Numbers (`index`) refer to the latest list of the tab.

use serde::{Deserialize, Serialize};
use serde_json::Value;

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
        /// The element's id as described when the action was approved: if the number now points at
        /// another element, the action is refused as stale instead of acting on the wrong thing.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        expect: Option<u64>,
    },
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
}

impl ActKind {
    pub fn verb(self) -> &'static str {
        match self {
            ActKind::Click => "click",
            ActKind::Type => "type",
            ActKind::Select => "select",
        }
    }
}

impl PageTool {
    /// Whether the tool can change the page. Page-changing tools run only after the host's policy gate;
    /// the service worker refuses them from anywhere else.
    pub fn changes_page(&self) -> bool {
        match self {
            PageTool::ListInteractives { .. }
            | PageTool::OverlayShow
            | PageTool::OverlayHide
            | PageTool::Describe { .. }
            | PageTool::Find { .. }
            | PageTool::Extract
            | PageTool::Scroll { .. }
            | PageTool::Wait { .. }
            | PageTool::ListTabs
            | PageTool::SwitchTab { .. } => false,
            PageTool::OverlayAct { .. }
            | PageTool::Press { .. }
            | PageTool::Navigate { .. }
            | PageTool::Back
            | PageTool::Forward
            | PageTool::Reload
            | PageTool::OpenInNewTab { .. } => true,
        }
    }
}

/// The answer of every tool.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolResult {
    pub status: ToolStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolStatus {
    Ok,
    Error,
}

impl ToolResult {
    pub fn ok(data: Value) -> Self {
        Self {
            status: ToolStatus::Ok,
            error: None,
            data: Some(data),
        }
    }

    pub fn error(message: impl Into<String>) -> Self {
        Self {
            status: ToolStatus::Error,
            error: Some(message.into()),
            data: None,
        }
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
    /// Current value of fields (never for password fields).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// States worth saying: `checked`, `expanded`, `selected`, `required`, …
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub states: Vec<String>,
}

/// `data` of [`PageTool::Describe`]: what the policy gate needs to judge an action on the element. The
/// fields follow the element of `waymark-host classify`'s input. Values of password, one-time-code and
/// card fields are never included.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ElementInfo {
    /// Stable id of the element while it exists (held by the content script, not the page).
    pub id: u64,
    pub index: u32,
    pub role: String,
    pub name: String,
    pub tag: String,
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub input_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// Short text of the element's surroundings (its form, dialog, card or paragraph).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub text_around: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub form: Option<FormInfo>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub autocomplete: Option<String>,
    #[serde(default)]
    pub in_dialog: bool,
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
