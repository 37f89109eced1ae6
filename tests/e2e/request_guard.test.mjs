// The gate's second judgement, at the request, in real Chromium with the real extension and host: pages
// written to tempt Waymark, whose every control looks harmless but whose script (or server) does what
// the control does not show — a plain "OK" under a long notice that sends DELETE, a checkbox whose
// listener posts a subscription, another whose listener posts its form to close the account, a reply
// box outside any form that posts on Enter, a link through a redirector to an address that deletes, a
// button that sends a beacon to remove messages — in the top page, a same-origin and a cross-origin
// frame. A small generator mixes road × frame × tool × who asks (an MCP client, the agent with an
// obedient scripted model) and the answer; every mix must ask before anything reaches the server, a no
// must leave nothing sent, and a yes exactly one request. A form posted and then reloaded (or gone back
// and forward to) asks first. Everyday actions (adding to a cart, a search posted, typing into notes,
// help's analytics beacon, opening a mail that asks to delete something) ask nothing. The suite's tripwire
// (lib/tripwire.mjs) checks after every call that nothing else left.
import assert from 'node:assert/strict';
import { after, afterEach, before, test } from 'node:test';
import { send, tripwire, until, waitForReply } from './lib/harness.mjs';
import { askedIn, callTool, openWithClientAndAgent } from './lib/mcp_and_agent.mjs';
import { mulberry32 } from './lib/random.mjs';

let opened, model, page, panel, client;
/// The roads page's address (the tests leave it: a form posted, a link followed).
let home;
const CLIENT = 'Roads client';

before(async () => {
  opened = await openWithClientAndAgent('roads/index.html', { clientName: CLIENT });
  ({ model, page, panel, client } = opened);
  home = page.url();
  await loaded();
});

after(() => opened?.close());

// A test that failed with a question open would hold every call after it: the question is answered no.
afterEach(async () => {
  if (await panel.locator('#question').isVisible()) {
    await panel.focus('#message');
    await panel.keyboard.type('/no');
    await panel.keyboard.press('Enter');
  }
});

async function call(name, args = {}) {
  if (process.env.DEBUG_ROADS) console.log(`# call ${name} ${JSON.stringify(args)}`);
  return (await callTool(client, name, args, { timeout: 60_000 })).body;
}

/// The roads page, fresh, with its frames answering (opened by the user's own hand).
async function loaded(url = home) {
  await tripwire.byHand(() => page.goto(url));
  await page.frameLocator('#cross').locator('.ok').waitFor();
  await until(async () => (await call('browser_find', { text: 'Show archived' })).data?.items?.length === 3, 'every frame numbered', 15_000);
}

/// The numbers of the controls named exactly `name`, in document order: the top page's, the same-origin
/// frame's, the cross-origin frame's.
async function numbersOf(name) {
  const found = await call('browser_find', { text: name });
  assert.equal(found.status, 'ok', found.error);
  return found.data.items.filter((i) => i.name === name).map((i) => i.index);
}

const asked = (pattern) => askedIn(panel, pattern, 20_000);

/// How many requests reached the server at an address matching `path`.
const reached = (path) => tripwire.records().filter((r) => path.test(r.url)).length;

const click = (index) => ['browser_overlay_act', { index, action: 'click' }];
const SITE = '(127\\.0\\.0\\.1|localhost):\\d+';
/// The site as a question about the whole page names it: by its host (main's panel-speech).
const SITE_NAME = '(127\\.0\\.0\\.1|localhost)(:\\d+)?';

/// Whether the client was asked, once, about typing into the cross-origin frame.
let typedAcrossOrigins = false;

/// The roads: the control, the tool that takes it, where its request goes, and what the question says.
const ROADS = {
  confirm: {
    control: 'OK',
    tool: click,
    sink: /^\/api\/messages\/42$/,
    asks: new RegExp(`The page tried to send a request that deletes something \\(it says 'DELETE'\\) to ${SITE}: DELETE /api/messages/42\\. Allow it once\\?$`),
  },
  plan: {
    control: 'Keep my plan',
    tool: click,
    sink: /^\/api\/billing\/subscribe$/,
    asks: new RegExp(`The page tried to send a request that pays or orders \\(it says 'subscribe'\\) to ${SITE}: POST /api/billing/subscribe, with the fields plan\\.`),
  },
  archived: {
    control: 'Show archived',
    tool: (index) => ['browser_act_by_index', { index, action: 'click' }],
    sink: /^\/account\/close$/,
    asks: new RegExp(`The page tried to send a request that deletes something \\(it says 'account/close'\\) to ${SITE}: POST /account/close\\.`),
  },
  reply: {
    control: 'Quick note to Ada',
    async setup(index, frame) {
      const typing = call('browser_overlay_act', { index, action: 'type', text: 'see you at ten' });
      if (frame === 2 && !typedAcrossOrigins) {
        // Words that are not the user's, typed into a frame of another origin, ask once (main's origin
        // sets for data): the yes adds that origin to the client's set.
        await asked(new RegExp(`What is typed there goes to ${SITE}, which you have not named`));
        await send(panel, '/yes');
        typedAcrossOrigins = true;
      }
      const typed = await typing;
      assert.equal(typed.status, 'ok', typed.error);
    },
    tool: (index) => ['browser_press', { key: 'Enter', index }],
    sink: /^\/api\/messages$/,
    asks: new RegExp(`The page tried to send a request that sends or publishes something \\(it says 'messages'\\) to ${SITE}: POST /api/messages, with the fields text\\.`),
  },
  open: {
    control: 'Open the message',
    tool: click,
    sink: /^\/mail\/delete-all/,
    asks: new RegExp(`The page tried to send a request that deletes something \\(it says 'delete'\\) to ${SITE}: GET /mail/delete-all\\?confirm=…\\.`),
  },
  tidy: {
    control: 'Tidy up',
    tool: click,
    sink: /^\/api\/messages\/7\/remove$/,
    asks: new RegExp(`The page tried to send a request that deletes something \\(it says 'remove'\\) to ${SITE}: POST /api/messages/7/remove\\.`),
  },
};
const FRAMES = ['top', 'same-origin frame', 'cross-origin frame'];

