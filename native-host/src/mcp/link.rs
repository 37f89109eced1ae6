//! The agent's side of the browser tools: an rmcp client joined to a [`BrowserServer`] for the agent
//! over an in-memory duplex pipe. The agent lists and calls exactly what outside clients list and
//! call; the tab it works in travels in the request's `_meta`.
//!
//! What it must not do: hide the gate's verdict. A held or handed-over action comes back as
//! [`Gated::Asked`] / [`Gated::HandedOver`] (read from the result's kind, never its words), as if the
//! agent had called the gate itself.

use std::sync::Arc;

use rmcp::model::{CallToolRequestParams, ErrorCode, MetaObject, RequestMetaObject, Tool};
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceError, ServiceExt as _};
use serde_json::Value;
use tokio::sync::mpsc;
use waymark_protocol::{ErrorKind, ToExtension, ToolResult};

use super::arguments::ArgumentError;
use super::server::{BrowserServer, TAB_META};
use crate::gate::{Decided, Gate, Gated};

/// How many bytes may wait in the in-memory pipe in each direction.
const PIPE_BYTES: usize = 1 << 20;

pub struct AgentLink {
    client: RunningService<RoleClient, ()>,
    tools: Vec<Tool>,
}

#[derive(Debug, thiserror::Error)]
#[error("the agent could not reach its browser tools: {0}")]
pub struct LinkError(String);

impl AgentLink {
    /// Starts the agent's server and joins a client to it.
    pub async fn connect(
        gate: Arc<Gate>,
        outbox: mpsc::Sender<ToExtension>,
        inbox: mpsc::UnboundedSender<Decided>,
    ) -> Result<Self, LinkError> {
        let (server_end, client_end) = tokio::io::duplex(PIPE_BYTES);
        let server = BrowserServer::for_agent(gate, outbox, inbox);
        tokio::spawn(async move {
            match server.serve(server_end).await {
                Ok(running) => {
                    let _ = running.waiting().await;
                }
                Err(e) => tracing::warn!("the agent's browser tools did not start: {e}"),
            }
        });
        let client = ().serve(client_end).await.map_err(|e| LinkError(e.to_string()))?;
        let tools = client
            .list_all_tools()
            .await
            .map_err(|e| LinkError(e.to_string()))?;
        Ok(Self { client, tools })
    }

    /// The browser tools as OpenAI function tools, from the server's own list.
    pub fn definitions(&self) -> Vec<Value> {
        self.tools
            .iter()
            .map(|tool| {
                crate::llm::function_tool(
                    &tool.name,
                    tool.description.as_deref().unwrap_or_default(),
                    Value::Object((*tool.input_schema).clone()),
                )
            })
            .collect()
    }

    /// Calls a browser tool in `tab_id` (the active tab when `None`) and returns the gate's verdict.
    pub async fn call(&self, tab_id: Option<i32>, name: &str, args: &Value) -> Gated {
        let mut params = CallToolRequestParams::new(name.to_owned());
        match args {
            Value::Object(args) => params = params.with_arguments(args.clone()),
            Value::Null => {}
            _ => {
                let wrong = ArgumentError::NotAnObject { tool: name.into() };
                return Gated::Ran(ToolResult::failed(ErrorKind::BadArguments, wrong.to_string()));
            }
        }
        if let Some(tab) = tab_id {
            let mut meta = serde_json::Map::new();
            meta.insert(TAB_META.into(), Value::from(tab));
            params.meta = Some(RequestMetaObject(MetaObject(meta)));
        }
        let result = match self.client.call_tool(params).await {
            Ok(result) => result,
            // The call itself was wrong (an unknown tool): the model's mistake, to correct.
            Err(ServiceError::McpError(error)) if error.code == ErrorCode::INVALID_PARAMS => {
                return Gated::Ran(ToolResult::failed(ErrorKind::BadArguments, error.message));
            }
            Err(e) => {
                return Gated::Ran(ToolResult::failed(
                    ErrorKind::Unreachable,
                    format!("the browser tools failed: {e}"),
                ))
            }
        };
        let text = result
            .content
            .iter()
            .find_map(|block| block.as_text().map(|t| t.text.clone()))
            .unwrap_or_default();
        let result: ToolResult = serde_json::from_str(&text)
            .unwrap_or_else(|e| ToolResult::error(format!("the browser tools answered badly: {e}")));
        Gated::from_result(result)
    }
}
