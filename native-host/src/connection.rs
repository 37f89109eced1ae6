//! One native-messaging connection: frames in from the browser, each message handed to
//! [`crate::dispatch`] (the one router), answers back out through a single writer task, so frames never
//! interleave. It owns the connection's lifetime: it starts the host's parts for it (and the MCP socket
//! for outside clients) and stops them when the browser goes away.
//!
//! Nothing that arrives can stop the host: a frame that is not UTF-8 JSON, is too large, or is not a
//! message we know gets an [`ErrorReply`] saying what was wrong, and the next frame is read. The
//! connection ends cleanly when the browser closes the pipe. What it must not do: decide what a message
//! means (that is [`Dispatch::route`]'s), or write to the browser anywhere but the writer task.

use bytes::Bytes;
use futures::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::mpsc;
use tokio_util::codec::{FramedRead, FramedWrite};
use waymark_i18n::{say, Words};
use waymark_protocol::{ErrorCode, ErrorReply, RequestId, ToExtension, ToHost};

use crate::agent;
use crate::dispatch::{Dispatch, HostInfo};
use crate::framing::{Frame, FramingError, NativeMessagingCodec};
use crate::language::Language;
use crate::mcp;

/// How many answers may wait for the writer before senders wait too.
const OUTBOX_DEPTH: usize = 64;

/// Serves one connection until the browser closes it; the agent's model is configured by
/// [`crate::config::Config::load`].
pub async fn serve<R, W>(input: R, output: W, info: HostInfo) -> Result<(), FramingError>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin + Send + 'static,
{
    // The socket lives in the state directory; without a usable config there is no MCP, and the agent
    // says why when asked.
    let mcp_dir = crate::config::Config::load()
        .map(|c| mcp::socket::run_dir(&c.state_dir))
        .map_err(|e| tracing::warn!("no MCP socket: {e}"))
        .ok();
    serve_with_mcp(input, output, info, agent::from_config(), mcp_dir).await
}

/// [`serve`] with the agent's settings made by `setup` (tests point it at a scripted model).
#[cfg(test)]
pub async fn serve_with<R, W>(
    input: R,
    output: W,
    info: HostInfo,
    setup: agent::Setup,
) -> Result<(), FramingError>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin + Send + 'static,
{
    serve_with_mcp(input, output, info, setup, None).await
}

/// [`serve`] with the agent's settings made by `setup`, also serving the browser tools to MCP clients
/// on a local socket in `mcp_dir` (if any) while the browser is connected.
pub async fn serve_with_mcp<R, W>(
    input: R,
    output: W,
    info: HostInfo,
    setup: agent::Setup,
    mcp_dir: Option<std::path::PathBuf>,
) -> Result<(), FramingError>
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (outbox, queue) = mpsc::channel::<ToExtension>(OUTBOX_DEPTH);
    let mut dispatch = Dispatch::new(info.clone(), outbox.clone(), setup);
    let writer = tokio::spawn(write_all(queue, output, dispatch.language()));
    // Outside MCP clients: served until the browser goes away (then the socket is removed).
    let mcp = mcp_dir.map(|dir| tokio::spawn(mcp::socket::serve(dir, info.pid, dispatch.mcp_server())));

    let mut frames = FramedRead::new(input, NativeMessagingCodec::for_browser());
    let mut result = Ok(());
    while let Some(next) = frames.next().await {
        let replies = match next {
            Ok(Frame::Message(body)) => match parse(&dispatch.language().words(), &body) {
                Ok(message) => dispatch.route(message),
                Err(error) => vec![ToExtension::Error(error)],
            },
            Ok(Frame::Oversized { len }) => {
                tracing::warn!(len, "oversized frame skipped");
                let words = dispatch.language().words();
                vec![ToExtension::Error(ErrorReply {
                    id: None,
                    code: ErrorCode::OversizedFrame,
                    message: say!(
                        words,
                        "host-frame-oversized",
                        length = len,
                        limit = waymark_protocol::MAX_MESSAGE_FROM_BROWSER
                    ),
                })]
            }
            Err(FramingError::Truncated { got, expected }) => {
                // The browser went away mid-message: nobody is left to answer.
                tracing::warn!(got, expected, "input ended inside a frame");
                break;
            }
            Err(e) => {
                result = Err(e);
                break;
            }
        };
        for reply in replies {
            if outbox.send(reply).await.is_err() {
                // The writer stopped: the browser closed stdout. Its error is reported below.
                break;
            }
        }
    }
    if let Some(mcp) = mcp {
        mcp.abort();
        // Let the aborted task drop its socket (removing the file) before the process ends.
        let _ = mcp.await;
    }
    dispatch.close().await;
    // The writer ends once every sender is gone.
    drop(outbox);
    match writer.await {
        Ok(Ok(())) => result,
        Ok(Err(e)) => result.and(Err(e)),
        Err(join) => result.and(Err(FramingError::Io(std::io::Error::other(join)))),
    }
}

