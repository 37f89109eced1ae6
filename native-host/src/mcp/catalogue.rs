//! The browser tools as MCP clients and the agent's model see them, made from each tool's one
//! description (`PageTool::spec`, in `waymark_protocol`): the tools offered, in order, with their
//! names, titles, descriptions and JSON schemas ([`super::schema`]), and how a call's arguments become
//! a [`PageTool`] ([`parse`]). The MCP server lists exactly these, and the agent offers the model
//! exactly these, so an outside client and the agent see one tool surface with one set of schemas.
//!
//! What it must not do: let a caller set what the gate owns (where an approved action runs is pinned by
//! the gate, never taken from a call), or offer the gate's own steps (previews, pressing judged banner
//! buttons): a tool is offered only when its description says how MCP calls it. A call is held to its
//! tool's arguments ([`super::arguments`]): an argument not listed is refused by name, never dropped
//! silently or passed on.

use std::sync::LazyLock;

use serde_json::Value;
use waymark_protocol::tools::McpTool;
use waymark_protocol::PageTool;

pub use super::arguments::ArgumentError;
use super::schema;

/// One browser tool offered to callers.
pub struct Entry {
    /// The tool with example arguments: what kind of tool it is, not what a call asked.
    tool: PageTool,
    /// How callers call it.
    pub about: &'static McpTool,
}

impl Entry {
    /// The name callers use, such as `browser_overlay_act`.
    pub fn name(&self) -> &'static str {
        self.about.name
    }

    /// The JSON schema of its arguments (an object schema); a call is checked against the same list.
    pub fn schema(&self) -> Value {
        schema::arguments(self.about.arguments)
    }

    /// The JSON schema of its result's `data`, for the tools whose data is what they are called for.
    pub fn output(&self) -> Option<Value> {
        self.about.output.map(schema::output)
    }

    /// Whether it only reads (MCP's `readOnlyHint`).
    pub fn read_only(&self) -> bool {
        !self.tool.changes_page()
    }

    /// The tool's `"tool"` tag, which a call's arguments are given to become the tool.
    fn tag(&self) -> Option<String> {
        let example = serde_json::to_value(&self.tool).ok()?;
        Some(example.get("tool")?.as_str()?.to_owned())
    }
}

/// Every tool that says how MCP calls it, in the order of the table of tools.
static ENTRIES: LazyLock<Vec<Entry>> = LazyLock::new(|| {
    PageTool::every()
        .into_iter()
        .filter_map(|tool| {
            let about = tool.spec().mcp?;
            Some(Entry { tool, about })
        })
        .collect()
});

/// Every browser tool, in the order they are listed.
pub fn entries() -> &'static [Entry] {
    &ENTRIES
}

/// The entry called `name`.
pub fn entry(name: &str) -> Option<&'static Entry> {
    entries().iter().find(|e| e.name() == name)
}

/// The page tool for a call, or why its arguments are not usable (said to the caller).
pub fn parse(name: &str, args: &Value) -> Result<PageTool, ArgumentError> {
    let Some(entry) = entry(name) else {
        return Err(ArgumentError::UnknownTool { tool: name.into() });
    };
    let mut object = super::arguments::check(name, entry.about.arguments, args)?;
    let unusable = |why: String| ArgumentError::Unusable {
        tool: name.into(),
        why,
    };
    let tag = entry
        .tag()
        .ok_or_else(|| unusable("the tool has no tag".into()))?;
    object.insert("tool".into(), Value::String(tag));
    // The arguments and the page tool are kept in step by this module's tests, so this fails only for
    // a value the arguments' shapes cannot express (a number past what the tool holds).
    serde_json::from_value(Value::Object(object)).map_err(|e| unusable(e.to_string()))
}

