//! Reading a chat-completions answer, leniently: pure functions over `serde_json::Value`, no I/O.
//!
//! Native `tool_calls` come first (arguments as a JSON string or an object, ids made up when missing,
//! extra calls dropped and reported). Without them the text is read for the textual fallback:
//! `function_call: name=… args={…}` or a `{"mode": "act"|"ask"|"done", …}` object (or a bare
//! `{"name": …, "arguments": {…}}` as Hermes-style templates print it), fenced or inside prose.
//! `reasoning_content` and `<think>…</think>` are ignored. What it must not do: turn anything it
//! cannot read for certain into an action — that is [`LlmError::Invalid`].

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{Map, Value};

use super::{Completion, LlmError, Message, ModelTurn, ToolCall};

/// Reads a chat-completions response body. `known_tools` (when not empty) are the names the model may
/// call; any other name is invalid output.
pub fn parse_completion(body: &Value, known_tools: &[&str]) -> Result<Completion, LlmError> {
    let bad = |why: String| LlmError::BadResponse {
        raw: body.to_string(),
        why,
    };
    let Some(object) = body.as_object() else {
        return Err(bad("it is not a JSON object".into()));
    };
    if let Some(error) = object.get("error").filter(|e| !e.is_null()) {
        return Err(bad(format!("the server sent an error: {}", error_text(error))));
    }
    let choice = object
        .get("choices")
        .and_then(Value::as_array)
        .and_then(|choices| choices.first())
        .ok_or_else(|| bad("it has no choices".into()))?;
    let message = choice
        .get("message")
        .filter(|m| m.is_object())
        .ok_or_else(|| bad("choices[0] has no message".into()))?;
    parse_message(message, known_tools)
}

fn error_text(error: &Value) -> String {
    match error.get("message").and_then(Value::as_str) {
        Some(message) => message.to_owned(),
        None => error.to_string(),
    }
}

fn parse_message(message: &Value, known_tools: &[&str]) -> Result<Completion, LlmError> {
    let text = content_text(message.get("content"));
    let invalid = |why: String| LlmError::Invalid {
        raw: message.to_string(),
        why,
    };

    let calls: Vec<&Value> = message
        .get("tool_calls")
        .and_then(Value::as_array)
        .map(|calls| calls.iter().filter(|c| !c.is_null()).collect())
        .unwrap_or_default();
    // The deprecated single `function_call` object: no id to answer, so it is treated like text.
    let legacy = message.get("function_call").filter(|f| f.is_object());
    let first = calls.first().map(|c| (*c, true)).or(legacy.map(|c| (c, false)));
    if let Some((first, native)) = first {
        let call = read_call(first, native).map_err(invalid)?;
        check_known(&call.name, known_tools).map_err(invalid)?;
        let dropped_calls = calls
            .iter()
            .skip(1)
            .map(|c| {
                c.get("function")
                    .unwrap_or(c)
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or("(unnamed)")
                    .to_owned()
            })
            .collect();
        let progress = first_line(&text);
        return Ok(Completion {
            assistant: Message::Assistant {
                text: (!text.is_empty()).then(|| text.clone()),
                tool_call: Some(call.clone()),
            },
            turn: ModelTurn::ToolCall { call, progress },
            dropped_calls,
        });
    }

    if text.is_empty() {
        return Err(invalid("it is empty: no text and no tool call".into()));
    }
    let invalid_text = |why: String| LlmError::Invalid {
        raw: text.clone(),
        why,
    };
    let turn = parse_text(&text).map_err(invalid_text)?;
    let tool_call = match &turn {
        ModelTurn::ToolCall { call, .. } => {
            check_known(&call.name, known_tools).map_err(invalid_text)?;
            Some(call.clone())
        }
        _ => None,
    };
    Ok(Completion {
        turn,
        assistant: Message::Assistant {
            text: Some(text),
            tool_call,
        },
        dropped_calls: Vec::new(),
    })
}

fn check_known(name: &str, known_tools: &[&str]) -> Result<(), String> {
    if known_tools.is_empty() || known_tools.contains(&name) {
        Ok(())
    } else {
        Err(format!(
            "it calls {name}, which is not one of the tools ({})",
            known_tools.join(", ")
        ))
    }
}

