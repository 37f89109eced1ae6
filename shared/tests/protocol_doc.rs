//! Keeps `docs/protocol.md` and the types in step: every JSON block there must parse into the type its
//! heading names and serialize back to the same JSON, and every message type must have an example.
#![allow(clippy::unwrap_used)] // test code: a panic is the failure report

use std::collections::BTreeSet;

use serde::{de::DeserializeOwned, Serialize};
use serde_json::Value;
use waymark_protocol::{
    ConnectionState, ElementInfo, PanelToWorker, SecretKind, ToExtension, ToHost, WorkerToContent,
    WorkerToPanel,
};

fn to_host_name(m: &ToHost) -> &'static str {
    match m {
        ToHost::Hello(_) => "ToHost::Hello",
        ToHost::Ping(_) => "ToHost::Ping",
        ToHost::UserTool(_) => "ToHost::UserTool",
        ToHost::Answer(_) => "ToHost::Answer",
        ToHost::ToolResult(_) => "ToHost::ToolResult",
        ToHost::Chat(_) => "ToHost::Chat",
        ToHost::StopAgent(_) => "ToHost::StopAgent",
        ToHost::GetSettings(_) => "ToHost::GetSettings",
        ToHost::SaveSettings(_) => "ToHost::SaveSettings",
        ToHost::RunDoctor(_) => "ToHost::RunDoctor",
        ToHost::PageChanged(_) => "ToHost::PageChanged",
    }
}

fn to_extension_name(m: &ToExtension) -> &'static str {
    match m {
        ToExtension::Welcome(_) => "ToExtension::Welcome",
        ToExtension::Pong(_) => "ToExtension::Pong",
        ToExtension::Error(_) => "ToExtension::Error",
        ToExtension::RunTool(_) => "ToExtension::RunTool",
        ToExtension::UserToolResult(_) => "ToExtension::UserToolResult",
        ToExtension::Question(_) => "ToExtension::Question",
        ToExtension::QuestionClosed(_) => "ToExtension::QuestionClosed",
        ToExtension::AgentEvent(_) => "ToExtension::AgentEvent",
        ToExtension::Activity(_) => "ToExtension::Activity",
        ToExtension::Settings(_) => "ToExtension::Settings",
        ToExtension::DoctorReport(_) => "ToExtension::DoctorReport",
    }
}

fn panel_to_worker_name(m: &PanelToWorker) -> &'static str {
    match m {
        PanelToWorker::ToHost { .. } => "PanelToWorker::ToHost",
        PanelToWorker::Tool { .. } => "PanelToWorker::Tool",
    }
}

fn worker_to_panel_name(m: &WorkerToPanel) -> &'static str {
    match m {
        WorkerToPanel::Connection { .. } => "WorkerToPanel::Connection",
        WorkerToPanel::FromHost { .. } => "WorkerToPanel::FromHost",
        WorkerToPanel::NotDelivered { .. } => "WorkerToPanel::NotDelivered",
        WorkerToPanel::ToolResult { .. } => "WorkerToPanel::ToolResult",
        WorkerToPanel::Shortcut { .. } => "WorkerToPanel::Shortcut",
        WorkerToPanel::Answered { .. } => "WorkerToPanel::Answered",
        WorkerToPanel::AnswerRefused { .. } => "WorkerToPanel::AnswerRefused",
        WorkerToPanel::PageDialog { .. } => "WorkerToPanel::PageDialog",
    }
}

fn worker_to_content_name(m: &WorkerToContent) -> &'static str {
    match m {
        WorkerToContent::Tool { .. } => "WorkerToContent::Tool",
        WorkerToContent::Scan { .. } => "WorkerToContent::Scan",
        WorkerToContent::Badges { .. } => "WorkerToContent::Badges",
        WorkerToContent::Document => "WorkerToContent::Document",
        WorkerToContent::MasksHeld => "WorkerToContent::MasksHeld",
        WorkerToContent::Locate => "WorkerToContent::Locate",
        WorkerToContent::Disarm => "WorkerToContent::Disarm",
        WorkerToContent::ScrollLists { .. } => "WorkerToContent::ScrollLists",
        WorkerToContent::Prepare => "WorkerToContent::Prepare",
    }
}

fn connection_state_name(s: &ConnectionState) -> &'static str {
    match s {
        ConnectionState::Connecting => "connecting",
        ConnectionState::Connected { .. } => "connected",
        ConnectionState::NotInstalled { .. } => "not_installed",
        ConnectionState::Forbidden { .. } => "forbidden",
        ConnectionState::Incompatible { .. } => "incompatible",
        ConnectionState::Disconnected { .. } => "disconnected",
    }
}

