//! Every page tool, described once: one entry per tool, with an example value of each of its fields
//! and its [`ToolSpec`] (see `spec.rs` for what each fact means and what derives from it). The tools
//! MCP clients and the model may call come first, in the order they are listed to them; the steps only
//! Waymark itself takes come last.
//!
//! What it must not do: describe a tool anywhere else, or promise a caller what the tool does not do:
//! an argument listed here is one the tool takes (the catalogue's tests send each one), and a result's
//! shape asks only for what the extension and the gate always send.

use super::spec::{Field, Kept, McpTool, Road, Shape, ToolSpec, DOWNLOAD_WAIT_DEFAULT_MS, WAIT_DEFAULT_MS};
use super::{ActKind, PageTool, ScrollDirection};

crate::tool_table! {
    PageTool;

    ListInteractives { limit: None, offset: None, scope: None } => ToolSpec {
        road: Road::Read,
        number: None,
        kept: Kept::Whole,
        waits_ms: 0,
        mcp: Some(const { &McpTool {
            name: "browser_list_interactives",
            title: "List the page's controls",
            description: "Number the page's interactive controls (renewing the numbers) and list a page \
                          of them: number (index), role, name, value, states. Use only numbers from the \
                          latest list.",
            arguments: &[
                Field::optional("limit", Shape::NUMBER).about("How many controls to list (default 50)."),
                Field::optional("offset", Shape::COUNT).about("How many to skip."),
                Field::optional("scope", Shape::Choice(&["viewport", "page"]))
                    .about("viewport: only what is on screen; page (default): everything."),
            ],
            output: Some(&LIST),
        } }),
    };

    Find { text: None, role: None, limit: None, offset: None } => ToolSpec {
        road: Road::Read,
        number: None,
        kept: Kept::Whole,
        waits_ms: 0,
        mcp: Some(const { &McpTool {
            name: "browser_find",
            title: "Find controls",
            description: "Find controls by (part of) their name and/or their role, ignoring case, accents \
                          and spaces; returns them with their numbers.",
            arguments: &[
                Field::optional("text", Shape::TEXT).about("Words of the control's name."),
                ROLE,
                Field::optional("limit", Shape::NUMBER).about("How many to return (default 50)."),
                Field::optional("offset", Shape::COUNT).about("How many to skip."),
            ],
            output: Some(&LIST),
        } }),
    };

    Extract {} => ToolSpec {
        road: Road::Read,
        number: None,
        kept: Kept::Whole,
        waits_ms: 0,
        mcp: Some(const { &McpTool {
            name: "browser_extract",
            title: "Read the page",
            description: "A short summary of the page: title, address, headings and the start of its text.",
            arguments: &[],
            output: Some(&EXTRACT),
        } }),
    };

    Scroll { direction: ScrollDirection::Down, index: None } => ToolSpec {
        road: Road::Read,
        number: index.into(),
        kept: Kept::Whole,
        waits_ms: 0,
        mcp: Some(const { &McpTool {
            name: "browser_scroll",
            title: "Scroll",
            description: "Scroll the page, or the control or area with this number.",
            arguments: &[
                Field::required("direction", Shape::Choice(&["up", "down", "top", "bottom"])),
                Field::optional("index", Shape::NUMBER).about("The number of the area to scroll (optional)."),
            ],
            output: None,
        } }),
    };

    Wait { ms: None } => ToolSpec {
        road: Road::Read,
        number: None,
        kept: Kept::Whole,
        waits_ms: ms.unwrap_or(WAIT_DEFAULT_MS),
        mcp: Some(const { &McpTool {
            name: "browser_wait",
            title: "Wait for the page",
            description: "Wait until the page has settled (loaded, no changes for a moment), at most ms \
                          milliseconds (default 5000).",
            arguments: &[Field::optional("ms", Shape::between(0, 60_000))],
            output: None,
        } }),
    };

    OverlayAct { index: 1, action: ActKind::Click, text: None } => ToolSpec {
        road: Road::Act,
        number: Some(index),
        kept: Kept::TextWithheld(text),
        waits_ms: 0,
        mcp: Some(const { &McpTool {
            name: "browser_overlay_act",
            title: "Act on a control",
            description: "Click, type into, select an option of, right-click, hover over or set the value \
                          of the control with this number (from the latest list). The answer says what \
                          changed (the page, the focus, the control, the address, requests); nothing \
                          changed means the page did not take it. Actions that pay, send, delete or \
                          cannot be undone wait for the user's yes in the Waymark panel.",
            arguments: ACT,
            output: None,
        } }),
    };

    ActByIndex { index: 1, action: ActKind::Click, text: None } => ToolSpec {
        road: Road::Act,
        number: Some(index),
        kept: Kept::TextWithheld(text),
        waits_ms: 0,
        mcp: Some(const { &McpTool {
            name: "browser_act_by_index",
            title: "Act on a control at its place on screen",
            description: "Last resort when browser_overlay_act did not work: click, type into or select in \
                          the control with this number the way a person's pointer and keyboard would, at \
                          its place on screen. Go back to browser_overlay_act as soon as it works again.",
            arguments: ACT,
            output: None,
        } }),
    };

    FocusNext { role: None } => ToolSpec {
        road: Road::Read,
        number: None,
        kept: Kept::Whole,
        waits_ms: 0,
        mcp: Some(const { &McpTool {
            name: "browser_focus_next",
            title: "Focus the next control",
            description: "Move the keyboard focus to the next numbered control (of this role, if given) and \
                          say which it is.",
            arguments: &[ROLE],
            output: None,
        } }),
    };

    FocusPrev { role: None } => ToolSpec {
        road: Road::Read,
        number: None,
        kept: Kept::Whole,
        waits_ms: 0,
        mcp: Some(const { &McpTool {
            name: "browser_focus_prev",
            title: "Focus the previous control",
            description: "Move the keyboard focus to the previous numbered control (of this role, if given) \
                          and say which it is.",
            arguments: &[ROLE],
            output: None,
        } }),
    };

    // Closing banners presses buttons in the page: the gate judges each button like a click and
    // presses only those it allows.
    CloseBanners { budget_ms: None } => ToolSpec {
        road: Road::Banners { budget_ms: *budget_ms },
        number: None,
        kept: Kept::Whole,
        waits_ms: 0,
        mcp: Some(const { &McpTool {
            name: "browser_close_banners",
            title: "Close banners",
            description: "Close cookie, consent and newsletter banners (choosing reject or only-necessary \
                          where offered), then renew the numbers and list the first 30 controls (list).",
            arguments: &[Field::optional("budget_ms", Shape::between(100, 5_000))
                .about("How long to try, in milliseconds (default 800).")],
            output: Some(&BANNERS),
        } }),
    };

    Screenshot {} => ToolSpec {
        road: Road::Read,
        number: None,
        kept: Kept::Whole,
        waits_ms: 0,
        mcp: Some(const { &McpTool {
            name: "browser_screenshot",
            title: "Picture of the screen",
            description: "A picture of what is on screen in the tab, with the numbered badges visible.",
            arguments: &[],
            output: Some(&PICTURE),
        } }),
    };

    Upload { index: 1, paths: vec!["report.pdf".into()], files: Vec::new() } => ToolSpec {
        road: Road::Act,
        number: Some(index),
        kept: Kept::FilesDropped(files),
        waits_ms: 0,
        mcp: Some(const { &McpTool {
            name: "browser_upload",
            title: "Upload files",
            description: "Put files from this computer into the file field with this number. The user is \
                          always asked first.",
            arguments: &[
                Field::required("index", Shape::NUMBER).about("The file field's number."),
                Field::required("paths", Shape::List { of: &Shape::TEXT, non_empty: true, max: None })
                    .about("The files' full paths on this computer."),
            ],
            output: None,
        } }),
    };

    ClickAndWaitDownload { index: 1, timeout_ms: None } => ToolSpec {
        road: Road::Act,
        number: Some(index),
        kept: Kept::Whole,
        waits_ms: timeout_ms.unwrap_or(DOWNLOAD_WAIT_DEFAULT_MS),
        mcp: Some(const { &McpTool {
            name: "browser_click_and_wait_download",
            title: "Click and wait for the download",
            description: "Click the control with this number and wait for the download it starts to finish; \
                          says the file's name and size.",
            arguments: &[
                Field::required("index", Shape::NUMBER).about("The control's number."),
                DOWNLOAD_TIMEOUT,
            ],
            output: Some(&DOWNLOAD),
        } }),
    };

    DownloadWait { timeout_ms: None } => ToolSpec {
        road: Road::Read,
        number: None,
        kept: Kept::Whole,
        waits_ms: timeout_ms.unwrap_or(DOWNLOAD_WAIT_DEFAULT_MS),
        mcp: Some(const { &McpTool {
            name: "browser_download_wait",
            title: "Wait for a download",
            description: "Wait for the browser's current or next download to finish; says the file's name \
                          and size.",
            arguments: &[DOWNLOAD_TIMEOUT],
            output: Some(&DOWNLOAD),
        } }),
    };

    Press { key: "Enter".into(), index: None } => ToolSpec {
        road: Road::Act,
        number: index.into(),
        kept: Kept::Whole,
        waits_ms: 0,
        mcp: Some(const { &McpTool {
            name: "browser_press",
            title: "Press a key",
            description: "Press a key (Enter, Tab, Escape, Space, an arrow, Delete, F1-F12, ContextMenu, a \
                          character, or a chord such as Shift+F10 or Ctrl+S) on the control with this \
                          number, or where the focus is.",
            arguments: &[
                Field::required("key", Shape::NON_EMPTY_TEXT)
                    .about("The key, such as Enter, Tab, Escape, Space, ArrowDown, ContextMenu, Shift+F10."),
                Field::optional("index", Shape::NUMBER).about("The control's number (optional)."),
            ],
            output: None,
        } }),
    };

    Navigate { url: "https://example.com/".into() } => ToolSpec {
        road: Road::Act,
        number: None,
        kept: Kept::Whole,
        waits_ms: 0,
        mcp: Some(const { &McpTool {
            name: "browser_navigate",
            title: "Open an address",
            description: "Open a web address in the tab.",
            arguments: ADDRESS,
            output: None,
        } }),
    };

    Back {} => ToolSpec {
        road: Road::Act,
        number: None,
        kept: Kept::Whole,
        waits_ms: 0,
        mcp: Some(const { &McpTool {
            name: "browser_back",
            title: "Go back",
            description: "Go back one page in the tab's history.",
            arguments: &[],
            output: None,
        } }),
    };

    Forward {} => ToolSpec {
        road: Road::Act,
        number: None,
        kept: Kept::Whole,
        waits_ms: 0,
        mcp: Some(const { &McpTool {
            name: "browser_forward",
            title: "Go forward",
            description: "Go forward one page in the tab's history.",
            arguments: &[],
            output: None,
        } }),
    };

    Reload {} => ToolSpec {
        road: Road::Act,
        number: None,
        kept: Kept::Whole,
        waits_ms: 0,
        mcp: Some(const { &McpTool {
            name: "browser_reload",
            title: "Reload the page",
            description: "Reload the page.",
            arguments: &[],
            output: None,
        } }),
    };

    ListTabs {} => ToolSpec {
        road: Road::Read,
        number: None,
        kept: Kept::Whole,
        waits_ms: 0,
        mcp: Some(const { &McpTool {
            name: "browser_list_tabs",
            title: "List the tabs",
            description: "The tabs of the current window with their numbers, titles and addresses.",
            arguments: &[],
            output: Some(&TABS),
        } }),
    };

    // A tab's number, not a control's: the tab-wide numbering does not translate it.
    SwitchTab { index: 1 } => ToolSpec {
        road: Road::Read,
        number: None,
        kept: Kept::Whole,
        waits_ms: 0,
        mcp: Some(const { &McpTool {
            name: "browser_switch_tab",
            title: "Switch to a tab",
            description: "Bring the tab with this number (from browser_list_tabs) to the front.",
            arguments: &[Field::required("index", Shape::NUMBER).about("The tab's number.")],
            output: None,
        } }),
    };

    OpenInNewTab { url: "https://example.com/".into() } => ToolSpec {
        road: Road::Act,
        number: None,
        kept: Kept::Whole,
        waits_ms: 0,
        mcp: Some(const { &McpTool {
            name: "browser_open_in_new_tab",
            title: "Open an address in a new tab",
            description: "Open a web address in a new tab next to the current one.",
            arguments: ADDRESS,
            output: None,
        } }),
    };

    OverlayShow {} => ToolSpec {
        road: Road::Read,
        number: None,
        kept: Kept::Whole,
        waits_ms: 0,
        mcp: Some(const { &McpTool {
            name: "browser_overlay_show",
            title: "Show the numbers",
            description: "Show the numbered badges on the page's controls.",
            arguments: &[],
            output: None,
        } }),
    };

    OverlayHide {} => ToolSpec {
        road: Road::Read,
        number: None,
        kept: Kept::Whole,
        waits_ms: 0,
        mcp: Some(const { &McpTool {
            name: "browser_overlay_hide",
            title: "Hide the numbers",
            description: "Hide the numbered badges (the numbers still work).",
            arguments: &[],
            output: None,
        } }),
    };

    // The steps only Waymark itself takes: the panel's description of a control, and the gate's own
    // steps (its preview of an action, finding banners, pressing the banner buttons it judged).
    Describe { index: 1 } => ToolSpec {
        road: Road::Read,
        number: Some(index),
        kept: Kept::Whole,
        waits_ms: 0,
        mcp: None,
    };

    Preview { action: Box::new(PageTool::Back) } => ToolSpec {
        road: Road::Read,
        number: None,
        kept: Kept::AsItsAction(action),
        waits_ms: 0,
        mcp: None,
    };

    FindBanners {} => ToolSpec {
        road: Road::Read,
        number: None,
        kept: Kept::Whole,
        waits_ms: 0,
        mcp: None,
    };

    PressBanners { pins: Vec::new() } => ToolSpec {
        road: Road::Internal,
        number: None,
        kept: Kept::Whole,
        waits_ms: 0,
        mcp: None,
    };
}

