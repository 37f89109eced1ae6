// Loader only: the panel is written in Rust (extension/src/panel.rs).
import init, { start_panel } from './pkg/extension.js';

await init({ module_or_path: new URL('./pkg/extension_bg.wasm', import.meta.url) });
start_panel();
