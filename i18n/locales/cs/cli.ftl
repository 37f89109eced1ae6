# `waymark-host install` a `uninstall` v terminálu, v jazyce terminálu (jeho locale: LC_ALL,
# LC_MESSAGES, LANG). $browser: jméno prohlížeče; $browsers: více prohlížečů, jak je říká cli-list-;
# $path: soubor nebo složka; $key: klíč registru Windows; $id: ID rozšíření; $detail: slova systému.

## Seznamy prohlížečů. $rest: všechny kromě posledního, spojené čárkami.
cli-list-two = { $first } a { $last }
cli-list-more = { $rest } a { $last }
cli-list-or-two = { $first } nebo { $last }
cli-list-or-more = { $rest } nebo { $last }

## Otázka, kterou install položí, když chybí --browser. $number: číslo prohlížeče k napsání.
cli-ask-which = Které prohlížeče smějí spouštět hostitele Waymark?
cli-ask-found = { $number }. { $browser } (nalezen)
cli-ask-not-found = { $number }. { $browser } (nenalezen)
cli-ask-how = Napište čísla nebo jména, třeba: 1 3, nebo: chrome edge. Nebo napište vše, nebo nic.
cli-ask-enter-none = Samotný Enter nezaregistruje nic: žádný prohlížeč nebyl nalezen.
cli-ask-enter-found = Samotný Enter zaregistruje nalezené: { $browsers }.
# Před odpovědí, na stejném řádku.
cli-ask-prompt = Prohlížeče:
cli-ask-none-alone = nic nejde spojit s jinými prohlížeči; napište ho samotné.
# $answer: slovo odpovědi, které nejmenuje žádný prohlížeč.
cli-ask-unknown = „{ $answer }“ není nic z 1, 2, 3, chrome, chromium, edge, vše nebo nic.

## Co install udělal.
cli-install-nothing = nic nezaregistrováno; spusťte znovu waymark-host install a vyberte prohlížeče
cli-install-stopped = zastaveno: nic nezaregistrováno
cli-install-one-browser = složka profilu patří jednomu prohlížeči: s --user-data-dir uveďte nejvýše jeden --browser
cli-install-where-am-i = nelze zjistit, kde je tento program waymark-host
cli-install-id-added = rozšíření { $id } teď smí používat tohoto hostitele (zapsáno v { $path })
# $host: jméno hostitele (io.waymark.host).
cli-install-registered = { $host } zaregistrován pro { $browser }: { $path }
cli-install-registered-profile = { $host } zaregistrován pro profil: { $path }
cli-install-registry-key = a klíč registru { $key } na něj odkazuje
cli-install-recorded = zapsáno v { $path }; `waymark-host uninstall` to odstraní
cli-install-recorded-system = zapsáno v { $path }; `waymark-host uninstall --system` to odstraní
cli-install-note-windows-profile = poznámka: ve Windows hledají prohlížeče hostitele v registru, ne ve složce profilu

## Co uninstall udělal, každé na jednom řádku. $record: záznam o tom, co zapsal install.
cli-removed-file = odstraněno { $path }
cli-removed-file-for = odstraněno { $path } ({ $browsers })
cli-removed-key = odstraněn klíč registru { $key }
cli-removed-dir = odstraněna složka { $path }, kterou vytvořil install
cli-removed-id = rozšíření { $id } už nesmí používat tohoto hostitele (odstraněno z { $path })
cli-removed-store = odstraněno { $path }, teď prázdné
cli-already-gone = { $path } už neexistovalo
cli-key-already-gone = klíč registru { $key } už neexistoval
cli-left-not-ours = { $path } zůstává, kde je: už to není manifest hostitele Waymark
cli-left-key-other = klíč registru { $key } zůstává, kde je: teď odkazuje na jiný manifest
cli-left-key-not-windows = klíč registru { $key } zůstává, kde je: registr existuje jen ve Windows
cli-remove-failed = nelze odstranit { $path }: { $detail }
cli-remove-key-failed = nelze odstranit klíč registru { $key }: { $detail }
cli-nothing-recorded = v { $record } není nic zapsáno
cli-nothing-recorded-for = pro { $browsers } není v { $record } nic zapsáno
cli-nothing-recorded-profile = pro složku profilu { $path } není v { $record } nic zapsáno
cli-uninstall-system-too = co install --system zapsal pro všechny uživatele, odstraní: sudo waymark-host uninstall --system
cli-uninstall-failed = některé registrace nešlo odstranit; zůstávají zapsané, takže uninstall to může zkusit znovu

## Proč install nebo uninstall nemohl uspět.
cli-error-bad-id = „{ $id }“ není ID rozšíření: ID má 32 písmen od a do p
cli-error-relative-host = cesta k hostiteli { $path } není absolutní; prohlížeče potřebují absolutní cestu
cli-error-no-home = nelze najít vaši domovskou složku: nastavte HOME
cli-error-no-choice = které prohlížeče? install se ptá jen v terminálu, a tohle terminál není: zadejte --browser chrome, chromium nebo edge (více: --browser chrome,edge), nebo --browser all; Chrome, Chromium ani Edge tu nebyl nalezen
cli-error-no-choice-found = které prohlížeče? install se ptá jen v terminálu, a tohle terminál není: zadejte --browser chrome, chromium nebo edge (více: --browser chrome,edge), nebo --browser all; nalezeno zde: { $browsers }
cli-error-other-id-system = --extension-id { $id } nelze zaregistrovat pro všechny uživatele: hostitel spuštěný pro každého uživatele obsluhuje jen vlastní ID Waymarku a ta, která ten uživatel zaregistroval; spusťte raději `waymark-host install --extension-id { $id }` jako ten uživatel
cli-error-needs-admin = nelze zapsat { $path }: přístup odepřen; registrace pro všechny uživatele potřebuje root (sudo waymark-host install --system …), nebo ve Windows správce
cli-error-write = nelze zapsat { $path }: { $detail }
cli-error-registry = klíč registru { $key } nelze nasměrovat na manifest: { $detail }
cli-error-record-read = nelze přečíst záznam o tom, co zapsal install, { $path }: { $detail }
cli-error-record-parse = záznam o tom, co zapsal install, { $path }, nejde přečíst ({ $detail }); přesuňte ho jinam a začne se nový (soubory, které uvádí, pak zůstanou, dokud je neodstraníte)
cli-error-record-write = nelze zapsat záznam o tom, co zapsal install, { $path }: { $detail }
cli-install-none-found = Chrome, Chromium ani Edge tu nebyl nalezen, a tak se nic neregistruje; až nějaký nainstalujete: waymark-host install --browser found