/// A native call: `{"id", "type": "function", "function": {"name", "arguments"}}`, tolerating the
/// name and arguments at the top level, arguments as an object, and a missing id.
fn read_call(call: &Value, native: bool) -> Result<ToolCall, String> {
    let function = call.get("function").filter(|f| f.is_object()).unwrap_or(call);
    let name = function
        .get("name")
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .ok_or("the tool call has no function name")?;
    let args = match function.get("arguments").or_else(|| function.get("parameters")) {
        None => Value::Object(Map::new()),
        Some(value) => read_args(value).map_err(|why| format!("the arguments of the {name} call {why}"))?,
    };
    let id = call
        .get("id")
        .and_then(Value::as_str)
        .filter(|id| !id.trim().is_empty())
        .map_or_else(new_call_id, str::to_owned);
    Ok(ToolCall {
        id,
        name: name.to_owned(),
        args,
        native,
    })
}

/// Arguments: an object, a string holding one (even twice encoded), or null / "" for none.
fn read_args(value: &Value) -> Result<Value, String> {
    match value {
        Value::Object(_) => Ok(value.clone()),
        Value::Null => Ok(Value::Object(Map::new())),
        Value::String(text) if text.trim().is_empty() => Ok(Value::Object(Map::new())),
        Value::String(text) => match parse_lenient(text.trim()) {
            Ok(Value::Object(map)) => Ok(Value::Object(map)),
            Ok(Value::String(inner)) => match parse_lenient(inner.trim()) {
                Ok(Value::Object(map)) => Ok(Value::Object(map)),
                _ => Err("are not a JSON object".into()),
            },
            Ok(_) => Err("are not a JSON object".into()),
            Err(e) => Err(format!("are not valid JSON ({e})")),
        },
        _ => Err("are not a JSON object".into()),
    }
}

/// JSON; failing that, JSON with raw control characters inside its strings, or JSON written with
/// single quotes (only when there are no double quotes).
fn parse_lenient(text: &str) -> Result<Value, serde_json::Error> {
    serde_json::from_str(text).or_else(|e| {
        // llama.cpp's grammars (llama-cpp-python 0.3.36: `char ::= [^"\\] | …`) let a raw newline or
        // tab into a string, which JSON forbids; there it can only mean itself.
        if let Some(escaped) = escape_raw_controls(text) {
            if let Ok(value) = serde_json::from_str(&escaped) {
                return Ok(value);
            }
        }
        if text.contains('\'') && !text.contains('"') {
            serde_json::from_str(&text.replace('\'', "\""))
        } else {
            Err(e)
        }
    })
}

/// `text` with the control characters inside its double-quoted strings escaped (`\n`, `\u0001`…),
/// or `None` when there were none. Outside strings they are whitespace or errors, and left alone.
fn escape_raw_controls(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let (mut in_string, mut escaped, mut changed) = (false, false, false);
    for c in text.chars() {
        if in_string && !escaped && c.is_control() && u32::from(c) < 0x20 {
            changed = true;
            match c {
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                other => out.push_str(&format!("\\u{:04x}", u32::from(other))),
            }
            continue;
        }
        if in_string {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
        } else if c == '"' {
            in_string = true;
        }
        out.push(c);
    }
    changed.then_some(out)
}

fn new_call_id() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let millis = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis())
        .unwrap_or(0);
    // Unique within a conversation even across host restarts.
    format!("call_wm_{millis:x}_{n}")
}

/// The message's text: a string, or the text parts of an array; thinking removed; trimmed.
fn content_text(content: Option<&Value>) -> String {
    let text = match content {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|part| part.get("text").and_then(Value::as_str).or(part.as_str()))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    };
    strip_thinking(&text).trim().to_owned()
}

/// Removes `<think>…</think>` blocks (and everything before a lone `</think>`; an unclosed `<think>`
/// to the end), which reasoning models put in the content.
fn strip_thinking(text: &str) -> String {
    let mut out = text.to_owned();
    if let Some(end) = find_ci(&out, "</think>") {
        if find_ci(&out[..end], "<think>").is_none() {
            out.replace_range(..end + "</think>".len(), "");
        }
    }
    while let Some(start) = find_ci(&out, "<think>") {
        match find_ci(&out[start..], "</think>") {
            Some(len) => out.replace_range(start..start + len + "</think>".len(), ""),
            None => out.truncate(start),
        }
    }
    out
}

/// Byte offset of `needle` (ASCII) in `haystack`, ignoring ASCII case.
fn find_ci(haystack: &str, needle: &str) -> Option<usize> {
    let (hay, needle) = (haystack.as_bytes(), needle.as_bytes());
    if needle.is_empty() || hay.len() < needle.len() {
        return None;
    }
    (0..=hay.len() - needle.len()).find(|&i| hay[i..i + needle.len()].eq_ignore_ascii_case(needle))
}

