// Acting as a person acts, by number from the panel: a click is a pointer's whole sequence at a place,
// keys carry the codes applications read, right-click, hover and setting a value are actions, typing
// reaches editors as typing, and an action that changed nothing says so. The widgets a screen reader
// knows are numbered (a switch over its drawing, an editor's input under its lines, a menu's items
// rather than the menu), and repeated row controls say which row.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { command as run, openFixture } from './lib/harness.mjs';

let browser;
let site;
let page;
let panel;
let lines = [];

/// A command and Waymark's answer to it; when the answer does not come, the failure says what Waymark
/// said last.
async function command(text, pattern, timeout) {
  try {
    return await run(panel, text, pattern, timeout);
  } catch (error) {
    const said = await panel.evaluate(() => [...document.querySelectorAll('#transcript > *')].slice(-4).map((e) => e.textContent));
    error.message += `\nafter ${text}, Waymark said last:\n${said.join('\n')}`;
    throw error;
  }
}
const log = () => page.evaluate(() => window.log);

/// The numbered list, as lines "N, role, name…".
async function list() {
  const said = await command('/list all', /controls on "Person fixture"/);
  lines = said.split('\n').slice(1);
  return lines;
}

/// The number of the first line whose role and name are these.
function number(role, name) {
  const line = lines.find((l) => l.split(', ')[1] === role && l.split(', ')[2] === name);
  assert.ok(line, `${role} "${name}" is listed:\n${lines.join('\n')}`);
  return Number(line.split(', ')[0]);
}

before(async () => {
  ({ browser, site, page, panel } = await openFixture('person.html'));
  await list();
});

after(async () => {
  await browser?.close();
  await site?.close();
});

test('a click by number is the pointer sequence of a real click, at a place on the control', async () => {
  await command(`/click ${number('button', 'Probe')}`, /^Clicked \d+, button, Probe\.$/);
  const events = (await log()).probe;
  assert.deepEqual(events.map((e) => e.type), [
    'pointerover', 'pointerenter', 'mouseover', 'mouseenter', 'pointermove', 'mousemove',
    'pointerdown', 'mousedown', 'focus', 'pointerup', 'mouseup', 'click',
  ]);
  const click = events.at(-1);
  assert.ok(click.x > 0, 'the click has coordinates');
  assert.equal(click.button, 0);
  assert.equal(click.detail, 1);
  assert.equal(events.find((e) => e.type === 'mousedown').buttons, 1);
});

test('an action that changes nothing says so', async () => {
  await command(`/click ${number('button', 'Does nothing')}`, /^Clicked \d+, button, Does nothing\. Nothing changed on the page\.$/);
});

test('keys carry key, code, keyCode, which and charCode, and a character is typed', async () => {
  await command(`/press a ${number('text field', 'Keys')}`, /^Pressed a\.$/);
  assert.equal(await page.inputValue('#keys'), 'a');
  const keys = (await log()).keys;
  assert.deepEqual(keys.map((k) => k.type), ['keydown', 'keypress', 'keyup']);
  assert.deepEqual(keys[0], { type: 'keydown', key: 'a', code: 'KeyA', keyCode: 65, which: 65, charCode: 0, shift: false });
  assert.deepEqual(keys[1], { type: 'keypress', key: 'a', code: 'KeyA', keyCode: 97, which: 97, charCode: 97, shift: false });
  await command(`/press Delete ${number('text field', 'Keys')}`, /^Pressed Delete/);
  const del = (await log()).keys.slice(3);
  assert.deepEqual(del.map((k) => [k.type, k.keyCode, k.which]), [['keydown', 46, 46], ['keyup', 46, 46]], 'no keypress for Delete');
});

test('typing into a rich editor goes through the input path browsers treat as typing', async () => {
  await command(`/type ${number('text field', 'Rich editor')} Hello editor`, /^Typed into \d+, text field, Rich editor\.$/);
  assert.equal(await page.textContent('#rich'), 'Hello editor');
  assert.ok((await log()).rich.includes('insertText'), 'the editor heard beforeinput with insertText');
});

test('a switch drawn over by its component is numbered and switches', async () => {
  const wifi = number('switch', 'Wi-Fi');
  await command(`/click ${wifi}`, /^Clicked \d+, switch, Wi-Fi\.$/);
  assert.equal(await page.isChecked('#wifi'), true);
  assert.equal((await log()).wifi, 1);
});

