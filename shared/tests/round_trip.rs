//! Messages of each direction survive JSON and back unchanged (a sample: every message type's own round
//! trip is `protocol_doc.rs`'s, through its example in `docs/protocol.md`), a few wire shapes are pinned,
//! unknown fields are ignored and unknown types refused, answers carry their request's id, and pins and
//! frames' reasons travel whole.
#![allow(clippy::unwrap_used)] // test code: a panic is the failure report

use serde_json::json;
use waymark_protocol::*;

fn samples_to_host() -> Vec<ToHost> {
    vec![
        ToHost::Hello(Hello {
            protocol: PROTOCOL_VERSION,
            extension_version: "0.1.0".into(),
            language: Some("ru-RU".into()),
        }),
        ToHost::Hello(Hello {
            protocol: PROTOCOL_VERSION,
            extension_version: "0.1.0".into(),
            language: None,
        }),
        ToHost::Ping(Ping { id: (1 << 53) - 1 }),
        ToHost::Chat(Chat {
            id: 2,
            tab_id: None,
            text: "ünïcødé \"quoted\"".into(),
            language: None,
        }),
    ]
}

fn samples_to_extension() -> Vec<ToExtension> {
    vec![
        ToExtension::Welcome(Welcome {
            protocol: 1,
            host_version: "0.1.0".into(),
            pid: 1,
            faults: Vec::new(),
        }),
        ToExtension::Welcome(Welcome {
            protocol: 1,
            host_version: "0.1.0".into(),
            pid: 1,
            faults: vec![
                HostFault {
                    kind: FaultKind::StateUnwritable,
                    path: Some("/home/ada/.local/state/waymark".into()),
                    key: None,
                    detail: Some("Input/output error (os error 5)".into()),
                },
                HostFault {
                    kind: FaultKind::ConfigBadValue,
                    path: Some("config.toml".into()),
                    key: Some("max_tool_steps".into()),
                    detail: Some("expected a whole number".into()),
                },
            ],
        }),
        ToExtension::Pong(Pong {
            id: 0,
            host_version: "0.1.0".into(),
            pid: u32::MAX,
        }),
        ToExtension::Error(ErrorReply {
            id: None,
            code: ErrorCode::OversizedFrame,
            message: "ünïcødé \"quoted\" \n newline".into(),
        }),
        ToExtension::Error(ErrorReply {
            id: Some(3),
            code: ErrorCode::ReplyTooLarge,
            message: String::new(),
        }),
        ToExtension::AgentEvent(AgentUpdate {
            event: AgentEvent::Tool {
                name: "browser_back".into(),
                ok: false,
                summary: String::new(),
            },
        }),
        ToExtension::AgentEvent(AgentUpdate {
            event: AgentEvent::Status {
                state: AgentState::WaitingUser,
            },
        }),
        ToExtension::AgentEvent(AgentUpdate {
            event: AgentEvent::NotSaved {
                fault: HostFault {
                    kind: FaultKind::StateNotAFolder,
                    path: Some("state".into()),
                    key: None,
                    detail: None,
                },
            },
        }),
    ]
}

fn samples_relay() -> (Vec<PanelToWorker>, Vec<WorkerToPanel>) {
    let states = vec![
        ConnectionState::Connecting,
        ConnectionState::Connected {
            host_version: "0.1.0".into(),
            pid: 9,
            faults: Vec::new(),
        },
        ConnectionState::NotInstalled { retry_in_ms: 30_000 },
        ConnectionState::Forbidden {
            retry_in_ms: 1,
            extension_id: "cefdccnmncoeemlgklbddcicjlldkfko".into(),
            browser: waymark_protocol::BrowserBrand::Edge,
        },
        ConnectionState::Incompatible {
            host_version: "9.0.0".into(),
            host_protocol: 9,
        },
        ConnectionState::Disconnected {
            why: Disconnection::Exited,
            retry_in_ms: 250,
        },
        ConnectionState::Disconnected {
            why: Disconnection::Silent { seconds: 10 },
            retry_in_ms: 500,
        },
        ConnectionState::Disconnected {
            why: Disconnection::Other {
                reason: "Something new.".into(),
            },
            retry_in_ms: 1_000,
        },
    ];
    let mut to_panel: Vec<WorkerToPanel> = states
        .into_iter()
        .map(|state| WorkerToPanel::Connection { state })
        .collect();
    to_panel.extend(
        samples_to_extension()
            .into_iter()
            .map(|message| WorkerToPanel::FromHost { message }),
    );
    to_panel.push(WorkerToPanel::NotDelivered {
        id: Some(1),
        reason: "x".into(),
    });
    to_panel.push(WorkerToPanel::NotDelivered {
        id: None,
        reason: String::new(),
    });
    let to_worker = samples_to_host()
        .into_iter()
        .map(|message| PanelToWorker::ToHost { message })
        .collect();
    (to_worker, to_panel)
}

