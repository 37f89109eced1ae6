//! The browser tools as one catalogue: each tool's MCP name, description and JSON schema, and how a
//! call's arguments become a [`PageTool`]. The MCP server lists exactly these, and the agent offers the
//! model exactly these, so an outside client and the agent see one tool surface with one set of
//! schemas.
//!
//! What it must not do: let a caller set what the gate owns (where an approved action runs is pinned by
//! the gate, never taken from a call), or offer the gate's own steps (previews, pressing judged banner
//! buttons); unknown arguments are dropped before the page tool is built.

use serde_json::{json, Map, Value};
use waymark_protocol::{ActKind, InteractiveList, PageTool, ScrollDirection, ToolResult};

/// One browser tool.
pub struct Entry {
    /// The name callers use, such as `browser_overlay_act`.
    pub name: &'static str,
    /// The [`PageTool`]'s tag, such as `overlay_act`.
    tag: &'static str,
    pub description: &'static str,
    /// The JSON schema of the arguments (an object schema).
    pub schema: fn() -> Value,
    /// The arguments taken from a call; anything else is dropped.
    args: &'static [&'static str],
    /// Whether the tool only reads (MCP's `readOnlyHint`).
    pub read_only: bool,
}

fn object(properties: Value, required: &[&str]) -> Value {
    json!({"type": "object", "properties": properties, "required": required})
}

fn empty() -> Value {
    object(json!({}), &[])
}

/// The schema of `browser_overlay_act` and `browser_act_by_index`: the same action, two ways.
fn act_schema() -> Value {
    object(
        json!({
            "index": number("The control's number."),
            "action": {"type": "string", "enum": ["click", "type", "select"]},
            "text": {"type": "string", "description": "What to type, or the option to select."},
        }),
        &["index", "action"],
    )
}

/// The schema of the focus tools: an optional role.
fn role_filter() -> Value {
    object(
        json!({"role": {"type": "string", "description": "A role such as button, link, textbox."}}),
        &[],
    )
}

fn number(what: &str) -> Value {
    json!({"type": "integer", "minimum": 1, "description": what})
}

