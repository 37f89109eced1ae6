//! The JSON schemas of the browser tools' results (MCP's `outputSchema`), for the tools whose data is
//! what they are called for. A client checks a result's `structuredContent` against these, so each
//! schema asks only for what the extension and the gate always send (a newer extension may add
//! properties; none is forbidden).
//!
//! What it must not do: promise a property that a result may lack, or use a keyword a portable client
//! does not understand (every schema node has one `type`; the tests hold the catalogue to it).

use serde_json::{json, Value};

fn number(what: &str) -> Value {
    json!({"type": "integer", "minimum": 1, "description": what})
}

fn text(what: &str) -> Value {
    json!({"type": "string", "description": what})
}

/// A result's `data`: at least these properties (a newer extension may add others).
fn data(properties: Value, required: &[&str]) -> Value {
    json!({"type": "object", "properties": properties, "required": required})
}

/// `data` of `browser_list_interactives` and `browser_find`: a page of numbered controls
/// ([`waymark_protocol::InteractiveList`]).
pub fn list_output() -> Value {
    data(
        json!({
            "url": text("The page's address."),
            "title": text("The page's title."),
            "total": {"type": "integer", "minimum": 0, "description": "How many controls there are in all."},
            "offset": {"type": "integer", "minimum": 0, "description": "How many were skipped."},
            "items": {"type": "array", "items": data(json!({
                "index": number("The control's number: use it in the other tools."),
                "role": text("Its role, such as button, link, textbox."),
                "name": text("Its name, as a screen reader says it."),
                "value": text("What a field holds (never a password's, code's or card's)."),
                "states": {"type": "array", "items": {"type": "string"},
                           "description": "States such as checked, expanded, required."},
            }), &["index", "role", "name"])},
        }),
        &["url", "title", "total", "offset", "items"],
    )
}

/// `data` of `browser_extract`.
pub fn extract_output() -> Value {
    data(
        json!({
            "title": text("The page's title."),
            "url": text("The page's address."),
            "headings": {"type": "array", "items": data(json!({
                "level": {"type": "integer", "minimum": 1, "maximum": 6},
                "text": text("The heading's words."),
            }), &["level", "text"])},
            "snippet": text("The start of the page's visible text."),
        }),
        &["title", "url"],
    )
}

/// `data` of `browser_close_banners`.
pub fn banners_output() -> Value {
    let names = |what: &str| json!({"type": "array", "items": {"type": "string"}, "description": what});
    data(
        json!({
            "closed": names("The buttons pressed to close banners."),
            "left_alone": names("Banner buttons Waymark would not press."),
            "spent_ms": {"type": "integer", "minimum": 0},
            "total": {"type": "integer", "minimum": 0, "description": "How many controls the page has now."},
            "list": list_output(),
        }),
        &["closed", "spent_ms"],
    )
}

/// `data` of `browser_screenshot` for a client: the picture itself comes as image content.
pub fn picture_output() -> Value {
    data(
        json!({
            "mime": text("The picture's type, such as image/jpeg."),
            "width": {"type": "integer", "minimum": 0},
            "height": {"type": "integer", "minimum": 0},
        }),
        &["mime", "width", "height"],
    )
}

/// `data` of the download tools ([`waymark_protocol::Download`]).
pub fn download_output() -> Value {
    data(
        json!({
            "filename": text("The file's name in the browser's download folder."),
            "url": text("Where it came from."),
            "mime": text("Its type."),
            "bytes": {"type": "integer", "minimum": 0},
            "state": text("complete, or interrupted (then error says why)."),
            "error": text("Why it was interrupted."),
        }),
        &["filename", "url", "bytes", "state"],
    )
}

/// `data` of `browser_list_tabs`.
pub fn tabs_output() -> Value {
    data(
        json!({"tabs": {"type": "array", "items": data(json!({
            "index": number("The tab's number: use it in browser_switch_tab."),
            "title": text("The tab's title."),
            "url": text("The tab's address."),
            "active": {"type": "boolean", "description": "Whether it is the tab shown."},
            "pinned": {"type": "boolean"},
        }), &["index", "title", "url"])}}),
        &["tabs"],
    )
}

#[cfg(test)]
mod tests {
    use waymark_protocol::{Download, Interactive, InteractiveList};

    use super::*;

    /// Whether `value` has the types and required properties `schema` asks for.
    fn conforms(schema: &Value, value: &Value) -> bool {
        let typed = match schema["type"].as_str() {
            Some("object") => value.is_object(),
            Some("array") => value.is_array(),
            Some("string") => value.is_string(),
            Some("integer") => value.is_u64() || value.is_i64(),
            Some("boolean") => value.is_boolean(),
            _ => true,
        };
        let required = schema["required"].as_array().into_iter().flatten();
        let present = required.filter_map(Value::as_str).all(|k| value.get(k).is_some());
        let properties = schema["properties"].as_object().into_iter().flatten();
        let inner = properties
            .filter(|(k, _)| value.get(k).is_some())
            .all(|(k, s)| conforms(s, &value[k]));
        let items = value
            .as_array()
            .into_iter()
            .flatten()
            .all(|i| conforms(&schema["items"], i));
        typed && present && inner && items
    }

    #[test]
    fn what_the_extension_returns_fits_the_output_schemas() {
        let list = serde_json::to_value(InteractiveList {
            url: "https://shop.example/".into(),
            title: "Shop".into(),
            total: 1,
            offset: 0,
            items: vec![Interactive {
                index: 1,
                role: "checkbox".into(),
                name: "Gift wrap".into(),
                value: None,
                states: vec!["checked".into()],
            }],
        })
        .unwrap();
        let download = serde_json::to_value(Download {
            filename: "report.pdf".into(),
            url: "https://shop.example/report.pdf".into(),
            mime: "application/pdf".into(),
            bytes: 1234,
            state: "complete".into(),
            error: None,
        })
        .unwrap();
        for (schema, data) in [
            (list_output(), list.clone()),
            (list_output(), list),
            (download_output(), download.clone()),
            (download_output(), download),
            (
                extract_output(),
                json!({"title": "Shop", "url": "https://shop.example/", "snippet": "Kettles",
                       "headings": [{"level": 1, "text": "Kettles"}]}),
            ),
            (
                banners_output(),
                json!({"closed": ["Reject all"], "spent_ms": 120, "total": 12}),
            ),
            (
                picture_output(),
                json!({"mime": "image/jpeg", "width": 1200, "height": 800}),
            ),
            (
                tabs_output(),
                json!({"tabs": [{"index": 1, "title": "Shop", "url": "https://shop.example/",
                                 "active": true, "pinned": false, "tab_id": 12}]}),
            ),
        ] {
            assert!(conforms(&schema, &data), "{schema}: {data}");
        }
        assert!(!conforms(&list_output(), &json!({"items": []})));
    }
}
