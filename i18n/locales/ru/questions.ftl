# Вопросы шлюза политики (звучат в области оповещений панели) и то, что слышит спросивший, когда
# ничего не сделано (результат инструмента: панель пользователя, модель агента, внешний клиент MCP).
# Значения: $target — элемент, как его называет question-target; $address — адрес; $site — имя сайта
# («shop.example»); $key — клавиша (question-key-*); текст страницы приходит уже очищенным.

## Вопрос — это действие, иногда его последствие, иногда сайт. Он кончается вопросительным знаком и звучит как вопрос; он показан в диалоге с кнопками «Нет» и «Да» (до них доходит Tab, работают и сочетания клавиш для ответа), поэтому «Да или нет» завершает только вопрос, кончающийся утверждением.
question-do = { $action }?
question-do-on = { $action } на сайте { $site }?
question-do-effect = { $action }: { $effect }. Да или нет?
question-do-effect-on = { $action } на сайте { $site }: { $effect }. Да или нет?
# Сайт, который называет вопрос: имя хоста ($host, например «shop.example») и, если страница даёт сайту
# имя, которого нет в имени хоста, это имя ($name, текст страницы).
question-site-named = { $host } («{ $name }»)
# Что говорит /details, пока показан вопрос о странице; $address — полный адрес страницы.
question-detail-page = Вопрос о странице { $address }

## Элемент: имя, роль (как её называет программа экранного доступа) и надпись, если она другая.
question-target = «{ $name }» ({ $role })
question-target-shows = «{ $name }» ({ $role }, надпись «{ $shows }»)
question-element = элемент
# Предмет, над которым действует элемент, после элемента ($target): $item — текст страницы (слова
# строки, заголовок карточки), $place — одно из question-where-*.
question-target-for = { $target } для «{ $item }»
question-target-for-at = { $target } для «{ $item }» ({ $place })
# О чём элемент, говорит только заголовок над ним.
question-target-under = { $target } в разделе «{ $item }»
# $position — место строки или пункта, с 1; $of — название таблицы или списка (текст страницы).
question-where-row = строка { $position }
question-where-row-of = строка { $position } в «{ $of }»
question-where-item = пункт { $position }
question-where-item-of = пункт { $position } в «{ $of }»

question-action-back = Вернуться назад
question-action-forward = Перейти вперёд
question-action-reload = Обновить страницу
question-action-click = Нажать { $target }
question-action-type = Ввести текст в { $target }
question-action-type-enter = Ввести текст в { $target } и нажать Ввод
question-action-choose = Выбрать «{ $option }» в { $target }
question-action-download = Нажать { $target }, чтобы скачать файл
question-action-right-click = Нажать правой кнопкой { $target }
question-action-hover = Навести указатель на { $target }
question-action-set = Задать { $target } значение «{ $value }»
question-action-upload = Загрузить { $files } с этого компьютера в { $target }
question-action-upload-page = Загрузить { $files } с этого компьютера на страницу
question-action-press-in = Нажать { $key } в { $target }
question-action-press-on = Нажать { $key } на { $target }
question-action-press-focused = Нажать { $key } на { $target } (там фокус клавиатуры)
question-action-press-nowhere = Нажать { $key }, когда фокус ни на чём

question-effect-opens = это откроет { $address }
question-effect-opens-tab = это откроет { $address } в новой вкладке
question-effect-opens-download = это откроет { $address } (скачивание)
question-effect-opens-tab-download = это откроет { $address } в новой вкладке (скачивание)
question-effect-sends-form = это отправит форму на { $address }
question-effect-sends-field = это отправит то, что написано в поле
question-effect-presses-beside = это, скорее всего, нажмёт «{ $button }» рядом
question-effect-submits-named = это отправит форму «{ $button }»
question-effect-submits-to = это отправит форму на { $address }
question-effect-acts-on-choice = страница может сразу выполнить выбранное
question-effect-may-delete = страница может принять это за команду удаления
question-effect-may-command = страница может принять это за команду
question-effect-publishes = это опубликует сохраняемое (на странице написано «{ $signal }»)
question-effect-resends = это снова отправит форму на { $address }
# $asks — слова собственного вопроса страницы, на который отвечает элемент (диалог, абзац над «ОК»),
# сокращённые.
question-effect-answers = это ответ на вопрос страницы «{ $asks }»
# Два последствия из перечисленных выше вместе.
question-effects = { $first }, и { $second }

# Клавиши: Ввод и Пробел — как их называют программы экранного доступа; остальные — надписи на клавишах.
question-key-enter = Ввод
question-key-space = Пробел
question-key-delete = Delete
question-key-backspace = Backspace
question-key-tab = Tab
question-key-escape = Escape