/// The first line of prose, without code fences, at most 200 characters.
fn first_line(text: &str) -> Option<String> {
    let line = text
        .lines()
        .map(str::trim)
        .find(|line| !line.is_empty() && !line.starts_with("```"))?;
    Some(line.chars().take(200).collect())
}

/// The textual fallback. `Err` is the reason the text is an action that cannot be read.
fn parse_text(text: &str) -> Result<ModelTurn, String> {
    if let Some(at) = function_call_marker(text) {
        let (name, args) = parse_function_call(&text[at + "function_call".len()..])?;
        return Ok(ModelTurn::ToolCall {
            call: ToolCall {
                id: new_call_id(),
                name,
                args,
                native: false,
            },
            progress: first_line(&text[..at]),
        });
    }

    let mut from = 0;
    while let Some(offset) = text[from..].find('{') {
        let start = from + offset;
        let Some(end) = balanced_object_end(&text[start..]) else {
            if looks_like_action(&text[start..]) {
                return Err("it holds a JSON action that is not finished (a { without its })".into());
            }
            break;
        };
        let candidate = &text[start..start + end];
        match parse_lenient(candidate) {
            Ok(Value::Object(map)) => {
                if map.contains_key("mode") {
                    return from_mode(&map);
                }
                if let Some(turn) = from_named_call(&map)? {
                    return Ok(turn);
                }
            }
            Ok(_) => {}
            Err(e) if looks_like_action(candidate) => {
                return Err(format!("it holds a JSON action that is not valid JSON ({e})"));
            }
            Err(_) => {}
        }
        from = start + end;
    }
    Ok(ModelTurn::Text(text.to_owned()))
}

/// Where `function_call` starts an action: followed by `:`, `=`, `(`, `{` or a quote (so the word in
/// a sentence is not taken for one).
fn function_call_marker(text: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(offset) = find_ci(&text[from..], "function_call") {
        let at = from + offset;
        let after = text[at + "function_call".len()..].trim_start();
        if after.starts_with([':', '=', '(', '{', '"', '\'']) {
            return Some(at);
        }
        from = at + "function_call".len();
    }
    None
}

/// Whether broken JSON was meant as an action (so it must not pass as plain text).
fn looks_like_action(text: &str) -> bool {
    ["\"mode\"", "'mode'", "\"arguments\"", "\"args\""]
        .iter()
        .any(|key| text.contains(key))
}

