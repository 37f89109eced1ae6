//! Noticing that the page changed under the numbering: one `MutationObserver` per frame (on the
//! document and on every open shadow root a listing entered), started by the first listing (a page
//! nobody listed is never watched), and a few event listeners for what changes without a mutation
//! (scrolling, resizing, typing, focus and hover, finished transitions, loaded images and fonts).
//!
//! Two uses. The badges and the stale check: mutations are only counted as they arrive; at most every
//! [`SETTLE_MS`] the content script's `on_change` hears how many controls were added since, then
//! redraws the badges where the elements now stand and, when numbered elements are gone or many
//! controls came, drops the numbering so the next action by number is refused as stale (and answered
//! with a fresh list) rather than aimed at a different element. And the next listing: what changed
//! since the last one ([`take_changes`]: nothing, only the view, some subtrees, or everything), so a
//! repeated listing re-reads only that (`detect::Memo`).
//!
//! Must stay light, as it runs on every listed page, also one that changes hundreds of nodes a frame:
//! no layout or style reads in the observer's callback or the listeners (they only note nodes), each
//! batch of records is read in a fixed number of native calls however many records it holds (the
//! browser's own array methods and getters applied in bulk, `natives.rs`), the changed nodes are
//! gathered in a native `Set`, and once a check is scheduled and the next listing must read
//! everything anyway, the observer pauses until the check (which then counts the controls added
//! meanwhile with one query), so a page that never stops changing pays for about one batch per check.
//! Waymark's own host elements (the overlay and the screenshot mask, known by this frame's random tag)
//! are ignored.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use web_sys::{Element, MutationObserver, MutationObserverInit, Node};

/// How long changes gather before the numbering is checked and the badges are redrawn.
const SETTLE_MS: u32 = 150;

/// This many controls added since the listing make its numbers outdated: the list a person or model
/// holds no longer shows what the page offers.
pub const MANY_ADDED: u32 = 10;

/// More changed subtrees than this are not worth sorting out: the next listing reads everything.
const MAX_ROOTS: u32 = 256;

/// Attributes whose change moves or hides things, so the badges are redrawn.
const MOVING: &[&str] = &["style", "class", "hidden", "disabled", "aria-disabled"];

/// Events that change what a listing finds without changing the DOM; the node noted is the target's
/// parent (a `:focus` or `:hover` rule may style the target's siblings too). Scroll and resize are
/// handled apart.
const EVENTS: &[&str] = &[
    "input",
    "change",
    "focusin",
    "focusout",
    "mouseover",
    "mouseout",
    "transitionend",
    "animationend",
    "load",
];

/// Separates the values of a batch joined into one string: no node or attribute name holds it.
const SEPARATOR: &str = "\n";

/// What changed since the last listing took the changes.
#[derive(Default)]
pub struct Changes {
    /// Something with effects anywhere (a style sheet, the window's size, fonts): read everything.
    pub everything: bool,
    /// The view moved (scrolling): what depends on the viewport is read again.
    pub view: bool,
    /// The nodes under which something changed (a node's own attributes or its children).
    pub roots: Vec<Node>,
}

impl Changes {
    pub fn none(&self) -> bool {
        !self.everything && !self.view && self.roots.is_empty()
    }
}

struct Watch {
    /// Kept so the observer's callback and the listeners live as long as the frame.
    _callback: Closure<dyn FnMut(js_sys::Array)>,
    _listeners: Vec<Closure<dyn FnMut(web_sys::Event)>>,
    state: Rc<State>,
}

/// The observer, the trees it watches, and whether it is paused.
struct Observing {
    observer: MutationObserver,
    options: MutationObserverInit,
    /// The document's root element, and the open shadow roots listings entered.
    roots: RefCell<Vec<Node>>,
    /// While paused, how many controls the document had when it paused (see [`State::pause`]).
    paused: Cell<Option<u32>>,
}

/// What the content script does once changes settle, given the number of controls added.
type OnChange = Box<dyn Fn(u32)>;

/// How many controls an added element may hold: `detect`'s count, handed over by the content script
/// (what a control is is not this module's to know).
type ControlsIn = fn(&Element) -> u32;

/// What changed since the last listing, as it gathers: the changed nodes in a native set (a node is
/// noted once however often it changes).
struct Pending {
    everything: Cell<bool>,
    view: Cell<bool>,
    roots: js_sys::Set,
    /// `roots.add`, bound, for adding a whole batch in one call.
    add: js_sys::Function,
}

