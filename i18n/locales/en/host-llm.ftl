# What the user hears when the model server fails (an error in the chat). $address: the server's
# address; $detail: what the server or the network said, as it said it; $status: the HTTP status.

llm-unreachable = No LLM answered at { $address }: is Ollama running? Set WAYMARK_LLM_BASE_URL ({ $detail }).
llm-auth = The LLM at { $address } refused the API key (HTTP { $status }): set WAYMARK_LLM_API_KEY (or OPENAI_API_KEY) to a valid key ({ $detail }).
# $model: the model's name.
llm-model-not-found = Model { $model } not found at { $address } (HTTP 404): pull it (ollama pull { $model }) or set WAYMARK_LLM_MODEL; if it exists, check that WAYMARK_LLM_BASE_URL ends in /v1 ({ $detail }).
llm-tools-unsupported = Model { $model } does not accept tools; use a model with tool calling, or the textual fallback.
# $attempts: how many times it was tried.
llm-rate-limited = The LLM at { $address } is rate limiting (HTTP 429) and still was after { $attempts } attempts: wait a little, or check the plan of this API key ({ $detail }).
llm-server = The LLM server at { $address } failed (HTTP { $status }) { $attempts } times in a row ({ $detail }).
llm-rejected = The LLM at { $address } rejected the request (HTTP { $status }): { $detail }
# $seconds: the time limit.
llm-timeout = The LLM at { $address } did not answer within { $seconds } s (a local model may still be loading; the limit is WAYMARK_LLM_TIMEOUT_SECS or llm_timeout_secs in config.toml).
llm-context-overflow = The conversation is longer than the model at { $address } can read ({ $detail }): give the model a larger context (llama.cpp: --n_ctx or -c; Ollama: num_ctx), or use a model with a larger one.
llm-connection-lost = The LLM server at { $address } closed the connection before its answer was complete: did it stop or crash? Check that it still runs, and its log ({ $detail }).
llm-transport = Talking to the LLM at { $address } failed: { $detail }
# $answer: the beginning of what the server answered.
llm-bad-response = The LLM server's answer is not a chat completion: { $detail } (answer began: { $answer })
llm-invalid = The model's answer is not valid: { $detail } (answer began: { $answer })