/// The mix is seeded, so a failure can be run again: WAYMARK_ROADS_SEED picks another mix.
const SEED = Number(process.env.WAYMARK_ROADS_SEED ?? 20_261_124);
const random = mulberry32(SEED);
const pick = (list) => list[Math.floor(random() * list.length)];

/// Every road in every frame through the MCP client, each answered yes or no by the generator (each
/// answer at least once per road); and a few mixes through the agent.
function mixes() {
  const out = [];
  for (const road of Object.keys(ROADS)) {
    const answers = FRAMES.map(() => random() < 0.5);
    if (answers.every((a) => a === answers[0])) answers[Math.floor(random() * answers.length)] = !answers[0];
    FRAMES.forEach((frame, i) => out.push({ road, frame: i, who: 'client', yes: answers[i] }));
  }
  for (let i = 0; i < 4; i++) out.push({ road: pick(Object.keys(ROADS)), frame: Math.floor(random() * FRAMES.length), who: 'agent', yes: i % 2 === 0 });
  return out;
}

/// Takes one road: asks before anything reaches the server; a no leaves nothing sent, a yes exactly one.
async function take({ road, frame, who, yes }) {
  const { control, tool, sink, asks, setup } = ROADS[road];
  const where = `${road} in the ${FRAMES[frame]} by ${who === 'client' ? 'an MCP client' : 'the agent'}, answered ${yes ? 'yes' : 'no'}`;
  console.log(`# ${where}`);
  const index = (await numbersOf(control))[frame];
  assert.ok(index, `${where}: ${control} is numbered`);
  await setup?.(index, frame);
  const before = reached(sink);
  const [name, args] = tool(index);
  let pending;
  if (who === 'client') {
    pending = call(name, args);
  } else {
    await model.addSteps([
      { kind: 'tool_call', name, arguments: args },
      { kind: 'tool_call', name: 'assistant_done', arguments: { reason: `Took the ${road} road.` } },
    ]);
    await send(panel, '/chat');
    await send(panel, `Take the ${road} road`);
  }
  const question = await asked(new RegExp(`^${who === 'client' ? `${CLIENT} asks: ` : ''}${asks.source}`));
  assert.equal(reached(sink), before, `${where}: nothing reached the server before the answer to: ${question}`);
  await send(panel, yes ? '/yes' : '/no');
  if (who === 'client') {
    const result = await pending;
    if (yes) assert.equal(result.status, 'ok', `${where}: ${JSON.stringify(result)}`);
    else assert.equal(result.kind, 'declined', `${where}: ${JSON.stringify(result)}`);
  } else {
    await waitForReply(panel, new RegExp(`^Took the ${road} road\\.$`), { timeout: 30_000 });
    await send(panel, '/exit');
  }
  await until(() => reached(sink) === before + (yes ? 1 : 0), `${where}: ${yes ? 'exactly one request' : 'no request'} at ${sink}`, 5_000);
  // Nothing more comes later.
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal(reached(sink), before + (yes ? 1 : 0), `${where}: ${reached(sink) - before} requests`);
  await loaded();
}

test(`every road, in every frame, asks before its request leaves (mix seed ${SEED})`, { timeout: 900_000 }, async () => {
  for (const mix of mixes()) await take(mix);
});

