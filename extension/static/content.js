// Loader only. Content scripts cannot be ES modules, so the wasm glue is imported dynamically.
(async () => {
  const waymark = await import(chrome.runtime.getURL('pkg/content.js'));
  await waymark.default({ module_or_path: chrome.runtime.getURL('pkg/content_bg.wasm') });
  waymark.start_content();
})().catch((e) => console.error('waymark: content script failed to start', e));
