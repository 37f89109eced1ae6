//! Which tabs Waymark works in, and its content script in their frames. Nothing of Waymark is in a
//! page until Waymark is used in its tab — the panel opened on it, or a tool addressed to it by a
//! command, the agent or an MCP client — so the pages a user merely browses load and run exactly as
//! without it, and cannot tell it is installed. From the first use on, every frame the tab has, and
//! every document and frame it loads later (`webNavigation.onCommitted`), gets the content script. The
//! tabs in use are kept in `storage.session`, so a service worker the browser stopped and started again
//! still knows them; a closed tab is forgotten.
//!
//! Also here: whether Waymark is acting in a tab at this moment (a page-changing tool running there,
//! [`acting`]), for what must happen only then; and whether it is at work there (used within the last
//! two minutes, or a panel open on it), when a new document's first look is prepared while the browser
//! is idle after its load (`WorkerToContent::Prepare`).
//!
//! Must not: put anything into a tab nobody used Waymark in, inject any file but the loader
//! ([`LOADER`], which starts the module once per document however often it is injected), or wait on
//! a page without a deadline.

use std::cell::{Cell, RefCell};
use std::collections::{BTreeSet, HashMap};

use wasm_bindgen::prelude::*;
use waymark_protocol::WorkerToContent;

use crate::chrome::scripting::{self, Frames};
use crate::chrome::{self, tabs};

/// The content script's loader in the package: the one file injected into pages.
const LOADER: &str = "content.js";
/// The key of the tabs in use in `storage.session`.
const STORED: &str = "tabsInUse";
/// How long an injection may take before the caller goes on without it: a frame busy with its own
/// work runs the loader only when it is done (then the tool waits for the page as for a loading one).
const INJECT_WAIT_MS: u32 = 4_000;
/// How long after its last use (a tool addressed to it, a panel opened on it) Waymark counts as at
/// work in a tab: an agent's or an MCP client's next step comes well within this.
const AT_WORK_MS: f64 = 120_000.0;

/// The tabs in use, once read back from `storage.session`.
#[derive(Default)]
struct InUse {
    /// Whether the stored set has been read since this worker started; tabs marked before that are
    /// kept and joined with it.
    loaded: bool,
    tabs: BTreeSet<i32>,
}

impl InUse {
    /// Marks `tab` in use; whether it was not before.
    fn mark(&mut self, tab: i32) -> bool {
        self.tabs.insert(tab)
    }

    /// Joins what `storage.session` held when this worker started.
    fn join_stored(&mut self, stored: impl IntoIterator<Item = i32>) {
        self.tabs.extend(stored);
        self.loaded = true;
    }
}

thread_local! {
    static IN_USE: RefCell<InUse> = RefCell::new(InUse::default());
    /// Page-changing tools running now, per tab (see [`acting`]).
    static ACTING: RefCell<HashMap<i32, u32>> = RefCell::new(HashMap::new());
    /// How many side panels and Waymark windows are open (not the settings page, not a panel opened
    /// as a tab for one tab): while one is, the tab the user brings to the front is in use.
    static PANELS: Cell<u32> = const { Cell::new(0) };
    /// When each tab was last used (`Date.now()`), for [`at_work`] (a few tabs: a list is enough).
    static LAST_USED: RefCell<Vec<(i32, f64)>> = const { RefCell::new(Vec::new()) };
}

/// Reads the stored tabs in use once per worker.
async fn load() {
    if IN_USE.with_borrow(|u| u.loaded) {
        return;
    }
    let stored: Vec<i32> = match scripting::session_get(STORED).await {
        Ok(stored) => stored.unwrap_or_default(),
        Err(e) => {
            chrome::log(&format!("cannot read the tabs in use: {e}"));
            Vec::new()
        }
    };
    IN_USE.with_borrow_mut(|u| u.join_stored(stored));
}

/// Writes the tabs in use to `storage.session` (in the order of the changes: each write is started
/// before the next change can happen).
fn save() {
    let tabs: Vec<i32> = IN_USE.with_borrow(|u| u.tabs.iter().copied().collect());
    wasm_bindgen_futures::spawn_local(async move {
        if let Err(e) = scripting::session_set(STORED, &tabs).await {
            chrome::log(&format!("cannot keep the tabs in use: {e}"));
        }
    });
}

/// Whether Waymark is in use in `tab`.
pub async fn is_in_use(tab: i32) -> bool {
    load().await;
    IN_USE.with_borrow(|u| u.tabs.contains(&tab))
}

