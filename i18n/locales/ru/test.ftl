# Messages the catalogue's own tests say; nothing else uses them.

test-items = { $count ->
    [one] { $count } элемент
    [few] { $count } элемента
    [many] { $count } элементов
   *[other] { $count } элемента
}
