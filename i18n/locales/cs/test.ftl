# Zprávy, které říkají testy samotného katalogu; nic jiného je nepoužívá.

test-items = { $count ->
    [one] { $count } položka
    [few] { $count } položky
   *[other] { $count } položek
}
