//! The browser tools as one catalogue: each tool's MCP name, title, description, the JSON schema of its
//! arguments and, for the tools that return data, of that data; and how a call's arguments become a
//! [`PageTool`]. The MCP server lists exactly these, and the agent offers the model exactly these, so an
//! outside client and the agent see one tool surface with one set of schemas.
//!
//! What it must not do: let a caller set what the gate owns (where an approved action runs is pinned by
//! the gate, never taken from a call), or offer the gate's own steps (previews, pressing judged banner
//! buttons). A call is held to its schema ([`super::arguments`]): an argument the schema does not list
//! is refused by name, never dropped silently or passed on.

use serde_json::{json, Value};
use waymark_protocol::PageTool;

pub use super::arguments::ArgumentError;
use super::outputs::{
    banners_output, download_output, extract_output, list_output, picture_output, tabs_output,
};

/// One browser tool.
pub struct Entry {
    /// The name callers use, such as `browser_overlay_act`.
    pub name: &'static str,
    /// What a person calls it, for clients that show tools (MCP's `title`).
    pub title: &'static str,
    /// The [`PageTool`]'s tag, such as `overlay_act`.
    tag: &'static str,
    pub description: &'static str,
    /// The JSON schema of the arguments (an object schema); a call is checked against it.
    pub schema: fn() -> Value,
    /// Whether the tool only reads (MCP's `readOnlyHint`).
    pub read_only: bool,
    /// The JSON schema of the result's `data` (MCP's `outputSchema`), for the tools whose data is what
    /// they are called for; their results also carry it as `structuredContent`.
    pub output: Option<fn() -> Value>,
}

