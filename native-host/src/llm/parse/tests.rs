//! Tests of reading completions, on bodies as real servers send them.
//! Nothing here talks to a server.

use serde_json::json;

use super::*;

const TOOLS: &[&str] = &["browser_click", "browser_navigate", "browser_back"];

fn body(message: Value) -> Value {
    json!({
        "id": "chatcmpl-1", "object": "chat.completion", "model": "m",
        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}]
    })
}

fn text_body(content: &str) -> Value {
    body(json!({"role": "assistant", "content": content}))
}

fn parse(message: Value) -> Result<Completion, LlmError> {
    parse_completion(&body(message), TOOLS)
}

fn parse_text_answer(content: &str) -> Result<Completion, LlmError> {
    parse_completion(&text_body(content), TOOLS)
}

#[track_caller]
fn expect_call(result: Result<Completion, LlmError>, name: &str, args: Value) -> (ToolCall, Option<String>) {
    match result {
        Ok(Completion {
            turn: ModelTurn::ToolCall { call, progress },
            ..
        }) => {
            assert_eq!(call.name, name);
            assert_eq!(call.args, args);
            (call, progress)
        }
        other => panic!("expected a call to {name}, got {other:?}"),
    }
}

#[track_caller]
fn expect_invalid(result: Result<Completion, LlmError>) -> String {
    match result {
        Err(LlmError::Invalid { why, .. }) => why,
        other => panic!("expected Invalid, got {other:?}"),
    }
}

#[test]
fn native_tool_call_with_string_arguments() {
    let completion = parse(json!({
        "role": "assistant", "content": "Opening the first result.\nMore text.",
        "tool_calls": [{"id": "call_abc", "type": "function",
            "function": {"name": "browser_click", "arguments": "{\"index\": 3}"}}]
    }))
    .unwrap();
    let ModelTurn::ToolCall { call, progress } = &completion.turn else {
        panic!("{completion:?}")
    };
    assert_eq!(call.id, "call_abc");
    assert!(call.native);
    assert_eq!(call.args, json!({"index": 3}));
    assert_eq!(progress.as_deref(), Some("Opening the first result."));
    assert!(completion.dropped_calls.is_empty());
    assert_eq!(
        completion.assistant.to_json(true)["tool_calls"][0]["id"],
        "call_abc"
    );
}

#[test]
fn native_arguments_as_object_null_empty_or_twice_encoded() {
    for arguments in [
        json!({"index": 3}),
        json!("{\"index\": 3}"),
        json!("\"{\\\"index\\\": 3}\""),
    ] {
        let result = parse(json!({"role": "assistant", "content": null, "tool_calls": [
            {"id": "c", "type": "function", "function": {"name": "browser_click", "arguments": arguments}}
        ]}));
        expect_call(result, "browser_click", json!({"index": 3}));
    }
    for arguments in [json!(null), json!(""), json!("  ")] {
        let result = parse(json!({"role": "assistant", "tool_calls": [
            {"id": "c", "type": "function", "function": {"name": "browser_back", "arguments": arguments}}
        ]}));
        expect_call(result, "browser_back", json!({}));
    }
}

#[test]
fn missing_id_gets_a_unique_one() {
    let message = json!({"role": "assistant", "tool_calls": [
        {"type": "function", "function": {"name": "browser_back", "arguments": "{}"}}
    ]});
    let (a, _) = expect_call(parse(message.clone()), "browser_back", json!({}));
    let (b, _) = expect_call(parse(message), "browser_back", json!({}));
    assert!(a.id.starts_with("call_"), "{}", a.id);
    assert_ne!(a.id, b.id);
}

