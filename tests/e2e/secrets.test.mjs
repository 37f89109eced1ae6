// Secret fields end to end: the user types into a sign-in, confirmation and payment form (a password
// revealed by "show password", one added later and revealed before anyone looked, a code, a PIN, a
// field hidden only by -webkit-text-security, Russian password and SMS-code fields, a card number
// with autocomplete off, CVV, MM/YY, an expiry month) and into ordinary fields. Then nothing that
// reads the page gives a secret back: not the MCP tools (list, find by the typed text, extract), not
// the side panel (/list, /find), not the agent's model, not the picture of the screen (each secret
// field is covered), and nothing Waymark keeps on disk. The ordinary values still come back, so each
// check can fail.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { command } from './lib/harness.mjs';
import { callTool, openWithClientAndAgent } from './lib/mcp_and_agent.mjs';

/// What the user types into each secret field, by its id in the fixture. Letters only: the step log
/// masks digit runs, which would hide a leak there.
const SECRETS = {
  pw: 'ZebraHunterQuill',
  word: 'MaroonLanternVex',
  'ru-pw': 'KobaltFinchMoor',
  'ru-sms': 'TundraSmsOwl',
  otp: 'OtterCodeNine',
  pin: 'PinkGlacierOak',
  answer: 'DiscHiddenLynx',
  cardnumber: 'CardLemurFjord',
  cvv: 'CvvQuokkaReef',
  expiry: 'ExpiryMothDune',
};

/// Ordinary fields and what the user types there: these values must still be listed and found.
const ORDINARY = { fullname: 'GraceBrewsterHopper', promo: 'SpringSaleTen' };

/// Each secret field's name in the list.
const SECRET_NAMES = {
  pw: 'Password',
  word: 'Memorable word',
  'ru-pw': 'Пароль',
  'ru-sms': 'Код из СМС',
  otp: 'Enter code',
  pin: 'PIN',
  answer: 'Memorable answer',
  cardnumber: 'Card number',
  cvv: 'CVV',
  expiry: 'MM/YY',
  'exp-month': 'Expiry month',
};

/// What the user types later, into secrets known by their value, shape, drawing or the browser's API
/// (`far` in the fixture), and how each field is named there. The card numbers are test numbers that
/// pass the Luhn check; the page repeats the first one as text.
const LATER = {
  'th-card': { typed: '4111 1111 1111 1111', name: 'หมายเลขบัตร' },
  'th-card2': { typed: '5555 5555 5555 4444', name: 'บัตร' },
  dotted: { typed: 'DottedWombatKey', name: 'Secret note' },
  passcode: { typed: 'ClosedOrcaPass', name: 'Passcode' },
};

/// Each later secret as it might be written anywhere: as typed, and a card's digits run together.
const LATER_MARKERS = Object.values(LATER).flatMap(({ typed }) =>
  /^[\d ]+$/.test(typed) ? [typed, typed.replaceAll(' ', '')] : [typed]);

const MARKERS = Object.values(SECRETS);

// The agent's model: it looks at the page twice and is done. Its calls carry no typed text, so
// whatever of it reaches the model came from the page.
const SCRIPT = {
  steps: [
    { kind: 'tool_call', name: 'browser_list_interactives', arguments: {}, content: 'Looking at the page' },
    { kind: 'tool_call', name: 'browser_extract', arguments: {} },
    { kind: 'tool_call', name: 'assistant_done', arguments: { reason: 'I have read the page.' } },
  ],
};

// What `before` opens: the parts themselves, and `opened` to close them.
let opened, model, browser, page, panel, client;

before(async () => {
  opened = await openWithClientAndAgent('secrets.html', { steps: SCRIPT.steps });
  ({ model, browser, page, panel, client } = opened);
});

after(() => opened?.close());

/// Calls an MCP tool; returns its `{status, error?, data?}` and the raw text the client received.
const call = (name, args = {}) => callTool(client, name, args);

/// Fails, naming the marker and its field, if any secret marker is in `text`.
function assertNoSecret(text, where) {
  for (const [id, marker] of Object.entries(SECRETS)) {
    assert.ok(!text.includes(marker), `${where} holds what was typed into #${id} (${marker}):\n${text.slice(0, 3000)}`);
  }
  for (const marker of LATER_MARKERS) {
    assert.ok(!text.includes(marker), `${where} holds ${marker}:\n${text.slice(0, 3000)}`);
  }
}

