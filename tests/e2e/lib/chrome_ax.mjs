// Recall against Chrome's own accessibility tree: every control Chrome exposes on screen
// (`Accessibility.getFullAXTree`, each frame) must carry one of Waymark's numbered badges. The badges
// live in a closed shadow root, so they are read through the DevTools protocol, which pierces it; a
// badge is drawn next to its element (a corner of it, or nearby when that corner is taken), so
// controls and badges are paired by a matching: each control may take a badge of a compatible role
// drawn near it, and every control must get one of its own.
import { isWaymarkHost } from './harness.mjs';

/// Chrome's roles for what a user acts on (the widget roles), as the DevTools protocol names them.
const WIDGETS = new Set([
  'button', 'link', 'textbox', 'searchbox', 'checkbox', 'radio', 'combobox', 'listbox', 'menuitem',
  'menuitemcheckbox', 'menuitemradio', 'option', 'slider', 'spinbutton', 'switch', 'tab', 'treeitem',
  'PopUpButton', 'ToggleButton',
]);

/// Waymark's roles that stand for each of Chrome's (Waymark says the ARIA role; Chrome's names differ
/// for a few native controls). An editable region Chrome calls what its role attribute says.
const SAME_ROLE = {
  textbox: ['textbox', 'searchbox'],
  searchbox: ['searchbox', 'textbox'],
  combobox: ['combobox', 'listbox', 'textbox'],
  PopUpButton: ['combobox', 'button'],
  ToggleButton: ['button'],
  switch: ['switch', 'checkbox'],
  // An editable container without a role of its own: a text box, as a screen reader says it.
  generic: ['textbox'],
};
const compatible = (axRole, role) => (SAME_ROLE[axRole] ?? [axRole]).includes(role) || role === axRole;

/// A name as a screen reader says it. Chrome keeps in its names the private-use characters that icon
/// fonts draw (WordPress's dashicons); Waymark leaves them out on purpose: they are no words, and no
/// screen reader can say them.
export const spoken = (name) => name.replace(/[\uE000-\uF8FF\u{F0000}-\u{10FFFD}]/gu, '').replace(/\s+/g, ' ').trim();

const prop = (node, name) => (node.properties ?? []).find((p) => p.name === name)?.value?.value;
const rect = (quad) => ({
  left: Math.min(quad[0], quad[6]), top: Math.min(quad[1], quad[3]),
  right: Math.max(quad[2], quad[4]), bottom: Math.max(quad[5], quad[7]),
});
const clip = (r, c) => ({
  left: Math.max(r.left, c.left), top: Math.max(r.top, c.top),
  right: Math.min(r.right, c.right), bottom: Math.min(r.bottom, c.bottom),
});

/// The controls Chrome exposes on screen: the widget roles, and whatever else is focusable and takes
/// text (an editable region); not a container that is merely focusable by script (`tabindex=-1`
/// regions and wrappers), not a disabled control, and not one with no visible box: a screen-reader-only
/// element clipped to a pixel is not on screen, nor is a see-through one (`opacity: 0`, itself or
/// through an ancestor), which Chrome exposes but nobody can see. The part of a frame's control outside
/// the frame's own box is not on screen either.
/// Whether another control is drawn over this one at its centre (two buttons at one spot, one shown at a
/// time): then it cannot be seen or clicked, and the one on top is what is on screen there. Run in the
/// control's own document; Waymark's overlay (a host element over the whole viewport) is looked through.
const COVERED = `function () {
  const r = this.getBoundingClientRect();
  const waymark = (e) => e.localName.includes('-') && e.parentElement === e.ownerDocument.documentElement;
  const top = this.ownerDocument.elementsFromPoint(r.left + r.width / 2, r.top + r.height / 2).find((e) => !waymark(e));
  if (!top || top === this || this.contains(top) || top.contains(this)) return false;
  return top.closest('a[href], button, input, select, textarea, [tabindex], [contenteditable]') !== null;
}`;

/// Whether the element is see-through (`opacity: 0` on it or an ancestor) or not visible.
const SEE_THROUGH = `function () {
  return !this.checkVisibility({ opacityProperty: true, visibilityProperty: true });
}`;