/// Every browser tool, in the order they are listed.
pub const ENTRIES: &[Entry] = &[
    Entry {
        name: "browser_list_interactives",
        tag: "list_interactives",
        description:
            "Number the page's interactive controls (renewing the numbers) and list a page of them: \
                      number (index), role, name, value, states. Use only numbers from the latest list.",
        schema: || {
            object(
                json!({
                    "limit": number("How many controls to list (default 50)."),
                    "offset": {"type": "integer", "minimum": 0, "description": "How many to skip."},
                    "scope": {"type": "string", "enum": ["viewport", "page"],
                              "description": "viewport: only what is on screen; page (default): everything."},
                }),
                &[],
            )
        },
        args: &["limit", "offset", "scope"],
        read_only: true,
    },
    Entry {
        name: "browser_find",
        tag: "find",
        description: "Find controls by (part of) their name and/or their role, ignoring case, accents and \
                      spaces; returns them with their numbers.",
        schema: || {
            object(
                json!({
                    "text": {"type": "string", "description": "Words of the control's name."},
                    "role": {"type": "string", "description": "A role such as button, link, textbox."},
                    "limit": number("How many to return (default 50)."),
                    "offset": {"type": "integer", "minimum": 0, "description": "How many to skip."},
                }),
                &[],
            )
        },
        args: &["text", "role", "limit", "offset"],
        read_only: true,
    },
    Entry {
        name: "browser_extract",
        tag: "extract",
        description: "A short summary of the page: title, address, headings and the start of its text.",
        schema: empty,
        args: &[],
        read_only: true,
    },
    Entry {
        name: "browser_scroll",
        tag: "scroll",
        description: "Scroll the page, or the control or area with this number.",
        schema: || {
            object(
                json!({
                    "direction": {"type": "string", "enum": ["up", "down", "top", "bottom"]},
                    "index": number("The number of the area to scroll (optional)."),
                }),
                &["direction"],
            )
        },
        args: &["direction", "index"],
        read_only: true,
    },
    Entry {
        name: "browser_wait",
        tag: "wait",
        description: "Wait until the page has settled (loaded, no changes for a moment), at most ms \
                      milliseconds (default 5000).",
        schema: || {
            object(
                json!({"ms": {"type": "integer", "minimum": 0, "maximum": 60000}}),
                &[],
            )
        },
        args: &["ms"],
        read_only: true,
    },
    Entry {
        name: "browser_overlay_act",
        tag: "overlay_act",
        description: "Click, type into or select an option of the control with this number (from the \
                      latest list). Actions that pay, send, delete or cannot be undone wait for the \
                      user's yes in the Waymark panel.",
        schema: act_schema,
        args: &["index", "action", "text"],
        read_only: false,
    },
    Entry {
        name: "browser_act_by_index",
        tag: "act_by_index",
        description: "Last resort when browser_overlay_act did not work: click, type into or select in \
                      the control with this number the way a person's pointer and keyboard would, at \
                      its place on screen. Go back to browser_overlay_act as soon as it works again.",
        schema: act_schema,
        args: &["index", "action", "text"],
        read_only: false,
    },
    Entry {
        name: "browser_focus_next",
        tag: "focus_next",
        description: "Move the keyboard focus to the next numbered control (of this role, if given) and \
                      say which it is.",
        schema: role_filter,
        args: &["role"],
        read_only: true,
    },
    Entry {
        name: "browser_focus_prev",
        tag: "focus_prev",
        description: "Move the keyboard focus to the previous numbered control (of this role, if given) \
                      and say which it is.",
        schema: role_filter,
        args: &["role"],
        read_only: true,
    },
    Entry {
        name: "browser_close_banners",
        tag: "close_banners",
        description: "Close cookie, consent and newsletter banners (choosing reject or only-necessary \
                      where offered), then renew the numbers.",
        schema: || {
            object(
                json!({"budget_ms": {"type": "integer", "minimum": 100, "maximum": 5000,
                                     "description": "How long to try, in milliseconds (default 800)."}}),
                &[],
            )
        },
        args: &["budget_ms"],
        read_only: false,
    },
    Entry {
        name: "browser_screenshot",
        tag: "screenshot",
        description: "A picture of what is on screen in the tab, with the numbered badges visible.",
        schema: empty,
        args: &[],
        read_only: true,
    },
    Entry {
        name: "browser_upload",
        tag: "upload",
        description: "Put files from this computer into the file field with this number. The user is \
                      always asked first.",
        schema: || {
            object(
                json!({
                    "index": number("The file field's number."),
                    "paths": {"type": "array", "items": {"type": "string"}, "minItems": 1,
                              "description": "The files' full paths on this computer."},
                }),
                &["index", "paths"],
            )
        },
        args: &["index", "paths"],
        read_only: false,
    },
    Entry {
        name: "browser_click_and_wait_download",
        tag: "click_and_wait_download",
        description: "Click the control with this number and wait for the download it starts to finish; \
                      says the file's name and size.",
        schema: || {
            object(
                json!({
                    "index": number("The control's number."),
                    "timeout_ms": {"type": "integer", "minimum": 1000, "maximum": 600000,
                                   "description": "How long to wait (default 30000)."},
                }),
                &["index"],
            )
        },
        args: &["index", "timeout_ms"],
        read_only: false,
    },
    Entry {
        name: "browser_download_wait",
        tag: "download_wait",
        description: "Wait for the browser's current or next download to finish; says the file's name \
                      and size.",
        schema: || {
            object(
                json!({"timeout_ms": {"type": "integer", "minimum": 1000, "maximum": 600000,
                                      "description": "How long to wait (default 30000)."}}),
                &[],
            )
        },
        args: &["timeout_ms"],
        read_only: true,
    },
    Entry {
        name: "browser_press",
        tag: "press",
        description: "Press a key (Enter, Tab, Escape, Space, an arrow) on the control with this number, \
                      or where the focus is.",
        schema: || {
            object(
                json!({
                    "key": {"type": "string"},
                    "index": number("The control's number (optional)."),
                }),
                &["key"],
            )
        },
        args: &["key", "index"],
        read_only: false,
    },
    Entry {
        name: "browser_navigate",
        tag: "navigate",
        description: "Open a web address in the tab.",
        schema: || object(json!({"url": {"type": "string"}}), &["url"]),
        args: &["url"],
        read_only: false,
    },
    Entry {
        name: "browser_back",
        tag: "back",
        description: "Go back one page in the tab's history.",
        schema: empty,
        args: &[],
        read_only: false,
    },
    Entry {
        name: "browser_forward",
        tag: "forward",
        description: "Go forward one page in the tab's history.",
        schema: empty,
        args: &[],
        read_only: false,
    },
    Entry {
        name: "browser_reload",
        tag: "reload",
        description: "Reload the page.",
        schema: empty,
        args: &[],
        read_only: false,
    },
    Entry {
        name: "browser_list_tabs",
        tag: "list_tabs",
        description: "The tabs of the current window with their numbers, titles and addresses.",
        schema: empty,
        args: &[],
        read_only: true,
    },
    Entry {
        name: "browser_switch_tab",
        tag: "switch_tab",
        description: "Bring the tab with this number (from browser_list_tabs) to the front.",
        schema: || object(json!({"index": number("The tab's number.")}), &["index"]),
        args: &["index"],
        read_only: true,
    },
    Entry {
        name: "browser_open_in_new_tab",
        tag: "open_in_new_tab",
        description: "Open a web address in a new tab next to the current one.",
        schema: || object(json!({"url": {"type": "string"}}), &["url"]),
        args: &["url"],
        read_only: false,
    },
    Entry {
        name: "browser_overlay_show",
        tag: "overlay_show",
        description: "Show the numbered badges on the page's controls.",
        schema: empty,
        args: &[],
        read_only: true,
    },
    Entry {
        name: "browser_overlay_hide",
        tag: "overlay_hide",
        description: "Hide the numbered badges (the numbers still work).",
        schema: empty,
        args: &[],
        read_only: true,
    },
];

