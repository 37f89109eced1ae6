# Slova, která píše uživatel, ne slova, která říká Waymark: každá zpráva vyjmenovává, oddělené
# čárkami, co může uživatel v tomto jazyce napsat se stejným významem, samostatně na řádku nebo za
# lomítkem (jako /hotovo). Na velikosti písmen, mezerách a tečce na konci nezáleží. Anglická jména
# příkazů fungují v každém jazyce; tady jsou české tvary vedle nich.

# Odpovědi na otázku Waymarku za lomítkem: /ano, /ne.
input-yes = ano
input-no = ne
# Zatímco na uživatele čeká krok: krok je hotový (jako /done).
input-done = hotovo, mám hotovo, je hotovo, dokončeno, splněno
# Agent se hned zastaví (jako /stop).
input-stop = zastav, stop, zastavit, dost, přestaň
# Odpovědi na otázku v terminálu, které prohlížeče smějí spouštět hostitele: všechny, nebo žádný.
input-cli-all = vše, všechny
input-cli-none = nic, žádný
