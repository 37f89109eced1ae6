// Screenshot, upload and downloads through an outside MCP client, in the real browser with the real
// host: a picture of the screen arrives as MCP image content of the right size, and pictures asked
// faster than the browser's quota allows wait their turn, none lost; an upload always waits
// for the panel's yes (no leaves the field empty), then the page's own script sees the files whole,
// also one larger than a native message may be; a missing file and a wrong field get clear errors; a
// click that downloads a file reports it and the file is on disk; waiting with nothing to download
// times out with a clear message.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { connectMcp, openFixture, send, waitForQuestion, waitOnPage } from './lib/harness.mjs';

let browser;
let site;
let page;
let panel;
let client;
let files;
let downloads;

/// Calls a tool and returns the whole MCP result and its `{status, error?, data?}` (the first content).
async function callRaw(name, args = {}) {
  const result = await client.callTool({ name, arguments: args });
  const body = JSON.parse(result.content[0].text);
  assert.equal(Boolean(result.isError), body.status === 'error', 'isError follows the status');
  return { result, body };
}

async function call(name, args = {}) {
  return (await callRaw(name, args)).body;
}

async function numberOf(text) {
  const found = await call('browser_find', { text });
  assert.equal(found.status, 'ok', found.error);
  const item = found.data.items.find((i) => i.name === text);
  assert.ok(item, `${text} in ${JSON.stringify(found.data.items)}`);
  return item.index;
}

/// The panel's question (its alert region) once it matches `pattern`.
async function question(pattern) {
  return waitForQuestion(panel, { matching: pattern, timeout: 10_000 });
}

/// The checksum the fixture page computes over a file's bytes.
function checksum(bytes) {
  let sum = 0;
  for (const b of bytes) sum = (Math.imul(sum, 31) + b) >>> 0;
  return sum;
}

function makeFile(name, bytes) {
  const file = path.join(files, name);
  fs.writeFileSync(file, bytes);
  return file;
}

const chosen = (id) => page.textContent(`#${id}-chosen`);

before(async () => {
  files = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-files-'));
  downloads = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-downloads-'));
  ({ browser, site, page, panel } = await openFixture('transfer.html'));
  // Downloads land in a folder of the test's own, under their own names (Playwright would otherwise
  // keep them under generated names).
  const cdp = await browser.context.newCDPSession(page);
  await cdp.send('Browser.setDownloadBehavior', { behavior: 'allow', downloadPath: downloads });
  await page.bringToFront();
  client = await connectMcp(browser.stateDir, undefined, { panel });
});

