# `waymark-host install` и `uninstall` в терминале, на языке терминала (его локали: LC_ALL,
# LC_MESSAGES, LANG).

## Списки браузеров.
cli-list-two = { $first } и { $last }
cli-list-more = { $rest } и { $last }
cli-list-or-two = { $first } или { $last }
cli-list-or-more = { $rest } или { $last }

## Вопрос, который install задаёт без --browser.
cli-ask-which = Каким браузерам разрешить запускать хост Waymark?
cli-ask-found = { $number }. { $browser } (найден)
cli-ask-not-found = { $number }. { $browser } (не найден)
cli-ask-how = Введите номера или названия, например: 1 3 или: chrome edge. Или введите «все» или «нет».
cli-ask-enter-none = Если просто нажать Enter, ничего не будет зарегистрировано: браузеры не найдены.
cli-ask-enter-found = Если просто нажать Enter, будут зарегистрированы найденные: { $browsers }.
cli-ask-prompt = Браузеры:
cli-ask-none-alone = «нет» нельзя сочетать с браузерами; введите его отдельно.
cli-ask-unknown = «{ $answer }» — это не 1, 2, 3, chrome, chromium, edge, «все» и не «нет».

## Что сделал install.
cli-install-nothing = ничего не зарегистрировано; чтобы выбрать браузеры, снова выполните waymark-host install
cli-install-stopped = остановлено: ничего не зарегистрировано
cli-install-one-browser = папка профиля принадлежит одному браузеру: с --user-data-dir укажите не больше одного --browser
cli-install-where-am-i = не удаётся узнать, где лежит эта программа waymark-host
cli-install-id-added = расширению { $id } теперь можно пользоваться этим хостом (записано в { $path })
cli-install-registered = { $host } зарегистрирован для { $browser }: { $path }
cli-install-registered-profile = { $host } зарегистрирован для профиля: { $path }
cli-install-registry-key = и на него указывает раздел реестра { $key }
cli-install-recorded = записано в { $path }; `waymark-host uninstall` всё это удалит
cli-install-recorded-system = записано в { $path }; `waymark-host uninstall --system` всё это удалит
cli-install-note-windows-profile = учтите: в Windows браузеры находят хосты через реестр, а не через папку профиля

## Что сделал uninstall, по строке на шаг.
cli-removed-file = удалён { $path }
cli-removed-file-for = удалён { $path } ({ $browsers })
cli-removed-key = удалён раздел реестра { $key }
cli-removed-dir = удалена папка { $path }, созданная при установке
cli-removed-id = расширению { $id } больше нельзя пользоваться этим хостом (удалено из { $path })
cli-removed-store = удалён опустевший { $path }
cli-already-gone = { $path } уже не было
cli-key-already-gone = раздела реестра { $key } уже не было
cli-left-not-ours = { $path } оставлен на месте: это больше не манифест хоста Waymark
cli-left-key-other = раздел реестра { $key } оставлен на месте: теперь он указывает на другой манифест
cli-left-key-not-windows = раздел реестра { $key } оставлен на месте: реестр есть только в Windows
cli-remove-failed = не удалось удалить { $path }: { $detail }
cli-remove-key-failed = не удалось удалить раздел реестра { $key }: { $detail }
cli-nothing-recorded = в { $record } ничего не записано
cli-nothing-recorded-for = для { $browsers } в { $record } ничего не записано
cli-nothing-recorded-profile = для папки профиля { $path } в { $record } ничего не записано
cli-uninstall-system-too = то, что install --system записал для всех пользователей, удаляет команда sudo waymark-host uninstall --system
cli-uninstall-failed = некоторые регистрации удалить не удалось; они остаются в записи, и uninstall сможет попробовать снова

## Почему install или uninstall не смогли это сделать.
cli-error-bad-id = «{ $id }» — не идентификатор расширения: он состоит из 32 букв от a до p
cli-error-relative-host = путь к хосту { $path } не абсолютный, а браузерам нужен абсолютный путь
cli-error-no-home = не найдена ваша домашняя папка: задайте HOME
cli-error-no-choice = какие браузеры? install спрашивает только в терминале, а это не терминал: укажите --browser chrome, chromium или edge (несколько: --browser chrome,edge) или --browser all; здесь не найдено ни Chrome, ни Chromium, ни Edge
cli-error-no-choice-found = какие браузеры? install спрашивает только в терминале, а это не терминал: укажите --browser chrome, chromium или edge (несколько: --browser chrome,edge) или --browser all; здесь найдены: { $browsers }
cli-error-other-id-system = --extension-id { $id } нельзя зарегистрировать для всех пользователей: хост, запущенный для каждого пользователя, обслуживает только идентификаторы Waymark и те, что зарегистрировал этот пользователь; выполните `waymark-host install --extension-id { $id }` от имени этого пользователя
cli-error-needs-admin = не удаётся записать { $path }: доступ запрещён; для регистрации для всех пользователей нужны права root (sudo waymark-host install --system …), а в Windows — администратора
cli-error-write = не удаётся записать { $path }: { $detail }
cli-error-registry = не удаётся указать в разделе реестра { $key } путь к манифесту: { $detail }
cli-error-record-read = не удаётся прочитать запись о том, что записал install, { $path }: { $detail }
cli-error-record-parse = запись о том, что записал install, { $path }, не читается ({ $detail }); уберите её, чтобы начать новую (перечисленные в ней файлы тогда останутся, пока вы их не удалите)
cli-error-record-write = не удаётся сохранить запись о том, что записал install, { $path }: { $detail }
cli-install-none-found = здесь не найдены ни Chrome, ни Chromium, ни Edge, поэтому ни один не зарегистрирован; после установки браузера: waymark-host install --browser found
