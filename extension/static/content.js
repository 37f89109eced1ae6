// Loader only. The service worker injects it into the frames of a tab Waymark is used in
// (extension/src/tabs/in_use.rs), maybe more than once into one document: the module starts once per
// document, and this file's value is the promise of that start, which the worker's executeScript
// waits for. Its globals live in the extension's isolated world, which the page cannot see.
// Content scripts cannot be ES modules, so the wasm glue is imported dynamically.
// The promise's value says how the start went: 'started', or 'wasm-refused' when the page's own
// Content-Security-Policy forbids compiling WebAssembly (Chrome applies it to content scripts too; the
// module itself is valid, so a CompileError here can only be that refusal), which the worker says.
globalThis.waymarkStarted ??= (async () => {
  const waymark = await import(chrome.runtime.getURL('pkg/content.js'));
  await waymark.default({ module_or_path: chrome.runtime.getURL('pkg/content_bg.wasm') });
  waymark.start_content();
  return 'started';
})().catch((e) => {
  console.error('waymark: content script failed to start', e);
  return e instanceof WebAssembly.CompileError ? 'wasm-refused' : 'failed';
});
