//! The pace of screenshots: Chrome takes at most 2 pictures a second for an extension
//! (`captureVisibleTab`'s `MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND`) and refuses any more. Requests
//! that come together (the agent's look and an MCP client's) wait in one line, first come first
//! served, and each waits until the browser's second allows its picture, so none is refused.
//!
//! Must not: take or keep pictures (only the times they were taken), or let anyone wait without
//! bound: the line is left after [`LINE_WAIT_MS`], well within the host's deadline for a tool.

use std::cell::RefCell;
use std::collections::VecDeque;

use gloo_timers::future::TimeoutFuture;

use crate::chrome;

/// The browser's quota: this many pictures…
const PER_WINDOW: usize = 2;
/// …in this many milliseconds.
pub(super) const WINDOW_MS: f64 = 1_000.0;
/// Added to the window, since the browser counts from when its side runs the call, a little after
/// the worker made it.
pub(super) const MARGIN_MS: f64 = 100.0;
/// The longest a request waits in line for the pictures before it (each takes at most about a
/// second, so this is several pictures' worth), within the host's 15 seconds for a tool.
const LINE_WAIT_MS: f64 = 10_000.0;
/// How often a request in line looks whether its turn has come.
const LINE_POLL_MS: u32 = 20;

#[derive(Default)]
struct Pace {
    /// When the last pictures were asked of the browser, oldest first (at most [`PER_WINDOW`]).
    taken: VecDeque<f64>,
    /// The requests waiting or taking their picture, in order of arrival; the first one's turn it is.
    line: VecDeque<u64>,
    next_ticket: u64,
}

thread_local! {
    static PACE: RefCell<Pace> = RefCell::new(Pace::default());
}

/// One request's turn to take pictures: while it is held, no other request takes one. Dropping it
/// lets the next in line go.
pub(super) struct Turn {
    ticket: u64,
}

impl Drop for Turn {
    fn drop(&mut self) {
        PACE.with_borrow_mut(|pace| pace.line.retain(|t| *t != self.ticket));
    }
}

/// Joins the line and waits for this request's turn; `None` when the line did not move for
/// [`LINE_WAIT_MS`] (the request has then left it).
pub(super) async fn take_turn() -> Option<Turn> {
    let ticket = PACE.with_borrow_mut(|pace| {
        let ticket = pace.next_ticket;
        pace.next_ticket += 1;
        pace.line.push_back(ticket);
        ticket
    });
    // Made now, so leaving early (the wait is dropped, or it times out) also leaves the line.
    let turn = Turn { ticket };
    let joined = chrome::now_ms();
    loop {
        if PACE.with_borrow(|pace| pace.line.front() == Some(&ticket)) {
            return Some(turn);
        }
        if chrome::now_ms() - joined > LINE_WAIT_MS {
            return None;
        }
        TimeoutFuture::new(LINE_POLL_MS).await;
    }
}

impl Turn {
    /// Waits until the browser's quota allows one more picture.
    pub(super) async fn wait_for_quota(&self) {
        let wait = PACE.with_borrow(|pace| quota_wait(&pace.taken, chrome::now_ms()));
        if wait > 0.0 {
            TimeoutFuture::new(wait.ceil() as u32).await;
        }
    }

    /// Notes that a picture is asked of the browser now.
    pub(super) fn taking(&self) {
        PACE.with_borrow_mut(|pace| {
            pace.taken.push_back(chrome::now_ms());
            while pace.taken.len() > PER_WINDOW {
                pace.taken.pop_front();
            }
        });
    }
}

/// Milliseconds to wait at `now` before one more picture stays within the quota, given when the
/// last ones were taken (oldest first). Any window of [`WINDOW_MS`] then holds at most
/// [`PER_WINDOW`] pictures, whenever the browser starts counting its window.
fn quota_wait(taken: &VecDeque<f64>, now: f64) -> f64 {
    if taken.len() < PER_WINDOW {
        return 0.0;
    }
    let oldest_that_counts = taken[taken.len() - PER_WINDOW];
    (oldest_that_counts + WINDOW_MS + MARGIN_MS - now).max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn taken(times: &[f64]) -> VecDeque<f64> {
        times.iter().copied().collect()
    }

    #[test]
    fn the_first_two_pictures_need_no_wait() {
        assert_eq!(quota_wait(&taken(&[]), 50.0), 0.0);
        assert_eq!(quota_wait(&taken(&[40.0]), 50.0), 0.0);
    }

    #[test]
    fn a_third_picture_waits_for_the_second_after_the_first() {
        assert_eq!(quota_wait(&taken(&[0.0, 300.0]), 400.0), 700.0);
        assert_eq!(quota_wait(&taken(&[0.0, 300.0]), 1_100.0), 0.0);
        assert_eq!(quota_wait(&taken(&[0.0, 300.0]), 5_000.0), 0.0);
    }

    #[test]
    fn only_the_last_two_count() {
        assert_eq!(quota_wait(&taken(&[0.0, 1_100.0, 1_300.0]), 1_300.0), 900.0);
    }
}