struct State {
    added: Cell<u32>,
    /// Counts the controls in added elements, once [`observe`] said how.
    controls_in: Cell<Option<ControlsIn>>,
    scheduled: Cell<bool>,
    on_change: RefCell<Option<OnChange>>,
    pending: Pending,
    records: Records,
    observing: RefCell<Option<Observing>>,
}

impl State {
    /// Watches `root` too (now, or when the observer resumes).
    fn watch(&self, root: &Node) {
        if let Some(o) = self.observing.borrow().as_ref() {
            o.roots.borrow_mut().push(root.clone());
            if o.paused.get().is_none() {
                let _ = o.observer.observe_with_options(root, &o.options);
            }
        }
    }

    /// A page that keeps changing everywhere: until the scheduled check, its changes are not read at
    /// all (reading them is most of what watching costs such a page). The next listing reads
    /// everything anyway; the check finds removed numbered elements by itself and counts the controls
    /// added meanwhile against the count taken here.
    fn pause(&self) {
        if let Some(o) = self.observing.borrow().as_ref() {
            if o.paused.get().is_none() {
                o.paused.set(Some(self.document_controls()));
                o.observer.disconnect();
            }
        }
    }

    /// Watches again after a pause; how many controls the document gained meanwhile.
    fn resume(&self) -> u32 {
        let observing = self.observing.borrow();
        let Some(o) = observing.as_ref() else {
            return 0;
        };
        let Some(before) = o.paused.take() else {
            return 0;
        };
        for root in o.roots.borrow().iter() {
            let _ = o.observer.observe_with_options(root, &o.options);
        }
        // Nothing was watched during the pause, and a listing meanwhile may have taken the changes
        // noted before it: the next listing reads everything, or it would give a stale one again.
        self.pending.everything();
        self.document_controls().saturating_sub(before)
    }
}

impl State {
    /// How many controls the document has (not counting shadow roots): one native query.
    fn document_controls(&self) -> u32 {
        let root = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element());
        match (root, self.controls_in.get()) {
            (Some(root), Some(count)) => count(&root),
            _ => 0,
        }
    }
}

thread_local! {
    static WATCH: RefCell<Option<Watch>> = const { RefCell::new(None) };
}

/// Watches the frame's document from now on (once; later calls only start a fresh count, since a
/// fresh listing has just been made), calling `on_change(added_controls)` after changes settle, with
/// the controls in added elements counted by `controls_in`.
pub fn observe(controls_in: ControlsIn, on_change: impl Fn(u32) + 'static) {
    start();
    WATCH.with_borrow(|watch| {
        if let Some(watch) = watch {
            // A check already scheduled still runs: it then judges the fresh numbering.
            watch.state.added.set(0);
            watch.state.controls_in.set(Some(controls_in));
            *watch.state.on_change.borrow_mut() = Some(Box::new(on_change));
        }
    });
}

/// Watches the frame's document from now on, for a listing made before any numbering (a prepared
/// first look, `content/whole.rs`): the next listing then judges again only what changed.
pub fn begin() {
    start();
}

/// Also watches an open shadow root a listing entered (mutations inside one do not reach the
/// document's observer).
pub fn observe_tree(root: &web_sys::ShadowRoot) {
    start();
    WATCH.with_borrow(|watch| {
        if let Some(watch) = watch {
            watch.state.watch(root);
        }
    });
}

/// What changed since the last call (everything, before the watch started), taking in the mutations
/// the observer has not delivered yet.
pub fn take_changes() -> Changes {
    WATCH.with_borrow(|watch| match watch {
        Some(watch) => {
            let (records, paused) = match watch.state.observing.borrow().as_ref() {
                Some(o) => (Some(o.observer.take_records()), o.paused.get().is_some()),
                None => (None, false),
            };
            if let Some(records) = records {
                changed(&watch.state, &records);
            }
            if paused {
                // Nothing was watched since the pause.
                watch.state.pending.everything();
            }
            watch.state.pending.take()
        }
        None => Changes {
            everything: true,
            ..Changes::default()
        },
    })
}

