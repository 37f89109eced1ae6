#!/usr/bin/env bash
# Waymark's one entry point. `./build.sh help` lists the commands; the everyday ones:
#
#   ./build.sh           build dist/extension/ (the unpacked extension) and the host binary
#   ./build.sh install   build, then register the host for this user with the browsers chosen
#   ./build.sh demo      build, open a throwaway Chromium profile with Waymark and a demo page
#   ./build.sh test      every test: format, lints, unit, integration, end to end in headless Chromium
#   ./build.sh e2e [FILE…]  only the end-to-end tests
#
# This script only makes sure cargo can run, at a Rust that holds still: exactly the version
# rust-toolchain.toml pins, through rustup (apt's rustup package, or rustup's own download where apt has
# none), installed once; only where rustup cannot be had, Debian's Rust for web builds through apt, when
# it is new enough for Cargo.toml's rust-version — and when it is not, it says what to do before
# anything else runs. Then it hands over to `cargo xtask` (xtask/), which does the
# work and installs what else a command needs. Set WAYMARK_NO_INSTALL=1 to forbid installing anything;
# `./build.sh help` names the other variables read.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"
export PATH="$HOME/.cargo/bin:$PATH"

say() { printf '==> %s\n' "$*" >&2; }
die() { printf 'build.sh: %s\n' "$*" >&2; exit 1; }
have() { command -v "$1" >/dev/null 2>&1; }

# The exact Rust of rust-toolchain.toml, and the oldest Rust the workspace builds with (Cargo.toml).
PINNED=$(sed -n 's/^channel *= *"\([0-9.]*\)".*/\1/p' rust-toolchain.toml)
NEEDED=$(sed -n 's/^rust-version *= *"\([0-9.]*\)".*/\1/p' Cargo.toml)
[ -n "$PINNED" ] && [ -n "$NEEDED" ] || die "rust-toolchain.toml must pin channel = \"X.Y.Z\" and Cargo.toml name rust-version"
# Whether version $1 is at least $2.
at_least() { [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1)" = "$2" ]; }
# The version a `rustc --version` line names.
version_of() { sed -n 's/^rustc \([0-9][0-9.]*\).*/\1/p'; }

APT_UPDATED=
apt_update() {
  [ -z "$APT_UPDATED" ] || return 0
  say "apt-get update"
  $SUDO apt-get update -q >&2
  APT_UPDATED=1
}
apt_install() {
  [ -z "${WAYMARK_NO_INSTALL:-}" ] || die "missing: $* (WAYMARK_NO_INSTALL is set, so not installing)"
  have apt-get || die "missing: $*; this is not a Debian/Ubuntu machine: install the equivalents yourself"
  apt_update
  say "apt-get install $*"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "$@" >&2
}
SUDO=
if [ "$(id -u)" != 0 ] && have apt-get; then
  SUDO=sudo
fi

# rustup: the pinned version, installed once. Where rustup cannot download it (no network to its
# server) but already has the same version under another name, such as "stable", that one is used.
rustup_pinned() {
  rustup run "$PINNED" rustc --version >/dev/null 2>&1 && return 0
  say "installing Rust $PINNED with rustup, as rust-toolchain.toml pins it (once: about a minute)"
  if timeout 600 rustup toolchain install "$PINNED" --profile minimal -c rustfmt,clippy >&2; then
    return 0
  fi
  local home="${RUSTUP_HOME:-$HOME/.rustup}" toolchain host
  for toolchain in "$home"/toolchains/*; do
    [ -x "$toolchain/bin/rustc" ] || continue
    [ "$("$toolchain/bin/rustc" --version | version_of)" = "$PINNED" ] || continue
    host=$("$toolchain/bin/rustc" -vV | sed -n 's/^host: //p')
    say "rustup could not download Rust $PINNED; using the same version it has as $(basename "$toolchain")"
    # rustup will not link a toolchain under a version's name, but finds one placed there.
    ln -sfn "$toolchain" "$home/toolchains/$PINNED-$host"
    return 0
  done
  return 1
}

# Debian's Rust for web builds: the version apt would install, before installing it.
debian_rust() {
  if [ ! -x /usr/bin/cargo ] || [ ! -x /usr/bin/rustc ]; then
    have apt-get || die "no Rust here, and this is not Debian or Ubuntu: install rustup (https://rustup.rs), then run ./build.sh again"
    [ -z "${WAYMARK_NO_INSTALL:-}" ] || die "no Rust here (WAYMARK_NO_INSTALL is set, so not installing it)"
    apt_update
    local offered
    offered=$(apt-cache policy rustc-web 2>/dev/null | sed -n 's/^ *Candidate: \([0-9][0-9.]*\).*/\1/p')
    if [ -z "$offered" ] || ! at_least "$offered" "$NEEDED"; then
      die "Waymark needs Rust $NEEDED or newer, and apt offers ${offered:+only }rustc-web ${offered:-nowhere}.
  On Debian 12 the newer Rust for web builds comes from the security suite, which a normal
  installation has: add this line to /etc/apt/sources.list, then run ./build.sh again:
    deb http://deb.debian.org/debian-security bookworm-security main
  Or install rustup (https://rustup.rs): build.sh then uses Rust $PINNED, the version it is tested with."
    fi
    say "installing Debian's Rust for web builds $offered (once: about 700 MB, a few minutes)"
    # With its format and lint tools (`test` fails without them), and the CA certificates cargo needs
    # to fetch crates (a minimal Debian has none).
    apt_install rustc-web cargo-web rustfmt-web rust-web-clippy gcc libc6-dev ca-certificates
  fi
  export RUSTC=/usr/bin/rustc
  cargo=/usr/bin/cargo
}

# rustup from its own server (Debian 12 has no rustup package), checked against the checksum published
# beside it, installed for this user with no default toolchain and no change to shell profiles: the
# pinned Rust is the only one it will hold.
rustup_download() {
  local arch url dir
  arch=$(uname -m)
  case "$arch" in x86_64 | aarch64) ;; *) return 1 ;; esac
  url="https://static.rust-lang.org/rustup/dist/$arch-unknown-linux-gnu/rustup-init"
  have curl || apt_install curl ca-certificates
  dir=$(mktemp -d)
  say "downloading rustup, to install Rust $PINNED as rust-toolchain.toml pins it (once: about 300 MB, a few minutes)"
  if curl --proto '=https' --tlsv1.2 -fsS --retry 2 -o "$dir/rustup-init" "$url" &&
    curl --proto '=https' --tlsv1.2 -fsS --retry 2 -o "$dir/rustup-init.sha256" "$url.sha256" &&
    [ "$(sha256sum "$dir/rustup-init" | cut -d' ' -f1)" = "$(cut -d' ' -f1 "$dir/rustup-init.sha256")" ]; then
    chmod +x "$dir/rustup-init"
    "$dir/rustup-init" -y --no-modify-path --default-toolchain none --profile minimal >&2 && rm -rf "$dir" && return 0
  fi
  rm -rf "$dir"
  say "could not download rustup from static.rust-lang.org"
  return 1
}

