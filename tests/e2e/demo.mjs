// `./build.sh demo`: a throwaway Chromium profile with Waymark loaded, the host registered, the demo
// shop open, and the side panel beside it (as a tab: only a user's click may open the real side panel).
// Headed when there is a display; without one it runs the same steps headless and prints what the
// panel said.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, openPanel, send, serveStatic, waitForReply, waitForStatus } from './lib/harness.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const headed = Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
const site = await serveStatic(path.join(root, 'demo'));
// A window that fits a 1280×900 screen with its title bar and a desktop's panel, the message field
// included; the page takes the window's size rather than a fixed viewport.
const browser = await launch({
  headless: !headed,
  viewport: headed ? null : undefined,
  args: headed ? ['--window-size=1200,760', '--window-position=0,0'] : [],
});
const shop = browser.context.pages()[0] ?? (await browser.context.newPage());
await shop.goto(site.url);
const panel = await openPanel(browser.context);

console.log(`Demo shop: ${site.url}`);
console.log(`Panel status: ${await waitForStatus(panel, /^(Connected|Host|The Waymark)/)}`);
await send(panel, '/ping');
console.log(`Panel said: ${await waitForReply(panel, /^(Pong|Could not|The host)/)}`);

if (headed) {
  console.log('Chromium is open with Waymark: try /ping and /help in the panel tab. Close the window to end.');
  await new Promise((resolve) => browser.context.on('close', resolve));
} else {
  console.log('No display here, so the demo ran headless. On a desktop, ./build.sh demo leaves Chromium open.');
}
await browser.close();
await site.close();
