//! What derives from every tool's one description (`PageTool::spec`), checked over every tool of the
//! table: the number it names and a frame's own number put in, what the session keeps of it, how long
//! the host waits for it.
#![allow(clippy::unwrap_used)] // test code: a panic is the failure report

use serde_json::json;
use waymark_protocol::tools::{DOWNLOAD_WAIT_DEFAULT_MS, WAIT_DEFAULT_MS};
use waymark_protocol::*;

#[test]
fn a_frames_own_number_goes_where_the_tab_wide_one_was_and_nowhere_else() {
    for tool in PageTool::every() {
        let json = serde_json::to_value(&tool).unwrap();
        let local = tool.clone().with_number(77);
        match tool.number() {
            Some(number) => {
                // The number a tool names is its `index`, the one callers give.
                assert_eq!(json["index"], json!(number), "{tool:?}");
                assert_eq!(local.number(), Some(77), "{tool:?}");
                assert_eq!(
                    serde_json::to_value(&local).unwrap()["index"],
                    json!(77),
                    "{tool:?}"
                );
            }
            None => assert_eq!(local, tool),
        }
    }
    // A key pressed without a number goes where the focus is; a tab's number is not a control's.
    let focused = PageTool::Press {
        key: "Enter".into(),
        index: None,
    };
    assert_eq!(focused.number(), None);
    assert_eq!(focused.clone().with_number(5), focused);
    let on_three = PageTool::Press {
        key: "Enter".into(),
        index: Some(3),
    };
    assert_eq!(on_three.with_number(5).number(), Some(5));
    assert_eq!(PageTool::SwitchTab { index: 2 }.number(), None);
}

#[test]
fn the_session_keeps_no_typed_text_and_no_files_contents() {
    let typing = |text: &str| PageTool::OverlayAct {
        index: 2,
        action: ActKind::Type,
        text: Some(text.into()),
    };
    let file = FileData {
        name: "cv.pdf".into(),
        mime: "application/pdf".into(),
        base64: "c2VjcmV0".into(),
    };
    for tool in [
        typing("hunter2"),
        PageTool::ActByIndex {
            index: 2,
            action: ActKind::Type,
            text: Some("hunter2".into()),
        },
        PageTool::Preview {
            action: Box::new(typing("hunter2")),
        },
        PageTool::Upload {
            index: 1,
            paths: vec!["/home/me/cv.pdf".into()],
            files: vec![file],
        },
    ] {
        let kept = serde_json::to_string(&tool.as_kept()).unwrap();
        assert!(!kept.contains("hunter2") && !kept.contains("c2VjcmV0"), "{kept}");
    }
    assert_eq!(
        serde_json::to_value(typing("hunter2").as_kept()).unwrap()["text"],
        "[withheld]"
    );
    // What carries nothing typed is kept whole.
    for tool in PageTool::every() {
        assert_eq!(tool.as_kept(), tool);
    }
}

#[test]
fn a_tool_that_waits_in_the_page_is_waited_for_as_long_as_its_arguments_ask() {
    assert_eq!(PageTool::Wait { ms: Some(60_000) }.spec().waits_ms, 60_000);
    assert_eq!(PageTool::Wait { ms: None }.spec().waits_ms, WAIT_DEFAULT_MS);
    let download = PageTool::ClickAndWaitDownload {
        index: 1,
        timeout_ms: Some(120_000),
    };
    assert_eq!(download.spec().waits_ms, 120_000);
    let next = PageTool::DownloadWait { timeout_ms: None };
    assert_eq!(next.spec().waits_ms, DOWNLOAD_WAIT_DEFAULT_MS);
    let waiting = [
        "browser_wait",
        "browser_click_and_wait_download",
        "browser_download_wait",
    ];
    for tool in PageTool::every() {
        if !waiting.contains(&tool.mcp_name()) {
            assert_eq!(tool.spec().waits_ms, 0, "{tool:?}");
        }
    }
}

#[test]
fn the_gates_own_steps_are_offered_to_no_caller() {
    for tool in PageTool::every() {
        let own = matches!(
            tool,
            PageTool::Preview { .. } | PageTool::FindBanners | PageTool::PressBanners { .. }
        ) || tool.spec().road == Road::Internal;
        if own {
            assert!(tool.spec().mcp.is_none(), "{tool:?}");
            assert_eq!(tool.mcp_name(), "browser_tool");
        }
    }
}
