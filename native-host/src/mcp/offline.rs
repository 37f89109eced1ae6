//! The browser tools' MCP server while no browser is there: what `waymark-host mcp` ([`super::proxy`])
//! talks to until a host answers, so a client started before the browser, or left behind by a host
//! that went away, keeps a working session. It answers exactly as a host's server would (the same
//! rmcp handshake and protocol negotiation, [`server::info`], the same tool list, the same checks of a
//! call's arguments); a call that would need the browser gets a tool error of kind `unreachable` that
//! says what to do, and can simply be made again once the browser is back.
//!
//! What it must not do: pretend anything was done. It reaches no page, holds no consent and keeps no
//! state beyond rmcp's session.

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CustomRequest, CustomResult, ListToolsResult,
    PaginatedRequestParams, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::Value;
use waymark_protocol::{ErrorKind, ToolResult};

use super::{catalogue, server};

/// The server standing in for the browser's; `why` says, at each call, why no browser answers and
/// what to do.
#[derive(Clone)]
pub struct Offline {
    why: Arc<dyn Fn() -> String + Send + Sync>,
}

impl Offline {
    pub fn new(why: impl Fn() -> String + Send + Sync + 'static) -> Self {
        Self { why: Arc::new(why) }
    }

    /// The answer to a call: the caller's own mistake first, as a host would say it (a call that is
    /// no tool call as a JSON-RPC error, [`server::protocol_error`]); otherwise that the browser is
    /// not there.
    pub fn answer(&self, name: &str, args: &Value) -> Result<ToolResult, ErrorData> {
        match catalogue::parse(name, args) {
            Err(why) => match server::protocol_error(&why) {
                Some(error) => Err(error),
                None => Ok(ToolResult::failed(ErrorKind::BadArguments, why.to_string())),
            },
            Ok(_) => Ok(ToolResult::failed(ErrorKind::Unreachable, (self.why)())),
        }
    }
}

impl ServerHandler for Offline {
    fn get_info(&self) -> ServerConfig {
        server::info()
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(server::tools()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        server::tools().into_iter().find(|t| t.name == name)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let args = Value::Object(request.arguments.unwrap_or_default());
        Ok(server::content(&self.answer(&request.name, &args)?).into())
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        Err(server::unreadable(&request))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_call_is_checked_like_a_hosts_then_said_to_need_the_browser() {
        let offline = Offline::new(|| "No browser with Waymark is connected.".into());
        let wrong = offline
            .answer("browser_overlay_act", &json!({"index": 0, "action": "click"}))
            .unwrap();
        assert_eq!(wrong.kind, Some(ErrorKind::BadArguments));
        let unknown = offline.answer("browser_fly", &json!({})).unwrap_err();
        assert_eq!(unknown.code, rmcp::model::ErrorCode::INVALID_PARAMS);
        let right = offline
            .answer("browser_overlay_act", &json!({"index": 2, "action": "click"}))
            .unwrap();
        assert_eq!(right.kind, Some(ErrorKind::Unreachable));
        assert_eq!(
            right.error.as_deref(),
            Some("No browser with Waymark is connected.")
        );
    }
}