after(async () => {
  await client?.close();
  await browser?.close();
  await site?.close();
  for (const dir of [files, downloads]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test('a screenshot arrives as a JPEG image of the tab’s size, with its description as text', async () => {
  const { result, body } = await callRaw('browser_screenshot');
  assert.equal(body.status, 'ok', body.error);
  assert.deepEqual(body.data, { mime: 'image/jpeg', width: 1200, height: 800 });
  assert.equal(result.content.length, 2);
  const image = result.content[1];
  assert.equal(image.type, 'image');
  assert.equal(image.mimeType, 'image/jpeg');
  const bytes = Buffer.from(image.data, 'base64');
  assert.deepEqual([...bytes.subarray(0, 3)], [0xff, 0xd8, 0xff], 'a JPEG starts with SOI');
  assert.deepEqual([...bytes.subarray(-2)], [0xff, 0xd9], 'and ends with EOI');
  assert.ok(bytes.length > 2_000 && bytes.length < 1_000_000, `${bytes.length} bytes`);
  // A card number is covered in the picture (it must never reach a model); other fields are not.
  const shade = (id) => page.evaluate(async ({ url, id }) => {
    const r = document.getElementById(id).getBoundingClientRect();
    const img = new Image();
    img.src = url;
    await img.decode();
    const canvas = new OffscreenCanvas(img.width, img.height);
    const context = canvas.getContext('2d');
    context.drawImage(img, 0, 0);
    const [red, green, blue] = context.getImageData(r.left + r.width * 0.7, r.top + r.height / 2, 1, 1).data;
    return (red + green + blue) / 3;
  }, { url: `data:image/jpeg;base64,${image.data}`, id });
  assert.ok((await shade('card')) < 40, 'the card field is covered');
  assert.ok((await shade('name')) > 200, 'a plain field is not');
});

test('screenshots asked faster than the browser takes them all arrive, one after another or at once', async () => {
  // Chrome takes at most 2 pictures a second; Waymark waits for its turn instead of failing.
  const image = (result) => {
    const body = JSON.parse(result.content[0].text);
    assert.equal(body.status, 'ok', body.error);
    assert.equal(result.content[1]?.type, 'image');
    assert.ok(Buffer.from(result.content[1].data, 'base64').length > 2_000);
  };
  const started = Date.now();
  for (let i = 0; i < 5; i++) image(await client.callTool({ name: 'browser_screenshot', arguments: {} }));
  // At once (a model's look and a client's, say): they queue, and each gets its picture.
  const together = await Promise.all(
    Array.from({ length: 4 }, () => client.callTool({ name: 'browser_screenshot', arguments: {} })),
  );
  together.forEach(image);
  // Nine pictures at 2 a second take at least about 4 seconds: nothing was skipped.
  assert.ok(Date.now() - started >= 3_500, `${Date.now() - started} ms`);
});

test('an upload waits for the panel’s yes, then the page sees the file whole', async () => {
  const content = Buffer.from('%PDF-1.4\nA short CV.\n'.repeat(40));
  const cv = makeFile('cv.pdf', content);
  const field = await numberOf('CV');
  const pending = call('browser_upload', { index: field, paths: [cv] });
  const asked = await question(/CV/);
  assert.match(asked, /^Test client asks: /);
  assert.match(asked, /cv\.pdf/, 'the question names the file');
  assert.equal(await chosen('cv'), '', 'nothing is chosen before the answer');
  await send(panel, '/yes');
  const result = await pending;
  assert.equal(result.status, 'ok', result.error);
  assert.deepEqual(result.data, { files: ['cv.pdf'], index: field });
  await waitOnPage(page, () => document.getElementById('cv-chosen').textContent !== '', null, { what: 'the CV field to show its file' });
  assert.equal(await chosen('cv'), `cv.pdf ${content.length} application/pdf ${checksum(content)}`);
  const events = await page.evaluate(() => window.events);
  assert.ok(events.input >= 1 && events.change >= 1, JSON.stringify(events));
});

test('with the panel’s no, the field stays empty', async () => {
  const photo = makeFile('photo.png', crypto.randomBytes(2_000));
  const field = await numberOf('Photos');
  const pending = call('browser_upload', { index: field, paths: [photo] });
  await question(/Photos/);
  await send(panel, '/no');
  const result = await pending;
  assert.equal(result.status, 'error');
  assert.match(result.error, /you said no/);
  assert.equal(await page.evaluate(() => document.getElementById('photos').files.length), 0);
});

test('files larger than a native message arrive whole, several into a multiple field', async () => {
  const big = crypto.randomBytes(2_700_000);
  const small = Buffer.from('just a note\n');
  const paths = [makeFile('scan.jpg', big), makeFile('note.txt', small)];
  const field = await numberOf('Photos');
  const pending = call('browser_upload', { index: field, paths });
  await question(/Photos/);
  await send(panel, '/yes');
  const result = await pending;
  assert.equal(result.status, 'ok', result.error);
  assert.deepEqual(result.data.files, ['scan.jpg', 'note.txt']);
  await waitOnPage(page, () => document.getElementById('photos-chosen').textContent !== '', null, {
    what: 'the photos field to show its files', timeout: 20_000,
  });
  assert.equal(
    await chosen('photos'),
    `scan.jpg ${big.length} image/jpeg ${checksum(big)}; note.txt ${small.length} text/plain ${checksum(small)}`,
  );
});

test('a missing file, two files for one, and a field that takes no files get clear errors', async () => {
  const field = await numberOf('CV');
  const missing = path.join(files, 'no-such-cv.pdf');
  // Refused before anyone is asked: there is nothing to say yes to.
  let result = await call('browser_upload', { index: field, paths: [missing] });
  assert.equal(result.status, 'error');
  assert.equal(result.error, `There is no file at ${missing}: check the path and the file's name.`);
  assert.equal(await panel.textContent('#question-text'), '', 'no question was asked');

  const two = [makeFile('a.txt', 'a'), makeFile('b.txt', 'b')];
  const pending = call('browser_upload', { index: field, paths: two });
  await question(/CV/);
  await send(panel, '/yes');
  result = await pending;
  assert.equal(result.status, 'error');
  assert.match(result.error, new RegExp(`^Number ${field} takes one file, and 2 were given`));

  const name = await numberOf('Your name');
  // Refused before anyone is asked, too.
  result = await call('browser_upload', { index: name, paths: [two[0]] });
  assert.equal(result.status, 'error');
  assert.match(result.error, new RegExp(`^Number ${name} is not a file field`));
  assert.equal(await panel.textContent('#question-text'), '', 'no question was asked');
});

test('clicking a download link reports the file, which is on disk', async () => {
  const link = await numberOf('Download the report');
  const result = await call('browser_click_and_wait_download', { index: link });
  assert.equal(result.status, 'ok', result.error);
  const expected = fs.statSync(path.join(path.dirname(new URL(import.meta.url).pathname), 'fixtures', 'downloads', 'report.txt')).size;
  assert.equal(path.basename(result.data.filename), 'report.txt');
  assert.equal(result.data.bytes, expected);
  assert.equal(result.data.state, 'complete');
  assert.match(result.data.url, /\/downloads\/report\.txt$/);
  assert.ok(fs.existsSync(result.data.filename), `${result.data.filename} exists`);
  assert.equal(fs.statSync(result.data.filename).size, expected);
});

test('waiting for a download when none comes times out with a clear message', async () => {
  const started = Date.now();
  const result = await call('browser_download_wait', { timeout_ms: 1500 });
  assert.equal(result.status, 'error');
  assert.equal(result.error, 'No download is going on, and none started within 1.5 seconds.');
  assert.ok(Date.now() - started < 10_000);
});

test('a click that starts no download says so after its time', async () => {
  const field = await numberOf('Your name');
  const result = await call('browser_click_and_wait_download', { index: field, timeout_ms: 1500 });
  assert.equal(result.status, 'error');
  assert.equal(result.error, `No download started within 1.5 seconds after clicking ${field}.`);
});

test('no uploaded bytes reach the host’s state folder (logs, step log, session)', async () => {
  const cv = fs.readFileSync(path.join(files, 'cv.pdf'));
  const needles = [cv.subarray(0, 30).toString('latin1'), cv.subarray(0, 30).toString('base64')];
  const walk = (dir) =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) return walk(full);
      return e.isFile() ? [full] : [];
    });
  for (const file of walk(browser.stateDir)) {
    const text = fs.readFileSync(file, 'latin1');
    for (const needle of needles) assert.ok(!text.includes(needle), `${file} holds a file's contents`);
  }
});
