# The host's configuration (config.toml and the WAYMARK_ variables) when it does not load or save:
# what is wrong and what to do, heard on the settings page, in the panel when a chat cannot start, and
# in the doctor's report. Each is a clause without a closing full stop: the sentence around it adds
# its own. $path: the config file; $key: a setting; $name: an environment variable; $value: the value
# refused (the API key masked); $detail: the system's or the parser's own words; $line, $column: where
# in the file (from 1).

config-unreadable = cannot read the configuration file { $path }: { $detail }
config-unreadable-denied = cannot read the configuration file { $path }: permission denied
config-parse = the configuration file { $path } is not valid: { $detail }
config-parse-at = the configuration file { $path } is not valid TOML: line { $line }, column { $column }
config-parse-at-key = the configuration file { $path } is not valid TOML at { $key }: line { $line }, column { $column }
config-unknown-key = the configuration file { $path } has a key Waymark does not know: { $key } (line { $line })
# $expected: one of the config-expected- phrases.
config-bad-file-value = { $key } = { $value } in { $path } is not valid: expected { $expected }
config-bad-env-value = the environment variable { $name }={ $value } is not valid: expected { $expected }
config-no-state-dir = no folder for Waymark's state: set WAYMARK_STATE_DIR (or HOME)
config-no-config-dir = no folder for Waymark's configuration: set XDG_CONFIG_HOME (or HOME)
config-unwritable = cannot write the configuration file { $path }: { $detail }
config-unwritable-denied = cannot write the configuration file { $path }: permission denied

## What a setting must be. $min, $max: the accepted range.
config-expected-url = an http:// or https:// URL of an OpenAI-compatible API, such as http://127.0.0.1:11434/v1
config-expected-model = a model name
config-expected-api-key = an API key of visible ASCII characters (no spaces or line breaks)
config-expected-seconds = a whole number of seconds from { $min } to { $max }
config-expected-true-or-false = true or false
config-expected-absolute-path = an absolute path
config-expected-steps = a whole number of steps from { $min } to { $max }
config-expected-milliseconds = a whole number of milliseconds from { $min } to { $max }
config-expected-log-filter = a tracing filter such as info or debug
config-expected-mcp-server = a name and a command for every [[mcp_servers]] entry

## What to do about it.
config-fix-unreadable = make { $path } readable by you, or remove it
config-fix-replace = edit { $path }, or save the settings page: it replaces the file and keeps the old one beside it
config-fix-in-settings = set it on the settings page, or edit { $key } in { $path }
config-fix-edit = edit { $key } in { $path }
config-fix-env = change or unset { $name }
config-fix-no-state-dir = set WAYMARK_STATE_DIR or HOME

# In the panel, when a chat cannot start. $detail: one of the sentences above; $fix: a config-fix- one.
config-chat-cannot-start = The chat cannot start: { $detail }. To fix it, { $fix }.