#[test]
fn several_calls_keep_the_first_and_report_the_rest() {
    let completion = parse(json!({"role": "assistant", "content": "", "tool_calls": [
        {"id": "1", "type": "function", "function": {"name": "browser_click", "arguments": "{\"index\":1}"}},
        {"id": "2", "type": "function", "function": {"name": "browser_click", "arguments": "{\"index\":2}"}},
        {"id": "3", "type": "function", "function": {"name": "browser_back", "arguments": "{}"}}
    ]}))
    .unwrap();
    let ModelTurn::ToolCall { call, progress } = &completion.turn else {
        panic!()
    };
    assert_eq!(call.id, "1");
    assert_eq!(*progress, None);
    assert_eq!(completion.dropped_calls, vec!["browser_click", "browser_back"]);
    // The history keeps only the call that runs, so every call in it gets its answer.
    let history = completion.assistant.to_json(true);
    assert_eq!(history["tool_calls"].as_array().unwrap().len(), 1);
    assert_eq!(history["content"], "");
}

#[test]
fn broken_native_arguments_are_invalid_never_guessed() {
    for arguments in [json!("{\"index\": 3,"), json!("[3]"), json!(42), json!("click 3")] {
        let why = expect_invalid(parse(json!({"role": "assistant", "tool_calls": [
            {"id": "c", "type": "function", "function": {"name": "browser_click", "arguments": arguments}}
        ]})));
        assert!(why.contains("browser_click"), "{why}");
    }
    let why = expect_invalid(parse(json!({"role": "assistant", "tool_calls": [
        {"id": "c", "type": "function", "function": {"arguments": "{}"}}
    ]})));
    assert!(why.contains("no function name"), "{why}");
}

#[test]
fn unknown_tools_are_invalid() {
    let why = expect_invalid(parse(json!({"role": "assistant", "tool_calls": [
        {"id": "c", "type": "function", "function": {"name": "delete_everything", "arguments": "{}"}}
    ]})));
    assert!(
        why.contains("delete_everything") && why.contains("browser_click"),
        "{why}"
    );
    let why = expect_invalid(parse_text_answer("function_call: name=rm_rf args={}"));
    assert!(why.contains("rm_rf"), "{why}");
    // Without a tool list, any name passes (the caller checks).
    let completion = parse_completion(&text_body("function_call: name=anything args={}"), &[]).unwrap();
    assert!(matches!(completion.turn, ModelTurn::ToolCall { .. }));
}

#[test]
fn reasoning_content_and_think_blocks_are_ignored() {
    let completion = parse(json!({
        "role": "assistant",
        "reasoning_content": "I should click. {\"mode\": \"act\", \"tool\": \"browser_click\"}",
        "content": "<think>maybe function_call: name=browser_back</think>The page is open."
    }))
    .unwrap();
    assert_eq!(completion.turn, ModelTurn::Text("The page is open.".into()));
    assert_eq!(completion.assistant.to_json(true)["content"], "The page is open.");
    let completion = parse_text_answer("thinking without an opening tag</think>\nDone reading.").unwrap();
    assert_eq!(completion.turn, ModelTurn::Text("Done reading.".into()));
    // Only thinking, no answer: nothing to act on.
    expect_invalid(parse_text_answer("<think>hmm, never finished"));
}

#[test]
fn textual_function_call_variants() {
    let cases = [
        r#"function_call: name=browser_click args={"index": 3}"#,
        r#"function_call:name = "browser_click", args = {"index": 3}"#,
        r#"Function_Call: name='browser_click' args={'index': 3}"#,
        "I will click the Search button.\n```\nfunction_call: name=browser_click args={\"index\": 3}\n```",
        r#"function_call: browser_click({"index": 3})"#,
        r#"function_call: browser_click arguments: {"index": 3}"#,
        r#"{"function_call": {"name": "browser_click", "arguments": "{\"index\": 3}"}}"#,
        r#"function_call: {"name": "browser_click", "arguments": {"index": 3}}"#,
        r#"function_call: "name": "browser_click", "args": {"index": 3}"#,
    ];
    for case in cases {
        let (call, _) = expect_call(parse_text_answer(case), "browser_click", json!({"index": 3}));
        assert!(!call.native, "{case}");
    }
    let (_, progress) = expect_call(
        parse_text_answer(
            "I will click the Search button.\nfunction_call: name=browser_click args={\"index\": 3}",
        ),
        "browser_click",
        json!({"index": 3}),
    );
    assert_eq!(progress.as_deref(), Some("I will click the Search button."));
    expect_call(
        parse_text_answer("function_call: name=browser_back"),
        "browser_back",
        json!({}),
    );
    // The word in a sentence is not a call.
    let text = "I cannot use function_call here, so: which size?";
    assert_eq!(
        parse_completion(&text_body(text), &[]).unwrap().turn,
        ModelTurn::Text(text.into())
    );
}

