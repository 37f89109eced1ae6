# Věty postranního panelu: co od chatu Waymarku slyší uživatel čtečky obrazovky.

## Stavový řádek: spojení s hostitelem, pak stav agenta.

status-connecting = Připojuji se k hostiteli Waymark…
# Krátce: říká se pokaždé, když se otevře okno nebo panel Waymarku. Verzi hostitele řekne /details.
status-connected = Připojeno.
# $package: jméno balíčku hostitele; $command: příkaz, který ho nainstaluje ze zdrojů.
status-not-installed = Hostitel Waymark není pro tento prohlížeč nainstalován. Nainstalujte balíček { $package }, nebo ze zdrojů spusťte { $command }
# $command: příkaz, který toto rozšíření povolí (je v něm jeho ID a tento prohlížeč).
status-forbidden = Zdejší hostitel Waymark toto rozšíření nepovoluje. Povolíte ho v terminálu příkazem: { $command }
# $version: verze hostitele; $host_protocol a $protocol: čísla protokolu hostitele a rozšíření.
status-incompatible = Hostitel Waymark { $version } mluví protokolem { $host_protocol }, ale toto rozšíření protokolem { $protocol }. Nainstalujte stejnou verzi obojího (balíček { $package } a rozšíření, nebo ze zdrojů { $command })
# $reason: proč (jedna ze zpráv níže, nebo vlastní slova prohlížeče pro důvod, který Waymark nezná).
status-disconnected = Hostitel Waymark se odpojil ({ $reason }); připojuji se znovu…
status-host-exited = program hostitele skončil
status-host-failed-to-start = prohlížeč nemohl spustit program hostitele
status-host-unreadable = prohlížeč se s programem hostitele nedomluvil
status-host-closed = hostitel zavřel spojení
status-host-silent = hostitel neodpověděl do { $seconds ->
    [one] { $seconds } sekundy
    [few] { $seconds } sekund
   *[other] { $seconds } sekund
}
agent-state-running = Agent pracuje…
agent-state-idle = Agent je připraven.
agent-state-waiting = Agent čeká na vás.
agent-state-error = Agent se zastavil na chybě.

## Odpovědi v přepisu. Hodnoty: $ms milisekundy, $version verze hostitele, $pid číslo jeho procesu.

pong = Pong, { $ms } ms.
pong-detail = Hostitel Waymark { $version }, proces { $pid }, odpověděl za { $ms } ms.
panel-no-details = K poslední odpovědi už nemám co dodat.
panel-ping-timeout = Hostitel neodpověděl na /ping do { $seconds ->
    [one] { $seconds } sekundy.
    [few] { $seconds } sekund.
   *[other] { $seconds } sekund.
}
# $message: vlastní věta hostitele.
panel-host-error = Hostitel hlásí chybu: { $message }
# $reason: stavový řádek spojení, nebo zpráva níže.
panel-not-delivered = Hostitel není k zastižení: { $reason }. Waymark to sám zkouší dál.
panel-worker-reconnecting = panel se znovu připojuje k service workeru
panel-chat-unavailable = To není příkaz. Chcete-li dát agentovi úkol, napište nejdřív /chat. Příkazy vypíše /help.
panel-chat-on = Režim chatu: vaše zprávy jdou agentovi. Odejdete příkazem /exit.
panel-chat-off = Režim chatu vypnut: pište příkazy, nebo /chat pro další rozhovor s agentem.
# $text: vlastní věta agenta.
agent-stopped-error = Agent se zastavil: { $text }
# Zobrazeno, nikdy nevysloveno, nad tím, co uživatel napsal ($text).
panel-you-said = Vy: { $text }
overlay-shown = Čísla jsou na stránce zobrazena.
overlay-hidden = Čísla skryta.
question-closed-expired = Otázka byla stažena: nikdo na ni včas neodpověděl. Nic se nestalo.
question-closed-page-changed = Otázka byla stažena: stránka, které se týkala, se změnila. Nic se nestalo.
question-closed-withdrawn = Otázka byla stažena: ten, kdo se ptal, přestal čekat. Nic se nestalo.
question-closed-stopped = Otázka byla stažena: zastavili jste agenta. Nic se nestalo.
panel-opening-settings = Otevírám nastavení Waymarku na nové kartě.
panel-no-manual-step = Žádný krok nečeká, až ho dokončíte.
panel-nothing-to-answer = Žádná otázka nečeká na odpověď.
panel-answer-refused = Ta otázka už není otevřená: tato odpověď nic neudělala.
panel-tool-timeout = Stránka neodpověděla do { $seconds ->
    [one] { $seconds } sekundy.
    [few] { $seconds } sekund.
   *[other] { $seconds } sekund.
}
panel-page-error = Stránka hlásí chybu.
# Co udělal vnější klient MCP, nebo proč se to nestalo: $source jeho jméno, $summary věta hostitele
# (věta o neúspěchu sama říká, že se nic nestalo).
client-activity = { $source }: { $summary }

