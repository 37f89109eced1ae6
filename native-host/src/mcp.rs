//! MCP both ways. Inward: the browser tools as an MCP server ([`server`]), listed from one
//! [`catalogue`], served to outside clients (Claude Desktop, Cursor, IDEs) over a local socket that only
//! this user can open ([`socket`]: a Unix socket, or a named pipe on Windows), which `waymark-host mcp` ([`proxy`]) joins to the client's stdio.
//! Every call goes through the same policy gate as the panel's and the agent's, so a destructive click
//! from a client waits for the user's yes in the side panel. Outward: the external MCP servers named in
//! the config ([`external`]), whose tools the agent may call, behind the same gate. A client is known by
//! the program at the other end of the socket ([`identity`]), not by the name it gives itself.
//!
//! ```text
//!  MCP client -[stdio]-> waymark-host mcp -[local socket]-> waymark-host (native messaging) -> browser
//! ```

pub mod arguments;
pub mod catalogue;
pub mod external;
pub mod identity;
pub mod link;
pub mod offline;
pub mod progress;
pub mod proxy;
pub mod relay;
pub mod schema;
pub mod server;
pub mod socket;
pub mod wording;