/// The arguments of `browser_overlay_act` and `browser_act_by_index`: the same action, two ways.
const ACT: &[Field] = &[
    Field::required("index", Shape::NUMBER).about("The control's number."),
    Field::required(
        "action",
        Shape::Choice(&["click", "type", "select", "right_click", "hover", "set"]),
    )
    .about(
        "click; type text; select an option; right_click for the page's context menu; hover to rest \
         the pointer on it; set a slider's, spin button's or rating's value.",
    ),
    Field::optional("text", Shape::TEXT).about("What to type, the option to select, or the value to set."),
];

/// The argument of the tools that look for controls of a role.
const ROLE: Field = Field::optional("role", Shape::TEXT).about("A role such as button, link, textbox.");

/// The argument of the tools that open an address.
const ADDRESS: &[Field] = &[Field::required("url", Shape::NON_EMPTY_TEXT)
    .about("The web address, such as example.com or https://example.com/page.")];

/// The argument of the tools that wait for a download.
const DOWNLOAD_TIMEOUT: Field =
    Field::optional("timeout_ms", Shape::between(1_000, 600_000)).about("How long to wait (default 30000).");

/// `data` of `browser_list_interactives` and `browser_find`: a page of numbered controls
/// ([`super::InteractiveList`]).
const LIST: Shape = Shape::Object(&[
    Field::required("url", Shape::TEXT).about("The page's address."),
    Field::required("title", Shape::TEXT).about("The page's title."),
    Field::required("total", Shape::COUNT).about("How many controls there are in all."),
    Field::required("offset", Shape::COUNT).about("How many were skipped."),
    Field::required(
        "items",
        Shape::List {
            of: &Shape::Object(&[
                Field::required("index", Shape::NUMBER)
                    .about("The control's number: use it in the other tools."),
                Field::required("role", Shape::TEXT).about("Its role, such as button, link, textbox."),
                Field::required("name", Shape::TEXT).about("Its name, as a screen reader says it."),
                Field::optional("value", Shape::TEXT)
                    .about("What a field holds (never a password's, code's or card's)."),
                Field::optional("states", Shape::TEXTS).about("States such as checked, expanded, required."),
                Field::optional("context", Shape::TEXT).about(
                    "Which one it is, when others share its role and name: its row's or item's words.",
                ),
            ]),
            non_empty: false,
            max: None,
        },
    ),
]);

