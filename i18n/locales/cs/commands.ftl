# Příkazy panelu: /help, neznámý příkaz a jak příkaz použít, když byl řečen špatně. Příkazy mají
# v každém jazyce svá anglická jména; kde má čeština vlastní tvar (/ano, /ne, /hotovo, /stop), je
# uveden vedle (tyto tvary jsou v input.ftl).

# $commands: řádky níže spojené „; “.
help = Příkazy: { $commands }.
command-chat = /chat: režim chatu: co napíšete, jde agentovi, až do /exit
command-exit = /exit: opustit režim chatu
command-list = /list: očíslovat ovládací prvky stránky a přečíst prvních deset (/list all: všechny)
command-click = /click N: kliknout na prvek s číslem N
command-type = /type N text: napsat text do pole N místo toho, co v něm je
command-select = /select N možnost: vybrat možnost seznamu N podle jejího jména
command-set = /set N hodnota: nastavit hodnotu posuvníku, číselníku nebo hodnocení N, třeba /set 5 40
command-rightclick = /rightclick N: kliknout pravým tlačítkem na prvek N a otevřít místní nabídku stránky (také /menu N)
command-hover = /hover N: nechat ukazatel na prvku N a otevřít, co se při najetí otevírá
command-more = /more: další část posledního seznamu
command-details = /details: víc o poslední odpovědi (třeba který hostitel odpověděl na /ping)
command-find = /find text: najít prvky podle jména
command-read = /read: krátké shrnutí stránky
command-scroll = /scroll: up, down, top nebo bottom (nahoru, dolů, na začátek, na konec), případně číslo: posunout stránku nebo tu oblast
command-press = /press: klávesa, případně číslo: stisknout Enter, Tab, Escape, mezerník nebo šipku
command-go = /go adresa: otevřít webovou adresu
command-back = /back: o stránku zpět
command-forward = /forward: o stránku vpřed
command-reload = /reload: načíst stránku znovu
command-tabs = /tabs: vypsat karty tohoto okna
command-tab = /tab N: přepnout na kartu N
command-wait = /wait: počkat, až se stránka přestane měnit
command-banners = /banners: zavřít lišty o cookies, souhlasu a newsletterech, kde to jde, volbou odmítnout
command-next = /next, případně role: přesunout fokus klávesnice na další prvek (nebo další tlačítko, odkaz…)
command-prev = /prev, případně role: přesunout fokus klávesnice na předchozí prvek
command-stop = /stop: hned zastavit agenta (také stop nebo Escape, když pracuje); řekněte pokračuj a bude pokračovat
command-yes = /yes nebo /ano: odpovědět ano na otázku Waymarku
command-no = /no nebo /ne: odpovědět ne na otázku Waymarku
command-done = /done nebo /hotovo: dokončili jste krok, který vám Waymark nechal (přihlášení, captchu, kód)
command-overlay = /overlay on nebo off: zobrazit nebo skrýt čísla na stránce
command-ping = /ping: ověřit, že hostitel Waymark odpovídá, a který je to proces
command-settings = /settings: otevřít nastavení: LLM, limit kroků a kontroly
command-window = /window: otevřít Waymark ve vlastním okně vedle stránky (cesta pro uživatele Orcy)
command-keys = /keys: klávesové zkratky, a které nejsou nastavené
command-help = /help: vypsat příkazy
# $name: co uživatel napsal; $suggestion: nejbližší známý příkaz.
command-unknown = Neznámý příkaz { $name }. Seznam příkazů vypíše /help.
command-unknown-suggest = Neznámý příkaz { $name }. Mysleli jste { $suggestion }? Seznam příkazů vypíše /help.
usage-click = Napište /click a číslo, třeba /click 12.
usage-type = Napište /type, číslo a text, třeba /type 4 ahoj.
usage-select = Napište /select, číslo a možnost, třeba /select 7 Velká.
usage-set = Napište /set, číslo a hodnotu, třeba /set 5 40.
usage-rightclick = Napište /rightclick a číslo, třeba /rightclick 12.
usage-hover = Napište /hover a číslo, třeba /hover 12.
usage-find = Napište /find a několik slov ze jména prvku, třeba /find košík.
usage-go = Napište /go a adresu, třeba /go example.com.
usage-tab = Napište /tab a číslo z /tabs, třeba /tab 2.
usage-scroll = Napište /scroll up, down, top nebo bottom (nahoru, dolů, na začátek, na konec) a případně číslo.
usage-press = Napište /press a klávesu, třeba /press Enter, nebo /press Enter 4 pro prvek 4.
usage-overlay = Napište /overlay on nebo /overlay off.
