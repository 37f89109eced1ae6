# Zjištění kontroly (`waymark-host doctor` v terminálu a „Spustit kontroly“ na stránce nastavení): co
# každá kontrola zjistila a co dělat, každé jako část věty bez tečky na konci. $address: koncový bod
# LLM; $model: jméno modelu; $path: soubor nebo složka; $browser: jméno prohlížeče; $status: stav
# HTTP; $detail: slova systému nebo serveru.

## Zpráva v terminálu: řádek za každou kontrolu. $mark: slovo doctor-mark-, doplněné mezerami; $name: ID kontroly.
doctor-mark-ok = v pořádku
doctor-mark-warning = varování
doctor-mark-problem = problém
doctor-text-line = { $mark }  { $name }: { $detail }
doctor-text-line-fix = { $mark }  { $name }: { $detail } — { $fix }
doctor-broken = některé kontroly našly problém; viz řádky označené problém

## Konfigurace. $file: read nebo none; $key: set nebo none; $variables: proměnné prostředí.
doctor-config-ok = { $file ->
    [read] přečten { $path }
   *[none] soubor { $path } neexistuje, použity výchozí hodnoty
}; model { $model }, { $key ->
    [set] klíč API je nastaven
   *[none] bez klíče API
}, limit kroků { $steps }
doctor-config-ok-env = { $file ->
    [read] přečten { $path }
   *[none] soubor { $path } neexistuje, použity výchozí hodnoty
}; z prostředí: { $variables }; model { $model }, { $key ->
    [set] klíč API je nastaven
   *[none] bez klíče API
}, limit kroků { $steps }

## Seznam modelů koncového bodu LLM.
doctor-llm-unreachable = na { $address } nic neodpovídá ({ $why })
doctor-llm-no-answer-within = žádná odpověď do { $seconds } s
doctor-llm-refused = spojení odmítnuto, nebo adresu nejde přeložit
doctor-fix-llm-unreachable = běží Ollama (nebo váš server LLM)? nastavte WAYMARK_LLM_BASE_URL nebo koncový bod na stránce nastavení
doctor-llm-no-ca = { $address } nejde důvěřovat: tento počítač nemá certifikáty CA, a tak nejde ověřit žádnou adresu https
doctor-fix-ca = nainstalujte je: sudo apt install ca-certificates (v jiných systémech balíček, který certifikáty CA poskytuje)
doctor-llm-auth = { $address } odmítl klíč API (HTTP { $status })
doctor-fix-api-key = nastavte správný klíč na stránce nastavení nebo ve WAYMARK_LLM_API_KEY
doctor-llm-no-list = { $address } odpovídá, ale nemá seznam /models (HTTP 404)
doctor-fix-version = zkontrolujte, že adresa končí verzí API, třeba /v1
doctor-llm-http = { $address } odpověděl HTTP { $status }
doctor-fix-server-log = zkontrolujte protokol serveru nebo adresu koncového bodu
doctor-llm-not-openai = { $address } odpovídá, ale ne jako API kompatibilní s OpenAI (GET /models nevrátil seznam modelů)
doctor-fix-base-url = zkontrolujte adresu koncového bodu: je to základ API, obvykle končí /v1, pro Ollamu třeba http://127.0.0.1:11434/v1
doctor-llm-ok = { $address } odpovídá (model { $model })
# $models: některé z modelů, které server uvádí.
doctor-llm-model-missing = { $address } odpovídá, ale model { $model } mezi jeho modely není ({ $models }); některé servery pak bez upozornění odpoví jiným modelem
doctor-fix-model = nastavte WAYMARK_LLM_MODEL nebo model na stránce nastavení na některý, který server uvádí

