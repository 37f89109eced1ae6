# Что говорят инструменты страницы: нумерованный список, итог каждого инструмента и почему он не
# сработал. Это слышит пользователь в панели, а модель и клиенты MCP получают как результат.

## Нумерованный список.

list-empty = На странице «{ $title }» не найдено элементов.
list-whole = { $total ->
    [one] { $total } элемент на странице «{ $title }»:
    [few] { $total } элемента на странице «{ $title }»:
    [many] { $total } элементов на странице «{ $title }»:
   *[other] { $total } элемента на странице «{ $title }»:
}
list-page = { $total ->
    [one] { $total } элемент на странице «{ $title }», с { $first } по { $last }:
    [few] { $total } элемента на странице «{ $title }», с { $first } по { $last }:
    [many] { $total } элементов на странице «{ $title }», с { $first } по { $last }:
   *[other] { $total } элемента на странице «{ $title }», с { $first } по { $last }:
}
list-item = { $index }, { $role }, { $name }
list-item-unnamed = { $index }, { $role }, без названия
list-item-value = значение { $value }
list-item-context = в «{ $context }»
list-item-more = , { $part }
list-more = Дальше ещё { $left }: введите /more.
list-no-more = Это был весь список.
list-nothing-to-continue = Нет списка, который можно продолжить: сначала введите /list.
list-unreadable = Не удалось прочитать список элементов страницы.
found-none = Нет элементов, подходящих под «{ $text }». Введите /list, чтобы услышать все.
found-heading = { $count ->
    [one] По запросу «{ $text }» найден { $count } элемент:
    [few] По запросу «{ $text }» найдено { $count } элемента:
    [many] По запросу «{ $text }» найдено { $count } элементов:
   *[other] По запросу «{ $text }» найдено { $count } элемента:
}

## Что сделано с элементом.

acted-click = Нажато: { $index }, { $role }, { $name }.
acted-type = Текст введён: { $index }, { $role }, { $name }.
acted-select = Выбрано «{ $option }»: { $index }, { $role }, { $name }.
acted-right-click = Нажато правой кнопкой: { $index }, { $role }, { $name }.
acted-hover = Указатель наведён: { $index }, { $role }, { $name }.
acted-set = Задано значение { $value }: { $index }, { $role }, { $name }.
acted-done = Готово.
acted-unchanged = { $done } На странице ничего не изменилось.
acted-leaving = { $done } Загружается другая страница.
focus-on = Фокус на { $index }, { $role }, { $name }.
focus-none = Больше некуда перейти. Введите /list, чтобы услышать элементы.
tool-described = Описано.
tool-looked-for-banners = Баннеры просмотрены.
scroll-at-top = Уже в начале.
scroll-at-bottom = Уже в конце: прокручивать больше некуда.
scroll-up = Прокручено вверх.
scroll-down = Прокручено вниз. Введите /list, чтобы услышать видимые теперь элементы.
scroll-top = Прокручено в начало.
scroll-bottom = Прокручено в конец.
key-space = Пробел
press-submitted = Нажата клавиша { $key }: форма отправлена.
press-activated = Нажата клавиша { $key }: элемент сработал.
press-focus-moved = Нажата клавиша { $key }: фокус переместился.
press-done = Нажата клавиша { $key }.
wait-settled = Страница успокоилась.
wait-still-changing = Страница всё ещё меняется; Waymark перестал ждать.
picture-taken = Снимок экрана сделан.
picture-taken-size = Снимок экрана сделан, { $width } на { $height } пикселей.
banners-none = Нет баннеров, которые нужно закрыть.
banners-closed = { $count ->
    [one] Закрыт { $count } баннер: { $buttons }.
    [few] Закрыто { $count } баннера: { $buttons }.
    [many] Закрыто { $count } баннеров: { $buttons }.
   *[other] Закрыто { $count } баннера: { $buttons }.
}
upload-done = { $count ->
    [one] В поле { $index } добавлен { $count } файл: { $files }.
    [few] В поле { $index } добавлено { $count } файла: { $files }.
    [many] В поле { $index } добавлено { $count } файлов: { $files }.
   *[other] В поле { $index } добавлено { $count } файла: { $files }.
}
download-finished = Загрузка завершена.
download-done = Загружен файл { $name }, { $size }.
size-bytes = { $count ->
    [one] { $count } байт
    [few] { $count } байта
    [many] { $count } байт
   *[other] { $count } байта
}
size-kb = { $count } КБ
size-mb = { $whole },{ $tenth } МБ
read-unreadable = Не удалось прочитать страницу.
read-page = «{ $title }», адрес { $url }.
read-headings = Заголовки: { $headings }.
read-text = Текст: { $text }

## Вкладки и адреса.

tabs-none = В этом окне не открыто ни одной веб-страницы.
tabs-heading = { $count ->
    [one] { $count } вкладка:
    [few] { $count } вкладки:
    [many] { $count } вкладок:
   *[other] { $count } вкладки:
}
tabs-line = { $index }, { $title }
tabs-current = текущая
tabs-pinned = закреплена
tabs-switched = Открыта вкладка { $index }, «{ $title }».
tabs-missing = Вкладки { $index } нет: { $count ->
    [one] всего { $count } вкладка.
    [few] всего { $count } вкладки.
    [many] всего { $count } вкладок.
   *[other] всего { $count } вкладки.
} Введите /tabs, чтобы их услышать.
tabs-unlisted = Не удалось получить список вкладок: { $why }
tabs-switch-failed = Не удалось переключить вкладку: { $why }
go-opened = Открыта страница «{ $title }» ({ $url }).
go-went-back = Назад, на страницу «{ $title }» ({ $url }).
go-went-forward = Вперёд, на страницу «{ $title }» ({ $url }).
go-reloaded = Страница «{ $title }» перезагружена ({ $url }).
go-then-list = { $done } Введите /list, чтобы услышать её элементы.
go-then-list-loading = { $done } Она ещё загружается. Введите /list, чтобы услышать её элементы.
go-new-tab = Открыта новая вкладка.
go-script-refused = Waymark не открывает адреса скриптов и данных.
go-failed = Браузер не перешёл по адресу: { $why }
go-new-tab-failed = Не удалось открыть новую вкладку: { $why }
