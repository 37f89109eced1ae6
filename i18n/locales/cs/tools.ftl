# Co říkají nástroje stránky: očíslovaný seznam, výsledek každého nástroje a proč některý nemohl
# proběhnout. Dostanou se k uživateli v panelu a k modelu nebo klientovi MCP ve výsledku nástroje.

## Očíslovaný seznam. $title: název stránky; $total: kolik ovládacích prvků; $first, $last: tato část.

list-empty = Na „{ $title }“ nejsou žádné ovládací prvky.
list-whole = { $total ->
    [one] { $total } ovládací prvek na „{ $title }“:
    [few] { $total } ovládací prvky na „{ $title }“:
   *[other] { $total } ovládacích prvků na „{ $title }“:
}
list-page = { $total ->
    [one] { $total } ovládací prvek na „{ $title }“, { $first } až { $last }:
    [few] { $total } ovládací prvky na „{ $title }“, { $first } až { $last }:
   *[other] { $total } ovládacích prvků na „{ $title }“, { $first } až { $last }:
}
# Jeden řádek: $index jeho číslo, $role jeho role (zpráva role-), $name jeho jméno.
list-item = { $index }, { $role }, { $name }
list-item-unnamed = { $index }, { $role }, bez jména
list-item-value = hodnota { $value }
# $context: slova řádku nebo položky, ve které opakovaný prvek stojí („Smazat“ na každém řádku).
list-item-context = v „{ $context }“
# Co následuje za jménem řádku, jedno po druhém: hodnota, stavy ($part).
list-item-more = , { $part }
# $left: kolik prvků zbývá slyšet.
list-more = Zbývá { $left }. Přečte je /more.
list-no-more = To byl celý seznam.
list-nothing-to-continue = Není žádný seznam, ve kterém pokračovat. Nejdřív řekněte /list.
list-unreadable = Seznam stránky nešel přečíst.
# $text: hledaná slova; $count: kolik prvků odpovídá.
found-none = Žádný prvek neodpovídá „{ $text }“. Všechny vypíše /list.
found-heading = { $count ->
    [one] { $count } shoda pro „{ $text }“:
    [few] { $count } shody pro „{ $text }“:
   *[other] { $count } shod pro „{ $text }“:
}

## Co se s prvkem stalo: $index, $role a $name jako v řádku seznamu.

acted-click = Kliknuto na { $index }, { $role }, { $name }.
acted-type = Napsáno do { $index }, { $role }, { $name }.
# $option: vybraná možnost.
acted-select = Vybráno { $option } v { $index }, { $role }, { $name }.
acted-right-click = Kliknuto pravým tlačítkem na { $index }, { $role }, { $name }.
acted-hover = Ukazatel na { $index }, { $role }, { $name }.
# $value: hodnota, kterou prvek teď ukazuje.
acted-set = Nastaveno { $index }, { $role }, { $name } na { $value }.
acted-done = Hotovo.
# $done: co se udělalo, jedna z vět výše nebo stisknutá klávesa, řečeno nejdřív.
acted-unchanged = { $done } Na stránce se nic nezměnilo.
acted-leaving = { $done } Načítá se jiná stránka.
focus-on = Fokus na { $index }, { $role }, { $name }.
focus-none = Není žádný další prvek, kam přejít. Prvky vypíše /list.
tool-described = Popsáno.
tool-looked-for-banners = Lišty vyhledány.
scroll-at-top = Už jste na začátku.
scroll-at-bottom = Už jste na konci: dál posouvat nejde.
scroll-up = Posunuto nahoru.
scroll-down = Posunuto dolů. Prvky, které jsou teď vidět, vypíše /list.
scroll-top = Posunuto na začátek.
scroll-bottom = Posunuto na konec.
# Mezerník jako stisknutá klávesa.
key-space = mezerník
# $key: stisknutá klávesa.
press-submitted = Stisknuto { $key }: formulář byl odeslán.
press-activated = Stisknuto { $key }: aktivováno.
press-focus-moved = Stisknuto { $key }: fokus se přesunul.
press-done = Stisknuto { $key }.
wait-settled = Stránka se ustálila.
wait-still-changing = Stránka se pořád mění; Waymark přestal čekat.
picture-taken = Snímek obrazovky pořízen.
picture-taken-size = Snímek obrazovky pořízen, { $width } na { $height } pixelů.
banners-none = Žádná lišta k zavření.
# $buttons: stisknutá tlačítka, spojená „; “.
banners-closed = { $count ->
    [one] Zavřena lišta: { $buttons }.
    [few] Zavřeny { $count } lišty: { $buttons }.
   *[other] Zavřeno { $count } lišt: { $buttons }.
}
# $files: jména souborů, spojená „, “; $index: číslo pole.
upload-done = { $count ->
    [one] Do { $index } vložen { $count } soubor: { $files }.
    [few] Do { $index } vloženy { $count } soubory: { $files }.
   *[other] Do { $index } vloženo { $count } souborů: { $files }.
}
download-finished = Stahování skončilo.
# $name: soubor; $size: jeho velikost (zpráva size-).
download-done = Staženo { $name }, { $size }.
size-bytes = { $count ->
    [one] { $count } bajt
    [few] { $count } bajty
   *[other] { $count } bajtů
}
size-kb = { $count } kB
# Megabajty na jedno desetinné místo: $whole a $tenth jsou jeho dvě části (3 a 4 ve 3,4).
size-mb = { $whole },{ $tenth } MB
read-unreadable = Stránka nešla přečíst.
read-page = „{ $title }“ na { $url }.
read-headings = Nadpisy: { $headings }.
read-text = Text: { $text }

## Karty a adresy.

tabs-none = V tomto okně nejsou otevřené žádné webové stránky.
tabs-heading = { $count ->
    [one] { $count } karta:
    [few] { $count } karty:
   *[other] { $count } karet:
}
tabs-line = { $index }, { $title }
tabs-current = aktuální
tabs-pinned = připnutá
tabs-switched = Přepnuto na kartu { $index }, „{ $title }“.
tabs-missing = Karta { $index } neexistuje: { $count ->
    [one] je jen { $count } karta.
    [few] jsou { $count } karty.
   *[other] je { $count } karet.
} Vypíše je /tabs.
# $why: důvod prohlížeče.
tabs-unlisted = Karty nešlo vypsat: { $why }
tabs-switch-failed = Kartu nešlo přepnout: { $why }
go-opened = Otevřeno „{ $title }“ ({ $url }).
go-went-back = Zpět na „{ $title }“ ({ $url }).
go-went-forward = Vpřed na „{ $title }“ ({ $url }).
go-reloaded = Znovu načteno „{ $title }“ ({ $url }).
# $done: jedna ze čtyř vět výše.
go-then-list = { $done } Její prvky vypíše /list.
go-then-list-loading = { $done } Ještě se načítá. Její prvky vypíše /list.
go-new-tab = Otevřena nová karta.
go-script-refused = Waymark neotevírá adresy skriptů ani dat.
go-failed = Prohlížeč tam nepřešel: { $why }
go-new-tab-failed = Novou kartu nešlo otevřít: { $why }
