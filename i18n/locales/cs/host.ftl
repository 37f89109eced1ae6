# Vlastní věty hostitele pro uživatele prohlížeče, které nejsou otázky ani slova agenta: odmítnutí a
# předání kroku od strážce a chyby ve zprávách, které posílá prohlížeč.

## Strážce. Dostanou se do panelu, k modelu agenta a k vnějším klientům MCP jako chyba nástroje.
# Nástroj čeká na odpověď uživatele; $question je otázka, jak byla položena.
gate-waiting = Zatím neprovedeno: Waymark se uživatele zeptal „{ $question }“ a čeká na odpověď.
gate-internal-step = Ten krok patří samotnému Waymarku a nejde o něj požádat přímo.
gate-preview-unreadable = Neprovedeno: popis akce od stránky nešel přečíst.
gate-host-stopping = Waymark skončil dřív, než uživatel odpověděl.
gate-too-many-questions = Neprovedeno: na odpověď uživatele už čeká příliš mnoho otázek.
gate-server-gone = Neprovedeno: server nástroje už neexistuje.
# Volání vnějšího klienta MCP, zatímco se uživatele ptáme, zda smí prohlížeč vůbec používat.
gate-awaiting-consent = Zatím neprovedeno: v postranním panelu Waymarku se uživatele ptáme, zda { $client } smí používat tento prohlížeč. Zkuste toto volání za chvíli znovu: proběhne, jakmile to uživatel povolí.
gate-request-blocked = Zastaveno: zatímco Waymark jednal, stránka se pokusila odeslat formulář na { $address } jako další stránku celé karty, a prohlížeč teď ukazuje svou stránku, že to bylo zablokováno. Nic se neodeslalo. Vraťte se zpět na stránku.
gate-request-gave-up = Neprovedeno: stránka posílala nové požadavky pokaždé, když akce proběhla znovu.
## Krok ponechaný uživateli, a proč.
gate-handoff = Tento krok nechává Waymark na vás. Udělejte ho sami na stránce a pak pokračujte.
gate-handoff-captcha = Tento krok nechává Waymark na vás: vypadá to na captchu a tu řešíte vy. Udělejte ho sami na stránce a pak pokračujte.
# $secret: password, code (jednorázový kód), pin nebo card.
gate-handoff-type = Tento krok nechává Waymark na vás: { $secret ->
    [password] heslo
    [code] jednorázový kód
    [pin] PIN
   *[card] údaje karty
} píšete vy. Udělejte ho sami na stránce a pak pokračujte.
gate-handoff-choose = Tento krok nechává Waymark na vás: { $secret ->
    [password] heslo
    [code] jednorázový kód
    [pin] PIN
   *[card] údaje karty
} vybíráte vy. Udělejte ho sami na stránce a pak pokračujte.
gate-handoff-card-number = Tento krok nechává Waymark na vás: text vypadá jako číslo platební karty a údaje karty zadáváte vy. Udělejte ho sami na stránce a pak pokračujte.

## Zprávy od prohlížeče, které hostitel nemohl přijmout (chybová odpověď). $detail: co řekl čtenář.
# $length: velikost zprávy v bajtech; $limit: nejvíc, co hostitel přijme.
host-frame-oversized = zpráva o { $length } bajtech překračuje limit { $limit } bajtů; byla přeskočena
host-frame-not-utf8 = zpráva není platné UTF-8 ({ $detail }); byla ignorována
host-frame-not-json = zpráva není platný JSON ({ $detail }); byla ignorována
# $protocol: verze protokolu, kterou tento hostitel mluví.
host-frame-unknown = tento hostitel (protokol { $protocol }) zprávu neumí přečíst: { $detail }
# $length: velikost odpovědi v bajtech; $limit: nejvíc, co prohlížeč přijme.
host-reply-too-large = odpověď měla { $length } bajtů, víc než limit prohlížeče { $limit }; nebyla odeslána

## Uložená relace agenta. $why: co s ní bylo špatně (jedna ze session-unreadable-*).
session-reset = Nemohl jsem přečíst uloženou relaci, a tak začínám znovu: { $why }.
# $path: kam byl nečitelný soubor uložen.
session-reset-kept = Nemohl jsem přečíst uloženou relaci, a tak začínám znovu: { $why }. Zůstala uložena jako { $path }.
session-unreadable = nešla přečíst ({ $detail })
# $version: verze souboru; $expected: ta, kterou tento hostitel čte.
session-unreadable-version = má verzi { $version }, ne { $expected }
session-unreadable-content = není to relace, kterou Waymark umí přečíst ({ $detail })

