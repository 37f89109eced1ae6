//! The request guard (service worker): while a page-changing action the host's gate allowed takes
//! effect in a tab, every request from that tab that may change something on a server is stopped
//! unless the gate's allowances cover it, and what was stopped goes back to the host with the action's
//! result, to be judged as an effect of its own.
//!
//! How: `declarativeNetRequest` session rules scoped to the tab (`rules.rs`) stop requests whose
//! method is not GET, HEAD or OPTIONS — `fetch`/XHR, beacons and `<a ping>`, forms posted as a
//! navigation — and requests to an address whose path deletes (a link may redirect there); the frame
//! the action lands in also keeps a form from being posted (`content/guard.rs`, through the Navigation
//! API), so the page stays as it was; `webRequest` only watches, for what was stopped
//! (`net::ERR_BLOCKED_BY_CLIENT`) and its body, and for when the tab is quiet. Armed when the action
//! starts; disarmed when the tab has had no request in flight for [`QUIET_MS`] after it (at most
//! [`SETTLE_MAX_MS`]). The moments the frame already watched the page after the action (until what
//! changed had settled) count toward that quiet, so a guarded click costs little more than the rules'
//! own round trips. With no action in flight no rule and no listener exists, so what the user does by
//! their own hand is never touched. `replay.rs` remembers which documents came from a POST.
//!
//! Must not: leave a rule behind (the worker removes any it finds when it starts), stop anything in
//! another tab, keep a secret value of a body (`waymark_protocol::request` reduces bodies before they
//! are kept), or let an action run unguarded when arming failed.

mod replay;
mod rules;

use std::cell::{Cell, RefCell};
use std::future::Future;

use wasm_bindgen::prelude::*;
use waymark_protocol::request::{self as req, MAX_BODY_BYTES};
use waymark_protocol::{
    AllowedRequest, Disarmed, ErrorKind, FrameAnswer, Guard, PageTool, Pin, RequestField, RequestKind,
    StoppedRequest, ToolResult, WorkerToContent,
};

use crate::chrome::net::{self, Body, RequestDetails, RequestEvent};
use crate::chrome::{self, now_ms};
use crate::wording;
pub use replay::{committed, navigation_starts, posted};

/// The tab is quiet once no request was in flight, and none started or ended, for this long.
const QUIET_MS: f64 = 25.0;
/// How long after the action the guard waits at most for the tab to be quiet.
const SETTLE_MAX_MS: f64 = 2_000.0;
/// How often the guard looks.
const POLL_MS: u32 = 5;
/// How many of the last actions' timings are kept for the benchmark.
const TIMINGS_KEPT: usize = 256;

/// A guarded tab.
struct Armed {
    /// How many guarded actions run in it now (each ends its own part).
    holders: u32,
    /// The rules that exist for it.
    rules: Vec<u32>,
    allow: Vec<AllowedRequest>,
    /// Which rule lets each allowance through, so it goes once used.
    allow_rules: Vec<(AllowedRequest, u32)>,
    /// Requests started and not ended.
    in_flight: Vec<String>,
    last_event: f64,
    /// The bodies of requests seen starting that the rules will stop, by request id.
    bodies: Vec<(String, (Vec<RequestField>, bool))>,
    stopped: Vec<StoppedRequest>,
}

/// The guarded tabs, each once: a few at most, so a list (smaller in the module than a map).
struct ArmedTabs(Vec<(i32, Armed)>);

impl ArmedTabs {
    fn get(&self, tab: &i32) -> Option<&Armed> {
        self.0.iter().find(|(t, _)| t == tab).map(|(_, a)| a)
    }

    fn get_mut(&mut self, tab: &i32) -> Option<&mut Armed> {
        self.0.iter_mut().find(|(t, _)| t == tab).map(|(_, a)| a)
    }

