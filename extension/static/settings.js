// Loader only: the settings page is written in Rust (extension/src/settings.rs).
import init, { start_settings } from './pkg/waymark_extension.js';

await init({ module_or_path: new URL('./pkg/waymark_extension_bg.wasm', import.meta.url) });
start_settings();
