import { launch, openPanel, connectMcp, waitForStatus, EXTENSION_ID } from './lib/harness.mjs';
const b = await launch();
const page = await b.context.newPage();
await page.goto(process.argv[2]);
const panel = await openPanel(b.context);
const tabId = await panel.evaluate(async (url) => (await chrome.tabs.query({ url }))[0].id, page.url());
await panel.goto(`chrome-extension://${EXTENSION_ID}/sidepanel.html?tabId=${tabId}`);
await waitForStatus(panel, /^Connected/);
await page.bringToFront();
const client = await connectMcp(b.stateDir, 'Dbg', { panel });
const call = async (n, a={}) => JSON.parse((await client.callTool({name:n, arguments:a})).content[0].text);
const list = await call('browser_list_interactives', {limit: 200});
console.log(list.data.items.map(i=>`${i.index} ${i.role} ${i.name}`).join('\n'));
for (const name of process.argv.slice(3)) {
  const item = list.data.items.find(i=>i.name===name);
  if (!item) { console.log('no', name); continue; }
  const p = call('browser_overlay_act', {index: item.index, action:'click'});
  const r = await Promise.race([p, new Promise(r=>setTimeout(()=>r(null), 3000))]);
  console.log(name, '=>', r ? JSON.stringify(r).slice(0,200) : 'QUESTION: ' + await panel.textContent('#alert'));
  if (!r) { await panel.focus('#message'); await panel.keyboard.type('/no'); await panel.keyboard.press('Enter'); await p; }
}
await b.close(); process.exit(0);
