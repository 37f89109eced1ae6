# The settings page: its own words, its status line, the hints under its fields, the errors of a
# refused save, and the doctor's checks.

## The page's own words (settings.html).

page-settings-title = Waymark settings
settings-field-llm-base-url = LLM endpoint
page-settings-llm-base-url-hint = An OpenAI-compatible API, such as http://127.0.0.1:11434/v1 for a local Ollama.
settings-field-llm-model = Model
page-settings-llm-model-hint = The model's name at that endpoint, such as qwen2.5:7b-instruct.
settings-field-llm-api-key = API key
page-settings-llm-api-key-hint = Kept by the Waymark host in its config file, never in the browser. Leave empty to keep the current key.
page-settings-clear-key = Remove the saved key
settings-field-max-tool-steps = Step limit
page-settings-max-tool-steps-hint = Tool steps per request before Waymark stops, says what it did, and asks whether to go on. From 1 to 1000.
page-settings-banner-budget-label = Banner budget in milliseconds
page-settings-banner-budget-hint = Time per request for closing cookie and other banners by itself. 0 turns it off; at most 30000.
page-settings-save = Save
page-settings-run-checks = Run checks
page-settings-checks = Checks
page-settings-checks-empty = Run checks to test the configuration, the LLM endpoint and the browsers' registration.
page-settings-where = Where these settings come from

## The status line and the hints.

# $status: the connection's status line.
settings-not-connected = { $status } Settings cannot be read or saved until the host is connected.
settings-worker-unreachable = Not sent: the Waymark service worker is not reachable. Try again in a moment.
# $reason: the host's own sentence.
settings-refused = Not saved: { $reason }
settings-saved = Saved.
settings-loaded = Settings loaded.
settings-saving = Saving…
settings-save-not-connected = Not saved: the Waymark host is not connected.
settings-hint-env = Set by the environment, not by this page.
# $field: the field's label; $variable: the environment variable's name.
settings-override = { $field }: set by the environment variable { $variable }, which wins over this page; change or unset it where the browser is started.
settings-hint-key-set = A key is set. Leave empty to keep it, or type a new one.
settings-hint-no-key = No key is set. Local servers such as Ollama need none.
# $file: the config file's path.
settings-source-file = The host keeps these settings in { $file }.
settings-source-unknown = The host keeps these settings in its config file.
# $count: how many fields are at fault.
settings-problems = { $count ->
    [one] Not saved: { $count } problem.
   *[other] Not saved: { $count } problems.
}
settings-error-url = LLM endpoint must start with http:// or https://, such as http://127.0.0.1:11434/v1.
settings-error-model = Type a model name, such as qwen2.5:7b-instruct.
settings-error-key = The key has spaces or other characters keys never have; paste it again.
settings-error-steps = Type a whole number of steps from { $min } to { $max }.
settings-error-budget = Type a whole number of milliseconds from { $min } to { $max }.

## The doctor's checks. $name: the check's name (a check-name- message); $detail and $fix: the host's words.

checks-not-connected = Checks cannot run: the Waymark host is not connected.
checks-running = Running checks…
check-ok = OK:
check-warning = Warning:
check-problem = Problem:
check-line = { $name }: { $detail }.
check-line-fix = { $name }: { $detail }. Fix: { $fix }.
check-name-config = Configuration
check-name-llm = LLM endpoint
check-name-chat = A chat request to the model
check-name-state = State folder
check-name-browser = Browser
# $browser: the browser whose native-messaging registration was checked.
check-name-manifest = Registration with { $browser }
# $count: how many checks found a problem.
checks-done = { $count ->
    [0] Checks done: no problems.
    [one] Checks done: { $count } problem. The list is under the heading Checks.
   *[other] Checks done: { $count } problems. The list is under the heading Checks.
}