    fn get_or_insert_with(&mut self, tab: i32, new: impl FnOnce() -> Armed) -> &mut Armed {
        let at = match self.0.iter().position(|(t, _)| *t == tab) {
            Some(at) => at,
            None => {
                self.0.push((tab, new()));
                self.0.len() - 1
            }
        };
        &mut self.0[at].1
    }

    fn remove(&mut self, tab: &i32) -> Option<Armed> {
        let at = self.0.iter().position(|(t, _)| t == tab)?;
        Some(self.0.swap_remove(at).1)
    }
}

/// The listeners on `webRequest`: made once and kept (an event already on its way when they are
/// removed must still find them), added while any tab is guarded.
struct Watching {
    before: Closure<dyn FnMut(JsValue)>,
    ended: Closure<dyn FnMut(JsValue)>,
    listening: bool,
}

thread_local! {
    static ARMED: RefCell<ArmedTabs> = const { RefCell::new(ArmedTabs(Vec::new())) };
    static WATCHING: RefCell<Option<Watching>> = const { RefCell::new(None) };
    static NEXT_RULE: Cell<u32> = const { Cell::new(1) };
    static TIMINGS: RefCell<Vec<Timing>> = const { RefCell::new(Vec::new()) };
}

/// What guarding one action cost, in milliseconds: arming, waiting for the tab to be quiet, and
/// disarming, beside the whole action.
#[derive(Debug, Clone, Copy, serde::Serialize)]
struct Timing {
    arm: f64,
    quiet: f64,
    disarm: f64,
    total: f64,
}

/// Runs `action` in `tab` guarded by `guard` and returns its result with what was stopped. `frame`:
/// the frame the action lands in, whose own form posts are kept back too (`None` for a navigation,
/// whose page is replaced anyway).
pub async fn guarded(
    tab: i32,
    frame: Option<i32>,
    guard: Guard,
    action: impl Future<Output = ToolResult>,
) -> (ToolResult, Vec<StoppedRequest>) {
    let began = now_ms();
    let since = match arm(tab, guard.allow).await {
        Ok(since) => since,
        Err(why) => {
            chrome::log(&format!("the request guard could not arm: {why}"));
            release(tab, 0).await;
            return (
                ToolResult::failed(ErrorKind::Failed, wording::guard_failed()),
                Vec::new(),
            );
        }
    };
    let armed = now_ms();
    let mut result = action.await;
    let acted = now_ms();
    // The frame already watched the page after the action, and the requests it made were seen here
    // meanwhile: that time counts toward the quiet, instead of waiting for it a second time.
    let watched = result
        .data
        .as_mut()
        .and_then(|d| d.as_object_mut())
        .and_then(|d| d.remove(req::WATCHED_MS))
        .and_then(|w| w.as_f64())
        .unwrap_or(0.0);
    settle(tab, acted, (acted - watched).max(armed)).await;
    let quiet = now_ms();
    let mut stopped = match frame {
        // A frame blocked by the page's own dialog answers nothing until the user has answered it; it
        // stops keeping forms back by itself (and the user's answer is theirs).
        Some(_) if result.is(ErrorKind::PageDialog) => Vec::new(),
        Some(frame) => disarm_frame(tab, frame).await,
        None => Vec::new(),
    };
    stopped.extend(release(tab, since).await);
    // What the user typed into the tab's secret fields is taken out, as from every result.
    let stopped = crate::tabs::held::redact_stopped(stopped);
    let done = now_ms();
    note(Timing {
        arm: armed - began,
        quiet: quiet - acted,
        disarm: done - quiet,
        total: done - began,
    });
    (result, stopped)
}

