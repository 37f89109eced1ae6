//! Every tool in the table of tools (`PageTool::every`), through the gate: whatever reaches the page
//! of a page-changing tool was previewed first, judged, and runs pinned to what was judged; with an
//! effect that pays, nothing reaches the page but a move through the tab's history.

use super::*;

/// An element the stand-in extension describes every action as reaching: a file field for an upload
/// (anything else is refused before it is judged), otherwise a button with these words.
fn reaching(words: &'static str) -> Describe {
    Arc::new(move |action| {
        let target = match action {
            PageTool::Upload { .. } => ElementInfo {
                tag: "input".into(),
                input_type: Some("file".into()),
                ..button(words)
            },
            _ => button(words),
        };
        effect_on(target)
    })
}

/// A banner whose one way out has these words.
fn banner(words: &'static str) -> Arc<dyn Fn() -> Vec<BannerButton> + Send + Sync> {
    Arc::new(move || {
        vec![BannerButton {
            pin: pin(Some(40)),
            kind: "cookie".into(),
            choice: "accept".into(),
            target: button(words),
        }]
    })
}

/// Harmless words on every control and an address that only opens a page, or words that pay and an
/// address that deletes.
#[derive(Clone, Copy)]
enum Stakes {
    Harmless,
    Paying,
}

impl Stakes {
    fn words(self) -> &'static str {
        match self {
            Stakes::Harmless => "Save draft",
            Stakes::Paying => "Pay €84.97",
        }
    }

    fn address(self) -> String {
        match self {
            Stakes::Harmless => "https://shop.example/kettles".into(),
            Stakes::Paying => "https://shop.example/account/delete".into(),
        }
    }
}

/// The tool with arguments the gate can act on at these stakes: an upload of a file that is there,
/// an address to open.
fn runnable(tool: PageTool, file: &std::path::Path, stakes: Stakes) -> PageTool {
    match tool {
        PageTool::Upload { index, .. } => PageTool::Upload {
            index,
            paths: vec![file.display().to_string()],
            files: Vec::new(),
        },
        PageTool::Navigate { .. } => PageTool::Navigate {
            url: stakes.address(),
        },
        PageTool::OpenInNewTab { .. } => PageTool::OpenInNewTab {
            url: stakes.address(),
        },
        other => other,
    }
}

/// Passes `tool` through the gate for the agent at these stakes (an extension where every action
/// reaches a control and every banner's way out has their words), and answers `yes` to the question if one is asked;
/// what the gate did, and every tool it sent.
async fn through_the_gate(
    tool: &PageTool,
    file: &std::path::Path,
    stakes: Stakes,
    yes: bool,
) -> (Gated, Vec<Sent>) {
    let tool = runnable(tool.clone(), file, stakes);
    let fake = extension_with(reaching(stakes.words()), banner(stakes.words()));
    let (inbox, _decided) = mpsc::unbounded_channel();
    let gated = fake.gate.pass(Some(1), tool, Requester::Agent(inbox)).await;
    if let (Gated::Asked { id, .. }, true) = (&gated, yes) {
        fake.answer(*id, true).await;
    }
    let sent = fake.sent.lock().unwrap().clone();
    fake.ran().await;
    (gated, sent)
}

/// Each page-changing tool that reached the page was previewed before (the same kind of tool) and runs
/// pinned to the previewed document; banner buttons are pressed only as found and judged.
fn only_previewed_and_pinned(tool: &PageTool, sent: &[Sent]) {
    for (at, (ran, ran_pin)) in sent.iter().enumerate() {
        if !ran.changes_page() {
            continue;
        }
        if let PageTool::PressBanners { pins } = ran {
            let found = sent[..at]
                .iter()
                .any(|(earlier, _)| matches!(earlier, PageTool::FindBanners));
            assert!(found && !pins.is_empty(), "{tool:?}: {ran:?} pressed unfound");
            continue;
        }
        assert_eq!(
            ran_pin.as_ref(),
            Some(&pin(Some(17))),
            "{tool:?}: {ran:?} ran unpinned"
        );
        let previewed = sent[..at].iter().any(
            |(earlier, _)| matches!(earlier, PageTool::Preview { action } if action.mcp_name() == ran.mcp_name()),
        );
        assert!(previewed, "{tool:?}: {ran:?} ran without a preview");
    }
}

/// The page-changing tools among `sent`.
fn changing(sent: &[Sent]) -> Vec<&PageTool> {
    sent.iter().map(|(t, _)| t).filter(|t| t.changes_page()).collect()
}

#[tokio::test]
async fn every_page_changing_tool_reaches_the_page_only_previewed_judged_and_pinned() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("cv.pdf");
    std::fs::write(&file, b"%PDF").unwrap();
    let tools: Vec<PageTool> = PageTool::every()
        .into_iter()
        .filter(PageTool::changes_page)
        .collect();
    for tool in tools {
        // Something harmless: whatever reaches the page, reaches it as judged.
        let (_, harmless) = through_the_gate(&tool, &file, Stakes::Harmless, true).await;
        only_previewed_and_pinned(&tool, &harmless);

        // Something that pays: the gate asks, and nothing reaches the page but a move through the
        // tab's history, which cannot pay by itself …
        let (gated, paying) = through_the_gate(&tool, &file, Stakes::Paying, false).await;
        only_previewed_and_pinned(&tool, &paying);
        // … until the user says yes: then exactly it, as judged.
        let (_, said_yes) = through_the_gate(&tool, &file, Stakes::Paying, true).await;
        only_previewed_and_pinned(&tool, &said_yes);
        match tool.spec().road {
            Road::Act if matches!(tool, PageTool::Back | PageTool::Forward | PageTool::Reload) => {
                assert_eq!(changing(&paying), vec![&tool], "{tool:?}");
            }
            Road::Act => {
                assert!(matches!(gated, Gated::Asked { .. }), "{tool:?}: {gated:?}");
                assert!(changing(&paying).is_empty(), "{tool:?}: {paying:?}");
                assert_eq!(changing(&said_yes).len(), 1, "{tool:?}: {said_yes:?}");
            }
            Road::Banners { .. } => {
                assert!(changing(&paying).is_empty(), "{tool:?}: {paying:?}");
                // (The stand-in shows the banner again after each press: it is pressed each round.)
                assert!(
                    !changing(&harmless).is_empty(),
                    "a harmless banner button is pressed"
                );
            }
            Road::Internal => {
                assert!(changing(&harmless).is_empty(), "{tool:?}: {harmless:?}");
                assert!(changing(&said_yes).is_empty(), "{tool:?}: {said_yes:?}");
            }
            Road::Read => unreachable!("{tool:?} changes the page"),
        }
    }
}

/// The tools that reach the page without being judged, by their tags. A tool joins this list only by
/// a decision that it cannot change the page: a tool whose road says it only reads, and is not here,
/// fails this test.
const UNJUDGED: &[&str] = &[
    "list_interactives",
    "find",
    "extract",
    "scroll",
    "wait",
    "focus_next",
    "focus_prev",
    "screenshot",
    "download_wait",
    "list_tabs",
    "switch_tab",
    "overlay_show",
    "overlay_hide",
    "describe",
    "preview",
    "find_banners",
];

#[test]
fn only_the_tools_decided_harmless_reach_the_page_unjudged() {
    let unjudged: Vec<String> = PageTool::every()
        .iter()
        .filter(|tool| !tool.changes_page())
        .map(|tool| {
            serde_json::to_value(tool).unwrap()["tool"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(unjudged, UNJUDGED);
}
