//! The page side of Waymark, loaded into every frame of every page by `content.js`.
//!
//! The numbered overlay, the element registry and actions by number are built here (next step, issue
//! "numbered overlay"). Until then it only instantiates, which keeps the loader path exercised.

use wasm_bindgen::prelude::*;

/// Entry point, called by `content.js` once the module is instantiated in this frame.
#[wasm_bindgen]
pub fn start_content() {}
