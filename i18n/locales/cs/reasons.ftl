# Proč část stránky nemohla udělat, co se žádalo, jak to hlásí skript Waymarku na stránce: slyšet
# v panelu; model a klienti MCP to dostanou jako chybu nástroje. V každé zprávě je $role role prvku,
# jak ji říká seznam („tlačítko“), a $name jeho jméno, obojí ze stránky. Jméno stojí v uvozovkách
# a role za ním, aby se nemusela skloňovat.

## Prvek, kterého se číslo nebo otázka týkaly, se mezitím změnil.

reason-gone = Prvek („{ $name }“, { $role }) už na stránce není.
reason-unknown = Ten prvek už na stránce není.
reason-changed = Prvek („{ $name }“, { $role }) teď ukazuje něco jiného.
reason-outdated = Prvek („{ $name }“, { $role }) byl ve starším seznamu: stránka se od té doby hodně změnila.
reason-focus-moved = Fokus klávesnice se mezitím přesunul na jiný prvek.
# $index: požadované číslo. Po nich následuje nový seznam.
number-gone = Číslo { $index } („{ $name }“, { $role }) už na stránce není: stránka se změnila, a tak byla čísla obnovena. Nic se nestalo.
number-changed = Číslo { $index } („{ $name }“, { $role }) teď ukazuje něco jiného: stránka se změnila, a tak byla čísla obnovena. Nic se nestalo.
number-outdated = Číslo { $index } („{ $name }“, { $role }) bylo ve starším seznamu: stránka se od té doby hodně změnila, a tak byla čísla obnovena. Nic se nestalo.
number-stale = Číslo { $index } už na stránce není: stránka se změnila, a tak byla čísla obnovena. Nic se nestalo.
# Akce, na kterou uživatel řekl ano (nebo kterou strážce povolil), jejíž prvek se změnil dřív, než proběhla.
pinned-gone = Neprovedeno: prvek, kterého se akce týkala („{ $name }“, { $role }), už na stránce není. Čísla byla obnovena.
pinned-changed = Neprovedeno: prvek, kterého se akce týkala („{ $name }“, { $role }), teď ukazuje něco jiného. Čísla byla obnovena.
pinned-focus-moved = Neprovedeno: fokus klávesnice se mezitím přesunul na jiný prvek, a klávesa by tak došla tam, kam se nikdo neptal. Čísla byla obnovena.
pinned-stale = Neprovedeno: stránka se od otázky změnila. Čísla byla obnovena.

## Stránka nebo požadavek.

reason-other-document = Tato část stránky ukazuje jiný dokument než ten, ke kterému se akce vztahovala.
reason-no-document = Tato část stránky nemá dokument, ve kterém by šlo jednat.
reason-not-in-frame = Tento nástroj spouští service worker Waymarku, ne stránka.
reason-still-moving = Stránka se pořád hýbala, a tak nešlo pro snímek zakrýt její pole pro hesla a karty.
# $key: klávesa, jak byla požadována.
reason-unknown-key = „{ $key }“ není klávesa, kterou znám. Zkuste Enter, Tab, Escape, mezerník nebo šipku.
# $detail: co řekl prohlížeč nebo skript stránky, jeho slovy.
reason-script-failed = Skript Waymarku na této stránce u tohoto požadavku selhal: { $detail }.

## Akce na očíslovaném prvku. $number: jeho číslo; $action: click, type nebo select, jak bylo požadováno.

reason-not-clickable = Na číslo { $number } („{ $name }“, { $role }) nešlo kliknout: není na něj možné kliknout.
reason-not-text-field = Do čísla { $number } („{ $name }“, { $role }) nešlo psát: není to textové pole.
reason-not-a-list = V čísle { $number } („{ $name }“, { $role }) nešlo vybírat: není to seznam možností.
reason-off-screen = { $action ->
        [type] Do čísla { $number } („{ $name }“, { $role }) nešlo psát
        [select] V čísle { $number } („{ $name }“, { $role }) nešlo vybírat
        [right_click] Na číslo { $number } („{ $name }“, { $role }) nešlo kliknout pravým tlačítkem
        [hover] Na číslo { $number } („{ $name }“, { $role }) nešlo nechat ukazatel
        [set] Hodnotu čísla { $number } („{ $name }“, { $role }) nešlo nastavit
       *[click] Na číslo { $number } („{ $name }“, { $role }) nešlo kliknout
    }: není na obrazovce, ani po posunutí k němu.
# $cover: slova toho, co je přes prvek nakreslené.
reason-covered = { $action ->
        [type] Do čísla { $number } („{ $name }“, { $role }) nešlo psát
        [select] V čísle { $number } („{ $name }“, { $role }) nešlo vybírat
        [right_click] Na číslo { $number } („{ $name }“, { $role }) nešlo kliknout pravým tlačítkem
        [hover] Na číslo { $number } („{ $name }“, { $role }) nešlo nechat ukazatel
        [set] Hodnotu čísla { $number } („{ $name }“, { $role }) nešlo nastavit
       *[click] Na číslo { $number } („{ $name }“, { $role }) nešlo kliknout
    }: zakrývá ho „{ $cover }“. Nejdřív to zavřete (může pomoct close_banners).