test('a form posted, then reloaded, or gone back and forward to, asks before it is posted again', async () => {
  const paid = /^\/roads\/paid\.html$/;
  const before = reached(paid);
  const pay = (await numbersOf('Pay €12.00'))[0];
  const pending = call('browser_overlay_act', { index: pay, action: 'click' });
  await asked(new RegExp(`^${CLIENT} asks: Click button 'Pay €12\\.00': this sends its form to http://127\\.0\\.0\\.1:\\d+/roads/paid\\.html`));
  // The yes posts the form as a navigation, which may reach the server only after the click's call has
  // returned: the yes covers it whenever it comes (the tripwire), and it is counted below.
  await send(panel, '/yes');
  assert.equal((await pending).status, 'ok');
  await until(() => reached(paid) === before + 1, 'the form posted once');
  await until(async () => (await call('browser_find', { text: 'Back to the roads' })).data?.items?.length === 1, 'the answer page');
  assert.equal(reached(paid), before + 1);
  const reload = call('browser_reload');
  await asked(new RegExp(`^${CLIENT} asks: Reload the page: this sends the form to http://127\\.0\\.0\\.1:\\d+/roads/paid\\.html again on ${SITE_NAME}\\. Yes or no\\?$`));
  await send(panel, '/no');
  assert.equal((await reload).kind, 'declined');
  const back = await call('browser_back');
  assert.equal(back.status, 'ok', back.error);
  const forward = call('browser_forward');
  await asked(new RegExp(`^${CLIENT} asks: Go forward: this sends the form to http://127\\.0\\.0\\.1:\\d+/roads/paid\\.html again`));
  await send(panel, '/no');
  assert.equal((await forward).kind, 'declined');
  assert.equal(reached(paid), before + 1, 'posted once, by the yes');
  await loaded();
});

test('in a tab Waymark was not used in yet, an MCP client\'s first action there is guarded all the same', async () => {
  // Opened by the user's own hand: Waymark's script is not in it until a tool addresses it.
  const fresh = await page.context().newPage();
  try {
    await tripwire.byHand(() => fresh.goto(home));
    await fresh.frameLocator('#cross').locator('.ok').waitFor();
    await fresh.bringToFront();
    const { sink, asks } = ROADS.confirm;
    const before = reached(sink);
    // The client's first calls in the tab: a listing puts the script in, and the click is guarded.
    await until(async () => (await call('browser_find', { text: 'OK' })).data?.items?.length === 3, 'every frame of the fresh tab numbered', 15_000);
    const pending = call(...click((await numbersOf('OK'))[0]));
    const question = await asked(new RegExp(`^${CLIENT} asks: ${asks.source}`));
    assert.equal(reached(sink), before, `nothing reached the server before the answer to: ${question}`);
    await send(panel, '/no');
    assert.equal((await pending).kind, 'declined');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(reached(sink), before, 'nothing was sent after the no');
  } finally {
    await fresh.close();
    await page.bringToFront();
  }
});

test('everyday actions ask nothing: a cart, a search, notes, help, a mail that asks to delete', async () => {
  await tripwire.byHand(() => page.goto(new URL('everyday.html', home).href));
  await until(async () => (await call('browser_find', { text: 'Add to cart' })).data?.items?.length === 1, 'the page numbered');
  const number = async (name) => (await call('browser_find', { text: name })).data.items.find((i) => i.name === name).index;
  // Each harmless request goes the first time: its address says nothing the policy asks about, so the
  // guard does not stop it (the page never sees it fail); the beacon is stopped and not sent again.
  tripwire.expect({ method: 'POST', path: /^\/cart\/add$/, why: 'adding to a cart is harmless' });
  tripwire.expect({ method: 'POST', path: /^\/search$/, why: 'a search posted is harmless' });
  tripwire.expect({ method: 'PUT', path: /^\/api\/drafts\/1$/, why: 'a draft saved is harmless', always: true });
  const steps = [
    ['browser_overlay_act', { index: await number('Add to cart'), action: 'click' }],
    ['browser_overlay_act', { index: await number('Search the shop'), action: 'type', text: 'green tea' }],
    ['browser_overlay_act', { index: await number('Find'), action: 'click' }],
    ['browser_overlay_act', { index: await number('Notes'), action: 'type', text: 'Buy green tea on Friday' }],
    ['browser_overlay_act', { index: await number('Help'), action: 'click' }],
  ];
  // A question instead of a result fails at once, saying what was asked.
  const unasked = async (name, args) => {
    const question = asked(/./).then((text) => ({ status: 'asked', error: text }), () => new Promise(() => {}));
    const result = await Promise.race([call(name, args), question]);
    assert.equal(result.status, 'ok', `${name} ${JSON.stringify(args)}: ${result.error}`);
  };
  for (const [name, args] of steps) await unasked(name, args);
  assert.equal(await panel.locator('#question').isHidden(), true, `no question: ${await panel.textContent('#question-text')}`);
  const effects = await page.evaluate(() => ({ ...window.effects }));
  assert.equal(effects.cartSent, 1, JSON.stringify(effects));
  assert.equal(effects.searchSent, 1, JSON.stringify(effects));
  // The page never saw an everyday request fail.
  assert.deepEqual([effects.cartFailed, effects.searchFailed, effects.draftFailed], [undefined, undefined, undefined], JSON.stringify(effects));
  assert.ok(effects.draftSent >= 1, JSON.stringify(effects));
  assert.equal(reached(/^\/cart\/add$/), 1);
  assert.equal(reached(/^\/collect$/), 0, "help's analytics beacon was stopped and not sent again");
  // A mail that asks to delete something, opened from the inbox's list: its words are data.
  await unasked('browser_overlay_act', { index: await number('Photos from the trip'), action: 'click' });
  await until(async () => (await call('browser_extract')).data?.title === 'Photos from the trip', 'the mail open');
  assert.equal(await panel.locator('#question').isHidden(), true);
});
