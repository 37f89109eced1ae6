# Konfigurace hostitele (config.toml a proměnné WAYMARK_), když se nenačte nebo neuloží: co je špatně
# a co dělat; slyšet na stránce nastavení, v panelu, když chat nejde spustit, a ve zprávě kontroly.
# Každá je část věty bez tečky na konci: větu kolem ní doplní jiná zpráva. $path: konfigurační
# soubor; $key: nastavení; $name: proměnná prostředí; $value: odmítnutá hodnota (klíč API skrytý);
# $detail: slova systému nebo parseru; $line, $column: místo v souboru (od 1).

config-unreadable = konfigurační soubor { $path } nejde přečíst: { $detail }
config-unreadable-denied = konfigurační soubor { $path } nejde přečíst: přístup odepřen
config-parse = konfigurační soubor { $path } není platný: { $detail }
config-parse-at = konfigurační soubor { $path } není platný TOML: řádek { $line }, sloupec { $column }
config-parse-at-key = konfigurační soubor { $path } není platný TOML u { $key }: řádek { $line }, sloupec { $column }
config-unknown-key = konfigurační soubor { $path } má klíč, který Waymark nezná: { $key } (řádek { $line })
# $expected: jedna z frází config-expected-.
config-bad-file-value = { $key } = { $value } v { $path } není platné: čeká se { $expected }
config-bad-env-value = proměnná prostředí { $name }={ $value } není platná: čeká se { $expected }
config-no-state-dir = chybí složka pro stav Waymarku: nastavte WAYMARK_STATE_DIR (nebo HOME)
config-no-config-dir = chybí složka pro konfiguraci Waymarku: nastavte XDG_CONFIG_HOME (nebo HOME)
config-unwritable = konfigurační soubor { $path } nejde zapsat: { $detail }
config-unwritable-denied = konfigurační soubor { $path } nejde zapsat: přístup odepřen

## Co musí nastavení být. $min, $max: přijatelný rozsah.
config-expected-url = adresa http:// nebo https:// rozhraní API kompatibilního s OpenAI, třeba http://127.0.0.1:11434/v1
config-expected-model = jméno modelu
config-expected-api-key = klíč API z viditelných znaků ASCII (bez mezer a zalomení řádků)
config-expected-seconds = celý počet sekund od { $min } do { $max }
config-expected-true-or-false = true nebo false
config-expected-absolute-path = absolutní cesta
config-expected-steps = celý počet kroků od { $min } do { $max }
config-expected-milliseconds = celý počet milisekund od { $min } do { $max }
config-expected-log-filter = filtr tracing, třeba info nebo debug
config-expected-mcp-server = jméno a příkaz u každé položky [[mcp_servers]]

## Co s tím dělat.
config-fix-unreadable = udělejte { $path } čitelný pro vás, nebo ho odstraňte
config-fix-replace = upravte { $path }, nebo uložte stránku nastavení: soubor nahradí a starý nechá vedle
config-fix-in-settings = nastavte to na stránce nastavení, nebo upravte { $key } v { $path }
config-fix-edit = upravte { $key } v { $path }
config-fix-env = změňte nebo zrušte { $name }
config-fix-no-state-dir = nastavte WAYMARK_STATE_DIR nebo HOME

# V panelu, když chat nejde spustit. $detail: jedna z vět výše; $fix: jedna z config-fix-.
config-chat-cannot-start = Chat nejde spustit: { $detail }. Jak to opravit: { $fix }.
