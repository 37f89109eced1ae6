# Otázky strážce, slyšet v oblasti upozornění panelu, a co uslyší ten, kdo žádal, když se nic nestalo
# (výsledek nástroje: panel uživatele, model agenta, vnější klient MCP).
# Hodnoty: $target je ovládací prvek, jak ho pojmenuje question-target, $address webová adresa, $site
# jméno hostitele („shop.example“), $key klávesa, jak ji pojmenuje question-key-*; citovaný text
# stránky už přichází vyčištěný. Jména jsou v uvozovkách a role v závorce za nimi, aby se nemusela
# skloňovat.

## Otázka je akce, případně co udělá, případně web. Končí otazníkem, aby zněla jako otázka; ukazuje se
## v dialogu s tlačítky Ne a Ano (dosáhne na ně Tab a fungují zkratky odpovědí), a tak „Ano, nebo ne“
## uzavírá jen otázku, která končí oznamovací větou.
## $action je jedna z question-action-*, $effect jedna z question-effect-*.
question-do = { $action }?
question-do-on = { $action } na { $site }?
question-do-effect = { $action }: { $effect }. Ano, nebo ne?
question-do-effect-on = { $action } na { $site }: { $effect }. Ano, nebo ne?
# Web, který otázka jmenuje: jméno hostitele ($host, třeba „shop.example“) a, když stránka dává webu
# jméno, které jméno hostitele neříká, i to jméno ($name, text stránky).
question-site-named = { $host } („{ $name }“)
# Co říká /details, zatímco je zobrazena otázka ke stránce; $address: celá adresa stránky.
question-detail-page = Otázka se týká stránky { $address }

## Ovládací prvek: jeho jméno, role, jak ji říkají čtečky ($role, z role-*), a co ukazuje, když to
## není jeho jméno.
question-target = „{ $name }“ ({ $role })
question-target-shows = „{ $name }“ ({ $role }, ukazuje „{ $shows }“)
# Role prvku, jehož role není známá.
question-element = prvek
# Položka, na kterou prvek působí, za prvkem ($target): $item je text stránky (slova řádku, nadpis
# karty), $place jedna z question-where-*.
question-target-for = { $target } u „{ $item }“
question-target-for-at = { $target } u „{ $item }“ ({ $place })
# Co prvek týká, říká jen nadpis nad ním.
question-target-under = { $target } pod nadpisem „{ $item }“
# $position: místo řádku nebo položky, od 1; $of: jméno tabulky nebo seznamu (text stránky).
question-where-row = řádek { $position }
question-where-row-of = řádek { $position } v „{ $of }“
question-where-item = položka { $position }
question-where-item-of = položka { $position } v „{ $of }“

question-action-back = Jít zpět
question-action-forward = Jít vpřed
question-action-reload = Načíst stránku znovu
question-action-click = Kliknout na { $target }
question-action-type = Napsat do { $target }
question-action-type-enter = Napsat do { $target } a stisknout Enter
# $option: popisek možnosti.
question-action-choose = Vybrat „{ $option }“ v { $target }
question-action-download = Kliknutím stáhnout z { $target }
question-action-right-click = Kliknout pravým tlačítkem na { $target }
question-action-hover = Nechat ukazatel na { $target }
# $value: požadovaná hodnota.
question-action-set = Nastavit { $target } na „{ $value }“
# $files: jména souborů oddělená čárkami.
question-action-upload = Nahrát { $files } z tohoto počítače do { $target }
question-action-upload-page = Nahrát { $files } z tohoto počítače na stránku
question-action-press-in = Stisknout { $key } v { $target }
question-action-press-on = Stisknout { $key } na { $target }
question-action-press-focused = Stisknout { $key } na { $target } (má fokus klávesnice)
question-action-press-nowhere = Stisknout { $key }, když nic nemá fokus

