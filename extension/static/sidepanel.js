// Loader only: the panel is written in Rust (extension/src/panel.rs).
import init, { load_language, start_panel } from './pkg/extension.js';

await init({ module_or_path: new URL('./pkg/extension_bg.wasm', import.meta.url) });
// The browser's language before the first word (extension/src/locales.rs).
await load_language();
start_panel();
