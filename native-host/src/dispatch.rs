//! What the host does with each message from the extension. Pure: a message in, answers out; the
//! connection layer owns all I/O.

use waymark_protocol::{Pong, ToExtension, ToHost, Welcome, PROTOCOL_VERSION};

/// Facts about this host process that answers carry.
#[derive(Debug, Clone)]
pub struct HostInfo {
    pub version: &'static str,
    pub pid: u32,
}

impl HostInfo {
    /// This process.
    pub fn current() -> Self {
        Self {
            version: env!("CARGO_PKG_VERSION"),
            pid: std::process::id(),
        }
    }
}

/// Answers one message.
pub fn handle(message: ToHost, info: &HostInfo) -> Vec<ToExtension> {
    match message {
        ToHost::Hello(hello) => {
            if hello.protocol != PROTOCOL_VERSION {
                // The extension compares versions and tells the user; the host only notes it.
                tracing::warn!(
                    extension = hello.protocol,
                    host = PROTOCOL_VERSION,
                    "extension speaks another protocol version"
                );
            } else {
                tracing::info!(extension_version = %hello.extension_version, "extension connected");
            }
            vec![ToExtension::Welcome(Welcome {
                protocol: PROTOCOL_VERSION,
                host_version: info.version.to_string(),
                pid: info.pid,
            })]
        }
        ToHost::Ping(ping) => vec![ToExtension::Pong(Pong {
            id: ping.id,
            host_version: info.version.to_string(),
            pid: info.pid,
        })],
        // Routed by the connection to the gate, the agent and the browser; never reaches here.
        ToHost::UserTool(_)
        | ToHost::Answer(_)
        | ToHost::ToolResult(_)
        | ToHost::Chat(_)
        | ToHost::GetSettings(_)
        | ToHost::SaveSettings(_)
        | ToHost::RunDoctor(_)
        | ToHost::PageChanged(_) => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use waymark_protocol::{Hello, Ping};

    #[test]
    fn hello_is_welcomed_with_our_protocol_even_on_mismatch() {
        let info = HostInfo {
            version: "1.2.3",
            pid: 9,
        };
        for protocol in [PROTOCOL_VERSION, PROTOCOL_VERSION + 1] {
            let out = handle(
                ToHost::Hello(Hello {
                    protocol,
                    extension_version: "x".into(),
                }),
                &info,
            );
            assert_eq!(
                out,
                vec![ToExtension::Welcome(Welcome {
                    protocol: PROTOCOL_VERSION,
                    host_version: "1.2.3".into(),
                    pid: 9
                })]
            );
        }
    }

    #[test]
    fn ping_echoes_the_id() {
        let info = HostInfo::current();
        let out = handle(ToHost::Ping(Ping { id: 42 }), &info);
        assert!(matches!(&out[..], [ToExtension::Pong(p)] if p.id == 42 && p.pid == std::process::id()));
    }
}