## Klávesové zkratky (/keys) a vlastní okno Waymarku.

shortcut-confirm = ano
shortcut-reject = ne
shortcut-manual-done = hotovo
shortcut-open-window = Waymark ve vlastním okně
shortcut-side-panel = postranní panel
shortcut-toggle-overlay = zapnout nebo vypnout čísla
shortcut-stop-agent = zastavit agenta
# Jedna zkratka z /keys: $name co dělá, $key její klávesy.
shortcut-key = { $name }: { $key }
shortcut-unset = { $name }: nenastaveno
# $shortcuts: řádky výše, spojené „; “.
shortcuts = Zkratky: { $shortcuts }. Změníte je na chrome://extensions/shortcuts (Edge: edge://extensions/shortcuts).
# $names: jména nenastavených zkratek, spojená „, “.
shortcuts-unset = Tyto zkratky nejsou nastaveny: { $names }. Nastavíte je na chrome://extensions/shortcuts (Edge: edge://extensions/shortcuts); /keys vypíše všechny.
window-opening = Otevírám Waymark ve vlastním okně.
window-already = Toto je vlastní okno Waymarku. Jeho zkratka vás vrátí na stránku; /keys řekne, která to je.
# Řečeno, když se v Linuxu otevře postranní panel. $key: zkratka, která otevře vlastní okno Waymarku.
panel-orca-side-panel = S Orcou je stránka tichá, dokud je otevřen tento postranní panel. { $key } místo toho otevře Waymark ve vlastním okně a vrátí vás na stránku.
panel-orca-side-panel-no-key = S Orcou je stránka tichá, dokud je otevřen tento postranní panel. /window místo toho otevře Waymark ve vlastním okně.

## Přehled činnosti pro vidící pomocníky: $tool jméno nástroje, $summary co udělal, $text zpráva.

activity-ok = v pořádku
activity-failed = nepodařilo se
activity-agent-tool = Agent, { $tool }, { $outcome }: { $summary }
activity-client-tool = { $source }, { $tool }, { $outcome }: { $summary }
activity-question = Otázka: { $text }
activity-step = Krok pro vás: { $text }
activity-answer = Odpověď: { $answer }
activity-answer-yes = ano
activity-answer-no = ne
activity-answer-done = hotovo
activity-answer-withdrawn = staženo
activity-error = Chyba: { $text }
activity-stopped = Zastavení: { $text }

## Vlastní slova stránky postranního panelu (sidepanel.html).

page-panel-title = Waymark
page-panel-settings-link = Nastavení
page-panel-conversation = Konverzace
page-panel-activity = Činnost
page-panel-no = Ne
page-panel-yes = Ano
page-panel-message = Zpráva nebo příkaz
page-panel-send = Odeslat
page-panel-hint = Příkazy vypíše /help.
