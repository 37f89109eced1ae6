# Co uživatel uslyší, když selže server modelu (chyba v chatu). $address: adresa serveru;
# $detail: co řekl server nebo síť, jejich slovy; $status: stav HTTP.

llm-unreachable = Na { $address } neodpověděl žádný LLM. Běží Ollama? Nastavte WAYMARK_LLM_BASE_URL ({ $detail }).
llm-auth = LLM na { $address } odmítl klíč API (HTTP { $status }). Nastavte WAYMARK_LLM_API_KEY (nebo OPENAI_API_KEY) na platný klíč ({ $detail }).
# $model: jméno modelu.
llm-model-not-found = Model { $model } na { $address } nebyl nalezen (HTTP 404). Stáhněte ho (ollama pull { $model }), nebo nastavte WAYMARK_LLM_MODEL; pokud existuje, zkontrolujte, že WAYMARK_LLM_BASE_URL končí /v1 ({ $detail }).
llm-tools-unsupported = Model { $model } nepřijímá nástroje. Použijte model, který umí volat nástroje, nebo textovou náhradu.
# $attempts: kolikrát se to zkusilo.
llm-rate-limited = LLM na { $address } omezuje počet požadavků (HTTP 429), i po { $attempts ->
    [one] { $attempts } pokusu
    [few] { $attempts } pokusech
   *[other] { $attempts } pokusech
}. Chvíli počkejte, nebo zkontrolujte tarif tohoto klíče API ({ $detail }).
llm-server = Server LLM na { $address } selhal (HTTP { $status }) { $attempts ->
    [one] { $attempts }krát
    [few] { $attempts }krát po sobě
   *[other] { $attempts }krát po sobě
} ({ $detail }).
llm-rejected = LLM na { $address } odmítl požadavek (HTTP { $status }): { $detail }
# $seconds: časový limit.
llm-timeout = LLM na { $address } neodpověděl do { $seconds } s (místní model se možná ještě načítá; limit je WAYMARK_LLM_TIMEOUT_SECS nebo llm_timeout_secs v config.toml).
llm-context-overflow = Konverzace je delší, než model na { $address } dokáže přečíst ({ $detail }). Dejte modelu větší kontext (llama.cpp: --n_ctx nebo -c; Ollama: num_ctx), nebo použijte model s větším.
llm-connection-lost = Server LLM na { $address } zavřel spojení dřív, než byla jeho odpověď celá. Zastavil se, nebo spadl? Zkontrolujte, že pořád běží, a jeho protokol ({ $detail }).
llm-transport = Komunikace s LLM na { $address } selhala: { $detail }
# $answer: začátek toho, co server odpověděl.
llm-bad-response = Odpověď serveru LLM není odpověď chatu: { $detail } (odpověď začínala: { $answer })
llm-invalid = Odpověď modelu není platná: { $detail } (odpověď začínala: { $answer })
