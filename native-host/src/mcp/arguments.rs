//! A call's arguments held to its tool's arguments as the tool's one description lists them
//! (`waymark_protocol::tools::Field`), the same list the JSON schema a client or the model reads is
//! made from ([`super::schema`]): every name known, every required one present, every value of its
//! type, within its bounds and among its choices. The schema is therefore the rule a call is judged
//! by, and a refusal names the argument and says what was expected, so a model can correct itself.
//!
//! What it must not do: pass on a name the tool does not list (the gate owns where an action runs,
//! and no argument may smuggle that in), or decide anything by the words of its messages: the outcome
//! is the typed [`ArgumentError`].

use std::fmt;

use serde_json::{Map, Value};
use waymark_protocol::tools::{Field, Shape};

/// Why a call's arguments are not usable. Its words are for the caller (a client, the model).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ArgumentError {
    /// No browser tool has this name.
    #[error("{tool} is not a browser tool")]
    UnknownTool { tool: String },
    /// `arguments` was not an object of named values.
    #[error("the arguments of {tool} must be an object of named values")]
    NotAnObject { tool: String },
    /// Names the tool does not take.
    #[error("{tool} does not take {}; it takes {}", quoted(.names), listed(.takes))]
    Unknown {
        tool: String,
        names: Vec<String>,
        takes: Vec<String>,
    },
    /// A required argument is absent (or null).
    #[error("{tool} needs `{name}`")]
    Missing { tool: String, name: String },
    /// An argument is of another kind than its schema says.
    #[error("`{name}` of {tool} must be {expected}, not {given}")]
    WrongType {
        tool: String,
        name: String,
        expected: Kind,
        given: String,
    },
    /// A number outside its bounds.
    #[error("`{name}` of {tool} must be {}, not {given}", range(.minimum, .maximum))]
    OutOfRange {
        tool: String,
        name: String,
        minimum: Option<f64>,
        maximum: Option<f64>,
        given: String,
    },
    /// A value that is not one of the choices.
    #[error("`{name}` of {tool} must be one of {}, not {given}", listed(.allowed))]
    NotAChoice {
        tool: String,
        name: String,
        allowed: Vec<String>,
        given: String,
    },
    /// An empty text or list where the schema wants something.
    #[error("`{name}` of {tool} must not be empty")]
    Empty { tool: String, name: String },
    /// A text or list longer than its schema allows.
    #[error("`{name}` of {tool} must be at most {most} {unit} long, not {given}")]
    TooLong {
        tool: String,
        name: String,
        most: u64,
        given: u64,
        unit: &'static str,
    },
    /// Values the schema admits but the tool cannot take (a bug in the catalogue's schema).
    #[error("the arguments of {tool} are not usable: {why}")]
    Unusable { tool: String, why: String },
}

/// The kinds of value an argument may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Integer,
    String,
    Boolean,
    Array,
    Object,
}

impl Kind {
    fn of(shape: &Shape) -> Self {
        match shape {
            Shape::Integer { .. } => Kind::Integer,
            Shape::Text { .. } | Shape::Choice(_) => Kind::String,
            Shape::Boolean => Kind::Boolean,
            Shape::List { .. } => Kind::Array,
            Shape::Object(_) => Kind::Object,
        }
    }

    fn admits(self, value: &Value) -> bool {
        match self {
            Kind::Integer => integral(value).is_some(),
            Kind::String => value.is_string(),
            Kind::Boolean => value.is_boolean(),
            Kind::Array => value.is_array(),
            Kind::Object => value.is_object(),
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::Integer => "a whole number",
            Kind::String => "a text",
            Kind::Boolean => "true or false",
            Kind::Array => "a list",
            Kind::Object => "an object",
        })
    }
}

/// A whole number as JSON holds it, also when written `3.0` (JSON Schema counts that as an integer).
fn integral(value: &Value) -> Option<Value> {
    if value.is_i64() || value.is_u64() {
        return Some(value.clone());
    }
    let float = value.as_f64()?;
    if float.fract() != 0.0 || float.abs() > 9.0e15 {
        return None;
    }
    // Exact: a float with no fraction below 2^53 converts without loss.
    Some(Value::from(float as i64))
}