/// Runs a tool for the host: guarded when the host sent a `guard` (see [`guarded`]), else as it is.
pub async fn run(
    tab_id: Option<i32>,
    tool: PageTool,
    pin: Option<Pin>,
    guard: Option<Guard>,
) -> (ToolResult, Vec<StoppedRequest>) {
    let Some(guard) = guard else {
        return (crate::tabs::run(tab_id, tool, pin).await, Vec::new());
    };
    let tab = match (&pin, tab_id) {
        (Some(pin), _) => Some(pin.tab),
        (None, Some(tab)) => Some(tab),
        (None, None) => chrome::tabs::active_tab_id().await,
    };
    let Some(tab) = tab else {
        return (crate::tabs::run(tab_id, tool, pin).await, Vec::new());
    };
    // The frame the action lands in keeps its forms back too; a navigation replaces the page, and the
    // banner buttons' frames are many.
    let moves = matches!(
        tool,
        PageTool::Navigate { .. }
            | PageTool::Back
            | PageTool::Forward
            | PageTool::Reload
            | PageTool::OpenInNewTab { .. }
            | PageTool::PressBanners { .. }
    );
    let frame = pin.as_ref().map(|p| p.frame).filter(|_| !moves);
    guarded(tab, frame, guard, crate::tabs::run(Some(tab), tool, pin)).await
}

/// A frame's navigation starts (`webRequest.onBeforeRequest` for frames, from `sw.js`): noted for
/// [`posted`].
#[wasm_bindgen]
pub fn on_navigation_request(details: JsValue) {
    if let Some(d) = net::details(&details) {
        navigation_starts(d.tab_id, d.frame_id, &d.url, &d.method);
    }
}

/// The allowances of the action now guarded in `tab`, for the frame it lands in.
pub fn frame_guard(tab: i32) -> Option<Guard> {
    ARMED.with_borrow(|armed| {
        armed.get(&tab).map(|a| Guard {
            allow: a.allow.clone(),
        })
    })
}

/// Removes every session rule left by a worker that stopped while guarding (rules outlive the worker,
/// and must never outlive an action).
pub async fn clear_left_rules() {
    let left = net::session_rule_ids().await;
    if !left.is_empty() {
        let _ = net::update_session_rules(&left, &js_sys::Array::new().into()).await;
        chrome::log(&format!("removed {} request guard rules left behind", left.len()));
    }
}

/// The last actions' guard timings, as JSON text (for `./build.sh bench`).
#[wasm_bindgen]
pub fn guard_timings() -> String {
    TIMINGS.with_borrow(|t| serde_json::to_string(t).unwrap_or_default())
}

fn note(timing: Timing) {
    TIMINGS.with_borrow_mut(|t| {
        if t.len() == TIMINGS_KEPT {
            t.remove(0);
        }
        t.push(timing);
    });
}

/// Arms `tab` (or joins the action already guarding it) with `allow`; where its stopped list starts.
async fn arm(tab: i32, allow: Vec<AllowedRequest>) -> Result<usize, String> {
    watch();
    let (since, old, all) = ARMED.with_borrow_mut(|armed| {
        let entry = armed.get_or_insert_with(tab, || Armed {
            holders: 0,
            rules: Vec::new(),
            allow: Vec::new(),
            allow_rules: Vec::new(),
            in_flight: Vec::new(),
            last_event: now_ms(),
            bodies: Vec::new(),
            stopped: Vec::new(),
        });
        entry.holders += 1;
        for a in allow {
            if !entry.allow.contains(&a) {
                entry.allow.push(a);
            }
        }
        (
            entry.stopped.len(),
            std::mem::take(&mut entry.rules),
            entry.allow.clone(),
        )
    });
    let mut rules = rules::block_changing(next_rule, tab);
    rules.push(rules::block_destructive(next_rule(), tab));
    let mut allow_rules = Vec::new();
    for allowed in all {
        if let Some(rule) = rules::allow(next_rule(), tab, &allowed) {
            allow_rules.push((allowed, rule.id));
            rules.push(rule);
        }
    }
    let ids: Vec<u32> = rules.iter().map(|r| r.id).collect();
    net::update_session_rules(&old, &net::rules_value(&rules)).await?;
    ARMED.with_borrow_mut(|armed| {
        if let Some(entry) = armed.get_mut(&tab) {
            entry.rules = ids;
            entry.allow_rules = allow_rules;
        }
    });
    Ok(since)
}