/// Every message type. When you add a variant, the name functions above stop compiling until you name
/// it there; add it here too, and an example to docs/protocol.md.
const ALL_MESSAGES: &[&str] = &[
    "ToHost::Hello",
    "ToHost::Ping",
    "ToHost::UserTool",
    "ToHost::Answer",
    "ToHost::ToolResult",
    "ToHost::Chat",
    "ToHost::StopAgent",
    "ToHost::GetSettings",
    "ToHost::SaveSettings",
    "ToHost::RunDoctor",
    "ToHost::PageChanged",
    "ToExtension::Welcome",
    "ToExtension::Pong",
    "ToExtension::Error",
    "ToExtension::RunTool",
    "ToExtension::UserToolResult",
    "ToExtension::Question",
    "ToExtension::QuestionClosed",
    "ToExtension::AgentEvent",
    "ToExtension::Activity",
    "ToExtension::Settings",
    "ToExtension::DoctorReport",
    "PanelToWorker::ToHost",
    "PanelToWorker::Tool",
    "WorkerToPanel::Connection",
    "WorkerToPanel::FromHost",
    "WorkerToPanel::NotDelivered",
    "WorkerToPanel::ToolResult",
    "WorkerToPanel::Shortcut",
    "WorkerToPanel::Answered",
    "WorkerToPanel::AnswerRefused",
    "WorkerToPanel::PageDialog",
    "WorkerToContent::Tool",
    "WorkerToContent::Scan",
    "WorkerToContent::Badges",
    "WorkerToContent::Document",
    "WorkerToContent::MasksHeld",
    "WorkerToContent::Locate",
    "WorkerToContent::Disarm",
    "WorkerToContent::ScrollLists",
    "WorkerToContent::Prepare",
];

const ALL_CONNECTION_STATES: &[&str] = &[
    "connecting",
    "connected",
    "not_installed",
    "forbidden",
    "incompatible",
    "disconnected",
];

/// (heading, json) for every ```json block under a `### ` heading.
fn doc_examples() -> Vec<(String, String)> {
    let doc = include_str!("../../docs/protocol.md");
    let mut heading = String::new();
    let mut out = Vec::new();
    let mut lines = doc.lines();
    while let Some(line) = lines.next() {
        if let Some(h) = line.strip_prefix("### ") {
            heading = h.trim().to_string();
        } else if line.trim() == "```json" {
            let block: Vec<&str> = lines.by_ref().take_while(|l| l.trim() != "```").collect();
            out.push((heading.clone(), block.join("\n")));
        }
    }
    out
}

fn round_trip<T: Serialize + DeserializeOwned>(heading: &str, json: &str) -> T {
    let original: Value = serde_json::from_str(json).unwrap_or_else(|e| panic!("{heading}: bad JSON: {e}"));
    let typed: T = serde_json::from_value(original.clone())
        .unwrap_or_else(|e| panic!("{heading}: does not parse as the type: {e}\n{json}"));
    let back = serde_json::to_value(&typed).unwrap();
    assert_eq!(back, original, "{heading}: serializing back changes the JSON");
    typed
}

#[test]
fn every_documented_example_round_trips_and_every_message_is_documented() {
    let mut seen = BTreeSet::new();
    let mut states = BTreeSet::new();
    for (heading, json) in doc_examples() {
        let family = heading.split("::").next().unwrap_or_default();
        let name = match family {
            "ToHost" => to_host_name(&round_trip::<ToHost>(&heading, &json)),
            "ToExtension" => to_extension_name(&round_trip::<ToExtension>(&heading, &json)),
            "PanelToWorker" => panel_to_worker_name(&round_trip::<PanelToWorker>(&heading, &json)),
            "WorkerToPanel" => {
                let m = round_trip::<WorkerToPanel>(&heading, &json);
                if let WorkerToPanel::Connection { state } = &m {
                    states.insert(connection_state_name(state));
                }
                worker_to_panel_name(&m)
            }
            "WorkerToContent" => worker_to_content_name(&round_trip::<WorkerToContent>(&heading, &json)),
            other => panic!("docs/protocol.md: JSON under an unknown heading {other:?}"),
        };
        assert_eq!(name, heading, "the example under {heading:?} is a {name}");
        seen.insert(name);
    }
    let all: BTreeSet<&str> = ALL_MESSAGES.iter().copied().collect();
    assert_eq!(seen, all, "docs/protocol.md must show every message type");
    let all_states: BTreeSet<&str> = ALL_CONNECTION_STATES.iter().copied().collect();
    assert_eq!(
        states, all_states,
        "docs/protocol.md must show every connection state"
    );
}

/// The `describe` answers shown (the `ToHost::ToolResult` examples whose data is an element's
/// description) parse as `ElementInfo` and back, and one of them is a secret field: its kind is said
/// and its value is not.
#[test]
fn a_described_secret_field_is_documented_with_its_kind_and_without_a_value() {
    let described: Vec<ElementInfo> = doc_examples()
        .into_iter()
        .filter(|(heading, _)| heading == "ToHost::ToolResult")
        .filter_map(|(_, json)| {
            let ToHost::ToolResult(done) = serde_json::from_str::<ToHost>(&json).ok()? else {
                return None;
            };
            let data = done.result.data?;
            let info = serde_json::from_value::<ElementInfo>(data.clone()).ok()?;
            assert_eq!(
                serde_json::to_value(&info).unwrap(),
                data,
                "ElementInfo round trip"
            );
            Some(info)
        })
        .collect();
    let secret = described
        .iter()
        .find(|info| info.secret.is_some())
        .expect("docs/protocol.md shows a described secret field");
    assert_eq!(secret.secret, Some(SecretKind::Password));
    assert_eq!(secret.value, None);
    assert!(
        described.iter().any(|info| info.secret.is_none()),
        "and an ordinary one"
    );
}