# $tag: jméno značky toho, co je přes prvek nakreslené, třeba div.
reason-covered-element = { $action ->
        [type] Do čísla { $number } („{ $name }“, { $role }) nešlo psát
        [select] V čísle { $number } („{ $name }“, { $role }) nešlo vybírat
        [right_click] Na číslo { $number } („{ $name }“, { $role }) nešlo kliknout pravým tlačítkem
        [hover] Na číslo { $number } („{ $name }“, { $role }) nešlo nechat ukazatel
        [set] Hodnotu čísla { $number } („{ $name }“, { $role }) nešlo nastavit
       *[click] Na číslo { $number } („{ $name }“, { $role }) nešlo kliknout
    }: zakrývá ho prvek <{ $tag }>. Nejdřív ho zavřete (může pomoct close_banners).
reason-detached = { $action ->
        [type] Do čísla { $number } („{ $name }“, { $role }) nešlo psát
        [select] V čísle { $number } („{ $name }“, { $role }) nešlo vybírat
        [right_click] Na číslo { $number } („{ $name }“, { $role }) nešlo kliknout pravým tlačítkem
        [hover] Na číslo { $number } („{ $name }“, { $role }) nešlo nechat ukazatel
        [set] Hodnotu čísla { $number } („{ $name }“, { $role }) nešlo nastavit
       *[click] Na číslo { $number } („{ $name }“, { $role }) nešlo kliknout
    }: už není na stránce.
reason-act-script = { $action ->
        [type] Do čísla { $number } („{ $name }“, { $role }) nešlo psát
        [select] V čísle { $number } („{ $name }“, { $role }) nešlo vybírat
        [right_click] Na číslo { $number } („{ $name }“, { $role }) nešlo kliknout pravým tlačítkem
        [hover] Na číslo { $number } („{ $name }“, { $role }) nešlo nechat ukazatel
        [set] Hodnotu čísla { $number } („{ $name }“, { $role }) nešlo nastavit
       *[click] Na číslo { $number } („{ $name }“, { $role }) nešlo kliknout
    }: skript stránky události odmítl ({ $detail }).
# $wanted: požadovaná možnost; $options: možnosti seznamu oddělené čárkami.
reason-no-option = V čísle { $number } („{ $name }“, { $role }) nešlo vybírat: možnost „{ $wanted }“ neexistuje. Možnosti jsou: { $options }.
reason-several-options = V čísle { $number } („{ $name }“, { $role }) nešlo vybírat: „{ $wanted }“ odpovídá více možnostem: { $options }. Řekněte kterou, celým jménem.
# $option: jediná možnost, jejíž popisek obsahuje požadovaná slova.
reason-part-of-option = V čísle { $number } („{ $name }“, { $role }) nešlo vybírat: „{ $wanted }“ je částí možnosti „{ $option }“. Požádejte o ni celým jménem.
reason-no-options-opened = V čísle { $number } („{ $name }“, { $role }) nešlo vybírat: neotevřel se žádný seznam možností, a tak „{ $wanted }“ vybráno nebylo.
reason-no-value = Hodnotu čísla { $number } („{ $name }“, { $role }) nešlo nastavit: nemá žádnou hodnotu (klikněte na něj, nebo na něm stiskněte klávesu).
# $value: požadovaná hodnota.
reason-value-not-taken = Číslo { $number } („{ $name }“, { $role }) nešlo nastavit na „{ $value }“: tu hodnotu nepřijalo (zadejte číslo, které ukazuje, nebo použijte jeho klávesy).

## Vkládání souborů do pole pro soubory. $number: číslo pole.

reason-not-a-file-field = Číslo { $number } není pole pro soubory (je to „{ $name }“, { $role }). Nahrávejte do pole, které vybírá soubory.
# $given: kolik souborů bylo zadáno (dva a víc).
reason-one-file-only = Číslo { $number } přijme jeden soubor, a zadáno jich bylo { $given }. Nahrajte jeden z nich.
reason-files-not-put = Soubory nešlo vložit do čísla { $number }: skript stránky je odmítl ({ $detail }).

## Soubory k nahrání, jak je hostitel čte z tohoto počítače. $path: cesta k souboru.

upload-no-paths = Řekněte, který soubor nahrát: nebyla zadána žádná cesta.
# $example: celá cesta v tomto systému, třeba /home/me/cv.pdf.
upload-not-absolute = „{ $path }“ není celá cesta. Zadejte celou cestu k souboru, třeba { $example }.
upload-missing = Na { $path } žádný soubor není. Zkontrolujte cestu a jméno souboru.
upload-folder = { $path } je složka, ne soubor. Uveďte soubor v ní.
upload-not-regular = { $path } není běžný soubor, a tak ho Waymark nenahraje.
upload-forbidden = Waymark nesmí číst { $path }. Zkontrolujte oprávnění souboru.
# $reason: slova systému.
upload-unreadable = { $path } nešlo přečíst: { $reason }.
# $size: velikost souboru, $limit: nejvíc, co smí nést jedno nahrání (obojí řečeno jako size-… v tools.ftl).
upload-too-big = { $path } má { $size }, víc než limit Waymarku { $limit } na jedno nahrání. Vyberte soubor sami výběrem souborů na stránce, nebo nahrajte menší.
# $count: kolik souborů (dva a víc).
upload-together-too-big = Dohromady mají { $count } soubory { $size }, víc než limit Waymarku { $limit } na jedno nahrání. Vyberte soubory sami výběrem souborů na stránce, nebo jich nahrajte méně.
