// What the screen reader said, read from the log orca_recorder.py writes (one JSON line per event:
// an utterance queued with its text, then its begin, end or cancel; a "stop" when Orca interrupts), and
// the real key presses that make it speak (xdotool, to the focused X window, as a keyboard would).
//
// Times are wall-clock milliseconds, the same clock as Date.now() in the browser, so a panel's
// announcement can be matched with the words it became and the delay between them measured.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/// Lower case, words only: Orca speaks "/more" and "€84.97" as it likes, and splits long messages.
export function words(text) {
  return String(text).toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/// The longest an utterance takes at Orca's default rate here (a ten-line list is about 40 s): a begun
/// utterance with no end after this, or one queued this long that never began, means Speech Dispatcher
/// stopped reporting.
const LONGEST_UTTERANCE_MS = 90_000;

/// Speech Dispatcher stopped telling when utterances begin and end: what the tests would then report
/// (announcements missing, cut, untimed) would be false, so they stop with this instead.
export class SpeechLost extends Error {
  constructor(cause) {
    super(`Speech Dispatcher stopped reporting when utterances begin and end (${cause}); what Orca said `
      + 'after that has no times, so this run cannot judge the speech. Run ./build.sh orca again; '
      + `Speech Dispatcher's own log is in ${process.env.WAYMARK_DESKTOP_LOG ?? 'the desktop session'}.`);
    this.name = 'SpeechLost';
  }
}

export class Speech {
  constructor(path = process.env.WAYMARK_SPEECH_LOG) {
    if (!path) throw new Error('WAYMARK_SPEECH_LOG is not set: run the screen-reader tests through ./build.sh orca');
    this.path = path;
  }

  /// Every utterance so far: { id, text, queued, begin, end, cancel, cut }.
  utterances() {
    const byId = new Map();
    const stops = [];
    this.lost = [];
    this.listenerErrors = [];
    for (const line of fs.readFileSync(this.path, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      let e;
      try { e = JSON.parse(line); } catch { continue; }
      if (e.event === 'stop') { stops.push(e.t); continue; }
      if (e.event === 'lost') { this.lost.push(e); continue; }
      if (e.event === 'listener_error') { this.listenerErrors.push(e); continue; }
      if (e.event === 'queued') byId.set(e.id, { id: e.id, text: e.text, queued: e.t });
      const u = byId.get(e.id);
      if (u && e.event !== 'queued') u[e.event] = e.t;
    }
    const list = [...byId.values()].sort((a, b) => a.queued - b.queued);
    // Speech Dispatcher sometimes loses the end of a cancelled utterance: one is over once a later one
    // has begun. It was cut if it was cancelled, or if Orca stopped speech while it was being said.
    for (const [i, u] of list.entries()) {
      const next = list.slice(i + 1).find((n) => n.begin);
      u.over = u.end ?? u.cancel ?? next?.begin;
      u.cut = Boolean(u.cancel) || (u.begin !== undefined && stops.some((t) => t > u.begin && (u.end === undefined || t < u.end)));
    }
    return list;
  }

  /// Throws SpeechLost when Speech Dispatcher has stopped reporting: Orca lost its connection, or an
  /// utterance began and never ended, or was queued and never began, for longer than any takes.
  check() {
    const all = this.utterances();
    const [lost] = this.lost;
    if (lost) throw new SpeechLost(`${lost.text}, at ${new Date(lost.t).toISOString()}`);
    const now = Date.now();
    const stuck = all.find((u) => !u.over && !u.cancel && now - (u.begin ?? u.queued) > LONGEST_UTTERANCE_MS);
    if (stuck) {
      const what = stuck.begin ? 'began and never ended' : 'was queued and never began';
      throw new SpeechLost(`"${stuck.text}" ${what} in ${Math.round((now - (stuck.begin ?? stuck.queued)) / 1000)} s`);
    }
  }

  since(t) {
    return this.utterances().filter((u) => u.queued >= t);
  }

  /// Waits until nothing has been said or queued for `quiet` ms and nothing is being said; with
  /// `since`, not before `quiet` ms after it either (a key pressed or an announcement made then, which
  /// Orca may not have begun to say yet).
  async settle({ quiet = 1500, timeout = 60_000, since = 0 } = {}) {
    const start = Date.now();
    for (;;) {
      this.check();
      const all = this.utterances();
      const last = all.at(-1);
      const busy = all.some((u) => u.begin && !u.over);
      const lastEvent = Math.max(since, ...all.map((u) => Math.max(u.queued, u.begin ?? 0, u.end ?? 0, u.cancel ?? 0)));
      if (!busy && Date.now() - lastEvent >= quiet) return;
      if (Date.now() - start > timeout) {
        throw new Error(`speech did not settle within ${timeout} ms; last: ${JSON.stringify(last)}`);
      }
      await sleep(200);
    }
  }

  /// Orca's mode as it last said it ("Focus mode" or "Browse mode"): 'focus', 'browse', or undefined.
  mode() {
    const said = this.utterances().map((u) => u.text.trim()).filter((t) => /^(Focus|Browse) mode$/.test(t));
    return said.at(-1)?.split(' ')[0].toLowerCase();
  }

  /// Waits for anything queued after `after`; the first such utterance.
  async waitForAny({ after = 0, timeout = 5_000 } = {}) {
    const start = Date.now();
    for (;;) {
      const [first] = this.since(after);
      if (first) return first;
      if (Date.now() - start > timeout) throw new Error(`nothing was said within ${timeout} ms`);
      await sleep(100);
    }
  }

  /// Waits for an utterance after `t` whose words include `text`'s.
  async waitFor(text, { after = 0, timeout = 20_000 } = {}) {
    const want = words(text);
    const start = Date.now();
    for (;;) {
      const found = this.since(after).find((u) => words(u.text).includes(want));
      if (found) return found;
      if (Date.now() - start > timeout) {
        const heard = this.since(after).map((u) => u.text);
        throw new Error(`not heard within ${timeout} ms: ${JSON.stringify(text)}; heard: ${JSON.stringify(heard)}`);
      }
      await sleep(150);
    }
  }
}

/// One real key press (xdotool's names: "alt+shift+y", "Return", "Tab").
export function key(combo) {
  execFileSync('xdotool', ['key', '--clearmodifiers', combo]);
}

/// The name of the X window that has the keyboard focus (a browser window's title): the real focus,
/// which a page's document.hasFocus() does not tell under Playwright (it emulates focus in every page).
export function activeWindow() {
  try {
    return execFileSync('xdotool', ['getactivewindow', 'getwindowname'], { encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
}

/// Types text as a keyboard would, a key at a time.
export function type(text) {
  execFileSync('xdotool', ['type', '--delay', '40', text]);
}

/// What a panel showed in its live regions and its question dialog, as a screen reader is told of it,
/// and what it said through the system's speech (`chrome.tts`, region "speech", with the events Speech
/// Dispatcher reported for it: start, end, interrupted…): installed into every page of the browser, it
/// records each announcement with the time it was made.
export function recordAnnouncements() {
  if (!location.href.includes('/sidepanel.html')) return;
  window.__announced = [];
  const add = (region, text) => {
    if (!text || !text.trim()) return undefined;
    const entry = { region, text, t: Date.now() };
    window.__announced.push(entry);
    return entry;
  };
  if (globalThis.chrome?.tts?.speak) {
    const speak = chrome.tts.speak.bind(chrome.tts);
    chrome.tts.speak = (text, options = {}, ...rest) => {
      const entry = add('speech', text) ?? { events: [] };
      entry.events = [];
      const theirs = options.onEvent;
      const onEvent = (event) => {
        entry.events.push({ type: event.type, t: Date.now() });
        theirs?.(event);
      };
      return speak(text, { ...options, onEvent }, ...rest);
    };
  }
  // Playwright may run this script in a window the extension opened only after its document was
  // parsed (it attaches to the new window's target in a race with the page's own load): then it
  // observes at once, and takes what the regions already show as said at that moment.
  const late = document.readyState !== 'loading';
  const observe = () => {
    const transcript = document.getElementById('transcript');
    new MutationObserver((changes) => {
      for (const c of changes) {
        for (const n of c.addedNodes) {
          if (n.nodeType === 1 && n.getAttribute('aria-hidden') !== 'true') add('log', n.textContent);
        }
      }
    }).observe(transcript, { childList: true });
    for (const [id, region] of [['status', 'status'], ['alert', 'alert'], ['question-text', 'question']]) {
      const el = document.getElementById(id);
      if (late) add(region, el.textContent);
      new MutationObserver(() => add(region, el.textContent))
        .observe(el, { childList: true, characterData: true, subtree: true });
    }
  };
  if (late) observe();
  else document.addEventListener('DOMContentLoaded', observe);
}

/// Checks one announcement against what was said after `from`: how often its words were heard (each
/// utterance whose words contain them, or a run of utterances that together do), whether it was cut,
/// and how long after it was made its words began.
export function heard(speech, announcement, from) {
  const said = speech.since(from);
  const want = words(announcement.text);
  if (announcement.region === 'speech') return spoken(said, announcement, want);
  // Long messages may be split by Orca into several utterances, and an utterance may carry more than
  // the announcement (the region's name): find each shortest run of utterances whose words contain it.
  const hits = [];
  let i = 0;
  while (i < said.length) {
    let joined = '';
    let end = -1;
    for (let j = i; j < Math.min(said.length, i + 12); j++) {
      joined = `${joined} ${words(said[j].text)}`;
      if (joined.includes(want)) { end = j; break; }
    }
    if (end < 0) { i++; continue; }
    let start = end;
    let tail = '';
    for (let k = end; k >= i; k--) {
      tail = `${words(said[k].text)} ${tail}`;
      if (tail.includes(want)) { start = k; break; }
    }
    hits.push(said.slice(start, end + 1));
    i = end + 1;
  }
  const first = hits[0]?.[0];
  const last = hits[0]?.at(-1);
  return {
    text: announcement.text,
    region: announcement.region,
    times: hits.length,
    cut: hits.some((run) => run.some((u) => u.cut)),
    delayMs: first?.begin ? Math.round(first.begin - announcement.t) : null,
    begin: first?.begin,
    end: last?.over,
  };
}

/// An announcement the panel said through the system's speech: heard once if Speech Dispatcher began
/// and ended it (and Orca did not say it too), cut if it was interrupted, cancelled or failed.
function spoken(said, announcement, want) {
  const events = announcement.events ?? [];
  const at = (type) => events.find((e) => e.type === type)?.t;
  const orcaToo = said.filter((u) => words(u.text).includes(want)).length;
  const begin = at('start');
  return {
    text: announcement.text,
    region: announcement.region,
    times: (begin ? 1 : 0) + orcaToo,
    cut: events.some((e) => ['interrupted', 'cancelled', 'error'].includes(e.type)) || (begin !== undefined && at('end') === undefined),
    delayMs: begin ? Math.round(begin - announcement.t) : null,
    begin,
    end: at('end'),
  };
}

/// How long the user listened between `from` and `to`: the time Orca and the system's speech spent
/// speaking (overlaps counted once), in milliseconds.
export function listened(speech, ttsEntries, from, to) {
  const spans = speech.since(from)
    .filter((u) => u.begin !== undefined && u.begin < to)
    .map((u) => [u.begin, Math.min(u.over ?? to, to)]);
  for (const entry of ttsEntries) {
    const start = entry.events?.find((e) => e.type === 'start')?.t;
    const end = entry.events?.find((e) => ['end', 'interrupted', 'cancelled'].includes(e.type))?.t ?? to;
    if (start !== undefined && start >= from && start < to) spans.push([start, Math.min(end, to)]);
  }
  spans.sort((a, b) => a[0] - b[0]);
  let total = 0;
  let reach = -Infinity;
  for (const [begin, end] of spans) {
    const from_ = Math.max(begin, reach);
    if (end > from_) total += end - from_;
    reach = Math.max(reach, end);
  }
  return Math.round(total);
}