fn next_rule() -> u32 {
    NEXT_RULE.with(|next| {
        let id = next.get();
        next.set(if id >= 1_000_000 { 1 } else { id + 1 });
        id
    })
}

/// Waits until `tab` has had no request in flight, and none started or ended, for [`QUIET_MS`] since
/// `quiet_from` (the moment after which the action's own effects were being watched), and at most
/// [`SETTLE_MAX_MS`] after `acted`.
async fn settle(tab: i32, acted: f64, quiet_from: f64) {
    // One turn of the worker's event loop first: request events that arrived with the action's answer
    // are counted before anything is judged quiet.
    gloo_timers::future::TimeoutFuture::new(0).await;
    loop {
        let now = now_ms();
        let (busy, last) = ARMED.with_borrow(|armed| {
            armed.get(&tab).map_or((false, quiet_from), |a| {
                (!a.in_flight.is_empty(), a.last_event.max(quiet_from))
            })
        });
        if now - acted >= SETTLE_MAX_MS || (!busy && now - last >= QUIET_MS) {
            return;
        }
        gloo_timers::future::TimeoutFuture::new(POLL_MS).await;
    }
}

/// Tells the frame the action landed in to stop keeping forms back; the forms it kept.
async fn disarm_frame(tab: i32, frame: i32) -> Vec<StoppedRequest> {
    let answer = chrome::tabs::send_to_frame(tab, frame, &chrome::to_js(&WorkerToContent::Disarm)).await;
    let Ok(answer) = answer else {
        // The frame shows another document now: what it kept went with it, and nothing was sent.
        return Vec::new();
    };
    // A frame answers with its result and its secret fields' values, noted as every answer's are.
    chrome::from_js::<FrameAnswer>(answer)
        .ok()
        .and_then(|a| {
            crate::tabs::held::note(tab, a.secrets);
            a.result.data
        })
        .and_then(|d| serde_json::from_value::<Disarmed>(d).ok())
        .map(|d| {
            d.stopped
                .into_iter()
                .map(|mut s| {
                    s.frame = frame;
                    s
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Ends one guarded action in `tab`: what was stopped since `since`; the rules go with the last one.
async fn release(tab: i32, since: usize) -> Vec<StoppedRequest> {
    let (stopped, gone) = ARMED.with_borrow_mut(|armed| {
        let Some(entry) = armed.get_mut(&tab) else {
            return (Vec::new(), None);
        };
        entry.holders = entry.holders.saturating_sub(1);
        let stopped = entry.stopped.get(since..).map(<[_]>::to_vec).unwrap_or_default();
        if entry.holders > 0 {
            return (stopped, None);
        }
        let gone = armed.remove(&tab).map(|a| a.rules);
        (stopped, gone)
    });
    if let Some(rules) = gone {
        if let Err(why) = net::update_session_rules(&rules, &js_sys::Array::new().into()).await {
            chrome::log(&format!("the request guard could not disarm: {why}"));
        }
    }
    if ARMED.with_borrow(|armed| armed.0.is_empty()) {
        // Nothing guarded: nothing watched.
        WATCHING.with_borrow_mut(|w| {
            if let Some(w) = w.as_mut().filter(|w| w.listening) {
                net::unlisten(RequestEvent::Before, w.before.as_ref().unchecked_ref());
                net::unlisten(RequestEvent::Completed, w.ended.as_ref().unchecked_ref());
                net::unlisten(RequestEvent::Failed, w.ended.as_ref().unchecked_ref());
                w.listening = false;
            }
        });
    }
    stopped
}

/// Starts watching requests, if nothing did.
fn watch() {
    WATCHING.with_borrow_mut(|watching| {
        let w = watching.get_or_insert_with(|| Watching {
            before: Closure::<dyn FnMut(JsValue)>::new(started),
            ended: Closure::<dyn FnMut(JsValue)>::new(ended),
            listening: false,
        });
        if w.listening {
            return;
        }
        net::listen(RequestEvent::Before, w.before.as_ref().unchecked_ref(), &[]);
        net::listen(RequestEvent::Completed, w.ended.as_ref().unchecked_ref(), &[]);
        net::listen(RequestEvent::Failed, w.ended.as_ref().unchecked_ref(), &[]);
        w.listening = true;
    });
}

/// Runs `noted` with a request event's details and its tab's guard, if that tab is guarded, after
/// noting that the tab was not quiet.
fn in_guarded_tab(value: &JsValue, noted: impl FnOnce(&mut Armed, RequestDetails)) {
    let Some(details) = net::details(value) else {
        return;
    };
    ARMED.with_borrow_mut(|armed| {
        if let Some(entry) = armed.get_mut(&details.tab_id) {
            entry.last_event = now_ms();
            noted(entry, details);
        }
    });
}

/// A request starts: noted as in flight in a guarded tab, with its body if the rules will stop it.
fn started(value: JsValue) {
    in_guarded_tab(&value, |entry, details| {
        entry.in_flight.push(details.request_id.clone());
        if let Some(i) = entry
            .allow
            .iter()
            .position(|a| a.covers(&details.method, &details.url))
        {
            // Covered once: its rule goes, and the next request like it is stopped again. (One sent
            // in the moment before the rule is gone passes too: see the threat model.)
            let used = entry.allow.remove(i);
            if let Some(j) = entry.allow_rules.iter().position(|(a, _)| *a == used) {
                let (_, rule) = entry.allow_rules.remove(j);
                entry.rules.retain(|r| *r != rule);
                wasm_bindgen_futures::spawn_local(async move {
                    let _ = net::update_session_rules(&[rule], &js_sys::Array::new().into()).await;
                });
            }
            return;
        }
        let fields = match net::body(&value, MAX_BODY_BYTES) {
            Body::None => (Vec::new(), false),
            Body::Form(form) => {
                let pairs: Vec<(&str, Option<&str>)> = form
                    .iter()
                    .flat_map(|(name, values)| values.iter().map(move |v| (name.as_str(), Some(v.as_str()))))
                    .collect();
                req::fields_of_form(pairs)
            }
            Body::Raw { bytes, more } => {
                let (fields, partial) = req::fields_of_body(&bytes);
                (fields, partial || more)
            }
            Body::Unreadable => (Vec::new(), true),
        };
        entry.bodies.push((details.request_id, fields));
    });
}

/// A request ended: no longer in flight; if a rule stopped it, it is kept as stopped.
fn ended(value: JsValue) {
    in_guarded_tab(&value, |entry, details| {
        entry.in_flight.retain(|id| *id != details.request_id);
        let body = entry
            .bodies
            .iter()
            .position(|(id, _)| *id == details.request_id)
            .map(|i| entry.bodies.swap_remove(i).1);
        if details.error != "net::ERR_BLOCKED_BY_CLIENT" {
            return;
        }
        let (fields, partial) = body.unwrap_or_default();
        entry.stopped.push(StoppedRequest {
            kind: kind_of(&details),
            method: details.method.to_uppercase(),
            url: details.url,
            frame: details.frame_id,
            fields,
            partial,
        });
    });
}

/// How the page sent a request, from the browser's resource type.
fn kind_of(details: &RequestDetails) -> RequestKind {
    match details.kind.as_str() {
        "xmlhttprequest" => RequestKind::Fetch,
        "main_frame" => RequestKind::Page,
        "sub_frame" => RequestKind::Form,
        "ping" => RequestKind::Beacon,
        _ => RequestKind::Other,
    }
}