## Jeden požadavek chatu v podobě, jakou posílá agent.
doctor-chat-ok = { $address } odpovídá na požadavek chatu s nástroji Waymarku (model { $model })
doctor-fix-chat-endpoint = zkontrolujte adresu koncového bodu na stránce nastavení
doctor-chat-server = { $address } selhal u požadavku chatu s HTTP { $status } ({ $detail })
doctor-fix-chat-server = selhal sám server: jeho protokol říká proč (často model příliš velký pro paměť nebo spadlý proces); restartujte ho, nebo zvolte menší model
doctor-chat-bad-response = { $address } odpověděl na požadavek chatu něčím, co není odpověď chatu: { $detail }
doctor-fix-chat-url = zkontrolujte, že adresa koncového bodu je základ API, obvykle končí /v1, a ne webová stránka nebo chybová stránka proxy
doctor-chat-no-model = { $address } nemá model { $model } (HTTP 404 na požadavek chatu)
doctor-fix-chat-model = stáhněte ho (ollama pull { $model }), nebo nastavte model na stránce nastavení či ve WAYMARK_LLM_MODEL; pokud existuje, zkontrolujte, že adresa končí /v1
doctor-chat-rejected = { $address } odmítl požadavek chatu Waymarku s HTTP { $status } ({ $detail })
doctor-fix-chat-tools = server nebo model možná nepřijímá definice nástrojů: jeho protokol říká, kterou část odmítl; zkuste model, který umí volat nástroje
doctor-chat-no-tools = model { $model } na { $address } nepřijímá nástroje; Waymark se místo toho ptá na JSON
doctor-fix-chat-tool-model = pro lepší výsledky zvolte model, který umí volat nástroje
doctor-chat-timeout = { $address } neodpověděl na požadavek chatu do { $seconds } s
doctor-fix-chat-slow = místní model se možná ještě načítá: za minutu spusťte kontroly znovu; pokud zůstane tak pomalý, zvyšte llm_timeout_secs, nebo zvolte menší model
doctor-chat-rate-limited = { $address } omezuje počet požadavků (HTTP 429: { $detail })
doctor-fix-chat-rate = chvíli počkejte, nebo zkontrolujte tarif tohoto klíče API
doctor-chat-auth = { $address } odmítl klíč API u požadavku chatu (HTTP { $status })
doctor-fix-chat-other = zkontrolujte, že server běží, a jeho protokol

## Složka stavu.
-doctor-elsewhere = nebo zvolte jinou složku pomocí WAYMARK_STATE_DIR nebo state_dir v config.toml
doctor-state-writable = do { $path } jde zapisovat (relace, protokoly kroků, soket prohlížeče)
doctor-state-creatable = { $path } ještě neexistuje; Waymark ji může vytvořit
doctor-state-not-a-folder = { $path } je soubor, ne složka, a tak Waymark nic neukládá
doctor-fix-state-move = přesuňte ten soubor jinam, { -doctor-elsewhere }
doctor-state-denied = Waymark nemůže zapisovat do { $path } (přístup odepřen), a tak neukládá relace, protokoly kroků ani soket pro klienty MCP
doctor-fix-state-chown = udělejte ji znovu svou: sudo chown -R "$USER" '{ $path }', { -doctor-elsewhere }
doctor-fix-state-permission = dejte svému účtu právo zápisu do { $path } (Vlastnosti, Zabezpečení), { -doctor-elsewhere }
doctor-state-read-only = { $path } je na disku jen pro čtení, a tak Waymark nic neukládá
doctor-fix-state-read-only = zvolte složku na zapisovatelném disku pomocí WAYMARK_STATE_DIR nebo state_dir v config.toml
doctor-state-unwritable = Waymark nemůže zapisovat do { $path }: { $detail }
doctor-state-refused = Waymark nemůže zapisovat do { $path }: systém to odmítl
doctor-fix-state-check = zkontrolujte ten disk a složku, { -doctor-elsewhere }

## Manifesty hostitele v prohlížečích.
doctor-no-home = nelze najít vaši domovskou složku, a tak nejde zkontrolovat manifesty prohlížečů
doctor-fix-set-home = nastavte HOME
doctor-no-browser = { $browser } není pro tohoto uživatele nainstalován (chybí { $path })
# Windows: $key je klíč registru.
doctor-registry-no-manifest = klíč registru { $key } neodkazuje na žádný manifest
doctor-registry-unreadable = registr nejde přečíst pomocí reg.exe: { $detail }
doctor-registry-missing = { $browser } je nainstalován, ale nemá v registru položku pro Waymark ({ $key })
# $key: klíč prohlížeče pro --browser (chrome, chromium, edge).
doctor-fix-install = spusťte waymark-host install --browser { $key }
doctor-manifest-missing = { $browser } nemá manifest hostitele Waymark v { $path }
doctor-manifest-not-json = { $path } není platný JSON: { $detail }
doctor-manifest-no-binary = { $path } neuvádí žádný program hostitele
doctor-manifest-binary-missing = { $path } odkazuje na { $binary }, který neexistuje
doctor-manifest-not-allowed = { $path } nepovoluje { $origin }
doctor-manifest-ok = { $browser } spouští { $binary }

## Zda je teď připojen nějaký prohlížeč.
doctor-no-browser-connected = není připojen žádný prohlížeč (žádný hostitel zapsaný v { $path } neodpovídá)
doctor-fix-open-browser = otevřete { $browsers } s Waymarkem
doctor-browsers-connected = { $count ->
    [one] je připojen { $count } prohlížeč
    [few] jsou připojeny { $count } prohlížeče
   *[other] je připojeno { $count } prohlížečů
}
