//! A small MCP server on stdio for Waymark's tests of external MCP servers: `echo` (read-only),
//! `add_note` (changes something: appends to the file named by `NOTES_FILE`), and `sleep` (read-only,
//! for timeouts). When `FIXTURE_ALIVE_FILE` is set it listens on a TCP port of 127.0.0.1 for as long as
//! it runs and writes the port there, so a test can check on any system that the process is gone after
//! the host exits (the system closes the port with the process; no `/proc` or process list needed).

use std::io::Write as _;
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool, ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt as _};
use serde_json::{json, Value};

struct Fixture;

fn tool(name: &'static str, description: &'static str, schema: Value, read_only: Option<bool>) -> Tool {
    let Value::Object(schema) = schema else {
        unreachable!()
    };
    let mut tool = Tool::new(name, description, schema);
    if let Some(read_only) = read_only {
        tool.annotations = Some(ToolAnnotations::from_raw(None, Some(read_only), None, None, None));
    }
    tool
}

fn text_arg(request: &CallToolRequestParams, key: &str) -> String {
    request
        .arguments
        .as_ref()
        .and_then(|a| a.get(key))
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned()
}

impl ServerHandler for Fixture {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let text =
            json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]});
        let ms = json!({"type": "object", "properties": {"ms": {"type": "integer"}}, "required": ["ms"]});
        Ok(ListToolsResult::with_all_items(vec![
            tool("echo", "Says the text back.", text.clone(), Some(true)),
            tool("add_note", "Adds a note to the notebook.", text, None),
            tool("sleep", "Waits ms milliseconds.", ms, Some(true)),
        ]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let reply = match request.name.as_ref() {
            "echo" => CallToolResult::success(vec![ContentBlock::text(format!(
                "echo: {}",
                text_arg(&request, "text")
            ))]),
            "add_note" => {
                let note = text_arg(&request, "text");
                let path = std::env::var("NOTES_FILE").unwrap_or_else(|_| "notes.txt".into());
                let written = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .and_then(|mut f| writeln!(f, "{note}"));
                match written {
                    Ok(()) => CallToolResult::success(vec![ContentBlock::text("noted")]),
                    Err(e) => CallToolResult::error(vec![ContentBlock::text(e.to_string())]),
                }
            }
            "sleep" => {
                let ms = request
                    .arguments
                    .as_ref()
                    .and_then(|a| a.get("ms"))
                    .and_then(Value::as_u64)
                    .unwrap_or(0);
                tokio::time::sleep(Duration::from_millis(ms)).await;
                CallToolResult::success(vec![ContentBlock::text("slept")])
            }
            other => CallToolResult::error(vec![ContentBlock::text(format!("no tool {other}"))]),
        };
        Ok(reply.into())
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    // Held until the process ends.
    let _alive = std::env::var("FIXTURE_ALIVE_FILE").ok().and_then(|path| {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").ok()?;
        let port = listener.local_addr().ok()?.port();
        std::fs::write(path, port.to_string()).ok()?;
        Some(listener)
    });
    if let Ok(running) = Fixture.serve((tokio::io::stdin(), tokio::io::stdout())).await {
        let _ = running.waiting().await;
    }
}
