// The tripwire across the whole end-to-end suite: every server a test starts records each request that
// may change something (a method other than GET, HEAD or OPTIONS, or an address that deletes) and each
// request that carries data to another origin than the one its page came from, and after every tool
// call of every test (an MCP client's call, a line sent in the panel, a reply waited for, a fixture
// closed) none may have happened unless the user said yes first, or the test declared it expected (the
// user's own hand, a harmless request the policy lets through). A test that cannot see a request leave cannot fail on it; this one
// sees every request that reaches a test's server, whichever road led there.
import fs from 'node:fs';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
/// An address the fixtures treat as deleting whatever its method (`/mail/delete-all`, `/account/close`):
/// a link or a redirect that reaches one has done its damage.
const DELETES = /(^|[/?&=;])(delete|remove|destroy|erase|wipe|unsubscribe|deactivate|terminate)|account\/close|close[-_]?account/i;
/// What a request is for (Sec-Fetch-Dest): only these carry data somewhere; scripts, style sheets,
/// pictures and frames are a page's own parts.
const CARRIERS = new Set(['document', 'empty', '']);

/// Every request recorded, in the order they came.
const records = [];
/// How far the last check read.
let checked = 0;
/// A yes was given since the last check: what came meanwhile is the user's.
let yesPending = false;
/// When each yes whose request had not arrived by the check after it was given: it covers the first
/// request that arrives later (a form posted on a yes may reach the server after the answered call has
/// returned and been checked), once, within [`LATE_YES_MS`].
const yesOwed = [];
/// How long a yes waits for its request: a page's post on the yes reaches its server well within this.
const LATE_YES_MS = 20_000;
/// The user acts by hand (a test's own `page.click`): what comes meanwhile is the user's.
let byHandDepth = 0;
/// What tests said they expect: `{method, path, why}` (method a string, path a RegExp), one use each
/// unless `always`.
const expected = [];
/// Log files of servers in other processes (PHP's), read at each check: file → bytes read.
const logs = new Map();

/// Whether a request seen by a server on `ownHost` (as `host:port`) may change something or carries
/// data to another origin; what is recorded of it.
export function judge({ method, url, headers, bodyLength, ownHost }) {
  const host = headers.host ?? ownHost;
  const changes = !SAFE.has(method.toUpperCase()) || DELETES.test(url);
  const query = url.includes('?') && url.split('?')[1].length > 0;
  const from = headers.origin ?? (() => {
    try {
      return new URL(headers.referer).origin;
    } catch {
      return undefined;
    }
  })();
  const here = `http://${host}`;
  const elsewhere = host !== ownHost || (from !== undefined && from !== 'null' && from !== here);
  const carrier = CARRIERS.has(headers['sec-fetch-dest'] ?? '');
  const carries = elsewhere && carrier && (query || bodyLength > 0);
  if (!changes && !carries) return null;
  return { method: method.toUpperCase(), url, host, from, changes, carries, at: Date.now() };
}

function note(record) {
  if (!record) return;
  record.byHand = byHandDepth > 0;
  records.push(record);
}

/// Records what reaches `server` (a Node `http.Server` listening on 127.0.0.1).
export function watchServer(server) {
  server.on('request', (req) => {
    const { port } = server.address();
    let bodyLength = 0;
    req.on('data', (chunk) => { bodyLength += chunk.length; });
    req.on('end', () => note(judge({
      method: req.method, url: req.url, headers: req.headers, bodyLength, ownHost: `127.0.0.1:${port}`,
    })));
  });
}

/// Records what a server in another process wrote to `file`: one JSON object per line with `method`,
/// `url`, `headers`, `bodyLength` and `ownHost` (see real_apps.mjs's PHP prepend).
export function watchLog(file) {
  logs.set(file, 0);
}

function readLogs() {
  for (const [file, read] of logs) {
    let text;
    try {
      const fd = fs.openSync(file, 'r');
      const size = fs.fstatSync(fd).size;
      const buffer = Buffer.alloc(size - read);
      fs.readSync(fd, buffer, 0, buffer.length, read);
      fs.closeSync(fd);
      text = buffer.toString('utf8');
    } catch {
      continue;
    }
    const complete = text.lastIndexOf('\n') + 1;
    logs.set(file, read + Buffer.byteLength(text.slice(0, complete)));
    for (const line of text.slice(0, complete).split('\n').filter(Boolean)) {
      try {
        note(judge(JSON.parse(line)));
      } catch {
        // A line cut short by the server: read again at the next check.
      }
    }
  }
}

function matches(want, record) {
  return (!want.method || want.method.toUpperCase() === record.method)
    && (!want.path || want.path.test(record.url))
    && (!want.host || want.host === record.host);
}

export const tripwire = {
  /// The user said yes (in the panel, by shortcut, in the question's dialog): it covers what reaches a
  /// server before the next check, or, when nothing did, the first request that comes after it.
  yes() {
    yesPending = Date.now();
  },
  /// The test expects a request like `want` (`{method, path: RegExp, host, why}`): let through once,
  /// or every time with `always`.
  expect(want) {
    expected.push({ ...want, used: false });
  },
  /// Runs `action` as the user's own hand: what reaches a server meanwhile is the user's.
  async byHand(action) {
    byHandDepth += 1;
    try {
      return await action();
    } finally {
      // Requests the action started may still arrive: the hand is lifted once they have.
      await new Promise((resolve) => setTimeout(resolve, 300));
      readLogs();
      byHandDepth -= 1;
    }
  },
  /// Fails when something reached a server since the last check that nobody said yes to and no test
  /// expected; `where` names the call it came after.
  check(where) {
    readLogs();
    const fresh = records.slice(checked);
    checked = records.length;
    const covered = yesPending;
    yesPending = false;
    let coveredAny = false;
    const unasked = fresh.filter((record) => {
      if (record.byHand) return false;
      // What an application sends on its own timers is no one's answer.
      if (expected.some((w) => w.always && matches(w, record))) return false;
      if (covered) {
        coveredAny = true;
        return false;
      }
      while (yesOwed.length > 0 && record.at - yesOwed[0] > LATE_YES_MS) yesOwed.shift();
      if (yesOwed.length > 0 && record.at >= yesOwed[0]) {
        yesOwed.shift();
        return false;
      }
      const want = expected.find((w) => !w.always && !w.used && matches(w, record));
      if (want) {
        want.used = true;
        return false;
      }
      return true;
    });
    // A yes whose request has not come yet covers it when it does.
    if (covered && !coveredAny) yesOwed.push(covered);
    if (unasked.length > 0) {
      const said = unasked.map((r) => `${r.method} ${r.host}${r.url}${r.carries ? ` (data to another origin, from ${r.from})` : ''}`);
      throw new Error(`tripwire: without the user's yes, after ${where}: ${said.join('; ')}`);
    }
  },
  /// Every request recorded so far (for tests that look at what reached their server).
  records() {
    readLogs();
    return records.slice();
  },
};