/// The mean brightness of the middle of each box (viewport pixels) in a screenshot taken through MCP.
async function brightnessIn(image, boxes) {
  return page.evaluate(
    async ({ data, mime, boxes }) => {
      const img = new Image();
      img.src = `data:${mime};base64,${data}`;
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const g = canvas.getContext('2d');
      g.drawImage(img, 0, 0);
      const scale = img.naturalWidth / window.innerWidth;
      const out = {};
      for (const [name, r] of Object.entries(boxes)) {
        const x = Math.round((r.left + r.width * 0.3) * scale);
        const y = Math.round((r.top + r.height * 0.3) * scale);
        const w = Math.max(1, Math.round(r.width * 0.4 * scale));
        const h = Math.max(1, Math.round(r.height * 0.4 * scale));
        const px = g.getImageData(x, y, w, h).data;
        let sum = 0;
        for (let i = 0; i < px.length; i += 4) sum += (px[i] + px[i + 1] + px[i + 2]) / 3;
        out[name] = sum / (px.length / 4);
      }
      return out;
    },
    { data: image.data, mime: image.mimeType, boxes },
  );
}

async function listItems() {
  const { body, text } = await call('browser_list_interactives', { limit: 100 });
  assert.equal(body.status, 'ok', body.error);
  return { items: body.data.items, text };
}

test('the user fills in every field and reveals both passwords', async () => {
  // The content script is up and has seen the page once, as before any real use.
  const first = await listItems();
  assert.ok(first.items.some((i) => i.name === 'Password'), JSON.stringify(first.items));
  // A password field comes later; it is filled and revealed before anyone lists the page again.
  await page.click('#add-word');
  for (const [id, marker] of Object.entries({ ...SECRETS, ...ORDINARY })) {
    await page.fill(`#${id}`, marker);
  }
  await page.selectOption('#exp-month', '07');
  await page.selectOption('#country', 'NO');
  await page.click('#show-pw');
  await page.click('#show-word');
  const types = await page.evaluate(() => [document.getElementById('pw').type, document.getElementById('word').type]);
  assert.deepEqual(types, ['text', 'text'], 'both passwords are drawn as plain text now');
  for (const [id, marker] of Object.entries(SECRETS)) {
    assert.equal(await page.inputValue(`#${id}`), marker, `#${id} holds what the user typed`);
  }
});

test('the MCP list gives no secret value, and still gives the ordinary ones', async () => {
  for (const scope of ['page', 'viewport']) {
    const { body, text } = await call('browser_list_interactives', { limit: 100, scope });
    assert.equal(body.status, 'ok', body.error);
    assertNoSecret(text, `browser_list_interactives (${scope})`);
    const items = body.data.items;
    const byName = (name) => items.find((i) => i.name === name);
    for (const [id, name] of Object.entries(SECRET_NAMES)) {
      const item = byName(name);
      assert.ok(item, `#${id} (${name}) is listed: ${JSON.stringify(items)}`);
      assert.equal(item.value, undefined, `#${id} (${name}) is listed without its value`);
    }
    assert.equal(byName('Name')?.value, ORDINARY.fullname, text);
    assert.equal(byName('Promo code')?.value, ORDINARY.promo, text);
    assert.equal(byName('Country')?.value, 'Norway', text);
  }
});

test('finding by the typed text never matches a secret field, and finds an ordinary one', async () => {
  for (const marker of MARKERS) {
    for (const query of [marker, marker.slice(2, -2).toLowerCase()]) {
      const { body, text } = await call('browser_find', { text: query });
      assert.equal(body.status, 'ok', body.error);
      assert.deepEqual(body.data.items, [], `find "${query}" matched: ${text}`);
    }
  }
  const { body } = await call('browser_find', { text: 'brewsterhopper' });
  assert.deepEqual(body.data.items.map((i) => i.name), ['Name']);
});