/// Turns a frame's bytes into a message, or into the error the sender should see (in the user's
/// language, `words`; the reader's own details as they are).
fn parse(words: &Words, body: &[u8]) -> Result<ToHost, ErrorReply> {
    let text = std::str::from_utf8(body).map_err(|e| ErrorReply {
        id: None,
        code: ErrorCode::MalformedFrame,
        message: say!(words, "host-frame-not-utf8", detail = e.to_string()),
    })?;
    let value: Value = serde_json::from_str(text).map_err(|e| ErrorReply {
        id: None,
        code: ErrorCode::MalformedFrame,
        message: say!(words, "host-frame-not-json", detail = e.to_string()),
    })?;
    let id = value.get("id").and_then(Value::as_u64);
    serde_json::from_value::<ToHost>(value).map_err(|e| ErrorReply {
        id,
        code: ErrorCode::UnknownMessage,
        message: say!(
            words,
            "host-frame-unknown",
            protocol = waymark_protocol::PROTOCOL_VERSION,
            detail = e.to_string()
        ),
    })
}

/// The only place that writes frames to the browser.
async fn write_all<W>(
    mut queue: mpsc::Receiver<ToExtension>,
    output: W,
    language: Language,
) -> Result<(), FramingError>
where
    W: AsyncWrite + Unpin,
{
    let mut sink = FramedWrite::new(output, NativeMessagingCodec::for_browser());
    while let Some(message) = queue.recv().await {
        let body = encode(&message);
        match sink.send(body).await {
            Err(FramingError::TooLargeToSend { len, limit }) => {
                tracing::warn!(len, limit, "reply too large for the browser");
                let words = language.words();
                sink.send(encode(&too_large(&words, message.request_id(), len, limit)))
                    .await?;
            }
            other => other?,
        }
    }
    Ok(())
}

fn too_large(words: &Words, id: Option<RequestId>, len: usize, limit: usize) -> ToExtension {
    ToExtension::Error(ErrorReply {
        id,
        code: ErrorCode::ReplyTooLarge,
        message: say!(words, "host-reply-too-large", length = len, limit = limit),
    })
}

