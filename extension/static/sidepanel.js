// Loader only: the panel is written in Rust (extension/src/panel.rs).
import init, { load_language, start_panel } from './pkg/extension.js';

// Until the panel starts, Enter in the message field would reload the page and lose what was typed:
// hold that Enter, and send it once the panel can.
const composer = document.getElementById('composer');
let sentEarly = false;
const holdEarly = (event) => {
  event.preventDefault();
  sentEarly = true;
};
composer.addEventListener('submit', holdEarly);

await init({ module_or_path: new URL('./pkg/extension_bg.wasm', import.meta.url) });
// The browser's language before the first word (extension/src/locales.rs).
await load_language();
start_panel();
composer.removeEventListener('submit', holdEarly);
if (sentEarly) composer.requestSubmit();