#[test]
fn broken_textual_function_calls_are_invalid() {
    for case in [
        r#"function_call: name=browser_click args={"index": 3"#,
        r#"function_call: name=browser_click args={"index": three}"#,
        r#"function_call: name=browser_click args=[3]"#,
        r#"function_call: args={"index": 3}"#,
        "function_call:",
    ] {
        expect_invalid(parse_text_answer(case));
    }
}

#[test]
fn mode_objects_act_ask_done() {
    let (call, progress) = expect_call(
        parse_text_answer(
            r#"{"mode": "act", "tool": "browser_navigate", "args": {"url": "https://example.org"}, "progress": "Opening example.org"}"#,
        ),
        "browser_navigate",
        json!({"url": "https://example.org"}),
    );
    assert!(!call.native);
    assert_eq!(progress.as_deref(), Some("Opening example.org"));

    let completion = parse_text_answer(r#"{"mode":"ask","question":"Which size do you want?"}"#).unwrap();
    assert_eq!(
        completion.turn,
        ModelTurn::Ask {
            question: "Which size do you want?".into()
        }
    );
    let completion =
        parse_text_answer(r#"{"mode": "DONE", "reason": "The kettle is in the cart."}"#).unwrap();
    assert_eq!(
        completion.turn,
        ModelTurn::Done {
            reason: "The kettle is in the cart.".into()
        }
    );
    // Arguments as a string, and no arguments at all.
    expect_call(
        parse_text_answer(r#"{"mode":"act","tool":"browser_click","args":"{\"index\": 2}"}"#),
        "browser_click",
        json!({"index": 2}),
    );
    expect_call(
        parse_text_answer(r#"{"mode":"act","tool":"browser_back"}"#),
        "browser_back",
        json!({}),
    );
}

#[test]
fn mode_objects_in_fences_or_prose() {
    let fenced = "Here is my next step:\n```json\n{\n  \"mode\": \"act\",\n  \"tool\": \"browser_click\",\n  \"args\": {\"index\": 7}\n}\n```\nLet me know.";
    expect_call(parse_text_answer(fenced), "browser_click", json!({"index": 7}));
    let prose = r#"Sure {not json} — {"mode": "ask", "question": "Which {color}?"} thanks"#;
    assert_eq!(
        parse_text_answer(prose).unwrap().turn,
        ModelTurn::Ask {
            question: "Which {color}?".into()
        }
    );
    // Hermes-style call printed as text (Ollama templates sometimes leave it in the content).
    expect_call(
        parse_text_answer(
            "<tool_call>\n{\"name\": \"browser_click\", \"arguments\": {\"index\": 1}}\n</tool_call>",
        ),
        "browser_click",
        json!({"index": 1}),
    );
}

#[test]
fn broken_mode_objects_are_invalid() {
    for case in [
        r#"{"mode": "act", "tool": "browser_click", "args": {"index": 3}"#,
        r#"```json
{"mode": "act", "tool": "browser_click", "args": {"index": 3,}}
```"#,
        r#"{"mode": "act", "args": {"index": 3}}"#,
        r#"{"mode": "ask"}"#,
        r#"{"mode": "done"}"#,
        r#"{"mode": "explode", "reason": "x"}"#,
        r#"{"mode": "act", "tool": "browser_click", "args": [3]}"#,
    ] {
        expect_invalid(parse_text_answer(case));
    }
}

#[test]
fn plain_text_is_an_answer() {
    for text in [
        "The cheapest kettle costs 19.99 €.",
        "Use {curly} braces freely; {\"price\": 3} is data, not an action.",
    ] {
        let completion = parse_text_answer(text).unwrap();
        assert_eq!(completion.turn, ModelTurn::Text(text.into()));
        assert_eq!(completion.assistant.to_json(true)["content"], text);
    }
    // Content as an array of parts.
    let completion =
        parse(json!({"role": "assistant", "content": [{"type": "text", "text": "Hello"}]})).unwrap();
    assert_eq!(completion.turn, ModelTurn::Text("Hello".into()));
}

#[test]
fn legacy_function_call_object() {
    let (call, _) = expect_call(
        parse(json!({"role": "assistant", "content": null,
            "function_call": {"name": "browser_click", "arguments": "{\"index\": 4}"}})),
        "browser_click",
        json!({"index": 4}),
    );
    assert!(!call.native);
}

#[test]
fn raw_newlines_inside_argument_strings_are_read_as_newlines() {
    // What a llama.cpp grammar let through (llama-cpp-python 0.3.36): a raw newline in a string.
    let arguments = "{\"action\": \"type\", \"index\": 2, \"text\": \"two\nlines\tand a tab\"} ";
    let result = parse(json!({"role": "assistant", "tool_calls": [
        {"id": "c", "type": "function", "function": {"name": "browser_click", "arguments": arguments}}
    ]}));
    expect_call(
        result,
        "browser_click",
        json!({"action": "type", "index": 2, "text": "two\nlines\tand a tab"}),
    );
    // Outside a string a newline is whitespace; an escaped quote does not end the string.
    assert_eq!(escape_raw_controls("{\n\"a\": 1}"), None);
    assert_eq!(
        escape_raw_controls("{\"a\": \"x\\\"\u{1}\"}").as_deref(),
        Some("{\"a\": \"x\\\"\\u0001\"}")
    );
    // Still broken JSON stays broken.
    expect_invalid(parse(json!({"role": "assistant", "tool_calls": [
        {"id": "c", "type": "function", "function": {"name": "browser_click", "arguments": "{\"text\": \"a\nb"}}
    ]})));
}

#[test]
fn a_llama_cpp_python_tool_call_is_read_past_its_empty_legacy_name() {
    // Exactly what llama-cpp-python 0.3.36 (chatml-function-calling, tool_choice "auto") answers:
    // the legacy function_call beside the tool call has lost its name.
    let body = json!({"id": "chatcmpl-dd50", "object": "chat.completion", "model": "gemma-3-270m",
        "choices": [{"index": 0, "logprobs": null, "finish_reason": "tool_calls", "message": {
            "content": null, "role": "assistant",
            "tool_calls": [{"id": "call__0_browser_click_cmpl-8351", "type": "function",
                "function": {"name": "browser_click", "arguments": "{ \"index\":0, \"action\":\"click\"} "}}],
            "function_call": {"name": "", "arguments": "{ \"index\":0, \"action\":\"click\"} "}}}],
        "usage": {"prompt_tokens": 35, "completion_tokens": 15, "total_tokens": 50}});
    let (call, _) = expect_call(
        parse_completion(&body, TOOLS),
        "browser_click",
        json!({"index": 0, "action": "click"}),
    );
    assert!(call.native);
}

#[test]
fn responses_that_are_not_completions() {
    for raw in [
        json!([1, 2]),
        json!({"choices": []}),
        json!({"choices": [{"index": 0}]}),
        json!({"error": {"message": "model is loading"}}),
    ] {
        match parse_completion(&raw, TOOLS) {
            Err(LlmError::BadResponse { .. }) => {}
            other => panic!("{raw}: {other:?}"),
        }
    }
    expect_invalid(parse(json!({"role": "assistant", "content": ""})));
    expect_invalid(parse(
        json!({"role": "assistant", "content": null, "tool_calls": []}),
    ));
}