fn quoted(names: &[String]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn listed(names: &[String]) -> String {
    if names.is_empty() {
        "no arguments".into()
    } else {
        names.join(", ")
    }
}

fn range(minimum: &Option<f64>, maximum: &Option<f64>) -> String {
    match (*minimum, *maximum) {
        (Some(min), Some(max)) => format!("from {min} to {max}"),
        (Some(min), None) => format!("at least {min}"),
        (None, Some(max)) => format!("at most {max}"),
        (None, None) => "a number".into(),
    }
}

/// A value as a refusal quotes it: short, so a huge argument does not fill the answer.
fn shown(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() <= 40 {
        text
    } else {
        format!("{}…", text.chars().take(40).collect::<String>())
    }
}

/// Checks `args` (absent or null: none) against `arguments`, those of the tool called `tool`, and
/// returns the arguments to use: nulls left out (clients and models send null for an optional argument
/// they do not use) and whole numbers written as `3.0` made integers.
pub fn check(tool: &str, arguments: &[Field], args: &Value) -> Result<Map<String, Value>, ArgumentError> {
    let given = match args {
        Value::Null => Map::new(),
        Value::Object(map) => map.clone(),
        _ => return Err(ArgumentError::NotAnObject { tool: tool.into() }),
    };
    let field = |name: &str| arguments.iter().find(|f| f.name == name);
    let unknown: Vec<String> = given
        .keys()
        .filter(|name| field(name).is_none())
        .cloned()
        .collect();
    if !unknown.is_empty() {
        let mut takes: Vec<String> = arguments.iter().map(|f| f.name.to_owned()).collect();
        takes.sort();
        return Err(ArgumentError::Unknown {
            tool: tool.into(),
            names: unknown,
            takes,
        });
    }
    for required in arguments.iter().filter(|f| f.required) {
        if given.get(required.name).is_none_or(Value::is_null) {
            return Err(ArgumentError::Missing {
                tool: tool.into(),
                name: required.name.into(),
            });
        }
    }
    let mut checked = Map::new();
    for (name, value) in given {
        let Some(field) = field(&name).filter(|_| !value.is_null()) else {
            continue;
        };
        let value = check_value(tool, &name, &field.shape, value)?;
        checked.insert(name, value);
    }
    Ok(checked)
}

/// One value against its shape; the value to use.
fn check_value(tool: &str, name: &str, shape: &Shape, value: Value) -> Result<Value, ArgumentError> {
    let kind = Kind::of(shape);
    if !kind.admits(&value) {
        return Err(ArgumentError::WrongType {
            tool: tool.into(),
            name: name.into(),
            expected: kind,
            given: shown(&value),
        });
    }
    let empty = || ArgumentError::Empty {
        tool: tool.into(),
        name: name.into(),
    };
    let too_long = |most: u32, given: usize, unit| ArgumentError::TooLong {
        tool: tool.into(),
        name: name.into(),
        most: u64::from(most),
        given: given as u64,
        unit,
    };
    match (shape, value) {
        (Shape::Integer { min, max }, value) => {
            // `admits` has just found it whole.
            let value = integral(&value).unwrap_or(value);
            let number = value.as_f64().unwrap_or_default();
            let minimum = min.map(|m| m as f64);
            let maximum = max.map(|m| m as f64);
            if minimum.is_some_and(|min| number < min) || maximum.is_some_and(|max| number > max) {
                return Err(ArgumentError::OutOfRange {
                    tool: tool.into(),
                    name: name.into(),
                    minimum,
                    maximum,
                    given: shown(&value),
                });
            }
            Ok(value)
        }
        (Shape::Choice(words), value) => {
            if words.iter().any(|w| value.as_str() == Some(w)) {
                Ok(value)
            } else {
                Err(ArgumentError::NotAChoice {
                    tool: tool.into(),
                    name: name.into(),
                    allowed: words.iter().map(|w| (*w).to_owned()).collect(),
                    given: shown(&value),
                })
            }
        }
        (Shape::Text { non_empty, max }, Value::String(text)) => {
            if *non_empty && text.trim().is_empty() {
                return Err(empty());
            }
            let length = text.chars().count();
            if let Some(max) = max.filter(|max| length > *max as usize) {
                return Err(too_long(max, length, "characters"));
            }
            Ok(Value::String(text))
        }
        (Shape::List { of, non_empty, max }, Value::Array(items)) => {
            if *non_empty && items.is_empty() {
                return Err(empty());
            }
            if let Some(max) = max.filter(|max| items.len() > *max as usize) {
                return Err(too_long(max, items.len(), "items"));
            }
            let items = items
                .into_iter()
                .map(|item| check_value(tool, name, of, item))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Value::Array(items))
        }
        (_, value) => Ok(value),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    const ARGUMENTS: &[Field] = &[
        Field::required("index", Shape::NUMBER),
        Field::optional("action", Shape::Choice(&["click", "type"])),
        Field::optional("ms", Shape::between(0, 60_000)),
        Field::optional(
            "url",
            Shape::Text {
                non_empty: true,
                max: Some(8),
            },
        ),
        Field::optional(
            "paths",
            Shape::List {
                of: &Shape::TEXT,
                non_empty: true,
                max: Some(2),
            },
        ),
    ];

    fn refusal(args: Value) -> String {
        check("browser_x", ARGUMENTS, &args).unwrap_err().to_string()
    }

    #[test]
    fn good_arguments_pass_with_nulls_dropped_and_whole_floats_made_integers() {
        let checked = check(
            "browser_x",
            ARGUMENTS,
            &json!({"index": 3.0, "action": "click", "ms": null, "paths": ["/a"]}),
        )
        .unwrap();
        assert_eq!(
            Value::Object(checked),
            json!({"index": 3, "action": "click", "paths": ["/a"]})
        );
        assert!(check("browser_y", &[], &Value::Null).is_ok());
    }

    #[test]
    fn every_rule_of_the_schema_is_enforced_and_named() {
        assert_eq!(
            refusal(json!({"index": 1, "pin": {}, "tab": 3})),
            "browser_x does not take `pin`, `tab`; it takes action, index, ms, paths, url"
        );
        assert_eq!(refusal(json!({"index": null})), "browser_x needs `index`");
        assert_eq!(
            refusal(json!({"index": "three"})),
            "`index` of browser_x must be a whole number, not \"three\""
        );
        assert_eq!(
            refusal(json!({"index": 1.5})),
            "`index` of browser_x must be a whole number, not 1.5"
        );
        assert_eq!(
            refusal(json!({"index": 0})),
            "`index` of browser_x must be at least 1, not 0"
        );
        assert_eq!(
            refusal(json!({"index": 1, "ms": 60001})),
            "`ms` of browser_x must be from 0 to 60000, not 60001"
        );
        assert_eq!(
            refusal(json!({"index": 1, "action": "tap"})),
            "`action` of browser_x must be one of click, type, not \"tap\""
        );
        assert_eq!(
            refusal(json!({"index": 1, "url": "  "})),
            "`url` of browser_x must not be empty"
        );
        assert_eq!(
            refusal(json!({"index": 1, "paths": []})),
            "`paths` of browser_x must not be empty"
        );
        assert_eq!(
            refusal(json!({"index": 1, "url": "https://é.example"})),
            "`url` of browser_x must be at most 8 characters long, not 17"
        );
        assert_eq!(
            refusal(json!({"index": 1, "paths": ["/a", "/b", "/c"]})),
            "`paths` of browser_x must be at most 2 items long, not 3"
        );
        assert_eq!(
            refusal(json!({"index": 1, "paths": [7]})),
            "`paths` of browser_x must be a text, not 7"
        );
        assert_eq!(
            check("browser_x", ARGUMENTS, &json!([1])),
            Err(ArgumentError::NotAnObject {
                tool: "browser_x".into()
            })
        );
        assert!(refusal(json!({"index": "x".repeat(500)})).chars().count() < 120);
    }
}