/// `data` of `browser_extract`.
const EXTRACT: Shape = Shape::Object(&[
    Field::required("title", Shape::TEXT).about("The page's title."),
    Field::required("url", Shape::TEXT).about("The page's address."),
    Field::optional(
        "headings",
        Shape::List {
            of: &Shape::Object(&[
                Field::required("level", Shape::between(1, 6)),
                Field::required("text", Shape::TEXT).about("The heading's words."),
            ]),
            non_empty: false,
            max: None,
        },
    ),
    Field::optional("snippet", Shape::TEXT).about("The start of the page's visible text."),
]);

/// `data` of `browser_close_banners`.
const BANNERS: Shape = Shape::Object(&[
    Field::required("closed", Shape::TEXTS).about("The buttons pressed to close banners."),
    Field::optional("left_alone", Shape::TEXTS).about("Banner buttons Waymark would not press."),
    Field::required("spent_ms", Shape::COUNT),
    Field::optional("total", Shape::COUNT).about("How many controls the page has now."),
    Field::optional("list", LIST),
]);

/// `data` of `browser_screenshot` for a client: the picture itself comes as image content.
const PICTURE: Shape = Shape::Object(&[
    Field::required("mime", Shape::TEXT).about("The picture's type, such as image/jpeg."),
    Field::required("width", Shape::COUNT),
    Field::required("height", Shape::COUNT),
]);

/// `data` of the download tools ([`super::Download`]).
const DOWNLOAD: Shape = Shape::Object(&[
    Field::required("filename", Shape::TEXT).about("The file's name in the browser's download folder."),
    Field::required("url", Shape::TEXT).about("Where it came from."),
    Field::optional("mime", Shape::TEXT).about("Its type."),
    Field::required("bytes", Shape::COUNT),
    Field::required("state", Shape::TEXT).about("complete, or interrupted (then error says why)."),
    Field::optional("error", Shape::TEXT).about("Why it was interrupted."),
]);

/// `data` of `browser_list_tabs`.
const TABS: Shape = Shape::Object(&[Field::required(
    "tabs",
    Shape::List {
        of: &Shape::Object(&[
            Field::required("index", Shape::NUMBER).about("The tab's number: use it in browser_switch_tab."),
            Field::required("title", Shape::TEXT).about("The tab's title."),
            Field::required("url", Shape::TEXT).about("The tab's address."),
            Field::optional("active", Shape::Boolean).about("Whether it is the tab shown."),
            Field::optional("pinned", Shape::Boolean),
        ]),
        non_empty: false,
        max: None,
    },
)]);
