// Loader only: the settings page is written in Rust (extension/src/settings.rs).
import init, { start_settings } from './pkg/extension.js';

await init({ module_or_path: new URL('./pkg/extension_bg.wasm', import.meta.url) });
start_settings();