/// The entry called `name`.
pub fn entry(name: &str) -> Option<&'static Entry> {
    ENTRIES.iter().find(|e| e.name == name)
}

/// The page tool for a call, or why its arguments are not usable (said to the caller).
pub fn page_tool(name: &str, args: &Value) -> Result<PageTool, String> {
    let Some(entry) = entry(name) else {
        return Err(format!("{name} is not a browser tool"));
    };
    let mut object = Map::new();
    object.insert("tool".into(), Value::String(entry.tag.into()));
    if let Some(given) = args.as_object() {
        for key in entry.args {
            // Models and clients often send null for an optional argument they do not use.
            if let Some(value) = given.get(*key).filter(|v| !v.is_null()) {
                object.insert((*key).to_string(), value.clone());
            }
        }
    }
    serde_json::from_value(Value::Object(object))
        .map_err(|e| format!("the arguments of {name} are not usable: {e}"))
}

/// The catalogue name of a page tool, for events about it.
pub fn name_of(tool: &PageTool) -> &'static str {
    let tag = serde_json::to_value(tool)
        .ok()
        .and_then(|v| v.get("tool").and_then(Value::as_str).map(str::to_owned));
    ENTRIES
        .iter()
        .find(|e| Some(e.tag) == tag.as_deref())
        .map_or("browser_tool", |e| e.name)
}

