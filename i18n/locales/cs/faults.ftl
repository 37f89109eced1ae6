# Chyby v nastavení samotného hostitele, řečené v panelu a na stránce nastavení: složka stavu, do
# které Waymark nemůže zapisovat, a konfigurace, která se nenačte, vždy s místem a opravou.
# $path: složka stavu; $why: důvod od systému; $detail: popis chyby konfigurace od hostitele;
# $fix: jedna z vět fault-fix-; $file: konfigurační soubor; $key: jméno nastavení nebo proměnné.

-elsewhere = nebo zvolte jinou složku pomocí state_dir v config.toml nebo proměnné prostředí WAYMARK_STATE_DIR
-cost = Žádný úkol se neuchová pro restart, nezapisuje se protokol kroků a klienti MCP se k tomuto prohlížeči nedostanou.
-lost = Když se prohlížeč zavře, tento úkol se ztratí.
# Řečeno, když hostitel neřekl, o kterou složku jde.
fault-state-folder = složka stavu Waymarku
fault-state-not-a-folder = Waymark nemůže nic uložit: { $path } je soubor, a tam musí být složka Waymarku. { -cost } Jak to opravit: přesuňte ten soubor jinam, { -elsewhere }, a pak restartujte prohlížeč.
fault-state-denied = Waymark nemůže nic uložit: do { $path } nesmí zapisovat. { -cost } Jak to opravit: udělejte tu složku znovu svou (v Linuxu nebo macOS v terminálu: sudo chown -R "$USER" '{ $path }'), { -elsewhere }, a pak restartujte prohlížeč.
fault-state-read-only = Waymark nemůže nic uložit: { $path } je na disku jen pro čtení. { -cost } Jak to opravit: zvolte složku na zapisovatelném disku pomocí state_dir v config.toml nebo proměnné prostředí WAYMARK_STATE_DIR, a pak restartujte prohlížeč.
fault-state-unwritable = Waymark nemůže nic uložit: do { $path } nejde zapisovat. { -cost } Jak to opravit: zkontrolujte ten disk a složku, { -elsewhere }, a pak restartujte prohlížeč.
fault-state-unwritable-why = Waymark nemůže nic uložit: do { $path } nejde zapisovat ({ $why }). { -cost } Jak to opravit: zkontrolujte ten disk a složku, { -elsewhere }, a pak restartujte prohlížeč.
fault-unsaved-not-a-folder = Neuloženo: { $path } je soubor, a tam musí být složka Waymarku. { -lost } Jak to opravit: přesuňte ten soubor jinam, { -elsewhere }.
fault-unsaved-denied = Neuloženo: Waymark nesmí zapisovat do { $path }. { -lost } Jak to opravit: udělejte tu složku znovu svou (v Linuxu nebo macOS v terminálu: sudo chown -R "$USER" '{ $path }'), { -elsewhere }.
fault-unsaved-read-only = Neuloženo: { $path } je na disku jen pro čtení. { -lost } Jak to opravit: zvolte složku na zapisovatelném disku pomocí state_dir v config.toml nebo proměnné prostředí WAYMARK_STATE_DIR.
fault-unsaved-unwritable = Neuloženo: Waymark nemůže zapisovat do { $path }. { -lost } Jak to opravit: zkontrolujte ten disk a složku, { -elsewhere }.
fault-unsaved-unwritable-why = Neuloženo: Waymark nemůže zapisovat do { $path } ({ $why }). { -lost } Jak to opravit: zkontrolujte ten disk a složku, { -elsewhere }.
fault-config = Nastavení Waymarku se nenačítá: { $detail }. Dokud se nenačte, chat nejde spustit. { $fix }
fault-settings-unparsed = Nastavení Waymarku se nenačítá: { $detail }. Pole ukazují výchozí hodnoty. Uložením jimi soubor nahradíte; starý soubor zůstane vedle.
fault-settings-not-loaded = Nastavení se nenačetlo: { $detail }. { $fix }
fault-config-file-problems = { $count ->
    [one] Konfigurační soubor má { $count } problém.
    [few] Konfigurační soubor má { $count } problémy.
   *[other] Konfigurační soubor má { $count } problémů.
}
fault-fix-in-settings = Jak to opravit: nastavte to v nastavení (/settings), nebo upravte { $key } v { $file }.
fault-fix-edit = Jak to opravit: upravte { $key } v { $file }.
fault-fix-env = Jak to opravit: změňte nebo zrušte { $key } tam, kde se spouští prohlížeč.
fault-fix-unreadable = Jak to opravit: udělejte { $file } čitelný pro vás, nebo ho odstraňte.
fault-fix-no-state-dir = Jak to opravit: nastavte WAYMARK_STATE_DIR nebo HOME tam, kde se spouští prohlížeč.
fault-fix-replace = Jak to opravit: upravte { $file }, nebo otevřete nastavení (/settings) a uložte: soubor se tím nahradí a starý zůstane vedle.
# $copy: kam hostitel uložil starý soubor.
settings-saved-kept-copy = Uloženo. Starý konfigurační soubor, který se nenačetl, zůstal jako { $copy }.
