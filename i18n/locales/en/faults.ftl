# Faults in the host's own setup, said in the panel and on the settings page: a state folder Waymark
# cannot write, and a configuration that does not load, each with where it is and the fix.
# $path: the state folder; $why: the system's reason; $detail: the host's account of a config fault;
# $fix: one of the fault-fix- sentences; $file: the config file; $key: a setting or variable's name.

-elsewhere = or choose another folder with state_dir in config.toml or the WAYMARK_STATE_DIR environment variable
-cost = No task is kept for a restart, no step log is written, and MCP clients cannot reach this browser.
-lost = If the browser closes, this task is lost.
# Said when the host did not say which folder.
fault-state-folder = Waymark's state folder
fault-state-not-a-folder = Waymark cannot save anything: { $path } is a file, where Waymark's folder must be. { -cost } To fix it, move that file away, { -elsewhere }, then restart the browser.
fault-state-denied = Waymark cannot save anything: Waymark may not write in { $path }. { -cost } To fix it, make that folder yours again (on Linux or macOS, in a terminal: sudo chown -R "$USER" '{ $path }'), { -elsewhere }, then restart the browser.
fault-state-read-only = Waymark cannot save anything: { $path } is on a read-only disk. { -cost } To fix it, choose a folder on a writable disk with state_dir in config.toml or the WAYMARK_STATE_DIR environment variable, then restart the browser.
fault-state-unwritable = Waymark cannot save anything: Waymark cannot write in { $path }. { -cost } To fix it, check that disk and folder, { -elsewhere }, then restart the browser.
fault-state-unwritable-why = Waymark cannot save anything: Waymark cannot write in { $path } ({ $why }). { -cost } To fix it, check that disk and folder, { -elsewhere }, then restart the browser.
fault-unsaved-not-a-folder = Not saved: { $path } is a file, where Waymark's folder must be. { -lost } To fix it, move that file away, { -elsewhere }.
fault-unsaved-denied = Not saved: Waymark may not write in { $path }. { -lost } To fix it, make that folder yours again (on Linux or macOS, in a terminal: sudo chown -R "$USER" '{ $path }'), { -elsewhere }.
fault-unsaved-read-only = Not saved: { $path } is on a read-only disk. { -lost } To fix it, choose a folder on a writable disk with state_dir in config.toml or the WAYMARK_STATE_DIR environment variable.
fault-unsaved-unwritable = Not saved: Waymark cannot write in { $path }. { -lost } To fix it, check that disk and folder, { -elsewhere }.
fault-unsaved-unwritable-why = Not saved: Waymark cannot write in { $path } ({ $why }). { -lost } To fix it, check that disk and folder, { -elsewhere }.
fault-config = Waymark's settings do not load: { $detail }. Chat cannot start until they do. { $fix }
fault-settings-unparsed = Waymark's settings do not load: { $detail }. The fields show the defaults. Save to replace the file with them; the old file is kept beside it.
fault-settings-not-loaded = Settings not loaded: { $detail }. { $fix }
fault-config-file-problems = { $count ->
    [one] The config file has { $count } problem.
   *[other] The config file has { $count } problems.
}
fault-fix-in-settings = To fix it, set it in the settings (/settings), or edit { $key } in { $file }.
fault-fix-edit = To fix it, edit { $key } in { $file }.
fault-fix-env = To fix it, change or unset { $key } where the browser is started.
fault-fix-unreadable = To fix it, make { $file } readable by you, or remove it.
fault-fix-no-state-dir = To fix it, set WAYMARK_STATE_DIR or HOME where the browser is started.
fault-fix-replace = To fix it, edit { $file }, or open the settings (/settings) and save: that replaces the file and keeps the old one beside it.
# $copy: where the host kept the old file.
settings-saved-kept-copy = Saved. The old config file, which did not load, was kept as { $copy }.
