# The doctor's findings (`waymark-host doctor` in a terminal, and "Run checks" on the settings page):
# what each check found and what to do, each a clause without a closing full stop. $address: the LLM
# endpoint; $model: the model's name; $path: a file or folder; $browser: a browser's name; $status: an
# HTTP status; $detail: the system's or the server's own words.

## The terminal's report: one line per check. $mark: a doctor-mark- word, padded; $name: the check's id.
doctor-mark-ok = ok
doctor-mark-warning = warning
doctor-mark-problem = problem
doctor-text-line = { $mark }  { $name }: { $detail }
doctor-text-line-fix = { $mark }  { $name }: { $detail } — { $fix }
doctor-broken = some checks found a problem; see the lines marked problem

## The configuration. $file: read or none; $key: set or none; $variables: the environment's variables.
doctor-config-ok = { $file ->
    [read] read { $path }
   *[none] no file at { $path }, defaults used
}; model { $model }, { $key ->
    [set] an API key is set
   *[none] no API key
}, step limit { $steps }
doctor-config-ok-env = { $file ->
    [read] read { $path }
   *[none] no file at { $path }, defaults used
}; from the environment: { $variables }; model { $model }, { $key ->
    [set] an API key is set
   *[none] no API key
}, step limit { $steps }

## The LLM endpoint's model list.
doctor-llm-unreachable = nothing answers at { $address } ({ $why })
doctor-llm-no-answer-within = no answer within { $seconds } s
doctor-llm-refused = connection refused or the address does not resolve
doctor-fix-llm-unreachable = is Ollama (or your LLM server) running? set WAYMARK_LLM_BASE_URL or the endpoint on the settings page
doctor-llm-no-ca = { $address } cannot be trusted: this computer has no CA certificates, so no https address can be checked
doctor-fix-ca = install them: sudo apt install ca-certificates (on other systems, the package that provides the CA certificates)
doctor-llm-auth = { $address } refused the API key (HTTP { $status })
doctor-fix-api-key = set the right key on the settings page or in WAYMARK_LLM_API_KEY
doctor-llm-no-list = { $address } answers but has no /models list (HTTP 404)
doctor-fix-version = check that the URL ends with the API's version, such as /v1
doctor-llm-http = { $address } answered HTTP { $status }
doctor-fix-server-log = check the server's log, or the endpoint URL
doctor-llm-not-openai = { $address } answers, but not as an OpenAI-compatible API (GET /models gave no model list)
doctor-fix-base-url = check the endpoint URL: it is the API's base, usually ending in /v1, such as http://127.0.0.1:11434/v1 for Ollama
doctor-llm-ok = { $address } answers (model { $model })
# $models: some of the models the server lists.
doctor-llm-model-missing = { $address } answers, but model { $model } is not among its models ({ $models }); some servers then answer with another model without saying so
doctor-fix-model = set WAYMARK_LLM_MODEL or the model on the settings page to one the server lists

## One chat request of the agent's shape.
doctor-chat-ok = { $address } answers a chat request with Waymark's tools (model { $model })
doctor-fix-chat-endpoint = check the endpoint URL on the settings page
doctor-chat-server = { $address } failed a chat request with HTTP { $status } ({ $detail })
doctor-fix-chat-server = the server itself failed: its log says why (often a model too large for the memory, or a crashed worker); restart it or choose a smaller model
doctor-chat-bad-response = { $address } answered a chat request with something that is not a chat completion: { $detail }
doctor-fix-chat-url = check that the endpoint URL is the API's base, usually ending in /v1, and not a web page or a proxy's error page
doctor-chat-no-model = { $address } has no model { $model } (HTTP 404 to a chat request)
doctor-fix-chat-model = pull it (ollama pull { $model }) or set the model on the settings page or in WAYMARK_LLM_MODEL; if it exists, check that the URL ends in /v1
doctor-chat-rejected = { $address } refused Waymark's chat request with HTTP { $status } ({ $detail })
doctor-fix-chat-tools = the server or the model may not take tool definitions: its log says which part it refused; try a model with tool calling
doctor-chat-no-tools = model { $model } at { $address } does not take tools; Waymark falls back to asking for JSON
doctor-fix-chat-tool-model = for better results choose a model with tool calling
doctor-chat-timeout = { $address } did not answer a chat request within { $seconds } s
doctor-fix-chat-slow = a local model may still be loading: run the checks again in a minute; if it stays this slow, raise llm_timeout_secs or choose a smaller model
doctor-chat-rate-limited = { $address } is rate limiting (HTTP 429: { $detail })
doctor-fix-chat-rate = wait a little, or check the plan of this API key
doctor-chat-auth = { $address } refused the API key for a chat request (HTTP { $status })
doctor-fix-chat-other = check that the server runs, and its log

## The state folder.
-doctor-elsewhere = or choose another folder with WAYMARK_STATE_DIR or state_dir in config.toml
doctor-state-writable = { $path } is writable (sessions, step logs, the browser's socket)
doctor-state-creatable = { $path } does not exist yet; Waymark can create it
doctor-state-not-a-folder = { $path } is a file, not a folder, so Waymark saves nothing
doctor-fix-state-move = move that file away, { -doctor-elsewhere }
doctor-state-denied = Waymark cannot write in { $path } (permission denied), so it saves no session, no step log and no socket for MCP clients
doctor-fix-state-chown = make it yours again: sudo chown -R "$USER" '{ $path }', { -doctor-elsewhere }
doctor-fix-state-permission = give your account write permission on { $path } (Properties, Security), { -doctor-elsewhere }
doctor-state-read-only = { $path } is on a read-only disk, so Waymark saves nothing
doctor-fix-state-read-only = choose a folder on a writable disk with WAYMARK_STATE_DIR or state_dir in config.toml
doctor-state-unwritable = Waymark cannot write in { $path }: { $detail }
doctor-state-refused = Waymark cannot write in { $path }: the system refused
doctor-fix-state-check = check that disk and folder, { -doctor-elsewhere }

## The browsers' host manifests.
doctor-no-home = cannot find your home folder, so the browsers' manifests cannot be checked
doctor-fix-set-home = set HOME
doctor-no-browser = { $browser } is not installed for this user (no { $path })
# Windows: $key is a registry key.
doctor-registry-no-manifest = the registry key { $key } names no manifest
doctor-registry-unreadable = cannot read the registry with reg.exe: { $detail }
doctor-registry-missing = { $browser } is installed but has no registry entry for Waymark ({ $key })
# $key: the browser's key for --browser (chrome, chromium, edge).
doctor-fix-install = run waymark-host install --browser { $key }
doctor-manifest-missing = { $browser } has no Waymark host manifest at { $path }
doctor-manifest-not-json = { $path } is not valid JSON: { $detail }
doctor-manifest-no-binary = { $path } names no host binary
doctor-manifest-binary-missing = { $path } points at { $binary }, which does not exist
doctor-manifest-not-allowed = { $path } does not allow { $origin }
doctor-manifest-ok = { $browser } starts { $binary }

## Whether a browser is connected now.
doctor-no-browser-connected = no browser is connected (no host recorded in { $path } answers)
doctor-fix-open-browser = open { $browsers } with Waymark
doctor-browsers-connected = { $count ->
    [one] { $count } browser is connected
   *[other] { $count } browsers are connected
}