## Odmítnutí pro model agenta a vnější klienty MCP, řečená názvy nástrojů (panel říká „/list“).
## $index: požadované číslo nebo karta.
mcp-stale-number = Číslo { $index } v posledním seznamu stránky není. Zavolejte browser_list_interactives (nebo browser_find) pro aktuální čísla. Nic se nestalo.
mcp-no-numbers = Stránka zatím nemá čísla. Nejdřív zavolejte browser_list_interactives. Nic se nestalo.
mcp-no-tab = Karta { $index } neexistuje. Zavolejte browser_list_tabs pro karty a jejich čísla.

## Vnější klient MCP, který neuvedl jméno hodné vyslovení (jak ho nazve otázka na souhlas).
mcp-unnamed-client = Nepojmenovaný program
# Klient, který si říká Waymark (v jakékoli podobě), není vpuštěn.
mcp-client-named-waymark = Neprovedeno: program si nesmí říkat Waymark. Waymark se na něj uživatele neptal; dejte klientovi vlastní jméno.

## `waymark-host mcp`, když neodpovídá hostitel žádného prohlížeče: řečeno klientovi MCP (jako chyba
## nástroje) a u `--list`. $path: složka se sokety hostitelů; $pid: ID procesu hostitele; $profile:
## složka profilu prohlížeče (nebo její část, kterou člověk napsal); $socket: cesta k soketu; $running:
## právě běžící hostitelé, každý na jednom řádku, spojení „; “.
mcp-no-browser = Pro tohoto uživatele neběží žádný prohlížeč s Waymarkem (v { $path } nic nenaslouchá). Otevřete Chrome, Chromium nebo Edge s rozšířením Waymark a zkuste to znovu; pokud to pořád selhává, spusťte `waymark-host doctor`.
mcp-no-match-pid = Žádný běžící hostitel Waymark neodpovídá pid { $pid }. Teď běží: { $running }
mcp-no-match-profile = Žádný běžící hostitel Waymark neodpovídá profilu „{ $profile }“. Teď běží: { $running }
mcp-no-match = Žádný běžící hostitel Waymark neodpovídá pid { $pid } a profilu „{ $profile }“. Teď běží: { $running }
mcp-list-newest = pid { $pid } (nejnovější, použije se výchozím způsobem): profil { $profile }, soket { $socket }
mcp-list-host = pid { $pid }: profil { $profile }, soket { $socket }
# Vlastní výchozí profil prohlížeče.
mcp-default-profile = (výchozí)

## `waymark-host mcp`, když hostitel prohlížeče zmizel dřív, než odpověděl na volání. $tool: nástroj.
mcp-host-gone-changing = Hostitel Waymark v prohlížeči zmizel, zatímco běžel { $tool } (prohlížeč se zavřel, nebo se Waymark restartoval), a tak není známo, zda proběhl. Až bude prohlížeč zpět, podívejte se na stránku (browser_list_interactives), než to zkusíte znovu.
mcp-host-gone-reading = Hostitel Waymark v prohlížeči zmizel dřív, než { $tool } odpověděl (prohlížeč se zavřel, nebo se Waymark restartoval); na stránce nic nemění. Až bude prohlížeč zpět, zavolejte ho znovu.
# Požadavek, který není voláním nástroje.
mcp-host-gone-request = Hostitel Waymark v prohlížeči zmizel dřív, než odpověděl; až bude prohlížeč zpět, zkuste to znovu.

## Nástroj stránky, který hostitel nemohl předat prohlížeči, nebo jehož odpověď nepřišla.
browser-not-connected = prohlížeč není připojen
browser-gone-before-answer = prohlížeč se odpojil dřív, než stránka odpověděla
# $seconds: jak dlouho hostitel na stránku čekal.
browser-page-timeout = stránka neodpověděla do { $seconds ->
    [one] { $seconds } sekundy
    [few] { $seconds } sekund
   *[other] { $seconds } sekund
}
