//! What a page tool's successful result means, in one message per result: scrolled, pressed, opened,
//! the page's summary, the tabs, a picture, banners, files put in or downloaded. Part of `wording`.

use serde_json::Value;
use waymark_i18n::say;
use waymark_protocol::{Download, InteractiveList, PageTool, Screenshot, ScrollDirection};

use super::language::with_words;
use super::list::{acted, focused, found, interactive_list};
use super::overlay;

/// What a page tool's successful result means, in one message.
pub fn tool_answer(tool: &PageTool, data: Option<&Value>) -> String {
    let text = |key: &str| {
        data.and_then(|d| d.get(key))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    let flag = |key: &str| {
        data.and_then(|d| d.get(key))
            .and_then(Value::as_bool)
            .unwrap_or(false)
    };
    let list = || data.and_then(|d| serde_json::from_value::<InteractiveList>(d.clone()).ok());
    let unreadable = || with_words(|w| say!(w, "list-unreadable"));
    match tool {
        PageTool::ListInteractives { .. } => list().map_or_else(unreadable, |l| interactive_list(&l)),
        PageTool::Find { text: wanted, .. } => match list() {
            Some(l) => found(wanted.as_deref().unwrap_or_default(), &l),
            None => unreadable(),
        },
        PageTool::OverlayShow => overlay(true),
        PageTool::OverlayHide => overlay(false),
        PageTool::OverlayAct { .. } | PageTool::ActByIndex { .. } => acted(data),
        PageTool::FocusNext { .. } | PageTool::FocusPrev { .. } => focused(data),
        PageTool::Screenshot => screenshot(data),
        PageTool::CloseBanners { .. } | PageTool::PressBanners { .. } => banners_closed(data),
        PageTool::Upload { index, .. } => uploaded(*index, data),
        PageTool::ClickAndWaitDownload { .. } | PageTool::DownloadWait { .. } => downloaded(data),
        PageTool::Describe { .. } | PageTool::Preview { .. } => with_words(|w| say!(w, "tool-described")),
        PageTool::FindBanners => with_words(|w| say!(w, "tool-looked-for-banners")),
        PageTool::Extract => summary(data),
        PageTool::Scroll { direction, .. } => scrolled(*direction, flag("scrolled")),
        PageTool::Press { key, .. } => {
            super::list::with_changes(pressed(&pressed_key(key, data), &text("effect")), data)
        }
        PageTool::Wait { .. } => with_words(|w| {
            if flag("settled") {
                say!(w, "wait-settled")
            } else {
                say!(w, "wait-still-changing")
            }
        }),
        PageTool::ListTabs => tabs(data),
        PageTool::SwitchTab { index } => {
            with_words(|w| say!(w, "tabs-switched", index = *index, title = text("title")))
        }
        PageTool::Navigate { .. } | PageTool::Back | PageTool::Forward | PageTool::Reload => {
            let (title, url) = (text("title"), text("url"));
            with_words(|w| {
                let (title, url) = (title.as_str(), url.as_str());
                let done = match tool {
                    PageTool::Back => say!(w, "go-went-back", title = title, url = url),
                    PageTool::Forward => say!(w, "go-went-forward", title = title, url = url),
                    PageTool::Reload => say!(w, "go-reloaded", title = title, url = url),
                    _ => say!(w, "go-opened", title = title, url = url),
                };
                if flag("loaded") {
                    say!(w, "go-then-list", done = done)
                } else {
                    say!(w, "go-then-list-loading", done = done)
                }
            })
        }
        PageTool::OpenInNewTab { .. } => with_words(|w| say!(w, "go-new-tab")),
    }
}

fn scrolled(direction: ScrollDirection, moved: bool) -> String {
    with_words(|w| match (direction, moved) {
        (ScrollDirection::Up | ScrollDirection::Top, false) => say!(w, "scroll-at-top"),
        (_, false) => say!(w, "scroll-at-bottom"),
        (ScrollDirection::Up, true) => say!(w, "scroll-up"),
        (ScrollDirection::Down, true) => say!(w, "scroll-down"),
        (ScrollDirection::Top, true) => say!(w, "scroll-top"),
        (ScrollDirection::Bottom, true) => say!(w, "scroll-bottom"),
    })
}

/// The key as the page got it (`Shift+F10`), else as asked.
fn pressed_key(asked: &str, data: Option<&Value>) -> String {
    data.and_then(|d| d.get("key"))
        .and_then(Value::as_str)
        .filter(|k| !k.trim().is_empty())
        .unwrap_or(asked)
        .to_owned()
}

/// "Pressed Enter: the form was sent."
fn pressed(key: &str, effect: &str) -> String {
    with_words(|w| {
        let key = if key.trim().is_empty() || key == "Space" {
            say!(w, "key-space")
        } else {
            key.to_owned()
        };
        match effect {
            "submitted" => say!(w, "press-submitted", key = key),
            "activated" => say!(w, "press-activated", key = key),
            "focus moved" => say!(w, "press-focus-moved", key = key),
            _ => say!(w, "press-done", key = key),
        }
    })
}

fn screenshot(data: Option<&Value>) -> String {
    with_words(
        |w| match data.and_then(|d| serde_json::from_value::<Screenshot>(d.clone()).ok()) {
            Some(s) => say!(w, "picture-taken-size", width = s.width, height = s.height),
            None => say!(w, "picture-taken"),
        },
    )
}

/// "Closed 2 banners: Reject all; No thanks." or that there was none.
fn banners_closed(data: Option<&Value>) -> String {
    let closed: Vec<String> = data
        .and_then(|d| d.get("closed"))
        .and_then(|c| serde_json::from_value(c.clone()).ok())
        .unwrap_or_default();
    with_words(|w| match closed.len() {
        0 => say!(w, "banners-none"),
        n => say!(w, "banners-closed", count = n, buttons = closed.join("; ")),
    })
}

/// "Put 2 files into 7: cv.pdf, photo.png."
fn uploaded(index: u32, data: Option<&Value>) -> String {
    let names: Vec<String> = data
        .and_then(|d| d.get("files"))
        .and_then(|c| serde_json::from_value(c.clone()).ok())
        .unwrap_or_default();
    with_words(|w| {
        say!(
            w,
            "upload-done",
            count = names.len(),
            index = index,
            files = names.join(", ")
        )
    })
}

/// "Downloaded report.pdf, 12 KB." or why it stopped.
fn downloaded(data: Option<&Value>) -> String {
    let Some(d) = data.and_then(|d| serde_json::from_value::<Download>(d.clone()).ok()) else {
        return with_words(|w| say!(w, "download-finished"));
    };
    let name = d
        .filename
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or(&d.filename)
        .to_string();
    if d.state == "complete" {
        let size = size(d.bytes);
        with_words(|w| say!(w, "download-done", name = name, size = size))
    } else {
        super::download_stopped(&name, d.error.as_deref())
    }
}

/// "12 KB", "3.4 MB".
fn size(bytes: u64) -> String {
    with_words(|w| match bytes {
        b if b < 1_024 => say!(w, "size-bytes", count = b),
        b if b < 1_024 * 1_024 => say!(w, "size-kb", count = b.div_ceil(1_024)),
        b => {
            let tenths = (b as f64 / (1_024.0 * 1_024.0) * 10.0).round() as u64;
            say!(w, "size-mb", whole = tenths / 10, tenth = tenths % 10)
        }
    })
}

/// The page summary: title, address, headings, the first words.
fn summary(data: Option<&Value>) -> String {
    with_words(|w| {
        let Some(d) = data else {
            return say!(w, "read-unreadable");
        };
        let get = |k: &str| d.get(k).and_then(Value::as_str).unwrap_or_default();
        let mut out = say!(w, "read-page", title = get("title"), url = get("url"));
        let headings: Vec<String> = d
            .get("headings")
            .and_then(Value::as_array)
            .map(|hs| {
                hs.iter()
                    .filter_map(|h| h.get("text").and_then(Value::as_str))
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default();
        if !headings.is_empty() {
            out.push('\n');
            out.push_str(&say!(w, "read-headings", headings = headings.join("; ")));
        }
        let snippet = get("snippet");
        if !snippet.is_empty() {
            out.push('\n');
            out.push_str(&say!(w, "read-text", text = snippet));
        }
        out
    })
}

fn tabs(data: Option<&Value>) -> String {
    let tabs = data
        .and_then(|d| d.get("tabs"))
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    with_words(|w| {
        if tabs.is_empty() {
            return say!(w, "tabs-none");
        }
        let mut out = say!(w, "tabs-heading", count = tabs.len());
        for tab in &tabs {
            let get = |k: &str| tab.get(k).and_then(Value::as_str).unwrap_or_default();
            let index = tab.get("index").and_then(Value::as_u64).unwrap_or_default();
            let is = |k: &str| tab.get(k).and_then(Value::as_bool) == Some(true);
            out.push('\n');
            out.push_str(&say!(w, "tabs-line", index = index, title = get("title")));
            if is("active") {
                out.push_str(&say!(w, "list-item-more", part = say!(w, "tabs-current")));
            }
            if is("pinned") {
                out.push_str(&say!(w, "list-item-more", part = say!(w, "tabs-pinned")));
            }
        }
        out
    })
}