question-effect-opens = otevře se { $address }
question-effect-opens-tab = otevře se { $address } na nové kartě
question-effect-opens-download = otevře se { $address } (stažení)
question-effect-opens-tab-download = otevře se { $address } na nové kartě (stažení)
question-effect-sends-form = odešle svůj formulář na { $address }
question-effect-sends-field = odešle, co obsahuje
# $button: slova tlačítka vedle pole.
question-effect-presses-beside = nejspíš stiskne „{ $button }“ vedle něj
question-effect-submits-named = odešle formulář „{ $button }“
question-effect-submits-to = odešle formulář na { $address }
question-effect-acts-on-choice = stránka může na výběr hned reagovat
question-effect-may-delete = stránka to může vzít jako příkaz ke smazání
question-effect-may-command = stránka to může vzít jako příkaz
# $signal: slova stránky, která říkají, že zveřejňuje.
question-effect-publishes = zveřejní, co uloží (stránka říká „{ $signal }“)
# $address: kam byl formulář odeslán, když se stránka poprvé zobrazila.
question-effect-resends = znovu odešle formulář na { $address }
# $asks: slova vlastní otázky stránky, na kterou prvek odpovídá (dialog, odstavec nad „OK“), zkrácená.
question-effect-answers = odpoví na otázku stránky „{ $asks }“
# Dva z účinků výše, řečené spolu.
question-effects = { $first } a { $second }

question-key-enter = Enter
question-key-space = mezerník
question-key-delete = Delete
question-key-backspace = Backspace
question-key-tab = Tab
question-key-escape = Escape

question-open = Otevřít { $address }?
question-open-tab = Otevřít { $address } na nové kartě?
question-download = Stáhnout soubor?
question-download-on = Stáhnout soubor na { $site }?
question-act-unknown = Jednat? Waymark nepozná, na čem. Ano, nebo ne.
question-act-unknown-on = Jednat na { $site }? Waymark nepozná, na čem. Ano, nebo ne.
# $tool: jméno nástroje, jak ho zná model.
question-use-unknown = Použít { $tool }? Waymark nepozná, co by udělal. Ano, nebo ne.
question-use-unknown-on = Použít { $tool } na { $site }? Waymark nepozná, co by udělal. Ano, nebo ne.
# Data, která by odešla na web, který uživatel v tomto úkolu nejmenoval: $words jsou slova, která nejsou
# uživatelova (mohou pocházet ze stránky), $host web, kam by šla.
question-leaves-open = Otevřít { $address }? Odeslala by se slova, která nejsou vaše („{ $words }“), na { $host }, který jste nejmenovali. Ano, nebo ne.
# $action: co by se stalo („Kliknout na „Hledat“ (tlačítko)“); $site: web stránky.
question-leaves-typing = { $action } na { $site }? Co se tam napíše, půjde na { $host }, který jste nejmenovali: slova, která nejsou vaše („{ $words }“). Ano, nebo ne.
question-leaves-form = { $action } na { $site }? Odeslala by se slova, která nejsou vaše („{ $words }“), na { $host }, který jste nejmenovali. Ano, nebo ne.
# $tab: číslo karty, $title její název.
question-pinned-tab = Otevřít { $address } ve vaší připnuté kartě { $tab }, „{ $title }“, místo toho, co ukazuje?
question-second-tab = Karta { $tab }, „{ $title }“, už ukazuje { $site }. Přesto otevřít { $address } na nové kartě? Řekněte ne a použije se otevřená karta.
# Co uslyší model agenta, když uživatel řekl ne druhé kartě; $open je adresa otevřené karty.
question-second-tab-no = Neprovedeno: uživatel dává přednost otevřené kartě { $tab } („{ $title }“, { $open }). Přepněte na ni pomocí browser_switch_tab.
# $index: požadované číslo; $role a $name: co je pod tím číslem.
question-not-a-file-field = Číslo { $index } není pole pro soubory (je to „{ $name }“, { $role }). Nahrávejte do pole, které vybírá soubory.
# Nástroj externího serveru MCP: $tool jeho jméno, $server jméno serveru, $arguments co pro něj napsal
# model („text: "mléko"“).
question-external = Použít „{ $tool }“ ze serveru MCP „{ $server }“?
question-external-with = Použít „{ $tool }“ ze serveru MCP „{ $server }“ s tím, co napsal asistent ({ $arguments })?

