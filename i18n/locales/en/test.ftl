# Messages the catalogue's own tests say; nothing else uses them.

test-items = { $count ->
    [one] { $count } item
   *[other] { $count } items
}
