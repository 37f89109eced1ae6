//! Which documents of each tab came from posting a form: reloading one posts the form again, and the
//! browser does not ask when an extension reloads a tab, so the gate asks (`Effect::resends`). The
//! worker notes the method of every frame's navigation as it starts and, when the frame shows its
//! document, whether that document came from a POST.
//!
//! Kept in the service worker's memory, which lives as long as its port to the host (the port keeps
//! it running): a tab Waymark did not see navigate is not known, and the request guard stops its form
//! being posted again all the same. Must not: keep more than a few addresses per tab, or anything but
//! addresses.

use std::cell::RefCell;

use waymark_protocol::request::without_fragment;

/// How many addresses are remembered per tab.
const PER_TAB: usize = 32;
/// How many tabs are remembered.
const TABS: usize = 256;

struct Record {
    tab: i32,
    /// Each frame's navigation in progress: the frame, its address and whether it posts (a tab has
    /// few frames: a list, smaller in the module than a map).
    starting: Vec<(i32, String, bool)>,
    /// Addresses whose document came from a POST, newest last.
    posted: Vec<String>,
}

thread_local! {
    // A list (a few hundred tabs at most, and smaller in the module than a map).
    static TABS_SEEN: RefCell<Vec<Record>> = const { RefCell::new(Vec::new()) };
}

/// A frame of `tab` starts navigating to `url` with `method`.
pub fn navigation_starts(tab: i32, frame: i32, url: &str, method: &str) {
    if tab < 0 {
        return;
    }
    TABS_SEEN.with_borrow_mut(|tabs| {
        let at = match tabs.iter().position(|r| r.tab == tab) {
            Some(at) => at,
            None => {
                if tabs.len() >= TABS {
                    // Forget a tab that has nothing posted, or else any: memory stays bounded.
                    let gone = tabs.iter().position(|r| r.posted.is_empty()).unwrap_or(0);
                    tabs.swap_remove(gone);
                }
                tabs.push(Record {
                    tab,
                    starting: Vec::new(),
                    posted: Vec::new(),
                });
                tabs.len() - 1
            }
        };
        let posts = method.eq_ignore_ascii_case("POST");
        let starting = &mut tabs[at].starting;
        starting.retain(|(f, ..)| *f != frame);
        starting.push((frame, without_fragment(url).to_owned(), posts));
    });
}

/// A frame of `tab` shows the document at `url`: remembered as posted when its navigation posted.
pub fn committed(tab: i32, frame: i32, url: &str) {
    TABS_SEEN.with_borrow_mut(|tabs| {
        let Some(record) = tabs.iter_mut().find(|r| r.tab == tab) else {
            return;
        };
        let Some(at) = record.starting.iter().position(|(f, ..)| *f == frame) else {
            return;
        };
        let (_, started, posts) = record.starting.swap_remove(at);
        let url = without_fragment(url);
        if posts && started == url && !record.posted.iter().any(|p| p == url) {
            if record.posted.len() == PER_TAB {
                record.posted.remove(0);
            }
            record.posted.push(url.to_owned());
        }
    });
}

/// Whether a document of `tab` at `url` came from posting a form.
pub fn posted(tab: i32, url: &str) -> bool {
    let url = without_fragment(url);
    TABS_SEEN.with_borrow(|tabs| {
        tabs.iter()
            .any(|r| r.tab == tab && r.posted.iter().any(|p| p == url))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_document_that_came_from_a_post_is_remembered_and_a_redirected_one_is_not() {
        navigation_starts(1, 0, "https://shop.example/pay", "POST");
        committed(1, 0, "https://shop.example/pay#done");
        assert!(posted(1, "https://shop.example/pay"));
        assert!(!posted(2, "https://shop.example/pay"), "another tab");
        // POST, then a redirect: the browser starts a GET to where it goes, which the frame shows.
        navigation_starts(1, 0, "https://shop.example/order", "POST");
        navigation_starts(1, 0, "https://shop.example/thanks", "GET");
        committed(1, 0, "https://shop.example/thanks");
        assert!(!posted(1, "https://shop.example/thanks"));
        assert!(!posted(1, "https://shop.example/order"));
        // A frame's own post.
        navigation_starts(1, 3, "https://pay.example/confirm", "post");
        committed(1, 3, "https://pay.example/confirm");
        assert!(posted(1, "https://pay.example/confirm"));
    }
}