test('sliders and ratings take a value: a native one directly, a custom one by its keys', async () => {
  await list();
  await command(`/set ${number('slider', 'Volume')} 75`, /^Set \d+, slider, Volume to 75\.$/);
  assert.deepEqual((await log()).volume, ['75']);
  await command(`/set ${number('slider', 'Rating')} 4`, /^Set \d+, slider, Rating to 4 stars\.$/);
  assert.equal(await page.getAttribute('#stars', 'aria-valuenow'), '4');
  await command(`/set ${number('slider', 'Rating')} 5`, /to 5 stars\.$/);
  await command(`/set ${number('button', 'Does nothing')} 3`, /it holds no value/);
});

test('a tree item expands with ArrowRight read by its legacy code, and by a click at its place', async () => {
  await list();
  const docs = number('tree item', 'Documents');
  await command(`/press ArrowRight ${docs}`, /^Pressed ArrowRight\.$/);
  assert.equal(await page.getAttribute('#docs', 'aria-expanded'), 'true');
  await command(`/press ArrowLeft ${docs}`, /^Pressed ArrowLeft\.$/);
  await command(`/click ${docs}`, /^Clicked \d+, tree item, Documents\.$/);
  assert.equal(await page.getAttribute('#docs', 'aria-expanded'), 'true');
  assert.deepEqual((await log()).tree, ['key', 'click']);
});

test('an editor input under the lines it draws is numbered, and typing reaches it', async () => {
  await list();
  const query = number('text field', 'Query');
  await command(`/type ${query} SELECT 1`, /^Typed into \d+, text field, Query\.$/);
  assert.equal(await page.textContent('#shown'), 'SELECT 1');
});

test('a menu is listed as its items, without the menu or its separator, and an item activates like a pointer', async () => {
  await list();
  assert.ok(!lines.some((l) => / menu, Actions/.test(l)), `the menu itself is not an item:\n${lines.join('\n')}`);
  assert.ok(!lines.some((l) => l.split(', ')[1] === 'separator'), 'no separator');
  await command(`/click ${number('menu item', 'Rename')}`, /^Clicked \d+, menu item, Rename\.$/);
  assert.deepEqual((await log()).menu, ['Rename']);
});

test('hover and right-click are actions, and the keys for the context menu open it too', async () => {
  await list();
  await command(`/hover ${number('button', 'Account')}`, /^Pointer on \d+, button, Account\.$/);
  assert.equal((await log()).hovered, 1);
  assert.ok(await page.isVisible('#hover-menu'));
  await command(`/rightclick ${number('button', 'notes.txt')}`, /^Right-clicked \d+, button, notes\.txt\.$/);
  assert.equal((await log()).context, 1);
  await command(`/press Shift+F10 ${number('button', 'notes.txt')}`, /^Pressed Shift\+F10\.$/);
  assert.equal((await log()).context, 2);
  await command(`/press ContextMenu ${number('button', 'notes.txt')}`, /^Pressed ContextMenu\.$/);
  assert.equal((await log()).context, 3);
});

test('repeated row controls say which row they are in', async () => {
  await list();
  const edits = lines.filter((l) => l.split(', ')[2] === 'Edit');
  assert.equal(edits.length, 2);
  assert.match(edits[0], /, in "Alice Smith"$/);
  assert.match(edits[1], /, in "Bob Jones"$/);
  const found = await command('/find edit bob', /match/);
  assert.match(found, /Edit, in "Bob Jones"/);
  assert.doesNotMatch(found, /Alice/);
});

test("a calendar's day says its month", async () => {
  const day = lines.find((l) => l.split(', ')[2] === '15');
  assert.match(day, /, in "March 2025"$/);
});

test('find reaches a row far down a virtualised list by scrolling it, and leaves a list alone when nothing is there', async () => {
  const found = await command('/find Row 90', /match|No control/, 20_000);
  assert.match(found, /button, Row 90/);
  await page.evaluate(() => { document.getElementById('virtual').scrollTop = 48; });
  await command('/find Nothing by this name', /^No control matches/, 20_000);
  assert.equal(await page.evaluate(() => document.getElementById('virtual').scrollTop), 48, 'the list is back where it was');
});
