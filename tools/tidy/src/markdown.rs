//! The repository's Markdown, held to a structure a listener can navigate: every code fence closed
//! (an open one swallows the rest of the page, headings included), headings that go down one level
//! at a time, links to a heading of this page or of another page in the repository that resolve, and
//! the README's set-up within its first lines.
//!
//! Must not: judge wording or style; it reads structure only.

use std::collections::BTreeMap;

/// How far into README.md its set-up heading may start: a newcomer, or a screen-reader user reading
/// from the top, reaches it at once.
pub const SETUP_WITHIN_LINES: usize = 30;

/// One heading of a page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Heading {
    pub line: usize,
    pub level: usize,
    pub text: String,
}

/// A page read for its structure: its headings, its links, and the problems found on the way.
#[derive(Debug, Default)]
pub struct Page {
    pub headings: Vec<Heading>,
    /// `(line, target)` of every inline link, as written between the parentheses.
    pub links: Vec<(usize, String)>,
    pub problems: Vec<String>,
}

/// Reads `text` (the page at `path`, for messages): headings and links outside code, and unclosed
/// fences.
pub fn read(path: &str, text: &str) -> Page {
    let mut page = Page::default();
    // The fence that is open: its character and length (CommonMark: closed by a line of at least as
    // many of the same character and nothing else).
    let mut open: Option<(char, usize, usize)> = None;
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        let fence_char = trimmed.chars().next().filter(|c| *c == '`' || *c == '~');
        let run = fence_char.map_or(0, |c| trimmed.chars().take_while(|x| *x == c).count());
        match open {
            Some((c, len, opened)) => {
                if fence_char == Some(c) && run >= len && indent < 4 {
                    if trimmed[run..].trim().is_empty() {
                        open = None;
                    } else if !trimmed[run..].starts_with(|x: char| x.is_alphanumeric()) || c == '~' {
                        // "``` more words": not a closing fence, so everything after stays code.
                        page.problems.push(format!(
                            "{path}:{number}: this line looks like the end of the code fence opened at \
                             line {opened}, but text after the fence keeps it open"
                        ));
                    } else {
                        page.problems.push(format!(
                            "{path}:{number}: a fence with an info string inside the code fence opened at \
                             line {opened}: close that one first"
                        ));
                    }
                }
                continue;
            }
            None if run >= 3 && indent < 4 => {
                let info = &trimmed[run..];
                // A backtick fence's info string may not hold a backtick (else it is inline code).
                if !(fence_char == Some('`') && info.contains('`')) {
                    open = fence_char.map(|c| (c, run, number));
                    continue;
                }
            }
            None => {}
        }
        if indent < 4 && trimmed.starts_with('#') {
            let level = trimmed.chars().take_while(|c| *c == '#').count();
            let rest = &trimmed[level..];
            if level <= 6 && (rest.is_empty() || rest.starts_with(' ')) {
                page.headings.push(Heading {
                    line: number,
                    level,
                    text: rest.trim().trim_end_matches('#').trim().to_owned(),
                });
                continue;
            }
        }
        page.links
            .extend(links_in(line).into_iter().map(|target| (number, target)));
    }
    if let Some((_, _, line)) = open {
        page.problems.push(format!(
            "{path}:{line}: a code fence opened here is never closed, so the rest of the page is code"
        ));
    }
    let mut last = 0;
    for heading in &page.headings {
        if last > 0 && heading.level > last + 1 {
            page.problems.push(format!(
                "{path}:{}: heading '{}' is level {} right after level {last}: a level is skipped",
                heading.line, heading.text, heading.level
            ));
        }
        last = heading.level;
    }
    page
}

