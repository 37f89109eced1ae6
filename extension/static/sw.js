// Loader only. MV3 delivers wake-up events only to listeners registered in the worker's first turn,
// before any await, so they are registered here and handed to the wasm module once it is ready.
import init, * as waymark from './pkg/extension.js';
import * as pageDialogs from './page_dialogs.js';

// What the worker runs in a tab's frames while it acts there, to hear the page's own dialogs.
globalThis.pageDialogs = pageDialogs;

const ready = init({ module_or_path: new URL('./pkg/extension_bg.wasm', import.meta.url) })
  .then(() => waymark.load_language())
  .then(() => waymark.start_service_worker());

chrome.runtime.onConnect.addListener((port) => { ready.then(() => waymark.on_connect(port)); });
// A frame showing a new document: the host closes questions about the old one, and in a tab Waymark
// is used in, the document gets the content script (extension/src/tabs/in_use.rs).
chrome.webNavigation.onCommitted.addListener((details) => {
  ready.then(() => {
    waymark.on_committed(details);
    waymark.on_frame_committed(details);
  });
});
// Only Waymark's own scripts can send here (pages and other extensions cannot): a page's own dialog,
// heard in a tab Waymark acts in (extension/static/page_dialogs.js).
chrome.runtime.onMessage.addListener((message, sender) => {
  ready.then(() => waymark.on_page_dialog(message, sender));
});
chrome.tabs.onRemoved.addListener((tabId) => { ready.then(() => waymark.on_tab_removed(tabId)); });
chrome.tabs.onActivated.addListener((info) => { ready.then(() => waymark.on_tab_activated(info)); });
// A frame starting to navigate, and with which method: a document that came from posting a form is
// asked about before Waymark reloads it or goes back or forward to it.
chrome.webRequest.onBeforeRequest.addListener(
  (details) => { ready.then(() => waymark.on_navigation_request(details)); },
  { urls: ['<all_urls>'], types: ['main_frame', 'sub_frame'] },
);
// The request guard's timings, for `./build.sh bench` (read through the worker's DevTools target).
globalThis.guardTimings = () => ready.then(() => JSON.parse(waymark.guard_timings()));
// Keyboard shortcuts (chrome://extensions/shortcuts): handled by the open side panels. `runCommand` is
// the same entry for tests, which cannot press browser-level shortcuts in headless mode.
const runCommand = (command) => ready.then(() => waymark.on_command(command));
chrome.commands.onCommand.addListener(runCommand);
globalThis.runCommand = runCommand;
// Listening for startup makes the browser start this worker at launch, so it connects to the host.
chrome.runtime.onStartup.addListener(() => {});