/// [`parse`], with the refusal in words (for the agent, which says it to the model).
pub fn page_tool(name: &str, args: &Value) -> Result<PageTool, String> {
    parse(name, args).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Map};

    use super::*;
    use waymark_protocol::tools::{Field, Shape};
    use waymark_protocol::ActKind;

    /// A value `shape` admits.
    fn example(shape: &Shape) -> Value {
        match shape {
            Shape::Integer { min, .. } => json!(min.unwrap_or(1).max(1)),
            Shape::Text { .. } => json!("x"),
            Shape::Choice(words) => json!(words[0]),
            Shape::Boolean => json!(true),
            Shape::List { of, .. } => json!([example(of)]),
            Shape::Object(_) => json!({}),
        }
    }

    /// The required arguments of `entry`, each with a value it admits.
    fn required(entry: &Entry) -> Map<String, Value> {
        let required = entry.about.arguments.iter().filter(|f| f.required);
        required.map(|f| (f.name.to_owned(), example(&f.shape))).collect()
    }

    #[test]
    fn every_tool_that_says_how_mcp_calls_it_is_offered_once_and_no_other() {
        let every = PageTool::every();
        let offered: Vec<&str> = entries().iter().map(Entry::name).collect();
        let described: Vec<&str> = every
            .iter()
            .filter_map(|t| t.spec().mcp)
            .map(|m| m.name)
            .collect();
        assert_eq!(offered, described);
        let mut unique = offered.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), offered.len(), "{offered:?}");
        assert!(offered.iter().all(|n| n.starts_with("browser_")), "{offered:?}");
        for own in every.iter().filter(|t| t.spec().mcp.is_none()) {
            assert_eq!(own.mcp_name(), "browser_tool", "{own:?}");
        }
        for gates_own in ["browser_preview", "browser_press_banners", "browser_find_banners"] {
            assert!(entry(gates_own).is_none(), "{gates_own}");
        }
    }

    #[test]
    fn every_argument_a_tool_lists_reaches_its_own_tool() {
        for entry in entries() {
            let schema = entry.schema();
            assert_eq!(schema["type"], "object", "{}", entry.name());
            assert_eq!(schema["additionalProperties"], false, "{}", entry.name());
            // The required arguments alone, then every argument: each gives this entry's tool, and
            // every argument given is in it (none is listed but dropped).
            let all: Map<String, Value> = entry
                .about
                .arguments
                .iter()
                .map(|f| (f.name.to_owned(), example(&f.shape)))
                .collect();
            for args in [required(entry), all] {
                let tool = parse(entry.name(), &Value::Object(args.clone())).unwrap();
                assert_eq!(tool.mcp_name(), entry.name());
                assert_eq!(entry.read_only(), !tool.changes_page(), "{}", entry.name());
                let back = serde_json::to_value(&tool).unwrap();
                for key in args.keys() {
                    assert!(back.get(key).is_some(), "{} drops {key}", entry.name());
                }
            }
            // Every choice an argument offers is one the tool takes.
            for field in entry.about.arguments {
                let Shape::Choice(words) = field.shape else {
                    continue;
                };
                for word in words {
                    let mut args = required(entry);
                    args.insert(field.name.into(), json!(word));
                    let tool = parse(entry.name(), &Value::Object(args));
                    assert!(tool.is_ok(), "{} {}: {word}: {tool:?}", entry.name(), field.name);
                }
            }
            assert!(!entry.about.title.is_empty());
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

    /// Values just outside what `field` admits: of another kind, and past each bound it states.
    fn outside(field: &Field) -> Vec<Value> {
        let mut wrong = vec![match field.shape {
            Shape::Integer { .. } => json!("seven"),
            _ => json!(7.5),
        }];
        match field.shape {
            Shape::Integer { min, max } => {
                wrong.extend(min.map(|m| json!(m - 1)));
                wrong.extend(max.map(|m| json!(m + 1)));
            }
            Shape::Text { non_empty, max } => {
                wrong.extend(non_empty.then(|| json!("  ")));
                wrong.extend(max.map(|m| json!("x".repeat(m as usize + 1))));
            }
            Shape::Choice(_) => wrong.push(json!("none of these")),
            Shape::List { of, non_empty, max } => {
                wrong.extend(non_empty.then(|| json!([])));
                wrong.extend(max.map(|m| Value::Array(vec![example(of); m as usize + 1])));
            }
            Shape::Boolean | Shape::Object(_) => {}
        }
        wrong
    }

    #[test]
    fn every_rule_an_argument_states_is_enforced() {
        for entry in entries() {
            for field in entry.about.arguments {
                for value in outside(field) {
                    let mut args = required(entry);
                    args.insert(field.name.into(), value.clone());
                    let refused = parse(entry.name(), &Value::Object(args));
                    assert!(
                        matches!(
                            &refused,
                            Err(ArgumentError::WrongType { name, .. }
                                | ArgumentError::OutOfRange { name, .. }
                                | ArgumentError::NotAChoice { name, .. }
                                | ArgumentError::Empty { name, .. }
                                | ArgumentError::TooLong { name, .. }) if name == field.name
                        ),
                        "{} {} = {value}: {refused:?}",
                        entry.name(),
                        field.name
                    );
                }
            }
        }
    }

    #[test]
    fn every_schema_is_portable() {
        for entry in entries() {
            portable(&entry.schema(), entry.name());
            if let Some(output) = entry.output() {
                portable(&output, &format!("{} output", entry.name()));
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