/// Length of the `{…}` object at the start of `text` (strings and escapes respected).
fn balanced_object_end(text: &str) -> Option<usize> {
    let mut depth = 0_usize;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' => quote = Some(c),
            '{' => depth += 1,
            '}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// The first string among `keys`, trimmed and not empty.
fn str_field(map: &Map<String, Value>, keys: &[&str]) -> Option<String> {
    keys.iter()
        .filter_map(|k| map.get(*k).and_then(Value::as_str))
        .map(str::trim)
        .find(|v| !v.is_empty())
        .map(str::to_owned)
}

fn args_field(map: &Map<String, Value>, name: &str) -> Result<Value, String> {
    match ["args", "arguments", "parameters", "input"]
        .iter()
        .find_map(|k| map.get(*k))
    {
        None => Ok(Value::Object(Map::new())),
        Some(value) => read_args(value).map_err(|why| format!("the arguments for {name} {why}")),
    }
}

/// `{"mode": "act"|"ask"|"done", …}`.
fn from_mode(map: &Map<String, Value>) -> Result<ModelTurn, String> {
    let mode = map
        .get("mode")
        .and_then(Value::as_str)
        .map(|m| m.trim().to_ascii_lowercase())
        .ok_or("\"mode\" must be one of \"act\", \"ask\", \"done\"")?;
    match mode.as_str() {
        "act" => {
            let name = str_field(map, &["tool", "name", "function", "action"])
                .ok_or("mode act needs \"tool\": the name of the tool to call")?;
            let args = args_field(map, &name)?;
            Ok(ModelTurn::ToolCall {
                progress: str_field(map, &["progress", "say", "message", "thought"]),
                call: ToolCall {
                    id: new_call_id(),
                    name,
                    args,
                    native: false,
                },
            })
        }
        "ask" => str_field(map, &["question", "text", "message"])
            .map(|question| ModelTurn::Ask { question })
            .ok_or_else(|| "mode ask needs a \"question\"".into()),
        "done" => str_field(map, &["reason", "summary", "answer", "result", "message"])
            .map(|reason| ModelTurn::Done { reason })
            .ok_or_else(|| "mode done needs a \"reason\"".into()),
        other => Err(format!(
            "unknown mode {other:?}: expected \"act\", \"ask\" or \"done\""
        )),
    }
}

/// `{"name": "browser_click", "arguments": {…}}` (or `tool` / `args`): a call printed as text.
fn from_named_call(map: &Map<String, Value>) -> Result<Option<ModelTurn>, String> {
    let has_args = ["arguments", "args", "parameters"]
        .iter()
        .any(|k| map.contains_key(*k));
    let Some(name) = str_field(map, &["name", "tool"]).filter(|_| has_args) else {
        return Ok(None);
    };
    let args = args_field(map, &name)?;
    Ok(Some(ModelTurn::ToolCall {
        call: ToolCall {
            id: new_call_id(),
            name,
            args,
            native: false,
        },
        progress: None,
    }))
}

/// After `function_call`: `: name=browser_click args={"index": 3}`, `: browser_click({"index": 3})`,
/// `: {"name": "browser_click", "arguments": {…}}`, with quotes and spaces tolerated.
fn parse_function_call(rest: &str) -> Result<(String, Value), String> {
    let rest = rest.trim_start_matches(|c: char| c.is_whitespace() || "\"'`:=(".contains(c));
    if rest.starts_with('{') {
        let end = balanced_object_end(rest).ok_or("function_call: the {…} is not finished")?;
        let map = match parse_lenient(&rest[..end]) {
            Ok(Value::Object(map)) => map,
            Ok(_) => return Err("function_call: expected a JSON object".into()),
            Err(e) => return Err(format!("function_call: the object is not valid JSON ({e})")),
        };
        let name = str_field(&map, &["name", "tool"]).ok_or("function_call: no \"name\"")?;
        let args = args_field(&map, &name)?;
        return Ok((name, args));
    }

    let mut rest = rest;
    if let Some(after) = strip_prefix_ci(rest, "name") {
        let after = after.trim_start_matches(|c: char| c.is_whitespace() || "\"'`".contains(c));
        if let Some(after) = after.strip_prefix(['=', ':']) {
            rest = after.trim_start_matches(|c: char| c.is_whitespace() || "\"'`".contains(c));
        }
    }
    let name_len = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || "_-.".contains(c)))
        .unwrap_or(rest.len());
    let name = &rest[..name_len];
    if name.is_empty() {
        return Err("function_call: no tool name (expected name=TOOL args={…})".into());
    }
    let mut rest = rest[name_len..].trim_start_matches(|c: char| c.is_whitespace() || "\"'`,;".contains(c));
    let mut args_key = false;
    for key in ["arguments", "args", "parameters"] {
        if let Some(after) = strip_prefix_ci(rest, key) {
            let after = after.trim_start_matches(|c: char| c.is_whitespace() || "\"'`".contains(c));
            if let Some(after) = after.strip_prefix(['=', ':']) {
                rest = after.trim_start_matches(|c: char| c.is_whitespace() || "\"'`".contains(c));
                args_key = true;
                break;
            }
        }
    }
    let rest = rest.strip_prefix('(').map_or(rest, str::trim_start);
    if args_key && !rest.starts_with('{') {
        return Err(format!("function_call {name}: args must be a JSON object {{…}}"));
    }
    if rest.starts_with('{') {
        let end = balanced_object_end(rest)
            .ok_or_else(|| format!("function_call {name}: the args {{…}} are not finished"))?;
        let args = match parse_lenient(&rest[..end]) {
            Ok(Value::Object(map)) => Value::Object(map),
            Ok(_) => return Err(format!("function_call {name}: args must be a JSON object")),
            Err(e) => return Err(format!("function_call {name}: args are not valid JSON ({e})")),
        };
        return Ok((name.to_owned(), args));
    }
    if rest.contains('{') {
        return Err(format!(
            "function_call {name}: cannot tell where the args are (expected args={{…}})"
        ));
    }
    Ok((name.to_owned(), Value::Object(Map::new())))
}

fn strip_prefix_ci<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    let head = text.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix).then(|| &text[prefix.len()..])
}

#[cfg(test)]
mod tests;