# No rustup and no cargo: the pinned Rust through rustup — apt's package where there is one (Ubuntu
# 24.04 and Debian 13), else rustup's own download — rather than a distribution Rust whose format and
# lint checks move with the distribution's updates. Only when neither works, Debian's Rust (below).
if ! have rustup && ! have cargo && [ "${WAYMARK_RUST:-}" != debian ] && [ -z "${WAYMARK_NO_INSTALL:-}" ] &&
  have apt-get; then
  apt_update
  if apt-cache policy rustup 2>/dev/null | grep -q 'Candidate: [0-9]'; then
    apt_install rustup ca-certificates
  else
    have cc || apt_install gcc libc6-dev ca-certificates
    rustup_download || true
  fi
fi

if have rustup && [ "${WAYMARK_RUST:-}" != debian ]; then
  if rustup_pinned; then
    # Through rustup itself: a distribution's rustup package may not put a cargo proxy on PATH.
    cargo="rustup run $PINNED cargo"
    rustc_cmd="rustup run $PINNED rustc"
  else
    say "rustup could not install Rust $PINNED; trying Debian's Rust for web builds (its lints may differ)"
    debian_rust
  fi
elif have cargo && [ "${WAYMARK_RUST:-}" != debian ]; then
  cargo=cargo
else
  debian_rust
fi
got=$(${rustc_cmd:-${RUSTC:-rustc}} --version | version_of)
at_least "$got" "$NEEDED" ||
  die "this Rust is $got; Waymark needs $NEEDED or newer. Install rustup (https://rustup.rs): build.sh then uses Rust $PINNED"
[ "$got" = "$PINNED" ] ||
  say "building with Rust $got, not the pinned $PINNED: the format and lint checks may differ from CI's"

# Linking anything (this xtask first) needs a C toolchain.
have cc || apt_install gcc libc6-dev

# $cargo may be several words (rustup run VERSION cargo): split on purpose.
# shellcheck disable=SC2086
exec $cargo xtask "$@"