## Strážce požadavků: zatímco Waymark jednal, stránka se pokusila poslat požadavek, který otázka
## k akci nepokrývala, a Waymark ho zastavil. $site: kam šel; $method: POST, DELETE…; $address: jeho
## cesta, se jmény parametrů dotazu, ale bez hodnot; $word: slovo, které říká, co dělá; $fields:
## question-request-fields, nebo nic.
question-request-deletes = Stránka se pokusila poslat požadavek, který něco maže (říká „{ $word }“), na { $site }: { $method } { $address }{ $fields }. Povolit ho jednou?
question-request-pays = Stránka se pokusila poslat požadavek, který platí nebo objednává (říká „{ $word }“), na { $site }: { $method } { $address }{ $fields }. Povolit ho jednou?
question-request-sends = Stránka se pokusila poslat požadavek, který něco odesílá nebo zveřejňuje (říká „{ $word }“), na { $site }: { $method } { $address }{ $fields }. Povolit ho jednou?
question-request-unknown = Stránka se pokusila poslat na { $site } požadavek, který Waymark neumí popsat: { $method } { $address }{ $fields }. Povolit ho jednou?
# $names: jména polí požadavku (nikdy jejich hodnoty), oddělená čárkami.
question-request-fields = , s poli { $names }
question-request-said-no = Neodesláno: řekli jste ne. Akce na stránce proběhla, ale její požadavek na { $site } byl zastaven.

## Vnější klienti MCP. $client: jméno, které si klient dává; $program: program, pod kterým běží,
## krátce (jméno spustitelného souboru a skript interpretu: „node client.mjs“); $path: celá cesta
## k programu (a argumenty interpretu až po skript); $user: kdo ho spouští.
question-admit-client = { $client } ({ $program }) chce přes Waymark používat váš prohlížeč. Povolit?
question-admit-unknown-client = { $client }, program, který Waymark nedokáže určit, chce přes Waymark používat váš prohlížeč. Ano platí jen pro toto spojení. Povolit?
question-client-refused = Neprovedeno: uživatel nepovolil klientovi { $client } používat tento prohlížeč. Povolit ho může po restartu prohlížeče.
# Co říká /details, zatímco je zobrazena otázka na souhlas.
question-client-detail = { $client } je program { $path }, který spouští uživatel { $user }. Vaše odpověď platí pro tento program do restartu prohlížeče; na jiný program se stejným jménem se Waymark zeptá znovu.
question-client-detail-no-user = { $client } je program { $path }. Vaše odpověď platí pro tento program do restartu prohlížeče; na jiný program se stejným jménem se Waymark zeptá znovu.
question-client-detail-unknown = Waymark nedokázal zjistit, který program na tomto počítači je { $client }, a tak vaše odpověď platí jen pro toto spojení.
# Otázka klienta k akci: $question je otázka.
question-client-asks = { $client } se ptá: { $question }
# Jméno klienta, když jiný program uvádí stejné.
question-client-program = { $client } ({ $program })
question-client-unidentified = { $client } (program, který Waymark nedokáže určit)

## Co uslyší ten, kdo žádal, když se nic nestalo.
question-said-no = Neprovedeno: řekli jste ne.
question-unanswered-expired = Neprovedeno: nikdo na otázku neodpověděl do 5 minut.
question-unanswered-page-changed = Neprovedeno: stránka se změnila dřív, než uživatel odpověděl, a tak akce už nemohla udělat, na co se otázka ptala.
question-unanswered-withdrawn = Neprovedeno: otázka byla stažena dřív, než uživatel odpověděl.
question-unanswered-stopped = Neprovedeno: uživatel zastavil agenta dřív, než odpověděl.

## Při ano se akce popíše znovu; když už by neudělala, co říkala otázka (seznam překreslil své řádky
## na místě), nic se nestane a uživatel je dotázán znovu a nejdřív uslyší, co se změnilo. $question je
## nová otázka, $change jedna z question-changed-*; $now a $before jsou text stránky nebo adresy.
question-changed = Stránka se od otázky změnila: { $change }. { $question }
question-changed-item = teď působí na „{ $now }“, ne na „{ $before }“
question-changed-item-gone = už nepůsobí na „{ $before }“
question-changed-words = prvek teď říká „{ $now }“, ne „{ $before }“
question-changed-asks = otázka stránky teď říká „{ $now }“
question-changed-destination = teď vede na { $now }, ne na { $before }
question-changed-form = teď odesílá svůj formulář na { $now }
question-changed-option = teď by vybral „{ $now }“, ne „{ $before }“