fn start() {
    WATCH.with_borrow_mut(|watch| {
        if watch.is_some() {
            return;
        }
        let (Some(records), Some(pending)) = (Records::new(), Pending::new()) else {
            return;
        };
        let state = Rc::new(State {
            added: Cell::new(0),
            controls_in: Cell::new(None),
            scheduled: Cell::new(false),
            on_change: RefCell::new(None),
            pending,
            records,
            observing: RefCell::new(None),
        });
        let callback = Closure::<dyn FnMut(js_sys::Array)>::new({
            let state = state.clone();
            move |records: js_sys::Array| changed(&state, &records)
        });
        let Ok(observer) = MutationObserver::new(callback.as_ref().unchecked_ref()) else {
            return;
        };
        let Some(window) = web_sys::window() else {
            return;
        };
        let Some(root) = window.document().and_then(|d| d.document_element()) else {
            return;
        };
        let options = MutationObserverInit::new();
        options.set_child_list(true);
        options.set_subtree(true);
        // Every attribute: roles, names, states and styles all live in them. Only some move badges.
        options.set_attributes(true);
        options.set_character_data(true);
        if observer.observe_with_options(&root, &options).is_err() {
            return;
        }
        *state.observing.borrow_mut() = Some(Observing {
            observer,
            options,
            roots: RefCell::new(vec![root.into()]),
            paused: Cell::new(None),
        });
        let listeners = listen(&window, &state);
        *watch = Some(Watch {
            _callback: callback,
            _listeners: listeners,
            state,
        });
    });
}

/// What one listener notes of its event.
type Note = Box<dyn Fn(&Pending, &web_sys::Event)>;

/// The listeners for what changes without a mutation. Passive and in the capture phase, so the page
/// can neither stop them nor be slowed by them.
fn listen(window: &web_sys::Window, state: &Rc<State>) -> Vec<Closure<dyn FnMut(web_sys::Event)>> {
    let options = web_sys::AddEventListenerOptions::new();
    options.set_capture(true);
    options.set_passive(true);
    let mut listeners = Vec::new();
    let mut add = |kind: &str, note: Note| {
        let state = state.clone();
        let closure = Closure::<dyn FnMut(web_sys::Event)>::new(move |event: web_sys::Event| {
            note(&state.pending, &event);
        });
        let _ = window.add_event_listener_with_callback_and_add_event_listener_options(
            kind,
            closure.as_ref().unchecked_ref(),
            &options,
        );
        listeners.push(closure);
    };
    add("scroll", Box::new(|pending, _| pending.view.set(true)));
    add("resize", Box::new(|pending, _| pending.everything()));
    for kind in EVENTS {
        add(
            kind,
            Box::new(|pending, event| {
                let target = event.target().and_then(|t| t.dyn_into::<Node>().ok());
                if is_overlay(target.as_ref()) {
                    return;
                }
                // A loaded style sheet or font restyles anything.
                let sheet = target
                    .as_ref()
                    .and_then(|t| t.dyn_ref::<Element>())
                    .is_some_and(|e| matches!(e.local_name().as_str(), "link" | "style"));
                match target.and_then(|t| t.parent_node().or(Some(t))) {
                    Some(root) if !sheet => pending.note(&root),
                    _ => pending.everything(),
                }
            }),
        );
    }
    if let Some(fonts) = window
        .document()
        .and_then(|d| js_sys::Reflect::get(&d, &"fonts".into()).ok())
        .and_then(|f| f.dyn_into::<web_sys::EventTarget>().ok())
    {
        let state = state.clone();
        let closure = Closure::<dyn FnMut(web_sys::Event)>::new(move |_| state.pending.everything());
        let _ = fonts.add_event_listener_with_callback("loadingdone", closure.as_ref().unchecked_ref());
        listeners.push(closure);
    }
    listeners
}

impl Pending {
    fn new() -> Option<Self> {
        let roots = js_sys::Set::new(&JsValue::UNDEFINED);
        let add = crate::natives::bound(&roots, "add")?;
        Some(Self {
            everything: Cell::new(false),
            view: Cell::new(false),
            roots,
            add,
        })
    }

    /// Something changed with effects anywhere: the next listing reads everything.
    fn everything(&self) {
        self.everything.set(true);
        self.roots.clear();
    }

    /// Something changed under `root`.
    fn note(&self, root: &Node) {
        if !self.everything.get() {
            self.roots.add(root);
            self.bound();
        }
    }

    /// Every node of `nodes` (an array) had something change under it: one native call.
    fn note_all(&self, for_each: &js_sys::Function, nodes: &JsValue) {
        if !self.everything.get() {
            let _ = for_each.call1(nodes, &self.add);
            self.bound();
        }
    }

    /// Too many changed subtrees to sort out: everything.
    fn bound(&self) {
        if self.roots.size() > MAX_ROOTS {
            self.everything();
        }
    }