/// The targets of inline links `[text](target)` on a line (outside inline code).
fn links_in(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_code = false;
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'`' => in_code = !in_code,
            b']' if !in_code && bytes.get(i + 1) == Some(&b'(') => {
                if let Some(end) = line[i + 2..].find(')') {
                    let target = line[i + 2..i + 2 + end].split_whitespace().next().unwrap_or("");
                    out.push(target.to_owned());
                    i += 2 + end;
                }
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// A heading's anchor as GitHub makes it: lower case, punctuation dropped (letters, digits, spaces,
/// hyphens and underscores kept), spaces made hyphens.
pub fn anchor(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// Every anchor of a page, duplicates numbered as GitHub numbers them (`name`, `name-1`, …).
pub fn anchors(page: &Page) -> Vec<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    page.headings
        .iter()
        .map(|h| {
            let base = anchor(&h.text);
            let count = seen.entry(base.clone()).or_insert(0);
            let name = if *count == 0 {
                base.clone()
            } else {
                format!("{base}-{count}")
            };
            *count += 1;
            name
        })
        .collect()
}

/// The problems of every page in `pages` (path → text): each page's own, and links to a heading or a
/// file that is not there. Links that leave the repository (`http:`, `mailto:`) are not followed.
pub fn problems(pages: &BTreeMap<String, String>, files: &std::collections::BTreeSet<String>) -> Vec<String> {
    let read_pages: BTreeMap<&str, Page> = pages.iter().map(|(p, t)| (p.as_str(), read(p, t))).collect();
    let mut out = Vec::new();
    for (path, page) in &read_pages {
        out.extend(page.problems.iter().cloned());
        for (line, target) in &page.links {
            if target.contains("://") || target.starts_with("mailto:") || target.is_empty() {
                continue;
            }
            let (file, fragment) = match target.split_once('#') {
                Some((file, fragment)) => (file, Some(fragment)),
                None => (target.as_str(), None),
            };
            let linked = if file.is_empty() {
                (*path).to_owned()
            } else {
                join(path, file)
            };
            let exists = files.contains(&linked) || files.contains(&format!("{linked}/"));
            if !exists {
                out.push(format!(
                    "{path}:{line}: links to {target}, and {linked} is not in the repository"
                ));
                continue;
            }
            if let (Some(fragment), Some(target_page)) = (fragment, read_pages.get(linked.as_str())) {
                if !anchors(target_page).iter().any(|a| a == fragment) {
                    out.push(format!(
                        "{path}:{line}: links to #{fragment}, which no heading of {linked} makes"
                    ));
                }
            }
        }
    }
    out
}

/// `relative` (a link in the page at `from`) as a path from the repository's root.
fn join(from: &str, relative: &str) -> String {
    let mut parts: Vec<&str> = from.split('/').collect();
    parts.pop();
    for part in relative.trim_end_matches('/').split('/') {
        match part {
            "." | "" => {}
            ".." => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    parts.join("/")
}

/// The commands a newcomer runs, as README.md's set-up shows them in a code block.
pub const SETUP_COMMANDS: [&str; 2] = ["./build.sh install", "./build.sh test"];

/// What is wrong with where README.md's set-up is: its heading and each of [`SETUP_COMMANDS`] (a line
/// of a code block that starts with it) must come within [`SETUP_WITHIN_LINES`], since a listener
/// hears everything before them.
pub fn setup_too_late(readme: &str) -> Option<String> {
    let page = read("README.md", readme);
    match page
        .headings
        .iter()
        .find(|h| h.text.to_lowercase().starts_with("set up"))
    {
        Some(h) if h.line > SETUP_WITHIN_LINES => {
            return Some(format!(
                "README.md:{}: set-up starts at line {}, after the first {SETUP_WITHIN_LINES} lines",
                h.line, h.line
            ))
        }
        Some(_) => {}
        None => return Some("README.md has no 'Set up' heading".to_owned()),
    }
    let mut in_code = false;
    let mut found = Vec::new();
    for (number, line) in readme.lines().enumerate() {
        let line = line.trim_start();
        if line.starts_with("```") || line.starts_with("~~~") {
            in_code = !in_code;
        } else if in_code {
            found.extend(
                SETUP_COMMANDS
                    .iter()
                    .filter(|c| line.starts_with(**c))
                    .map(|c| (*c, number + 1)),
            );
        }
    }
    SETUP_COMMANDS.iter().find_map(|command| match found.iter().find(|(c, _)| c == command) {
        Some((_, line)) if *line <= SETUP_WITHIN_LINES => None,
        Some((_, line)) => Some(format!(
            "README.md:{line}: `{command}` is shown at line {line}, after the first {SETUP_WITHIN_LINES} lines"
        )),
        None => Some(format!("README.md shows `{command}` in no code block")),
    })
}