fn assert_round_trip<T>(value: &T)
where
    T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let text = serde_json::to_string(value).unwrap();
    let back: T = serde_json::from_str(&text).unwrap();
    assert_eq!(&back, value, "{text}");
}

#[test]
fn every_message_round_trips() {
    samples_to_host().iter().for_each(assert_round_trip);
    samples_to_extension().iter().for_each(assert_round_trip);
    let (to_worker, to_panel) = samples_relay();
    to_worker.iter().for_each(assert_round_trip);
    to_panel.iter().for_each(assert_round_trip);
}

#[test]
fn wire_shapes_are_pinned() {
    assert_eq!(
        serde_json::to_value(ToHost::Ping(Ping { id: 7 })).unwrap(),
        json!({"type": "ping", "id": 7})
    );
    assert_eq!(
        serde_json::to_value(ToExtension::Error(ErrorReply {
            id: None,
            code: ErrorCode::MalformedFrame,
            message: "m".into()
        }))
        .unwrap(),
        json!({"type": "error", "code": "malformed_frame", "message": "m"})
    );
}

#[test]
fn unknown_fields_are_ignored_for_forward_compatibility() {
    let m: ToHost = serde_json::from_value(json!({"type": "ping", "id": 1, "added_later": true})).unwrap();
    assert_eq!(m, ToHost::Ping(Ping { id: 1 }));
}

#[test]
fn unknown_types_and_missing_fields_are_errors() {
    assert!(serde_json::from_value::<ToHost>(json!({"type": "fly"})).is_err());
    assert!(serde_json::from_value::<ToHost>(json!({"type": "ping"})).is_err());
    assert!(serde_json::from_value::<ToHost>(json!({"id": 1})).is_err());
}

/// The extension matches an answer to what it asked by the id [`ToExtension::request_id`] reads (and the
/// host's `reply_too_large` error carries it): every answer has the id of its request, and what answers
/// no request (a welcome, a question, an agent's event) has none.
#[test]
fn an_answer_carries_the_id_of_its_request_and_nothing_else_does() {
    let cases = [
        (
            json!({"type": "pong", "id": 5, "host_version": "x", "pid": 1}),
            Some(5),
        ),
        (
            json!({"type": "user_tool_result", "id": 21, "result": {"status": "ok"}}),
            Some(21),
        ),
        (
            json!({"type": "run_tool", "id": 4, "tool": {"tool": "extract"}}),
            Some(4),
        ),
        (
            json!({"type": "error", "id": 9, "code": "unknown_message", "message": ""}),
            Some(9),
        ),
        (
            json!({"type": "error", "code": "malformed_frame", "message": ""}),
            None,
        ),
        (
            json!({"type": "welcome", "protocol": PROTOCOL_VERSION, "host_version": "x", "pid": 1}),
            None,
        ),
        (
            json!({"type": "question", "id": 3, "kind": "confirm", "text": "Pay?"}),
            None,
        ),
        (
            json!({"type": "agent_event", "event": {"kind": "status", "state": "running"}}),
            None,
        ),
    ];
    for (wire, id) in cases {
        let message: ToExtension = serde_json::from_value(wire.clone()).unwrap();
        assert_eq!(message.request_id(), id, "{wire}");
    }
}

#[test]
fn a_pin_travels_with_a_run_and_a_preview_nests_the_tool_it_describes() {
    let run = ToExtension::RunTool(waymark_protocol::RunTool {
        id: 4,
        tab_id: Some(12),
        tool: PageTool::OverlayAct {
            index: 3,
            action: ActKind::Click,
            text: None,
        },
        pin: Some(waymark_protocol::Pin {
            tab: 12,
            frame: 3,
            document: "ab12".into(),
            element: Some(41),
        }),
        part: None,
        guard: None,
    });
    let json = serde_json::to_value(&run).unwrap();
    assert_eq!(json["pin"]["element"], 41);
    assert_eq!(serde_json::from_value::<ToExtension>(json).unwrap(), run);
    let preview = PageTool::Preview {
        action: Box::new(PageTool::Press {
            key: "Enter".into(),
            index: None,
        }),
    };
    let json = serde_json::to_value(&preview).unwrap();
    assert_eq!(
        json,
        serde_json::json!({"tool": "preview", "action": {"tool": "press", "key": "Enter"}})
    );
    assert!(!preview.changes_page());
    assert!(PageTool::PressBanners { pins: Vec::new() }.changes_page());
}