    /// What changed since the last call. A changed text's node is noted by its parent (its element's
    /// name may have changed).
    fn take(&self) -> Changes {
        let everything = self.everything.replace(false);
        let view = self.view.replace(false);
        let mut roots = Vec::new();
        let once = js_sys::Set::new(&JsValue::UNDEFINED);
        self.roots.for_each(&mut |node, _, _| {
            let Ok(node) = node.dyn_into::<Node>() else {
                return;
            };
            let text = matches!(
                node.node_type(),
                Node::TEXT_NODE
                    | Node::CDATA_SECTION_NODE
                    | Node::COMMENT_NODE
                    | Node::PROCESSING_INSTRUCTION_NODE
            );
            if let Some(root) = if text { node.parent_node() } else { Some(node) } {
                if !once.has(&root) {
                    once.add(&root);
                    roots.push(root);
                }
            }
        });
        self.roots.clear();
        Changes {
            everything,
            view,
            roots: if everything { Vec::new() } else { roots },
        }
    }
}

/// The browser's own functions that read a batch of mutation records in bulk.
struct Records {
    map: js_sys::Function,
    flat_map: js_sys::Function,
    filter: js_sys::Function,
    for_each: js_sys::Function,
    join: js_sys::Function,
    /// `Object.values`, which makes an array of a `NodeList`'s nodes.
    values: js_sys::Function,
    /// `Boolean`, which keeps the nodes of an array that has nulls among them.
    present: js_sys::Function,
    /// Getters as callbacks (`record => record.type`, …).
    kind: js_sys::Function,
    target: js_sys::Function,
    attribute: js_sys::Function,
    added: js_sys::Function,
    removed: js_sys::Function,
    node_name: js_sys::Function,
    node_type: js_sys::Function,
    parent: js_sys::Function,
}

impl Records {
    fn new() -> Option<Self> {
        use crate::natives::{getter, global, method, prototype};
        let array = prototype("Array")?;
        let record = prototype("MutationRecord")?;
        let node = prototype("Node")?;
        Some(Self {
            map: method(&array, "map")?,
            flat_map: method(&array, "flatMap")?,
            filter: method(&array, "filter")?,
            for_each: method(&array, "forEach")?,
            join: method(&array, "join")?,
            values: method(&global("Object")?, "values")?,
            present: global("Boolean")?.dyn_into().ok()?,
            kind: getter(&record, "type")?,
            target: getter(&record, "target")?,
            attribute: getter(&record, "attributeName")?,
            added: getter(&record, "addedNodes")?,
            removed: getter(&record, "removedNodes")?,
            node_name: getter(&node, "nodeName")?,
            node_type: getter(&node, "nodeType")?,
            parent: getter(&node, "parentNode")?,
        })
    }

    /// `items.map(read)`, as an array.
    fn map(&self, items: &JsValue, read: &js_sys::Function) -> Option<js_sys::Array> {
        self.map.call1(items, read).ok()?.dyn_into().ok()
    }

    /// `items.map(read).join(SEPARATOR)`, split again: one string for the whole batch.
    fn strings(&self, items: &JsValue, read: &js_sys::Function) -> Option<Vec<String>> {
        let values = self.map(items, read)?;
        let joined = self.join.call1(&values, &SEPARATOR.into()).ok()?.as_string()?;
        Some(joined.split(SEPARATOR).map(str::to_owned).collect())
    }

    /// Every node of the `NodeList`s `read` gives of each record, in one array.
    fn nodes(&self, records: &JsValue, read: &js_sys::Function) -> Option<js_sys::Array> {
        let lists = self.map(records, read)?;
        self.flat_map.call1(&lists, &self.values).ok()?.dyn_into().ok()
    }
}

/// Whether one of `names` (node names, upper case for HTML) is a style sheet's.
fn has_sheet(names: &[String]) -> bool {
    names.iter().any(|n| n == "STYLE" || n == "LINK")
}

/// Notes what a batch of records changed and counts the controls among added nodes, and schedules one
/// check; nothing else happens here. The batch is read in a fixed number of native calls, and only
/// what is still open is read: while a check is scheduled, whether this batch would call for one is
/// not asked, and once the next listing reads everything anyway, which nodes changed is not noted;
/// the added nodes are looked at only until enough controls came to outdate the numbers. Only records
/// that touch the document's root element (where Waymark's own hosts come and go) are read one by one.
fn changed(state: &Rc<State>, records: &js_sys::Array) {
    if records.length() == 0 {
        return;
    }
    let r = &state.records;
    let pending = &state.pending;
    let read = || -> Option<bool> {
        let ask_relevant = !state.scheduled.get();
        let note = !pending.everything.get();
        let mut relevant = false;
        if ask_relevant || note {
            let kinds = r.strings(records, &r.kind)?;
            let targets = r.map(records, &r.target)?;
            let target_names = r.strings(&targets, &r.node_name)?;
            // Waymark's own host added to or taken from the root element is not a page change.
            let ours: Vec<bool> = (0..kinds.len())
                .map(|i| {
                    kinds[i] == "childList" && target_names[i] == "HTML" && is_ours(&records.get(i as u32))
                })
                .collect();
            if ask_relevant {
                let attributes = r.strings(records, &r.attribute)?;
                relevant = kinds.iter().enumerate().any(|(i, kind)| {
                    !ours[i]
                        && match kind.as_str() {
                            "attributes" => MOVING.contains(&attributes[i].as_str()),
                            "characterData" => false,
                            _ => true,
                        }
                });
            }
            if note {
                note_batch(state, records, &kinds, &targets, &target_names, &ours)?;
            }
        }
        if state.added.get() < MANY_ADDED {
            count_added(state, &r.nodes(records, &r.added)?)?;
        }
        Some(relevant)
    };
    let relevant = read().unwrap_or_else(|| {
        // Never in a browser that runs extensions: whatever the batch was, read everything next time.
        pending.everything();
        true
    });
    if relevant && !state.scheduled.replace(true) {
        let state = state.clone();
        // Not debounced to the last change: a page that never stops changing is still checked.
        gloo_timers::callback::Timeout::new(SETTLE_MS, move || check(&state)).forget();
    }
    if state.scheduled.get() && pending.everything.get() {
        state.pause();
    }
}

