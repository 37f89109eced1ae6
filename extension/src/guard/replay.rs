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
use std::collections::HashMap;

use waymark_protocol::request::without_fragment;

/// How many addresses are remembered per tab.
const PER_TAB: usize = 32;
/// How many tabs are remembered.
const TABS: usize = 256;

#[derive(Default)]
struct Record {
    /// Each frame's navigation in progress: its address and whether it posts.
    starting: HashMap<i32, (String, bool)>,
    /// Addresses whose document came from a POST, newest last.
    posted: Vec<String>,
}

thread_local! {
    static TABS_SEEN: RefCell<HashMap<i32, Record>> = RefCell::new(HashMap::new());
}

/// A frame of `tab` starts navigating to `url` with `method`.
pub fn navigation_starts(tab: i32, frame: i32, url: &str, method: &str) {
    if tab < 0 {
        return;
    }
    TABS_SEEN.with_borrow_mut(|tabs| {
        if !tabs.contains_key(&tab) && tabs.len() >= TABS {
            // Forget a tab that has nothing posted, or else any: memory stays bounded.
            let gone = tabs
                .iter()
                .find(|(_, r)| r.posted.is_empty())
                .or_else(|| tabs.iter().next())
                .map(|(id, _)| *id);
            if let Some(gone) = gone {
                tabs.remove(&gone);
            }
        }
        let posts = method.eq_ignore_ascii_case("POST");
        tabs.entry(tab)
            .or_default()
            .starting
            .insert(frame, (without_fragment(url).to_owned(), posts));
    });
}

/// A frame of `tab` shows the document at `url`: remembered as posted when its navigation posted.
pub fn committed(tab: i32, frame: i32, url: &str) {
    TABS_SEEN.with_borrow_mut(|tabs| {
        let Some(record) = tabs.get_mut(&tab) else {
            return;
        };
        let Some((started, posts)) = record.starting.remove(&frame) else {
            return;
        };
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
    TABS_SEEN.with_borrow(|tabs| tabs.get(&tab).is_some_and(|r| r.posted.iter().any(|p| p == url)))
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