async function axControls(cdp, viewport) {
  const { frameTree } = await cdp.send('Page.getFrameTree');
  const frames = [];
  const walk = (tree) => {
    frames.push(tree.frame);
    for (const child of tree.childFrames ?? []) walk(child);
  };
  walk(frameTree);
  const controls = [];
  for (const frame of frames) {
    let visible = viewport;
    if (frame.id !== frameTree.frame.id) {
      try {
        const { backendNodeId } = await cdp.send('DOM.getFrameOwner', { frameId: frame.id });
        visible = clip(rect((await cdp.send('DOM.getBoxModel', { backendNodeId })).model.content), viewport);
      } catch {
        continue; // a frame without a box (display: none) shows nothing
      }
    }
    const { nodes } = await cdp.send('Accessibility.getFullAXTree', { frameId: frame.id });
    for (const node of nodes) {
      const role = node.role?.value;
      if (node.ignored || !node.backendDOMNodeId || prop(node, 'disabled')) continue;
      if (!WIDGETS.has(role) && !(prop(node, 'focusable') && prop(node, 'editable') && role !== 'RootWebArea')) continue;
      let box;
      try {
        box = rect((await cdp.send('DOM.getBoxModel', { backendNodeId: node.backendDOMNodeId })).model.border);
      } catch {
        continue; // no layout box: not rendered
      }
      const shown = clip(box, visible);
      if (shown.right - shown.left <= 1 || shown.bottom - shown.top <= 1) continue;
      controls.push({ id: node.backendDOMNodeId, role, name: (node.name?.value ?? '').trim(), frame: frame.url, ...box });
    }
  }
  const seen = [];
  for (const control of controls) {
    const { object } = await cdp.send('DOM.resolveNode', { backendNodeId: control.id });
    const { result } = await cdp.send('Runtime.callFunctionOn', { objectId: object.objectId, functionDeclaration: SEE_THROUGH, returnByValue: true });
    if (result.value !== true) seen.push(control);
  }
  controls.splice(0, controls.length, ...seen);
  // A control under another one (two buttons drawn at one spot, one shown at a time) cannot be seen or
  // clicked: the one on top is what is on screen there.
  for (const control of controls) {
    const { object } = await cdp.send('DOM.resolveNode', { backendNodeId: control.id });
    const { result } = await cdp.send('Runtime.callFunctionOn', { objectId: object.objectId, functionDeclaration: COVERED, returnByValue: true });
    control.covered = result.value === true;
  }
  return controls;
}

/// Waymark's badges on screen, in every frame: `{number, left, top, right, bottom}` in the top page's
/// coordinates.
async function badges(cdp) {
  const { root } = await cdp.send('DOM.getDocument', { depth: -1, pierce: true });
  const found = [];
  const walk = (node, inOverlay) => {
    const here = inOverlay || isWaymarkHost(node);
    if (here && node.localName === 'span') found.push({ nodeId: node.nodeId, number: Number(node.children?.[0]?.nodeValue) });
    for (const child of [...(node.children ?? []), ...(node.shadowRoots ?? []), ...(node.contentDocument ? [node.contentDocument] : [])]) {
      walk(child, here);
    }
  };
  walk(root, false);
  for (const badge of found) Object.assign(badge, rect((await cdp.send('DOM.getBoxModel', { nodeId: badge.nodeId })).model.border));
  return found;
}

/// How far from a control its badge may be drawn: the overlay looks for a free spot along the
/// control's row, then the rows above and below, a dozen half-badges at most each way.
const REACH = { x: 200, y: 60 };
const NAME_WEIGHT = 40;