/// Waymark is used in `tab` from now on: the first time, its content script goes into every frame the
/// tab has, and this returns once it has started in each (or the deadline passed). Later calls return
/// at once. Frames that cannot be entered (a browser page, an error page) are left to the tools, which
/// say why they cannot work there.
pub async fn use_tab(tab: i32) {
    LAST_USED.with_borrow_mut(|used| {
        used.retain(|(t, _)| *t != tab);
        used.push((tab, js_sys::Date::now()));
    });
    load().await;
    if !IN_USE.with_borrow_mut(|u| u.mark(tab)) {
        return;
    }
    save();
    if let Err(e) = inject(tab, Frames::All).await {
        chrome::log(&format!(
            "tab {tab}: the first injection did not run everywhere: {e}"
        ));
    }
}

/// Waymark will be used in `tab` (a tab it opened), whose documents get the script as they come.
pub async fn mark(tab: i32) {
    load().await;
    if IN_USE.with_borrow_mut(|u| u.mark(tab)) {
        save();
    }
}

/// Puts the content script into `frames` of `tab`, and waits (at most [`INJECT_WAIT_MS`]) until it has
/// started in each. A frame that has it already keeps it as it is. `Err` in the browser's words.
pub async fn inject(tab: i32, frames: Frames) -> Result<scripting::Injected, String> {
    scripting::execute_file(tab, &frames, LOADER, INJECT_WAIT_MS).await
}

/// Called by `sw.js` for every `webNavigation.onCommitted`: a new document in a tab in use gets the
/// content script at once, while it loads.
#[wasm_bindgen]
pub fn on_frame_committed(details: JsValue) {
    let read = |key: &str| js_sys::Reflect::get(&details, &key.into()).ok();
    let number = |key: &str| read(key).and_then(|v| v.as_f64()).map(|n| n as i32);
    let (Some(tab), Some(frame)) = (number("tabId"), number("frameId")) else {
        return;
    };
    if tab < 0 {
        // A prerendered or other tab-less document: it gets the script once it is a tab's page and a
        // tool finds it without one.
        return;
    }
    let document = read("documentId").and_then(|d| d.as_string());
    wasm_bindgen_futures::spawn_local(async move {
        if !is_in_use(tab).await {
            return;
        }
        let frames = document.map_or_else(|| Frames::Ids(vec![frame]), Frames::Document);
        match inject(tab, frames).await {
            // The first look at the new document is made ready while the browser is idle after its
            // load, but only where Waymark is at work.
            Ok(_) if at_work(tab) => {
                let prepare = chrome::to_js(&WorkerToContent::Prepare);
                let _ = tabs::send_to_frame(tab, frame, &prepare).await;
            }
            Ok(_) => {}
            // Pages no extension may enter, and documents replaced before the script reached them.
            Err(e) => chrome::log(&format!(
                "tab {tab} frame {frame}: no script in its new document: {e}"
            )),
        }
    });
}

/// Whether Waymark is at work in `tab`: it was used there within [`AT_WORK_MS`] (an agent's task,
/// an MCP client's steps, a command), or a panel is open (which works on the tab in front, and puts
/// each tab brought there in use).
fn at_work(tab: i32) -> bool {
    PANELS.get() > 0
        || LAST_USED.with_borrow(|used| {
            used.iter()
                .any(|(t, at)| *t == tab && js_sys::Date::now() - at < AT_WORK_MS)
        })
}

/// Called by `sw.js` for every `tabs.onRemoved`: the tab is forgotten.
#[wasm_bindgen]
pub fn on_tab_removed(tab: i32) {
    ACTING.with_borrow_mut(|a| a.remove(&tab));
    LAST_USED.with_borrow_mut(|used| used.retain(|(t, _)| *t != tab));
    wasm_bindgen_futures::spawn_local(async move {
        load().await;
        if IN_USE.with_borrow_mut(|u| u.tabs.remove(&tab)) {
            save();
        }
    });
}

/// Called by `sw.js` for every `tabs.onActivated`: while a side panel or Waymark's window is open, the
/// tab the user brings to the front of their window is the one the panel works on, so it is in use.
#[wasm_bindgen]
pub fn on_tab_activated(info: JsValue) {
    if PANELS.get() == 0 {
        return;
    }
    let Some(tab) = js_sys::Reflect::get(&info, &"tabId".into())
        .ok()
        .and_then(|t| t.as_f64())
        .map(|t| t as i32)
    else {
        return;
    };
    wasm_bindgen_futures::spawn_local(async move {
        if tabs::active_tab_id().await == Some(tab) {
            use_tab(tab).await;
        }
    });
}