question-open = Открыть { $address }?
question-open-tab = Открыть { $address } в новой вкладке?
question-download = Скачать файл?
question-download-on = Скачать файл с сайта { $site }?
question-act-unknown = Выполнить действие? Waymark не может определить, с чем. Да или нет.
question-act-unknown-on = Выполнить действие на сайте { $site }? Waymark не может определить, с чем. Да или нет.
question-use-unknown = Использовать { $tool }? Waymark не может определить, что это сделает. Да или нет.
question-use-unknown-on = Использовать { $tool } на сайте { $site }? Waymark не может определить, что это сделает. Да или нет.
question-leaves-open = Открыть { $address }? Это отправит не ваши слова («{ $words }») на { $host }, который вы не называли. Да или нет.
question-leaves-typing = { $action } на сайте { $site }? Введённое здесь уходит на { $host }, который вы не называли: это не ваши слова («{ $words }»). Да или нет.
question-leaves-form = { $action } на сайте { $site }? Это отправит не ваши слова («{ $words }») на { $host }, который вы не называли. Да или нет.
question-pinned-tab = Открыть { $address } в закреплённой вкладке { $tab } «{ $title }» вместо того, что в ней сейчас?
question-second-tab = Вкладка { $tab } «{ $title }» уже показывает { $site }. Всё равно открыть { $address } в новой вкладке? Скажите «нет», чтобы перейти в открытую вкладку.
question-second-tab-no = Не сделано: пользователь предпочитает открытую вкладку { $tab } («{ $title }», { $open }): перейдите в неё с помощью browser_switch_tab.
question-not-a-file-field = Номер { $index } — не поле выбора файлов (это «{ $name }», { $role }): загружайте файлы в поле, которое их выбирает.
question-external = Использовать «{ $tool }» сервера MCP «{ $server }»?
question-external-with = Использовать «{ $tool }» сервера MCP «{ $server }» с тем, что написал ассистент ({ $arguments })?

## Страж запросов: пока Waymark действовал, страница попыталась отправить запрос, который вопрос о
## самом действии не покрывал, и Waymark его остановил. $site — куда; $method — POST, DELETE…;
## $address — путь с именами параметров, но без их значений; $word — слово, говорящее, что делает
## запрос; $fields — question-request-fields или ничего.
question-request-deletes = Страница попыталась отправить на { $site } запрос, который что-то удаляет (в нём сказано «{ $word }»): { $method } { $address }{ $fields }. Разрешить один раз?
question-request-pays = Страница попыталась отправить на { $site } запрос, который платит или заказывает (в нём сказано «{ $word }»): { $method } { $address }{ $fields }. Разрешить один раз?
question-request-sends = Страница попыталась отправить на { $site } запрос, который что-то отправляет или публикует (в нём сказано «{ $word }»): { $method } { $address }{ $fields }. Разрешить один раз?
question-request-unknown = Страница попыталась отправить на { $site } запрос, который Waymark не может описать: { $method } { $address }{ $fields }. Разрешить один раз?
question-request-fields = , поля: { $names }
question-request-said-no = Не отправлено: вы ответили «нет». Действие на странице выполнено, но его запрос на { $site } остановлен.

## Внешние клиенты MCP. $client — имя, которым клиент себя называет; $program — программа, которой
## он запущен, кратко («node client.mjs»); $path — полный путь к ней; $user — кто её запустил.
question-admit-client = { $client } ({ $program }) хочет пользоваться вашим браузером через Waymark. Разрешить?
question-admit-unknown-client = { $client } — программа, которую Waymark не может опознать, — хочет пользоваться вашим браузером через Waymark. Разрешение будет действовать только для этого подключения. Разрешить?
question-client-refused = Не сделано: пользователь не разрешил этой программе ({ $client }) пользоваться этим браузером. Разрешить можно после перезапуска браузера.
question-client-detail = { $client } — это программа { $path }, её запустил пользователь { $user }. Ваш ответ действует для этой программы до перезапуска браузера; другую программу с тем же именем Waymark спросит заново.
question-client-detail-no-user = { $client } — это программа { $path }. Ваш ответ действует для этой программы до перезапуска браузера; другую программу с тем же именем Waymark спросит заново.
question-client-detail-unknown = Waymark не смог узнать, какая программа на этом компьютере называет себя { $client }, поэтому ваш ответ действует только для этого подключения.
question-client-asks = { $client } спрашивает: { $question }
question-client-program = { $client } ({ $program })
question-client-unidentified = { $client } (программа, которую Waymark не может опознать)

## Что слышит спросивший, когда ничего не сделано.
question-said-no = Не сделано: вы ответили «нет».
question-unanswered-expired = Не сделано: на вопрос никто не ответил за 5 минут.
question-unanswered-page-changed = Не сделано: страница изменилась до ответа пользователя, и действие уже не сделало бы то, о чём спрашивали.
question-unanswered-withdrawn = Не сделано: вопрос отозван до ответа пользователя.
question-unanswered-stopped = Не сделано: пользователь остановил агента, не ответив.

## При «да» действие описывается заново; если оно уже не то, о чём спрашивали (список перерисовал
## строки на месте), ничего не делается и пользователя спрашивают снова, сначала сказав, что
## изменилось. $question — новый вопрос, $change — одно из question-changed-*; $now и $before — текст
## страницы или адреса.
question-changed = Страница изменилась после вопроса: { $change }. { $question }
question-changed-item = теперь это действие над «{ $now }», а не над «{ $before }»
question-changed-item-gone = это уже не действие над «{ $before }»
question-changed-words = элемент теперь называется «{ $now }», а не «{ $before }»
question-changed-asks = вопрос страницы теперь звучит так: «{ $now }»
question-changed-destination = теперь это ведёт на { $now }, а не на { $before }
question-changed-form = теперь форма отправится на { $now }
question-changed-option = теперь будет выбрано «{ $now }», а не «{ $before }»