/// One of every frame's reason, with values of every kind.
fn every_reason() -> Vec<PageReason> {
    let control = || ("checkbox".to_owned(), "Gift wrap \"deluxe\"".to_owned());
    let act = |failure| {
        let (role, name) = control();
        PageReason::Act {
            number: 12,
            action: ActKind::Select,
            role,
            name,
            failure,
        }
    };
    let (role, name) = control();
    vec![
        PageReason::Gone {
            role: role.clone(),
            name: name.clone(),
        },
        PageReason::Unknown,
        PageReason::Changed {
            role: role.clone(),
            name: name.clone(),
        },
        PageReason::Outdated {
            role: role.clone(),
            name: name.clone(),
        },
        PageReason::FocusMoved,
        PageReason::OtherDocument,
        PageReason::NoDocument,
        PageReason::NotInFrame,
        PageReason::StillMoving,
        PageReason::UnknownKey { key: "Fly".into() },
        act(ActFailure::NotClickable),
        act(ActFailure::NotTextField),
        act(ActFailure::NotAList),
        act(ActFailure::OffScreen),
        act(ActFailure::Covered {
            text: Some("Sale ends soon".into()),
            tag: "div".into(),
        }),
        act(ActFailure::Covered {
            text: None,
            tag: "div".into(),
        }),
        act(ActFailure::NoSuchOption {
            wanted: "Huge".into(),
            options: vec!["Small".into(), "Large".into()],
        }),
        act(ActFailure::SeveralOptions {
            wanted: "a".into(),
            options: vec!["Small".into(), "Large".into()],
        }),
        act(ActFailure::PartOfOption {
            wanted: "Lar".into(),
            option: "Large".into(),
        }),
        act(ActFailure::NoOptionsOpened {
            wanted: "Huge".into(),
        }),
        act(ActFailure::Detached),
        act(ActFailure::Script {
            detail: "TypeError: x is null".into(),
        }),
        PageReason::NotAFileField {
            number: 4,
            role,
            name,
        },
        PageReason::NoFiles { number: 4 },
        PageReason::OneFileOnly { number: 4, given: 2 },
        PageReason::FilesNotPut {
            number: 4,
            detail: "SecurityError".into(),
        },
        PageReason::ScriptFailed {
            detail: "unreachable executed".into(),
        },
    ]
}

#[test]
fn a_frames_reason_travels_typed_with_its_values() {
    for reason in every_reason() {
        assert_round_trip(&reason);
        // As a frame's answer, inside the worker's answer to the host.
        let done = ToHost::ToolResult(ToolDone {
            id: 3,
            result: ToolResult::refused(ErrorKind::Stale, reason),
            stopped: Vec::new(),
        });
        assert_round_trip(&done);
    }
    let refused = ToolResult::refused(
        ErrorKind::Failed,
        PageReason::Act {
            number: 12,
            action: ActKind::Type,
            role: "checkbox".into(),
            name: "Gift wrap".into(),
            failure: ActFailure::Covered {
                text: Some("Sale".into()),
                tag: "div".into(),
            },
        },
    );
    assert_eq!(
        serde_json::to_value(&refused).unwrap(),
        json!({"status": "error", "kind": "failed", "reason": {"reason": "act", "failure": "covered", "number": 12,
            "action": "type", "role": "checkbox", "name": "Gift wrap", "text": "Sale", "tag": "div"}})
    );
    // A variant without a value it needs is refused, not made up.
    let lacking = serde_json::from_value::<PageReason>(json!({"reason": "gone", "role": "button"}));
    assert!(lacking.unwrap_err().to_string().contains("`gone`"));
    // A result without a reason (every older answer) reads as one.
    let plain: ToolResult =
        serde_json::from_value(json!({"status": "error", "error": "x", "kind": "failed"})).unwrap();
    assert!(plain.reason.is_none());
}