/// What a step is doing, in a few words: "Clicking 12".
pub fn progress(tool: &PageTool) -> String {
    match tool {
        PageTool::ListInteractives { .. } => "Reading the page's controls".into(),
        PageTool::Find { text, role, .. } => {
            let what = text.as_deref().or(role.as_deref()).unwrap_or("controls");
            format!("Looking for {what}")
        }
        PageTool::Extract => "Reading the page".into(),
        PageTool::Scroll { direction, .. } => format!("Scrolling {}", direction_word(*direction)),
        PageTool::OverlayAct { index, action, .. } => match action {
            ActKind::Click => format!("Clicking {index}"),
            ActKind::Type => format!("Typing into {index}"),
            ActKind::Select => format!("Choosing an option in {index}"),
        },
        PageTool::Press { key, .. } => format!("Pressing {key}"),
        PageTool::Navigate { url } => format!("Opening {url}"),
        PageTool::OpenInNewTab { url } => format!("Opening {url} in a new tab"),
        PageTool::Back => "Going back".into(),
        PageTool::Forward => "Going forward".into(),
        PageTool::Reload => "Reloading the page".into(),
        PageTool::Wait { .. } => "Waiting for the page".into(),
        PageTool::ListTabs => "Listing the tabs".into(),
        PageTool::SwitchTab { index } => format!("Switching to tab {index}"),
        PageTool::OverlayShow => "Showing the numbers".into(),
        PageTool::OverlayHide => "Hiding the numbers".into(),
        PageTool::Describe { index } => format!("Looking at {index}"),
        PageTool::Preview { .. } => "Looking at what an action would do".into(),
        PageTool::FindBanners => "Looking for banners".into(),
        PageTool::PressBanners { .. } => "Closing banners".into(),
        PageTool::ActByIndex { index, action, .. } => match action {
            ActKind::Click => format!("Clicking {index} at its place on screen"),
            ActKind::Type => format!("Typing into {index} at its place on screen"),
            ActKind::Select => format!("Choosing an option in {index} at its place on screen"),
        },
        PageTool::FocusNext { .. } => "Moving the focus forward".into(),
        PageTool::FocusPrev { .. } => "Moving the focus back".into(),
        PageTool::Screenshot => "Taking a picture of the screen".into(),
        PageTool::CloseBanners { .. } => "Closing banners".into(),
        PageTool::Upload { index, paths, .. } => format!("Uploading {} into {index}", paths.join(", ")),
        PageTool::ClickAndWaitDownload { index, .. } => {
            format!("Clicking {index} and waiting for the download")
        }
        PageTool::DownloadWait { .. } => "Waiting for the download".into(),
    }
}

fn direction_word(direction: ScrollDirection) -> &'static str {
    match direction {
        ScrollDirection::Up => "up",
        ScrollDirection::Down => "down",
        ScrollDirection::Top => "to the top",
        ScrollDirection::Bottom => "to the bottom",
    }
}

/// A short account of a result: "24 controls", "Clicking 12: done", or the error.
pub fn summary(tool: &PageTool, result: &ToolResult) -> String {
    if let Some(error) = &result.error {
        return error.clone();
    }
    let list = result
        .data
        .as_ref()
        .and_then(|d| serde_json::from_value::<InteractiveList>(d.clone()).ok());
    match (tool, list) {
        (PageTool::ListInteractives { .. }, Some(list)) => format!("{} controls", list.total),
        (PageTool::Find { .. }, Some(list)) => format!("{} found", list.total),
        (PageTool::Extract, _) => "read the page".into(),
        _ => {
            let mut done = progress(tool);
            done.push_str(": done");
            done
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_schema_is_an_object_and_every_name_maps_to_its_own_tool() {
        for entry in ENTRIES {
            let schema = (entry.schema)();
            assert_eq!(schema["type"], "object", "{}", entry.name);
            let required: Vec<String> =
                serde_json::from_value(schema["required"].clone()).unwrap_or_default();
            // A call with made-up values for the required arguments must give this entry's tool.
            let mut args = Map::new();
            for key in &required {
                let value = match schema["properties"][key]["type"].as_str() {
                    Some("integer") => json!(1),
                    Some("array") => json!(["x"]),
                    _ => match key.as_str() {
                        "direction" => json!("down"),
                        "action" => json!("click"),
                        _ => json!("x"),
                    },
                };
                args.insert(key.clone(), value);
            }
            let tool = page_tool(entry.name, &Value::Object(args)).unwrap();
            assert_eq!(name_of(&tool), entry.name);
            assert_eq!(entry.read_only, !tool.changes_page(), "{}", entry.name);
            for key in entry.args {
                assert!(
                    schema["properties"].get(*key).is_some(),
                    "{} lacks {key}",
                    entry.name
                );
            }
        }
    }

    #[test]
    fn the_pin_stays_with_the_gate_and_bad_arguments_are_refused() {
        assert_eq!(
            page_tool(
                "browser_overlay_act",
                &json!({"index": 3, "action": "click", "pin": {"tab": 9, "frame": 0, "document": "x"}, "text": null})
            ),
            Ok(PageTool::OverlayAct {
                index: 3,
                action: ActKind::Click,
                text: None,
            })
        );
        assert!(page_tool("browser_scroll", &json!({"direction": "sideways"})).is_err());
        assert!(page_tool("browser_overlay_act", &json!({"index": "three"})).is_err());
        assert!(page_tool("browser_describe", &json!({"index": 1})).is_err());
    }
}
