# Věty agenta pro uživatele v režimu chatu: průběh (stavová oblast), popis každého kroku (události
# nástrojů), jeho zprávy, zastavení a limit kroků, a server modelu, který selhává.
# $index je číslo ovládacího prvku, $address webová adresa, $tool jméno nástroje, jak ho zná model.

## Co krok právě dělá („Klikám na 12“), řečeno předtím, než proběhne.
agent-progress-list = Čtu ovládací prvky stránky
# $what: hledaná slova nebo role.
agent-progress-find = Hledám { $what }
agent-progress-find-controls = Hledám ovládací prvky
agent-progress-extract = Čtu stránku
# $direction: up, down, top nebo bottom.
agent-progress-scroll = Posouvám { $direction ->
    [up] nahoru
    [down] dolů
    [top] na začátek
   *[bottom] na konec
}
agent-progress-click = Klikám na { $index }
agent-progress-type = Píšu do { $index }
agent-progress-choose = Vybírám možnost v { $index }
agent-progress-right-click = Klikám pravým tlačítkem na { $index }
agent-progress-hover = Ukazuji na { $index }
agent-progress-set = Nastavuji hodnotu { $index }
# $key: klávesa, jak ji pojmenoval model.
agent-progress-press = Mačkám { $key }
agent-progress-open = Otevírám { $address }
agent-progress-open-tab = Otevírám { $address } na nové kartě
agent-progress-back = Jdu zpět
agent-progress-forward = Jdu vpřed
agent-progress-reload = Načítám stránku znovu
agent-progress-wait = Čekám na stránku
agent-progress-tabs = Vypisuji karty
agent-progress-switch-tab = Přepínám na kartu { $index }
agent-progress-show-numbers = Zobrazuji čísla
agent-progress-hide-numbers = Skrývám čísla
agent-progress-describe = Prohlížím { $index }
agent-progress-preview = Zjišťuji, co by akce udělala
agent-progress-find-banners = Hledám lišty
agent-progress-close-banners = Zavírám lišty
agent-progress-click-at = Klikám na { $index } na jeho místě na obrazovce
agent-progress-type-at = Píšu do { $index } na jeho místě na obrazovce
agent-progress-choose-at = Vybírám možnost v { $index } na jeho místě na obrazovce
agent-progress-focus-next = Posouvám fokus dopředu
agent-progress-focus-prev = Posouvám fokus zpět
agent-progress-screenshot = Pořizuji snímek obrazovky
# $files: cesty k souborům oddělené čárkami.
agent-progress-upload = Nahrávám { $files } do { $index }
agent-progress-download = Klikám na { $index } a čekám na stažení
agent-progress-download-wait = Čekám na stažení
agent-progress-external = Používám nástroj { $tool }
agent-progress-admit = Povoluji klientovi { $client } používat prohlížeč
agent-progress-look-again = Znovu se dívám na stránku

## Jak krok dopadl (události nástrojů a seznamy kroků v souhrnu po zastavení a po limitu kroků).
# $count: kolik ovládacích prvků stránka má.
agent-summary-controls = { $count ->
    [one] { $count } ovládací prvek
    [few] { $count } ovládací prvky
   *[other] { $count } ovládacích prvků
}
agent-summary-found = nalezeno: { $count }
agent-summary-read = stránka přečtena
# $step: co krok udělal (agent-progress-*).
agent-summary-done = { $step }: hotovo
agent-summary-failed = { $step }: nepodařilo se
agent-summary-stopped = { $step }: zastaveno dřív, než byl znám výsledek
agent-summary-unusable = { $step }: nepoužitelné
# $step: co krok udělal; $outcome: jak dopadl.
agent-summary-step = { $step }: { $outcome }
agent-summary-said-yes = Hotovo, jak jste potvrdili.
agent-summary-waiting = čeká na vaše ano, nebo ne
# $names: stisknutá tlačítka lišt oddělená středníky.
agent-summary-banners = zavřeno: { $names }

## Vlastní zprávy agenta.
agent-done = Hotovo.
agent-ask = Co mám udělat dál?
agent-busy = Ještě pracuji na vaší poslední zprávě. Počkejte, až skončím, nebo řekněte stop.
agent-idle = Agent teď na ničem nepracuje.
# $length: délka zprávy ve znacích; $max: nejvíc, co agent přijme.
agent-too-long = Vaše zpráva má { $length } znaků; agent přijme nejvýše { $max }. Nic jsem mu neposlal. Zkraťte zprávu, nebo ji rozdělte na části.
agent-question-lost = Ta otázka se ztratila, když se Waymark znovu spustil, a tak se nic nestalo. Pokračujte novou zprávou.
# Slova modelu o kroku, který nechává na uživateli ($what).
agent-handoff-model = Asistent říká: { $what }
agent-handoff-unsaid = Na stránce je krok, který můžete udělat jen vy.
# $what: krok ponechaný uživateli, jak ho říká gate-handoff-* nebo agent-handoff-*.
agent-handoff-say-done = { $what } Až budete hotovi, řekněte hotovo.
# Pro model, jako výsledek kroku, který uživatel zastavil.
agent-step-stopped-result = Uživatel zastavil agenta dřív, než přišel výsledek tohoto kroku; mohl, ale nemusel proběhnout. Než budete znovu jednat, podívejte se na stránku.
# $problem: co se pokazilo s externím serverem MCP.
agent-mcp-server-failed = { $problem }. Jeho nástroje nejsou k dispozici. Zkontrolujte [[mcp_servers]] v config.toml.

## Zastavení. $done: dosud hotové kroky oddělené středníky.
agent-stopped = Zastaveno. Zatím hotovo: { $done }. Řekněte pokračuj a budu pokračovat.
agent-stopped-before-any-step = Zastaveno před prvním krokem. Řekněte pokračuj a budu pokračovat.

## Limit kroků, každá věta zvlášť.
agent-limit-planned = Dlouho jsem plánoval a nic nedělal, a tak jsem se zastavil, abych se vás zeptal.
# $steps: kolik kroků proběhlo (limit).
agent-limit-steps = { $steps ->
    [one] Udělal jsem { $steps } krok, svůj limit na jednu zprávu, a zastavil jsem se, abych se vás zeptal.
    [few] Udělal jsem { $steps } kroky, svůj limit na jednu zprávu, a zastavil jsem se, abych se vás zeptal.
   *[other] Udělal jsem { $steps } kroků, svůj limit na jednu zprávu, a zastavil jsem se, abych se vás zeptal.
}
agent-limit-did = Co jsem udělal: { $done }.
agent-limit-all-worked = { $count ->
    [one] Ten { $count } krok se podařil.
    [few] Všechny { $count } kroky se podařily.
   *[other] Všech { $count } kroků se podařilo.
}
# $worked: kolik kroků se podařilo; $failed: ty, které ne, oddělené středníky.
agent-limit-some-failed = Podařilo se: { $worked }. Tyto ne: { $failed }.
agent-limit-found = Co jsem zjistil: { $facts }.
agent-limit-next = Dál bych: { $next }.
agent-limit-next-goal = Dál bych pokračoval v úkolu „{ $goal }“.
agent-limit-go-on = Mám pokračovat? Řekněte pokračuj, nebo mi řekněte, co změnit.
