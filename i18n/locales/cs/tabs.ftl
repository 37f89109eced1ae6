# Proč nástroj stránky nemohl proběhnout: karta nebo stránka mimo dosah, číslo, které neexistuje,
# snímek nebo stažení, které nepřišlo. Slyšet v panelu; model a klienti MCP je dostanou jako chybu
# nástroje. $why: důvod prohlížeče, jeho slovy; $url: adresa karty.

tab-none = Není tu žádná webová stránka, se kterou by šlo pracovat. Otevřete v tomto okně stránku a zkuste to znovu.
tab-page-silent = Stránka na této kartě na požadavek neodpověděla (prohlížeč říká: { $why }). Zkuste to znovu; pokud to pořád selhává, načtěte stránku znovu.

## Vlastní dialog stránky, který ji blokuje, dokud na něj uživatel neodpoví v dialogu prohlížeče.
## $text: slova stránky (zkrácená), nebo page-dialog-no-words.

page-dialog-alert = Stránka říká: „{ $text }“. Čeká v dialogu prohlížeče: stiskněte Enter pro OK.
page-dialog-confirm = Stránka se ptá: „{ $text }“. Odpovězte v dialogu prohlížeče: Enter pro OK, Escape pro Zrušit.
page-dialog-prompt = Stránka chce, abyste napsali: „{ $text }“. Odpovězte v dialogu prohlížeče: napište odpověď a stiskněte Enter pro OK; Escape ruší.
page-dialog-leave = Stránka se ptá, zda ji opustit: co jste na ní změnili, se možná neuloží. Odpovězte v dialogu prohlížeče: Enter stránku opustí, Escape na ní zůstane.
page-dialog-no-words = žádná slova

tab-page-kept-changing = Stránka se pořád měnila, zatímco Waymark přesouval fokus. Zkuste to znovu.
tab-frame-silent = Rámec uvnitř této stránky na požadavek neodpověděl (prohlížeč říká: { $why }); možná se ještě načítá. Zkuste to za chvíli znovu.
tab-browser-page = Waymark se k této kartě nedostane: ukazuje { $url }, jednu z vlastních stránek prohlížeče, kam nesmí žádné rozšíření. Otevřete na ní webovou stránku, nebo přepněte na kartu, která nějakou ukazuje.
tab-web-store = Waymark se k této kartě nedostane: ukazuje Internetový obchod Chrome ({ $url }), kam nesmí žádné rozšíření.
tab-file-page = Waymark se k této kartě nedostane: ukazuje soubor ({ $url }) a do souborů smí Waymark jen tehdy, když je v jeho podrobnostech na stránce rozšíření prohlížeče zapnuto „Povolit přístup k adresám URL souborů“.
tab-needs-reload = Waymark se ke stránce na této kartě nedostane ({ $url }): jeho skript se tam nespustil, což se stává stránkám, které byly otevřené během aktualizace Waymarku. Načtěte stránku znovu a zkuste to znovu.
tab-page-policy = Waymark nemůže pracovat na stránce na této kartě ({ $url }): vlastní bezpečnostní pravidla stránky nedovolí skriptu Waymarku běžet (prohlížeč je uplatňuje i na rozšíření), a tak tu nejde nic vypsat ani udělat podle čísla. Nové načtení nepomůže.
tab-not-entered = Waymark se ke stránce na této kartě nedostane ({ $url }): prohlížeč na ni nepustí žádné rozšíření (chybová stránka, nebo web, který nastavení prohlížeče rozšířením zavírá).
tab-still-loading = Stránka na této kartě se po { $seconds ->
    [one] { $seconds } sekundě
    [few] { $seconds } sekundách
   *[other] { $seconds } sekundách
} pořád načítá. Zkuste to znovu, až se načte.
tab-closed = Ta karta byla zavřena.
tab-unreadable-answer = Stránka odpověděla něco, co Waymark neumí přečíst.
tab-answer-not-described = Waymark nedokázal svou odpověď vyjádřit slovy ({ $why }).
tool-not-through-gate = Nástroj, který mění stránku, běží jen přes hostitele Waymark a jeho strážce.
tool-guard-failed = Neprovedeno: Waymark nemohl sledovat, co tato karta během akce odesílá, a tak nejednal.
tool-banners-through-gate = Zavírání lišt řídí strážce: find_banners, pak press_banners.
tool-workers-message = Tu zprávu posílá jen service worker.

## Čísla. $index: požadované číslo; $total: poslední existující číslo.

number-none-yet = Na této stránce zatím nejsou čísla. Nejdřív řekněte /list.
number-missing = Číslo { $index } neexistuje: seznam jde od 1 do { $total }. Aktuální čísla řekne /list.
pinned-page-changed = Neprovedeno: stránka se od otázky změnila (karta teď ukazuje jinou stránku), a tak už akce nemohla udělat, na co se otázka ptala. Čísla byla obnovena.
upload-no-file = Do čísla { $index } nedorazil žádný soubor.

## Snímky obrazovky.

picture-not-covered = Snímek nebyl pořízen: část stránky neodpověděla, a tak Waymark nemohl zakrýt její pole pro hesla, kódy a karty. Zkuste to znovu, až se stránka načte.
picture-busy = Ještě se pořizovaly jiné snímky obrazovky. Požádejte za chvíli znovu.
picture-refused = Prohlížeč snímek nepořídil: { $why }
picture-no-tab = Kartu pro snímek nešlo najít: { $why }
picture-tab-behind = Tato karta není ta, kterou její okno ukazuje, a tak ji prohlížeč nemůže vyfotit. Nejdřív ji přeneste dopředu (browser_switch_tab) a pak požádejte znovu.
picture-no-window = Nešlo zjistit, které okno kartu ukazuje.
picture-unreadable = Snímek od prohlížeče přišel v podobě, kterou Waymark neumí přečíst.

## Stažení. $seconds: jak dlouho Waymark čekal; $name: soubor; $index: číslo, na které se kliklo.

download-unwatched = Stahování nešlo sledovat: { $why }.
download-none-after-click = Do { $seconds ->
    [one] { $seconds } sekundy
    [few] { $seconds } sekund
   *[other] { $seconds } sekund
} po kliknutí na { $index } žádné stahování nezačalo.
download-none = Nic se nestahuje a do { $seconds ->
    [one] { $seconds } sekundy
    [few] { $seconds } sekund
   *[other] { $seconds } sekund
} nic stahovat nezačalo.
download-stopped = Stahování { $name } se zastavilo: { $why }.
download-stopped-no-reason = Stahování { $name } se zastavilo: prohlížeč neuvedl důvod.
download-unfinished = Stahování { $name } neskončilo do { $seconds ->
    [one] { $seconds } sekundy
    [few] { $seconds } sekund
   *[other] { $seconds } sekund
}; v prohlížeči pokračuje. Počkejte na něj pomocí browser_download_wait.
download-unfinished-unnamed = Stahování souboru neskončilo do { $seconds ->
    [one] { $seconds } sekundy
    [few] { $seconds } sekund
   *[other] { $seconds } sekund
}; v prohlížeči pokračuje. Počkejte na něj pomocí browser_download_wait.
