//! The JSON schemas MCP clients and the model read for a browser tool, made from the tool's one
//! description (`waymark_protocol::tools::Field` and `Shape`): its arguments, these and no others, and
//! the `data` of its result (MCP's `outputSchema`), which has at least these properties (a newer
//! extension may add others; none is forbidden).
//!
//! What it must not do: state a rule the argument check does not enforce (both read the same
//! description: [`super::arguments`]), or use a keyword a portable client does not understand (every
//! schema node has one `type`; the tests hold every tool to it).

use serde_json::{json, Map, Value};
use waymark_protocol::tools::{Field, Shape};

/// The schema of a tool's arguments: these properties, and no others.
pub fn arguments(fields: &[Field]) -> Value {
    let mut schema = object(fields);
    schema["additionalProperties"] = Value::Bool(false);
    schema
}

/// The schema of a tool's `data`.
pub fn output(shape: &Shape) -> Value {
    of(shape)
}

/// An object with these properties (at least these), those that are required named.
fn object(fields: &[Field]) -> Value {
    let properties: Map<String, Value> = fields
        .iter()
        .map(|field| {
            let mut schema = of(&field.shape);
            if let Some(about) = field.about {
                schema["description"] = Value::from(about);
            }
            (field.name.to_owned(), schema)
        })
        .collect();
    let required: Vec<&str> = fields.iter().filter(|f| f.required).map(|f| f.name).collect();
    json!({"type": "object", "properties": properties, "required": required})
}

fn of(shape: &Shape) -> Value {
    let bounded = |mut schema: Value, bounds: [(&str, Option<i64>); 2]| {
        for (keyword, bound) in bounds {
            if let Some(bound) = bound {
                schema[keyword] = Value::from(bound);
            }
        }
        schema
    };
    let least = |non_empty: bool| non_empty.then_some(1);
    match shape {
        Shape::Integer { min, max } => {
            bounded(json!({"type": "integer"}), [("minimum", *min), ("maximum", *max)])
        }
        Shape::Text { non_empty, max } => bounded(
            json!({"type": "string"}),
            [
                ("minLength", least(*non_empty)),
                ("maxLength", max.map(i64::from)),
            ],
        ),
        Shape::Choice(words) => json!({"type": "string", "enum": words}),
        Shape::Boolean => json!({"type": "boolean"}),
        Shape::List {
            of: item,
            non_empty,
            max,
        } => bounded(
            json!({"type": "array", "items": of(item)}),
            [("minItems", least(*non_empty)), ("maxItems", max.map(i64::from))],
        ),
        Shape::Object(fields) => object(fields),
    }
}

#[cfg(test)]
mod tests {
    use waymark_protocol::{Download, Interactive, InteractiveList};

    use super::*;
    use crate::mcp::catalogue;

    /// The output schema of the tool called `name`.
    fn output_of(name: &str) -> Value {
        catalogue::entry(name).unwrap().output().unwrap()
    }

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
                context: None,
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
            (output_of("browser_list_interactives"), list.clone()),
            (output_of("browser_find"), list),
            (output_of("browser_click_and_wait_download"), download.clone()),
            (output_of("browser_download_wait"), download),
            (
                output_of("browser_extract"),
                json!({"title": "Shop", "url": "https://shop.example/", "snippet": "Kettles",
                       "headings": [{"level": 1, "text": "Kettles"}]}),
            ),
            (
                output_of("browser_close_banners"),
                json!({"closed": ["Reject all"], "spent_ms": 120, "total": 12}),
            ),
            (
                output_of("browser_screenshot"),
                json!({"mime": "image/jpeg", "width": 1200, "height": 800}),
            ),
            (
                output_of("browser_list_tabs"),
                json!({"tabs": [{"index": 1, "title": "Shop", "url": "https://shop.example/",
                                 "active": true, "pinned": false, "tab_id": 12}]}),
            ),
        ] {
            assert!(conforms(&schema, &data), "{schema}: {data}");
        }
        assert!(!conforms(
            &output_of("browser_list_interactives"),
            &json!({"items": []})
        ));
    }
}
