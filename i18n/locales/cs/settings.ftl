# Stránka nastavení: její vlastní slova, stavový řádek, nápovědy pod poli, chyby odmítnutého uložení
# a kontroly.

## Vlastní slova stránky (settings.html).

page-settings-title = Nastavení Waymarku
settings-field-llm-base-url = Koncový bod LLM
page-settings-llm-base-url-hint = API kompatibilní s OpenAI, třeba http://127.0.0.1:11434/v1 pro místní Ollamu.
settings-field-llm-model = Model
page-settings-llm-model-hint = Jméno modelu na tom koncovém bodu, třeba qwen2.5:7b-instruct.
settings-field-llm-api-key = Klíč API
page-settings-llm-api-key-hint = Uchovává ho hostitel Waymark ve svém konfiguračním souboru, nikdy prohlížeč. Necháte-li pole prázdné, zůstane současný klíč.
page-settings-clear-key = Odstranit uložený klíč
settings-field-max-tool-steps = Limit kroků
page-settings-max-tool-steps-hint = Kolik kroků nástrojů na jeden požadavek, než se Waymark zastaví, řekne, co udělal, a zeptá se, zda pokračovat. Od 1 do 1000.
page-settings-banner-budget-label = Čas na lišty v milisekundách
page-settings-banner-budget-hint = Čas na jeden požadavek, během kterého Waymark sám zavírá lišty o cookies a jiné. 0 to vypne; nejvýše 30000.
page-settings-save = Uložit
page-settings-run-checks = Spustit kontroly
page-settings-checks = Kontroly
page-settings-checks-empty = Spusťte kontroly a otestujte konfiguraci, koncový bod LLM a registraci v prohlížečích.
page-settings-where = Odkud tato nastavení pocházejí

## Stavový řádek a nápovědy.

# $status: stavový řádek spojení.
settings-not-connected = { $status } Dokud není hostitel připojen, nastavení nejde číst ani ukládat.
settings-worker-unreachable = Neodesláno: service worker Waymarku není dostupný. Zkuste to za chvíli znovu.
# $reason: vlastní věta hostitele.
settings-refused = Neuloženo: { $reason }
settings-saved = Uloženo.
settings-loaded = Nastavení načteno.
settings-saving = Ukládám…
settings-save-not-connected = Neuloženo: hostitel Waymark není připojen.
settings-hint-env = Nastaveno prostředím, ne touto stránkou.
# $field: popisek pole; $variable: jméno proměnné prostředí.
settings-override = { $field }: nastaveno proměnnou prostředí { $variable }, která má přednost před touto stránkou. Změňte ji nebo zrušte tam, kde se spouští prohlížeč.
settings-hint-key-set = Klíč je nastaven. Nechte pole prázdné a zůstane, nebo napište nový.
settings-hint-no-key = Žádný klíč není nastaven. Místní servery jako Ollama žádný nepotřebují.
# $file: cesta ke konfiguračnímu souboru.
settings-source-file = Hostitel uchovává tato nastavení v { $file }.
settings-source-unknown = Hostitel uchovává tato nastavení ve svém konfiguračním souboru.
# $count: kolik polí je chybných.
settings-problems = { $count ->
    [one] Neuloženo: { $count } problém.
    [few] Neuloženo: { $count } problémy.
   *[other] Neuloženo: { $count } problémů.
}
settings-error-url = Koncový bod LLM musí začínat http:// nebo https://, třeba http://127.0.0.1:11434/v1.
settings-error-model = Napište jméno modelu, třeba qwen2.5:7b-instruct.
settings-error-key = Klíč obsahuje mezery nebo jiné znaky, které klíče nikdy nemají. Vložte ho znovu.
settings-error-steps = Napište celý počet kroků od { $min } do { $max }.
settings-error-budget = Napište celý počet milisekund od { $min } do { $max }.

## Kontroly. $name: jméno kontroly (zpráva check-name-); $detail a $fix: slova hostitele.

checks-not-connected = Kontroly nejde spustit: hostitel Waymark není připojen.
checks-running = Spouštím kontroly…
check-ok = V pořádku:
check-warning = Varování:
check-problem = Problém:
check-line = { $name }: { $detail }.
check-line-fix = { $name }: { $detail }. Oprava: { $fix }.
check-name-config = Konfigurace
check-name-llm = Koncový bod LLM
check-name-chat = Požadavek chatu na model
check-name-state = Složka stavu
check-name-browser = Prohlížeč
# $browser: prohlížeč, jehož registrace nativních zpráv byla zkontrolována.
check-name-manifest = Registrace v { $browser }
# $count: kolik kontrol našlo problém.
checks-done = { $count ->
    [0] Kontroly hotovy: žádné problémy.
    [one] Kontroly hotovy: { $count } problém. Seznam je pod nadpisem Kontroly.
    [few] Kontroly hotovy: { $count } problémy. Seznam je pod nadpisem Kontroly.
   *[other] Kontroly hotovy: { $count } problémů. Seznam je pod nadpisem Kontroly.
}
