//! This frame's half of `find` going through lists that scroll inside the page: a virtualised list
//! draws only the rows in view, so a row far down it is found only once its list is scrolled there, a
//! view at a time, as a person looking for it would; and put back when nothing was found.
//!
//! Must not: scroll the page itself or a list that holds no numbered control, or leave a list moved
//! when the `find` found nothing.

use std::cell::RefCell;

use serde_json::json;
use waymark_protocol::ToolResult;

use super::{redraw, FRAME};
use crate::page;

thread_local! {
    /// The lists `scroll` moved during one `find`, with where each stood before its first move.
    static SCROLLED: RefCell<Vec<(web_sys::Element, i32)>> = const { RefCell::new(Vec::new()) };
}

/// One view further down in every list that scrolls inside the page and holds numbered controls (for
/// `find`: a virtualised list draws only the rows in view), the first of a `find` forgetting earlier
/// ones; with `restore`, every list this `find` moved back to where it was.
pub(super) fn scroll(restore: bool, first: bool) -> ToolResult {
    if restore {
        let moved = SCROLLED.with_borrow_mut(std::mem::take);
        for (list, top) in &moved {
            list.set_scroll_top(*top);
        }
        redraw();
        return ToolResult::ok(json!({"moved": !moved.is_empty()}));
    }
    let mut lists: Vec<web_sys::Element> = FRAME.with_borrow(|f| {
        let mut lists: Vec<web_sys::Element> = Vec::new();
        for (_, found) in &f.numbered {
            if let Some(list) = page::inner_scroller(&found.element) {
                if !lists.contains(&list) {
                    lists.push(list);
                }
            }
        }
        lists
    });
    if first {
        SCROLLED.with_borrow_mut(Vec::clear);
    } else {
        // The lists moved so far go on: a list that redrew its rows at the browser's own `scroll`
        // may hold no numbered row of the last listing (those were replaced).
        SCROLLED.with_borrow(|s| {
            for (list, _) in s {
                if list.is_connected() && !lists.contains(list) {
                    lists.push(list.clone());
                }
            }
        });
    }
    let mut moved = false;
    for list in lists {
        let before = list.scroll_top();
        SCROLLED.with_borrow_mut(|s| {
            if !s.iter().any(|(l, _)| l == &list) {
                s.push((list.clone(), before));
            }
        });
        list.set_scroll_top(before + (f64::from(list.client_height()) * 0.8) as i32);
        if list.scroll_top() != before {
            moved = true;
            // The browser sends its `scroll` at the next frame, which a tab in the background may not
            // draw for a long while; the list hears it now, and draws the rows in view.
            if let Ok(event) = web_sys::Event::new("scroll") {
                let _ = list.dispatch_event(&event);
            }
        }
    }
    redraw();
    ToolResult::ok(json!({"moved": moved}))
}