/// A panel page connected on `port` (`url` is its address): a side panel or Waymark's window works on
/// the active tab of the user's window, a panel opened as a tab on the tab its address names
/// (`?tabId=`). That tab is in use from now on; while a side panel or Waymark's window is open, so is
/// each tab the user brings to the front ([`on_tab_activated`]).
pub fn panel_opened(port: &chrome::Port, url: &str) {
    let named = panel_tab(url);
    if named.is_none() {
        PANELS.set(PANELS.get() + 1);
        let closed = Closure::once_into_js(|_port: JsValue| PANELS.set(PANELS.get().saturating_sub(1)));
        port.on_disconnect().add_listener(closed.unchecked_ref());
    }
    wasm_bindgen_futures::spawn_local(async move {
        let tab = match named {
            Some(tab) => Some(tab),
            None => tabs::active_tab_id().await,
        };
        if let Some(tab) = tab {
            use_tab(tab).await;
        }
    });
}

/// The tab a panel opened as a tab works on (`sidepanel.html?tabId=N`), if its address names one.
fn panel_tab(url: &str) -> Option<i32> {
    let query = url.split_once('?')?.1.split('#').next()?;
    query
        .split('&')
        .find_map(|pair| pair.strip_prefix("tabId="))
        .and_then(|n| n.parse().ok())
}

/// While alive, Waymark is acting in its tab: a page-changing tool is running there.
pub struct Acting {
    tab: i32,
}

impl Drop for Acting {
    fn drop(&mut self) {
        ACTING.with_borrow_mut(|a| {
            if let Some(n) = a.get_mut(&self.tab) {
                *n = n.saturating_sub(1);
                if *n == 0 {
                    a.remove(&self.tab);
                }
            }
        });
    }
}

/// Waymark acts in `tab` until the guard is dropped.
pub fn acting(tab: i32) -> Acting {
    ACTING.with_borrow_mut(|a| *a.entry(tab).or_default() += 1);
    Acting { tab }
}

/// Whether Waymark is acting in `tab` now (a page-changing tool is running there).
// Nothing asks yet (the page's dialogs are heard while a tool runs by `dialogs.rs`, which must put its
// listeners in before the tool and take them out after, so it counts its own holders).
#[allow(dead_code)]
pub fn is_acting(tab: i32) -> bool {
    ACTING.with_borrow(|a| a.contains_key(&tab))
}

#[cfg(test)]
mod tests {
    use super::{acting, is_acting, panel_tab, InUse};

    #[test]
    fn a_tab_is_marked_once_and_the_stored_tabs_are_joined_with_the_new() {
        let mut in_use = InUse::default();
        assert!(in_use.mark(7));
        assert!(!in_use.mark(7), "the second use injects nothing");
        // The worker restarted: tabs marked before the stored set was read are kept.
        in_use.join_stored([3, 7]);
        assert!(in_use.loaded);
        assert_eq!(in_use.tabs.iter().copied().collect::<Vec<_>>(), [3, 7]);
        assert!(!in_use.mark(3));
    }

    #[test]
    fn a_panel_opened_as_a_tab_names_its_tab_and_a_side_panel_does_not() {
        let id = "chrome-extension://cefdccnmncoeemlgklbddcicjlldkfko";
        assert_eq!(panel_tab(&format!("{id}/sidepanel.html?tabId=42")), Some(42));
        assert_eq!(
            panel_tab(&format!("{id}/sidepanel.html?x=1&tabId=5#end")),
            Some(5)
        );
        assert_eq!(panel_tab(&format!("{id}/sidepanel.html")), None);
        assert_eq!(panel_tab(&format!("{id}/sidepanel.html?window=1")), None);
        assert_eq!(panel_tab(&format!("{id}/sidepanel.html?tabId=x")), None);
    }

    #[test]
    fn acting_lasts_while_any_of_a_tabs_tools_runs() {
        assert!(!is_acting(9));
        let first = acting(9);
        let second = acting(9);
        assert!(is_acting(9) && !is_acting(10));
        drop(first);
        assert!(is_acting(9), "one tool still runs");
        drop(second);
        assert!(!is_acting(9));
    }
}