/// Pairs controls with badges: each control may take a badge of a compatible role whose top-left is
/// within REACH of its box. Augmenting paths give every control a badge when any pairing can; then
/// swaps that bring badges nearer their controls (and names closer to Chrome's) make the pairing the
/// one a person looking at the screen would see.
function pair(controls, drawn, items) {
  const byNumber = new Map(items.map((item) => [item.index, item]));
  const costs = controls.map((c) => new Map(drawn.flatMap((b, k) => {
    const item = byNumber.get(b.number);
    const dx = Math.max(c.left - b.left, 0, b.left - c.right);
    const dy = Math.max(c.top - b.top, 0, b.top - c.bottom);
    if (!item || !compatible(c.role, item.role) || dx > REACH.x || dy > REACH.y) return [];
    // Among close badges, the one whose item has the control's name is most likely its own.
    const named = item.name === spoken(c.name) ? 0 : NAME_WEIGHT;
    return [[k, Math.hypot(b.left - c.left, b.top - c.top) + named]];
  })));
  const candidates = costs.map((m) => [...m.keys()].sort((a, b) => m.get(a) - m.get(b)));
  const owner = new Array(drawn.length).fill(-1);
  const take = (i, seen) => {
    for (const k of candidates[i]) {
      if (seen.has(k)) continue;
      seen.add(k);
      if (owner[k] === -1 || take(owner[k], seen)) {
        owner[k] = i;
        return true;
      }
    }
    return false;
  };
  controls.forEach((_, i) => take(i, new Set()));
  const badgeOf = new Array(controls.length).fill(-1);
  owner.forEach((i, k) => { if (i >= 0) badgeOf[i] = k; });
  const cost = (i, k) => costs[i].get(k) ?? Infinity;
  for (let improved = true, rounds = 0; improved && rounds < 20; rounds++) {
    improved = false;
    for (let i = 0; i < controls.length; i++) {
      if (badgeOf[i] < 0) continue;
      for (const k of candidates[i]) {
        const a = badgeOf[i];
        if (k === a || cost(i, k) >= cost(i, a)) continue;
        const j = owner[k];
        if (j >= 0 && cost(i, k) + cost(j, a) >= cost(i, a) + cost(j, k)) continue;
        owner[a] = j;
        if (j >= 0) badgeOf[j] = a;
        owner[k] = i;
        badgeOf[i] = k;
        improved = true;
        break;
      }
    }
  }
  return controls.map((control, i) => ({ control, item: badgeOf[i] >= 0 ? byNumber.get(drawn[badgeOf[i]].number) : null }));
}

/// The pairs whose item does not say the control's name. Badges are paired with controls by where
/// they are drawn, which can give two neighbours each other's badge: names that both sides say, only
/// paired differently, are no mismatch.
function renamed(pairs) {
  const wrong = pairs.filter((p) => p.item && p.item.name !== spoken(p.control.name));
  const count = (names) => names.reduce((m, n) => m.set(n, (m.get(n) ?? 0) + 1), new Map());
  const chrome = count(wrong.map((p) => spoken(p.control.name)));
  const waymark = count(wrong.map((p) => p.item.name));
  for (const [name, n] of chrome) {
    const both = Math.min(n, waymark.get(name) ?? 0);
    chrome.set(name, n - both);
    waymark.set(name, (waymark.get(name) ?? 0) - both);
  }
  return wrong.filter((p) => chrome.get(spoken(p.control.name)) > 0 || waymark.get(p.item.name) > 0);
}

/// Compares Chrome's controls on screen with Waymark's numbered items (`items`: the viewport listing
/// just taken). Returns `{controls, covered, missed, extra, renamed}`: Chrome's controls on screen (and how many
/// more are under another control), those with no
/// badge of their own, Waymark's items paired with no control of Chrome's, and paired items whose name
/// is not Chrome's accessible name.
export async function compareWithChrome(context, page, items) {
  // The overlay redraws its badges when the page moves; a badge read in the middle of a redraw is gone
  // by the time its box is asked for, and the whole reading is made again.
  for (let attempt = 1; ; attempt++) {
    try {
      return await readAndCompare(context, page, items);
    } catch (error) {
      if (attempt >= 5 || !/Could not find node/.test(error.message)) throw error;
    }
  }
}

async function readAndCompare(context, page, items) {
  const cdp = await context.newCDPSession(page);
  try {
    await cdp.send('DOM.enable');
    await cdp.send('Accessibility.enable');
    const { cssLayoutViewport: v } = await cdp.send('Page.getLayoutMetrics');
    const viewport = { left: 0, top: 0, right: v.clientWidth, bottom: v.clientHeight };
    const drawn = await badges(cdp);
    const found = await axControls(cdp, viewport);
    const controls = found.filter((c) => !c.covered);
    const pairs = pair(controls, drawn, items);
    const used = new Set(pairs.filter((p) => p.item).map((p) => p.item.index));
    const say = (c) => `${c.role} '${c.name}' at ${Math.round(c.left)},${Math.round(c.top)}`;
    return {
      controls: controls.length,
      covered: found.length - controls.length,
      missed: pairs.filter((p) => !p.item).map((p) => say(p.control)),
      extra: items.filter((item) => drawn.some((b) => b.number === item.index) && !used.has(item.index))
        .map((item) => `${item.index} ${item.role} '${item.name}'`),
      renamed: renamed(pairs).map((p) => `${p.item.index} '${p.item.name}' (Chrome: '${spoken(p.control.name)}')`),
    };
  } finally {
    await cdp.detach();
  }
}
