#!/usr/bin/env bash
# A desktop session with a real screen reader, for the screen-reader tests: Xvfb, a session D-Bus, the
# accessibility bus, PulseAudio with a sink nobody hears (so speech takes its real time), a window
# manager (Orca follows the active window), Speech Dispatcher with espeak-ng, and Orca 43 with its
# speech recorded (orca_recorder.py). Then it runs the command given, with DISPLAY,
# DBUS_SESSION_BUS_ADDRESS and WAYMARK_SPEECH_LOG set for it, and stops everything it started.
#
#   desktop.sh COMMAND [ARGS…]
#
# Everything lives in a fresh temporary home, so the user's own Orca, Speech Dispatcher and browser
# settings are never read or changed. ./build.sh orca installs the packages
# (`ensure_orca` in xtask/src/tools.rs).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
session=$(mktemp -d "${TMPDIR:-/tmp}/waymark-desktop-XXXXXX")
pids=()
stop_all() {
  local pid
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    pid=${pids[i]}
    kill "$pid" 2>/dev/null || true
  done
  sleep 0.3
  for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
  [ -n "${WAYMARK_KEEP_DESKTOP:-}" ] || rm -rf "$session"
}
trap stop_all EXIT

export HOME=$session/home XDG_RUNTIME_DIR=$session/run XDG_CONFIG_HOME=$session/home/.config
export XDG_DATA_HOME=$session/home/.local/share XDG_CACHE_HOME=$session/home/.cache
mkdir -p "$HOME" "$XDG_CONFIG_HOME" "$XDG_DATA_HOME" "$XDG_CACHE_HOME"
mkdir -m 0700 -p "$XDG_RUNTIME_DIR"
export ACCESSIBILITY_ENABLED=1 GTK_MODULES=gail:atk-bridge NO_AT_BRIDGE=0 LANG=C.UTF-8
log=$session/log
mkdir -p "$log"

# A free display number, chosen by Xvfb itself (-displayfd: it takes the first display whose lock it
# can create, and writes its number once it is ready), so two sessions started at once never collide.
Xvfb -displayfd 3 -screen 0 1400x1000x24 -nolisten tcp 3>"$log/display" >"$log/xvfb.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do [ -s "$log/display" ] && break; sleep 0.1; done
display=$(tr -dc 0-9 <"$log/display")
[ -n "$display" ] || { echo "desktop.sh: Xvfb did not start; its log:" >&2; cat "$log/xvfb.log" >&2; exit 1; }
export DISPLAY=:$display
xdpyinfo >/dev/null 2>&1 || { echo "desktop.sh: Xvfb did not start" >&2; exit 1; }

export DBUS_SESSION_BUS_ADDRESS=unix:path=$XDG_RUNTIME_DIR/bus
dbus-daemon --session --fork --address="$DBUS_SESSION_BUS_ADDRESS" --print-pid=1 >"$log/dbus.pid"
pids+=($(cat "$log/dbus.pid"))

gsettings set org.gnome.desktop.interface toolkit-accessibility true
gsettings set org.gnome.desktop.a11y.applications screen-reader-enabled true
/usr/libexec/at-spi-bus-launcher --launch-immediately >"$log/at-spi.log" 2>&1 &
pids+=($!)

pulseaudio -n --daemonize=no --exit-idle-time=-1 \
  -L "module-native-protocol-unix auth-anonymous=1 socket=$XDG_RUNTIME_DIR/pulse/native" \
  -L "module-null-sink sink_name=speakers" -L module-always-sink >"$log/pulse.log" 2>&1 &
pids+=($!)
export PULSE_SERVER=unix:$XDG_RUNTIME_DIR/pulse/native

openbox --sm-disable >"$log/openbox.log" 2>&1 &
pids+=($!)

mkdir -p "$XDG_CONFIG_HOME/speech-dispatcher"
cp -r /etc/speech-dispatcher/modules "$XDG_CONFIG_HOME/speech-dispatcher/"
{
  grep -v '^\s*\(AudioOutputMethod\|DefaultModule\|AddModule\)' /etc/speech-dispatcher/speechd.conf |
    sed "s|^Include \"|Include \"/etc/speech-dispatcher/|"
  echo 'AudioOutputMethod "pulse"'
  echo 'AddModule "espeak-ng" "sd_espeak-ng" "espeak-ng.conf"'
  echo 'DefaultModule espeak-ng'
} >"$XDG_CONFIG_HOME/speech-dispatcher/speechd.conf"
speech-dispatcher -s -t 0 -C "$XDG_CONFIG_HOME/speech-dispatcher" >"$log/speechd.log" 2>&1 &
pids+=($!)

export WAYMARK_SPEECH_LOG=${WAYMARK_SPEECH_LOG:-$session/speech.jsonl}
: >"$WAYMARK_SPEECH_LOG"
/usr/bin/python3 "$here/orca_recorder.py" --replace --debug-file="$log/orca-debug.log" >"$log/orca.log" 2>&1 &
pids+=($!)
# Orca is ready once it has said its greeting ("Screen reader on.").
for _ in $(seq 150); do grep -q '"begin"' "$WAYMARK_SPEECH_LOG" 2>/dev/null && break; sleep 0.1; done
grep -q '"queued"' "$WAYMARK_SPEECH_LOG" || {
  echo "desktop.sh: Orca said nothing within 15 s; its log:" >&2
  tail -20 "$log/orca.log" >&2
  exit 1
}
export WAYMARK_DESKTOP_LOG=$log
set +e
"$@"
status=$?
set -e
exit $status