/// An argument schema: these properties, and no others.
fn object(properties: Value, required: &[&str]) -> Value {
    json!({"type": "object", "properties": properties, "required": required, "additionalProperties": false})
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

/// The schema of the tools that open an address.
fn address() -> Value {
    object(
        json!({"url": {"type": "string", "minLength": 1,
                       "description": "The web address, such as example.com or https://example.com/page."}}),
        &["url"],
    )
}

fn number(what: &str) -> Value {
    json!({"type": "integer", "minimum": 1, "description": what})
}

/// Every browser tool, in the order they are listed.
pub const ENTRIES: &[Entry] = &[
    Entry {
        name: "browser_list_interactives",
        title: "List the page's controls",
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
        read_only: true,
        output: Some(list_output),
    },
    Entry {
        name: "browser_find",
        title: "Find controls",
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
        read_only: true,
        output: Some(list_output),
    },
    Entry {
        name: "browser_extract",
        title: "Read the page",
        tag: "extract",
        description: "A short summary of the page: title, address, headings and the start of its text.",
        schema: empty,
        read_only: true,
        output: Some(extract_output),
    },
    Entry {
        name: "browser_scroll",
        title: "Scroll",
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
        read_only: true,
        output: None,
    },
    Entry {
        name: "browser_wait",
        title: "Wait for the page",
        tag: "wait",
        description: "Wait until the page has settled (loaded, no changes for a moment), at most ms \
                      milliseconds (default 5000).",
        schema: || {
            object(
                json!({"ms": {"type": "integer", "minimum": 0, "maximum": 60000}}),
                &[],
            )
        },
        read_only: true,
        output: None,
    },
    Entry {
        name: "browser_overlay_act",
        title: "Act on a control",
        tag: "overlay_act",
        description: "Click, type into or select an option of the control with this number (from the \
                      latest list). Actions that pay, send, delete or cannot be undone wait for the \
                      user's yes in the Waymark panel.",
        schema: act_schema,
        read_only: false,
        output: None,
    },
    Entry {
        name: "browser_act_by_index",
        title: "Act on a control at its place on screen",
        tag: "act_by_index",
        description: "Last resort when browser_overlay_act did not work: click, type into or select in \
                      the control with this number the way a person's pointer and keyboard would, at \
                      its place on screen. Go back to browser_overlay_act as soon as it works again.",
        schema: act_schema,
        read_only: false,
        output: None,
    },
    Entry {
        name: "browser_focus_next",
        title: "Focus the next control",
        tag: "focus_next",
        description: "Move the keyboard focus to the next numbered control (of this role, if given) and \
                      say which it is.",
        schema: role_filter,
        read_only: true,
        output: None,
    },
    Entry {
        name: "browser_focus_prev",
        title: "Focus the previous control",
        tag: "focus_prev",
        description: "Move the keyboard focus to the previous numbered control (of this role, if given) \
                      and say which it is.",
        schema: role_filter,
        read_only: true,
        output: None,
    },
    Entry {
        name: "browser_close_banners",
        title: "Close banners",
        tag: "close_banners",
        description: "Close cookie, consent and newsletter banners (choosing reject or only-necessary \
                      where offered), then renew the numbers and list the first 30 controls (list).",
        schema: || {
            object(
                json!({"budget_ms": {"type": "integer", "minimum": 100, "maximum": 5000,
                                     "description": "How long to try, in milliseconds (default 800)."}}),
                &[],
            )
        },
        read_only: false,
        output: Some(banners_output),
    },
    Entry {
        name: "browser_screenshot",
        title: "Picture of the screen",
        tag: "screenshot",
        description: "A picture of what is on screen in the tab, with the numbered badges visible.",
        schema: empty,
        read_only: true,
        output: Some(picture_output),
    },
    Entry {
        name: "browser_upload",
        title: "Upload files",
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
        read_only: false,
        output: None,
    },
    Entry {
        name: "browser_click_and_wait_download",
        title: "Click and wait for the download",
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
        read_only: false,
        output: Some(download_output),
    },
    Entry {
        name: "browser_download_wait",
        title: "Wait for a download",
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
        read_only: true,
        output: Some(download_output),
    },
    Entry {
        name: "browser_press",
        title: "Press a key",
        tag: "press",
        description: "Press a key (Enter, Tab, Escape, Space, an arrow) on the control with this number, \
                      or where the focus is.",
        schema: || {
            object(
                json!({
                    "key": {"type": "string", "minLength": 1,
                            "description": "The key, such as Enter, Tab, Escape, Space, ArrowDown."},
                    "index": number("The control's number (optional)."),
                }),
                &["key"],
            )
        },
        read_only: false,
        output: None,
    },
    Entry {
        name: "browser_navigate",
        title: "Open an address",
        tag: "navigate",
        description: "Open a web address in the tab.",
        schema: address,
        read_only: false,
        output: None,
    },
    Entry {
        name: "browser_back",
        title: "Go back",
        tag: "back",
        description: "Go back one page in the tab's history.",
        schema: empty,
        read_only: false,
        output: None,
    },
    Entry {
        name: "browser_forward",
        title: "Go forward",
        tag: "forward",
        description: "Go forward one page in the tab's history.",
        schema: empty,
        read_only: false,
        output: None,
    },
    Entry {
        name: "browser_reload",
        title: "Reload the page",
        tag: "reload",
        description: "Reload the page.",
        schema: empty,
        read_only: false,
        output: None,
    },
    Entry {
        name: "browser_list_tabs",
        title: "List the tabs",
        tag: "list_tabs",
        description: "The tabs of the current window with their numbers, titles and addresses.",
        schema: empty,
        read_only: true,
        output: Some(tabs_output),
    },
    Entry {
        name: "browser_switch_tab",
        title: "Switch to a tab",
        tag: "switch_tab",
        description: "Bring the tab with this number (from browser_list_tabs) to the front.",
        schema: || object(json!({"index": number("The tab's number.")}), &["index"]),
        read_only: true,
        output: None,
    },
    Entry {
        name: "browser_open_in_new_tab",
        title: "Open an address in a new tab",
        tag: "open_in_new_tab",
        description: "Open a web address in a new tab next to the current one.",
        schema: address,
        read_only: false,
        output: None,
    },
    Entry {
        name: "browser_overlay_show",
        title: "Show the numbers",
        tag: "overlay_show",
        description: "Show the numbered badges on the page's controls.",
        schema: empty,
        read_only: true,
        output: None,
    },
    Entry {
        name: "browser_overlay_hide",
        title: "Hide the numbers",
        tag: "overlay_hide",
        description: "Hide the numbered badges (the numbers still work).",
        schema: empty,
        read_only: true,
        output: None,
    },
];

/// The entry called `name`.
pub fn entry(name: &str) -> Option<&'static Entry> {
    ENTRIES.iter().find(|e| e.name == name)
}

/// The page tool for a call, or why its arguments are not usable (said to the caller).
pub fn parse(name: &str, args: &Value) -> Result<PageTool, ArgumentError> {
    let Some(entry) = entry(name) else {
        return Err(ArgumentError::UnknownTool { tool: name.into() });
    };
    let mut object = super::arguments::check(name, &(entry.schema)(), args)?;
    object.insert("tool".into(), Value::String(entry.tag.into()));
    // The schema and the page tool are kept in step by this module's tests, so this fails only for a
    // value the schema cannot express.
    serde_json::from_value(Value::Object(object)).map_err(|e| ArgumentError::Unusable {
        tool: name.into(),
        why: e.to_string(),
    })
}