test('the page summary holds no secret', async () => {
  const { body, text } = await call('browser_extract');
  assert.equal(body.status, 'ok', body.error);
  assertNoSecret(text, 'browser_extract');
  assert.match(text, /Sign in, confirm and pay/);
});

test('typing by number into a field only the browser knows is secret is left to the user', async () => {
  const { items } = await listItems();
  // Neither label says secret: one field is hidden by style, the other was a password.
  for (const name of ['Memorable answer', 'Memorable word']) {
    const index = items.find((i) => i.name === name)?.index;
    assert.ok(index, name);
    const { body } = await call('browser_overlay_act', { index, action: 'type', text: 'TypedByTheClient' });
    assert.equal(body.status, 'error', `${name}: ${JSON.stringify(body)}`);
    assert.match(body.error, /leaves this step to you/);
  }
  assert.equal(await page.inputValue('#answer'), SECRETS.answer);
  assert.equal(await page.inputValue('#word'), SECRETS.word);
  // An ordinary field is typed into as before.
  const name = items.find((i) => i.name === 'Name').index;
  const typed = await call('browser_overlay_act', { index: name, action: 'type', text: ORDINARY.fullname });
  assert.equal(typed.body.status, 'ok', typed.body.error);
});

test('the screenshot covers every secret field and leaves the ordinary ones visible', async () => {
  await call('browser_overlay_hide');
  await page.bringToFront();
  const { body, result } = await call('browser_screenshot');
  await call('browser_overlay_show');
  assert.equal(body.status, 'ok', body.error);
  const image = result.content.find((c) => c.type === 'image');
  assert.ok(image, 'the picture comes as image content');
  // `echo-pw` is the page's own text repeating the password.
  const ids = [...Object.keys(SECRETS), 'exp-month', 'echo-pw', ...Object.keys(ORDINARY), 'country'];
  // The browser decodes the JPEG; the mean brightness of the middle of each field's box is measured.
  const boxes = await page.evaluate((ids) => Object.fromEntries(ids.map((id) => {
    const r = document.getElementById(id).getBoundingClientRect();
    return [id, { left: r.left, top: r.top, width: r.width, height: r.height }];
  })), ids);
  const brightness = await brightnessIn(image, boxes);
  for (const id of [...Object.keys(SECRETS), 'exp-month', 'echo-pw']) {
    assert.ok(brightness[id] < 40, `#${id} is covered in the picture (brightness ${brightness[id].toFixed(0)})`);
  }
  for (const id of [...Object.keys(ORDINARY), 'country']) {
    assert.ok(brightness[id] > 120, `#${id} is visible in the picture (brightness ${brightness[id].toFixed(0)})`);
  }
});

test('secrets known by value, shape, drawing or a closed shadow root are neither listed, found nor read, even echoed', async () => {
  await page.fill('#th-card', LATER['th-card'].typed);
  await page.fill('#th-card2', LATER['th-card2'].typed);
  await page.fill('#nickname', 'OtterNick');
  await page.click('#dotted');
  await page.keyboard.type(LATER.dotted.typed);
  // Playwright cannot reach into a closed shadow root; the page kept the field, and the user types.
  await page.evaluate(() => window.closedPasscode.focus());
  await page.keyboard.type(LATER.passcode.typed);
  assert.equal(await page.evaluate(() => window.closedPasscode.value), LATER.passcode.typed);
  assert.equal(await page.textContent('#echo-card'), LATER['th-card'].typed, 'the page repeats the card number');

  const { body, text } = await call('browser_list_interactives', { limit: 200 });
  assert.equal(body.status, 'ok', body.error);
  assertNoSecret(text, 'browser_list_interactives');
  for (const [id, { name }] of Object.entries(LATER)) {
    const item = body.data.items.find((i) => i.name === name);
    assert.ok(item, `#${id} (${name}) is listed: ${JSON.stringify(body.data.items)}`);
    assert.equal(item.value, undefined, `#${id} (${name}) is listed without its value`);
  }
  assert.equal(body.data.items.find((i) => i.name === 'Nickname')?.value, 'OtterNick', 'an ordinary field keeps its value');
  for (const query of ['4111', '5555 5555', 'DottedWombat', 'ClosedOrca']) {
    const found = await call('browser_find', { text: query });
    assert.deepEqual(found.body.data.items, [], `find "${query}" matched: ${found.text}`);
  }
  const extract = await call('browser_extract');
  assertNoSecret(extract.text, 'browser_extract');
  // The echo was read, with the secrets taken out of it: the check above could fail.
  assert.match(extract.text, /You typed: ••• and •••/);
  const read = await command(panel, '/read', /Secrets fixture/);
  assertNoSecret(read, '/read');
});