/// The scheduled check: the content script hears how many controls came since the last one.
fn check(state: &State) {
    state.scheduled.set(false);
    let resumed = state.resume();
    let added = state.added.replace(0).saturating_add(resumed);
    if let Some(on_change) = state.on_change.borrow().as_ref() {
        on_change(added);
    }
}

/// Notes which nodes a batch changed, or that everything must be read again (a style sheet changed,
/// came or went).
fn note_batch(
    state: &State,
    records: &js_sys::Array,
    kinds: &[String],
    targets: &js_sys::Array,
    target_names: &[String],
    ours: &[bool],
) -> Option<()> {
    let r = &state.records;
    let pending = &state.pending;
    let mut everything = has_sheet(target_names);
    if kinds.iter().any(|k| k == "characterData") {
        // A text changed inside a style sheet.
        let parents = r.map(targets, &r.parent)?;
        let parents = r.filter.call1(&parents, &r.present).ok()?;
        everything |= has_sheet(&r.strings(&parents, &r.node_name)?);
    }
    let came_or_went = |read: &js_sys::Function| -> Option<bool> {
        Some(has_sheet(
            &r.strings(r.nodes(records, read)?.as_ref(), &r.node_name)?,
        ))
    };
    everything = everything || came_or_went(&r.added)? || came_or_went(&r.removed)?;
    if everything {
        pending.everything();
    } else if ours.iter().any(|o| *o) {
        for (i, _) in ours.iter().enumerate().filter(|(_, o)| !**o) {
            if let Ok(target) = targets.get(i as u32).dyn_into::<Node>() {
                pending.note(&target);
            }
        }
    } else {
        pending.note_all(&r.for_each, targets);
    }
    Some(())
}

/// Counts the controls among the `added` nodes, until there are enough to outdate the numbers.
fn count_added(state: &State, added: &js_sys::Array) -> Option<()> {
    let types =
        js_sys::Float64Array::new(state.records.map(added, &state.records.node_type)?.as_ref()).to_vec();
    for (i, _) in types
        .iter()
        .enumerate()
        .filter(|(_, t)| **t == f64::from(Node::ELEMENT_NODE))
    {
        if state.added.get() >= MANY_ADDED {
            break;
        }
        if let Ok(element) = added.get(i as u32).dyn_into::<Element>() {
            let controls = state.controls_in.get().map_or(0, |count| count(&element));
            state.added.set(state.added.get() + controls);
        }
    }
    Some(())
}

/// Whether a record's added and removed nodes are all Waymark's hosts.
fn is_ours(record: &JsValue) -> bool {
    let nodes = |key: &str| {
        js_sys::Reflect::get(record, &key.into())
            .ok()
            .and_then(|l| l.dyn_into::<web_sys::NodeList>().ok())
    };
    let all_ours = |list: &web_sys::NodeList| (0..list.length()).all(|i| is_overlay(list.item(i).as_ref()));
    match (nodes("addedNodes"), nodes("removedNodes")) {
        (Some(added), Some(removed)) => all_ours(&added) && all_ours(&removed),
        _ => false,
    }
}

/// Whether `node` is one of Waymark's host elements (the overlay, a screenshot mask): they carry this
/// frame's random host tag (`dom::host_tag`).
fn is_overlay(node: Option<&Node>) -> bool {
    node.and_then(|n| n.dyn_ref::<Element>())
        .is_some_and(|e| crate::dom::is_host_tag(&e.local_name()))
}