/// [`parse`], with the refusal in words (for the agent, which says it to the model).
pub fn page_tool(name: &str, args: &Value) -> Result<PageTool, String> {
    parse(name, args).map_err(|e| e.to_string())
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

#[cfg(test)]
mod tests {
    use serde_json::Map;

    use super::*;
    use waymark_protocol::ActKind;

    /// A value its property's schema admits.
    fn example(rule: &Value) -> Value {
        if let Some(first) = rule["enum"].as_array().and_then(|e| e.first()) {
            return first.clone();
        }
        match rule["type"].as_str() {
            Some("integer") => json!(rule["minimum"].as_i64().unwrap_or(1).max(1)),
            Some("array") => json!([example(&rule["items"])]),
            Some("boolean") => json!(true),
            _ => json!("x"),
        }
    }

    #[test]
    fn every_argument_a_schema_lists_reaches_its_own_tool() {
        for entry in ENTRIES {
            let schema = (entry.schema)();
            assert_eq!(schema["type"], "object", "{}", entry.name);
            assert_eq!(schema["additionalProperties"], false, "{}", entry.name);
            let properties = schema["properties"].as_object().unwrap();
            // The required arguments alone, then every argument: each gives this entry's tool, and
            // every argument given is in it (none is listed but dropped).
            let required: Map<String, Value> = schema["required"]
                .as_array()
                .unwrap()
                .iter()
                .map(|k| k.as_str().unwrap())
                .map(|k| (k.to_owned(), example(&properties[k])))
                .collect();
            let all: Map<String, Value> = properties.iter().map(|(k, r)| (k.clone(), example(r))).collect();
            for args in [required, all] {
                let tool = parse(entry.name, &Value::Object(args.clone())).unwrap();
                assert_eq!(name_of(&tool), entry.name);
                assert_eq!(entry.read_only, !tool.changes_page(), "{}", entry.name);
                let back = serde_json::to_value(&tool).unwrap();
                for key in args.keys() {
                    assert!(back.get(key).is_some(), "{} drops {key}", entry.name);
                }
            }
            assert!(!entry.title.is_empty());
        }
    }

    /// What the MCP Inspector's `--strict` lint asks of a schema: every schema an object with one
    /// `type` (no bare `true`/`false`, no type lists, nothing that accepts any value).
    fn portable(schema: &Value, path: &str) {
        let node = schema
            .as_object()
            .unwrap_or_else(|| panic!("{path} is not a schema object"));
        assert!(
            node.get("type").is_some_and(Value::is_string),
            "{path} has no single type"
        );
        for (name, property) in node
            .get("properties")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            portable(property, &format!("{path}.{name}"));
        }
        if let Some(items) = node.get("items") {
            portable(items, &format!("{path}[]"));
        }
    }

    /// Every keyword of a schema node and of the nodes inside it.
    fn keywords(schema: &Value, path: &str, found: &mut Vec<(String, String)>) {
        let Some(node) = schema.as_object() else { return };
        for (key, value) in node {
            found.push((path.to_owned(), key.clone()));
            match key.as_str() {
                "properties" => {
                    for (name, property) in value.as_object().into_iter().flatten() {
                        keywords(property, &format!("{path}.{name}"), found);
                    }
                }
                "items" => keywords(value, &format!("{path}[]"), found),
                _ => {}
            }
        }
    }

    #[test]
    fn every_rule_an_argument_schema_states_is_one_the_checker_enforces() {
        for entry in ENTRIES {
            let mut found = Vec::new();
            keywords(&(entry.schema)(), entry.name, &mut found);
            for (path, key) in found {
                assert!(
                    super::super::arguments::UNDERSTOOD.contains(&key.as_str()),
                    "{path}: {key}"
                );
            }
        }
    }

    #[test]
    fn every_schema_is_portable() {
        for entry in ENTRIES {
            portable(&(entry.schema)(), entry.name);
            if let Some(output) = entry.output {
                portable(&output(), &format!("{} output", entry.name));
            }
        }
    }

    #[test]
    fn the_pin_stays_with_the_gate_and_bad_arguments_are_refused_by_name() {
        assert_eq!(
            parse(
                "browser_overlay_act",
                &json!({"index": 3, "action": "click", "pin": {"tab": 9, "frame": 0, "document": "x"}, "text": null})
            ),
            Err(ArgumentError::Unknown {
                tool: "browser_overlay_act".into(),
                names: vec!["pin".into()],
                takes: vec!["action".into(), "index".into(), "text".into()],
            })
        );
        assert_eq!(
            parse(
                "browser_overlay_act",
                &json!({"index": 3, "action": "click", "text": null})
            ),
            Ok(PageTool::OverlayAct {
                index: 3,
                action: ActKind::Click,
                text: None,
            })
        );
        assert!(matches!(
            parse("browser_scroll", &json!({"direction": "sideways"})),
            Err(ArgumentError::NotAChoice { .. })
        ));
        assert!(matches!(
            parse(
                "browser_overlay_act",
                &json!({"index": "three", "action": "click"})
            ),
            Err(ArgumentError::WrongType { .. })
        ));
        assert!(matches!(
            parse("browser_wait", &json!({"ms": 60001})),
            Err(ArgumentError::OutOfRange { .. })
        ));
        assert!(matches!(
            parse("browser_navigate", &json!({"url": ""})),
            Err(ArgumentError::Empty { .. })
        ));
        assert_eq!(
            page_tool("browser_describe", &json!({"index": 1})),
            Err("browser_describe is not a browser tool".into())
        );
    }
}
