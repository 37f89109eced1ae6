#!/usr/bin/env bash
# Waymark's one entry point. `./build.sh help` lists the commands; the everyday ones:
#
#   ./build.sh           build dist/extension/ (the unpacked extension) and the host binary
#   ./build.sh install   build, then register the host for this user with the browsers chosen
#   ./build.sh demo      build, open a throwaway Chromium profile with Waymark and a demo page
#   ./build.sh test      every test: format, lints, unit, integration, end to end in headless Chromium
#   ./build.sh e2e [FILE…]  only the end-to-end tests
#
# This script only makes sure cargo can run: Rust from rustup (which installs the toolchain that
# rust-toolchain.toml pins on first use), or where there is no rustup, Debian's Rust for web builds
# through apt, plus a C compiler and linker. Then it hands over to `cargo xtask` (xtask/), which does
# the work and installs what else a command needs. Set WAYMARK_NO_INSTALL=1 to forbid installing
# anything; `./build.sh help` names the other variables read.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"
export PATH="$HOME/.cargo/bin:$PATH"

say() { printf '==> %s\n' "$*" >&2; }
die() { printf 'build.sh: %s\n' "$*" >&2; exit 1; }
have() { command -v "$1" >/dev/null 2>&1; }

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

# Rust: rustup's cargo when there is one; otherwise Debian's Rust for web builds (new enough), with
# its format and lint tools (`test` fails without them) and the CA certificates cargo needs to fetch
# crates (a minimal Debian has none).
if have cargo; then
  cargo=cargo
else
  [ -x /usr/bin/cargo ] ||
    apt_install rustc-web cargo-web rustfmt-web rust-web-clippy gcc libc6-dev ca-certificates
  cargo=/usr/bin/cargo
  export RUSTC=/usr/bin/rustc
fi
# Linking anything (this xtask first) needs a C toolchain.
have cc || apt_install gcc libc6-dev

exec "$cargo" xtask "$@"
