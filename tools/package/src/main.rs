//! `waymark-package`: turns the built extension (`dist/extension/`) into what the Chrome Web Store and
//! Edge Add-ons take — a zip without the development key, with icons — next to the listing text, and
//! checks a zip the way a store would. `./build.sh package` runs it; the host's `.deb` is cargo-deb's.
//!
//! ```text
//!  dist/extension/ ──[store::build]──> dist/package/waymark-extension-<version>.zip ──[store::check]
//!  packaging/store-listing*.txt ─────> dist/package/store-listing*.txt   (one per language)
//! ```
//!
//! What it must not do: build anything (build.sh builds the wasm first) or change what the extension
//! does.

mod icon;
mod store;

use std::path::PathBuf;

use anyhow::Context as _;
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "waymark-package",
    about = "Waymark's store-ready extension zip, made and checked."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Zip the built extension for the stores, copy the listing beside it, and check the zip.
    Extension {
        /// The built extension (what `./build.sh` leaves in dist/extension).
        #[arg(long, value_name = "DIR")]
        from: PathBuf,
        /// A listing text to put beside the zip, one per language (`store-listing.txt` in English,
        /// `store-listing.<language>.txt` in others); each must say why every permission is needed.
        #[arg(long, value_name = "FILE", required = true)]
        listing: Vec<PathBuf>,
        /// Where the zip and the listing go.
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
    },
    /// Check a zip the way a store would: manifest, no key, icons, every named file present.
    Check { zip: PathBuf },
}

fn main() -> anyhow::Result<()> {
    match Cli::parse().command {
        Command::Extension { from, listing, out } => {
            let manifest: serde_json::Value =
                serde_json::from_slice(&std::fs::read(from.join("manifest.json")).with_context(|| {
                    format!("no built extension in {}: run ./build.sh first", from.display())
                })?)?;
            let version = manifest["version"].as_str().unwrap_or("0");
            for listing in &listing {
                let text = std::fs::read_to_string(listing)
                    .with_context(|| format!("cannot read the listing {}", listing.display()))?;
                let unexplained = store::unexplained_permissions(&manifest, &text);
                if !unexplained.is_empty() {
                    anyhow::bail!(
                        "{} does not say why Waymark needs: {}",
                        listing.display(),
                        unexplained.join(", ")
                    );
                }
            }
            let zip = out.join(format!("waymark-extension-{version}.zip"));
            let summary = store::build(&from, &zip)?;
            for listing in &listing {
                let name = listing.file_name().context("a listing's path names no file")?;
                std::fs::copy(listing, out.join(name))
                    .with_context(|| format!("cannot copy {} into {}", listing.display(), out.display()))?;
            }
            eprintln!(
                "{}: {} {}, {} files, {} KiB, store-ready (no key, icons {}, every named file present)",
                zip.display(),
                summary.name,
                summary.version,
                summary.files,
                summary.bytes / 1024,
                icon::SIZES.map(|s| s.to_string()).join("/"),
            );
            Ok(())
        }
        Command::Check { zip } => {
            let summary = store::check(&zip)?;
            eprintln!(
                "{}: {} {}, {} files, store-ready",
                zip.display(),
                summary.name,
                summary.version,
                summary.files
            );
            Ok(())
        }
    }
}