fn encode(message: &ToExtension) -> Bytes {
    // Serializing these plain data types cannot fail; an empty object is a safe fallback regardless.
    Bytes::from(serde_json::to_vec(message).unwrap_or_else(|_| b"{}".to_vec()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use waymark_protocol::{Ping, Pong};

    fn frame(body: &[u8]) -> Vec<u8> {
        let mut v = (body.len() as u32).to_ne_bytes().to_vec();
        v.extend_from_slice(body);
        v
    }

    fn info() -> HostInfo {
        HostInfo {
            version: "0.1.0-test",
            pid: 77,
            faults: Vec::new(),
        }
    }

    /// The agent's settings for a scripted model at `base_url`, keeping its state in `state_dir`.
    fn scripted(base_url: &str, state_dir: &std::path::Path, max_tool_steps: u32) -> crate::agent::Setup {
        let base_url = base_url.to_owned();
        let state_dir = state_dir.to_string_lossy().into_owned();
        std::sync::Arc::new(move |_: &waymark_i18n::Words| {
            let env = |name: &str| match name {
                "WAYMARK_LLM_BASE_URL" => Some(base_url.clone()),
                "WAYMARK_STATE_DIR" => Some(state_dir.clone()),
                _ => None,
            };
            let config = crate::config::Config::load_from(&env, None).map_err(|e| e.to_string())?;
            let llm = crate::llm::LlmClient::new(&config)
                .map_err(|e| e.to_string())?
                .with_timeout(std::time::Duration::from_secs(10));
            Ok(crate::agent::Settings {
                llm,
                max_tool_steps,
                state_dir: config.state_dir,
                mcp_servers: config.mcp_servers,
                banner_budget_ms: config.banner_budget_ms,
            })
        })
    }

    /// Feeds `input` to a connection, closes it, and returns every message written back.
    async fn exchange(input: Vec<u8>) -> Vec<ToExtension> {
        let (mut browser_out, host_in) = tokio::io::duplex(1 << 16);
        let (host_out, mut browser_in) = tokio::io::duplex(1 << 22);
        let server = tokio::spawn(serve(host_in, host_out, info()));
        browser_out.write_all(&input).await.unwrap();
        drop(browser_out);
        server.await.unwrap().unwrap();
        let mut bytes = Vec::new();
        browser_in.read_to_end(&mut bytes).await.unwrap();
        let mut out = Vec::new();
        let mut rest = &bytes[..];
        while !rest.is_empty() {
            let len = u32::from_ne_bytes(rest[..4].try_into().unwrap()) as usize;
            out.push(serde_json::from_slice(&rest[4..4 + len]).unwrap());
            rest = &rest[4 + len..];
        }
        out
    }

    #[tokio::test]
    async fn ping_gets_pong() {
        let out = exchange(frame(br#"{"type":"ping","id":3}"#)).await;
        assert_eq!(
            out,
            vec![ToExtension::Pong(Pong {
                id: 3,
                host_version: "0.1.0-test".into(),
                pid: 77
            })]
        );
    }

    #[tokio::test]
    async fn after_a_russian_hello_errors_are_russian() {
        let mut input = frame(br#"{"type":"hello","protocol":3,"extension_version":"x","language":"ru"}"#);
        input.extend(frame(b"\xff\xfe"));
        input.extend(frame(b"{not json"));
        input.extend(frame(br#"{"type":"nonsense","id":4}"#));
        let out = exchange(input).await;
        let errors: Vec<String> = out
            .into_iter()
            .filter_map(|m| match m {
                ToExtension::Error(e) => Some(e.message),
                _ => None,
            })
            .collect();
        assert_eq!(errors.len(), 3, "{errors:?}");
        assert!(
            errors[0].starts_with("сообщение — не корректный UTF-8 ("),
            "{errors:?}"
        );
        assert!(
            errors[1].starts_with("сообщение — не корректный JSON ("),
            "{errors:?}"
        );
        assert!(
            errors[2].starts_with(&format!(
                "этот хост (протокол {}) не может прочитать сообщение: ",
                waymark_protocol::PROTOCOL_VERSION
            )),
            "{errors:?}"
        );
    }

    #[tokio::test]
    async fn bad_frames_get_errors_and_the_host_keeps_serving() {
        let mut input = frame(b"\xff\xfe not utf-8");
        input.extend(frame(b"{not json"));
        input.extend(frame(br#"{"type":"fly","id":9}"#));
        input.extend(frame(b""));
        input.extend(frame(br#"{"type":"ping","id":4}"#));
        let out = exchange(input).await;
        let codes: Vec<_> = out
            .iter()
            .map(|m| match m {
                ToExtension::Error(e) => format!("{:?}/{:?}", e.code, e.id),
                ToExtension::Pong(p) => format!("pong/{}", p.id),
                other => format!("{other:?}"),
            })
            .collect();
        assert_eq!(
            codes,
            [
                "MalformedFrame/None",
                "MalformedFrame/None",
                "UnknownMessage/Some(9)",
                "MalformedFrame/None",
                "pong/4"
            ]
        );
        if let ToExtension::Error(e) = &out[0] {
            assert!(e.message.contains("UTF-8"), "{}", e.message);
        }
    }

    #[tokio::test]
    async fn an_oversized_frame_is_refused_and_skipped() {
        let limit = waymark_protocol::MAX_MESSAGE_FROM_BROWSER;
        let mut input = frame(&vec![b' '; limit + 1]);
        input.extend(frame(&serde_json::to_vec(&ToHost::Ping(Ping { id: 5 })).unwrap()));
        let out = exchange(input).await;
        assert!(matches!(&out[0], ToExtension::Error(e) if e.code == ErrorCode::OversizedFrame));
        assert!(matches!(&out[1], ToExtension::Pong(p) if p.id == 5));
        assert_eq!(out.len(), 2);
    }

    #[tokio::test]
    async fn input_ending_mid_frame_ends_the_connection_cleanly() {
        let mut input = frame(br#"{"type":"ping","id":1}"#);
        input.extend(&frame(br#"{"type":"ping","id":2}"#)[..10]);
        let out = exchange(input).await;
        assert_eq!(out.len(), 1);
    }

    #[tokio::test]
    async fn a_chat_reaches_the_agent_and_its_events_come_back_in_frames() {
        let script = fake_llm::Script::new([fake_llm::Step::text("Hello! What shall I do?")]);
        let llm = fake_llm::FakeLlm::start(script).await.unwrap();
        let dir = tempfile::tempdir().unwrap();
        let setup = scripted(llm.base_url(), dir.path(), 3);
        let (mut browser_out, host_in) = tokio::io::duplex(1 << 16);
        let (host_out, mut browser_in) = tokio::io::duplex(1 << 16);
        let server = tokio::spawn(serve_with(host_in, host_out, info(), setup));
        browser_out
            .write_all(&frame(br#"{"type":"chat","id":5,"text":"Hi"}"#))
            .await
            .unwrap();
        use waymark_protocol::{AgentEvent, AgentState};
        let mut events = Vec::new();
        // Until the agent stops working (or a bounded wait, so a failure cannot hang the test run).
        let read = async {
            loop {
                let mut len = [0_u8; 4];
                browser_in.read_exact(&mut len).await.unwrap();
                let mut body = vec![0_u8; u32::from_ne_bytes(len) as usize];
                browser_in.read_exact(&mut body).await.unwrap();
                let ToExtension::AgentEvent(update) = serde_json::from_slice(&body).unwrap() else {
                    panic!("{}", String::from_utf8_lossy(&body))
                };
                let stopped =
                    matches!(&update.event, AgentEvent::Status { state } if *state != AgentState::Running);
                events.push(update.event);
                if stopped {
                    break;
                }
            }
        };
        tokio::time::timeout(std::time::Duration::from_secs(20), read)
            .await
            .unwrap();
        drop(browser_out);
        server.await.unwrap().unwrap();
        assert_eq!(
            events,
            [
                AgentEvent::Status {
                    state: AgentState::Running
                },
                AgentEvent::Message {
                    text: "Hello! What shall I do?".into()
                },
                AgentEvent::Status {
                    state: AgentState::Idle
                },
            ]
        );
    }

    #[tokio::test]
    async fn a_reply_over_the_browsers_limit_becomes_an_error_with_its_id() {
        let (host_out, mut browser_in) = tokio::io::duplex(1 << 22);
        let (tx, rx) = mpsc::channel(4);
        let writer = tokio::spawn(write_all(rx, host_out, Language::default()));
        let huge = ToExtension::Pong(Pong {
            id: 8,
            host_version: "x".repeat(waymark_protocol::MAX_MESSAGE_TO_BROWSER),
            pid: 1,
        });
        tx.send(huge).await.unwrap();
        drop(tx);
        writer.await.unwrap().unwrap();
        let mut bytes = Vec::new();
        browser_in.read_to_end(&mut bytes).await.unwrap();
        let reply: ToExtension = serde_json::from_slice(&bytes[4..]).unwrap();
        assert!(
            matches!(reply, ToExtension::Error(e) if e.code == ErrorCode::ReplyTooLarge && e.id == Some(8))
        );
    }
}