test('a screenshot taken during a smooth scroll covers each secret where the scroll ends', async () => {
  await call('browser_overlay_hide');
  await page.bringToFront();
  await page.evaluate(() => {
    window.scrollTo({ top: 0, behavior: 'instant' });
    document.documentElement.style.scrollBehavior = 'smooth';
  });
  // The scroll starts and the picture is asked for at once, as a model does.
  const scrolled = await call('browser_scroll', { direction: 'bottom' });
  assert.equal(scrolled.body.status, 'ok', scrolled.body.error);
  const { body, result } = await call('browser_screenshot');
  await call('browser_overlay_show');
  assert.equal(body.status, 'ok', body.error);
  const image = result.content.find((c) => c.type === 'image');
  const boxes = await page.evaluate(() => {
    const box = (e) => {
      const r = e.getBoundingClientRect();
      return { left: r.left, top: r.top, width: r.width, height: r.height };
    };
    return {
      'th-card': box(document.getElementById('th-card')),
      'th-card2': box(document.getElementById('th-card2')),
      dotted: box(document.getElementById('dotted')),
      passcode: box(window.closedPasscode),
      nickname: box(document.getElementById('nickname')),
      scrollY: window.scrollY,
    };
  });
  const { scrollY } = boxes;
  delete boxes.scrollY;
  assert.ok(scrollY > 1000, `the page scrolled to its end (${scrollY})`);
  const brightness = await brightnessIn(image, boxes);
  for (const id of Object.keys(LATER)) {
    assert.ok(brightness[id] < 40, `#${id} is covered where it stands (brightness ${brightness[id].toFixed(0)})`);
  }
  assert.ok(brightness.nickname > 120, `an ordinary field is visible (brightness ${brightness.nickname.toFixed(0)})`);
  await page.evaluate(() => { document.documentElement.style.scrollBehavior = ''; window.scrollTo(0, 0); });
});

test('the side panel neither lists nor finds a secret value', async () => {
  const list = await command(panel, '/list all', /controls on "Secrets fixture"/);
  assertNoSecret(list, '/list all');
  assert.match(list, /, text field, Name, value GraceBrewsterHopper/);
  assert.match(list, /, text field, Password(\n|$)/);
  for (const marker of MARKERS) {
    // The reply repeats what was asked for, so only its verdict is checked.
    const reply = await command(panel, `/find ${marker}`, /match/);
    assert.match(reply, /^No control matches /, `/find ${marker}: ${reply}`);
  }
  const found = await command(panel, '/find SpringSale', /match/);
  assert.match(found, /^1 match for "SpringSale":\n\d+, text field, Promo code, value SpringSaleTen$/);
});

test('the agent’s model sees the ordinary values and no secret', async () => {
  await command(panel, '/chat', /^Chat mode/);
  await command(panel, 'What is on this page?', /^I have read the page\.$/, 30_000);
  await command(panel, '/exit', /./);
  const requests = await model.requests();
  const sent = JSON.stringify(requests);
  assert.ok(sent.includes(ORDINARY.fullname), 'the page’s list reached the model');
  assertNoSecret(sent, 'the requests to the model');
});

test('nothing Waymark keeps on disk holds a secret', async () => {
  const files = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) files.push(full);
    }
  };
  walk(browser.stateDir);
  const names = files.map((f) => path.relative(browser.stateDir, f));
  assert.ok(names.includes(path.join('sessions', 'current.json')), names.join(', '));
  let session = '';
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    assertNoSecret(text, path.relative(browser.stateDir, file));
    if (file.endsWith('current.json')) session = text;
  }
  // The session holds the agent's look at the page, ordinary values and all: the check above could fail.
  assert.ok(session.includes(ORDINARY.fullname), 'the session keeps the conversation');
});
