# Фразы боковой панели: то, что пользователь программы экранного доступа слышит в чате Waymark.

## Строка состояния: связь с хостом, затем состояние агента.

status-connecting = Подключение к хосту Waymark…
# Коротко: звучит при каждом открытии окна или панели Waymark. Версия хоста — в /details.
status-connected = Подключено.
status-not-installed = Хост Waymark не установлен для этого браузера: установите пакет { $package } или, если вы собираете из исходников, выполните { $command }
status-forbidden = Хост Waymark здесь не допускает это расширение. Чтобы допустить его, выполните в терминале: { $command }
status-incompatible = Хост Waymark { $version } работает по протоколу { $host_protocol }, а это расширение — по протоколу { $protocol }: установите одну и ту же версию обоих (пакет { $package } и расширение или из исходников { $command })
status-disconnected = Связь с хостом Waymark потеряна ({ $reason }); переподключение…
status-host-exited = программа хоста завершилась
status-host-failed-to-start = браузер не смог запустить программу хоста
status-host-unreadable = браузер не смог обменяться данными с программой хоста
status-host-closed = хост закрыл соединение
status-host-silent = хост не ответил за { $seconds ->
    [one] { $seconds } секунду
    [few] { $seconds } секунды
    [many] { $seconds } секунд
   *[other] { $seconds } секунды
}
agent-state-running = Агент работает…
agent-state-idle = Агент готов.
agent-state-waiting = Агент ждёт вас.
agent-state-error = Агент остановился из-за ошибки.

## Ответы в чате.

pong = Понг, { $ms } мс.
pong-detail = Хост Waymark { $version }, процесс { $pid }, ответил за { $ms } мс.
panel-no-details = О последнем ответе больше нечего сказать.
panel-ping-timeout = Хост не ответил на /ping за { $seconds ->
    [one] { $seconds } секунду.
    [few] { $seconds } секунды.
    [many] { $seconds } секунд.
   *[other] { $seconds } секунды.
}
panel-host-error = Хост сообщил об ошибке: { $message }
panel-not-delivered = Не удалось связаться с хостом: { $reason }. Waymark сам продолжает попытки.
panel-worker-reconnecting = панель заново подключается к фоновому процессу расширения
panel-chat-unavailable = Это не команда. Чтобы дать агенту задание, сначала введите /chat; список команд — /help.
panel-chat-on = Режим чата: ваши сообщения идут агенту. Выход — /exit.
panel-chat-off = Режим чата выключен: вводите команды или /chat, чтобы снова говорить с агентом.
agent-stopped-error = Агент остановился: { $text }
panel-you-said = Вы: { $text }
overlay-shown = Номера показаны на странице.
overlay-hidden = Номера скрыты.
question-closed-expired = Вопрос снят: никто не ответил вовремя. Ничего не сделано.
question-closed-page-changed = Вопрос снят: страница, о которой он был, изменилась. Ничего не сделано.
question-closed-withdrawn = Вопрос снят: тот, кто спрашивал, перестал ждать. Ничего не сделано.
question-closed-stopped = Вопрос снят: вы остановили агента. Ничего не сделано.
panel-opening-settings = Открываю настройки Waymark в новой вкладке.
panel-no-manual-step = Нет шага, который ждёт вашего завершения.
panel-nothing-to-answer = Нет вопроса, который ждёт ответа.
panel-answer-refused = Этот вопрос уже закрыт: ответ ничего не сделал.
panel-tool-timeout = Страница не ответила за { $seconds ->
    [one] { $seconds } секунду.
    [few] { $seconds } секунды.
    [many] { $seconds } секунд.
   *[other] { $seconds } секунды.
}
panel-page-error = Страница сообщила об ошибке.
client-activity = { $source }: { $summary }

## Сочетания клавиш (/keys) и отдельное окно Waymark.

shortcut-confirm = да
shortcut-reject = нет
shortcut-manual-done = готово
shortcut-open-window = Waymark в отдельном окне
shortcut-side-panel = боковая панель
shortcut-toggle-overlay = показать или скрыть номера
shortcut-stop-agent = остановить агента
shortcut-key = { $name }: { $key }
shortcut-unset = { $name }: не задано
shortcuts = Сочетания клавиш: { $shortcuts }. Изменить их можно на странице chrome://extensions/shortcuts (в Edge: edge://extensions/shortcuts).
shortcuts-unset = Эти сочетания клавиш не заданы: { $names }. Задайте их на странице chrome://extensions/shortcuts (в Edge: edge://extensions/shortcuts); все сочетания перечисляет /keys.
window-opening = Открываю Waymark в отдельном окне.
window-already = Это отдельное окно Waymark. Его сочетание клавиш возвращает к странице; какое именно, скажет /keys.
# Звучит, когда боковая панель открывается в Linux. $key — сочетание клавиш, открывающее окно Waymark.
panel-orca-side-panel = С Orca страница молчит, пока открыта эта боковая панель. { $key } открывает Waymark в отдельном окне и возвращает к странице.
panel-orca-side-panel-no-key = С Orca страница молчит, пока открыта эта боковая панель. /window открывает Waymark в отдельном окне.

## Журнал действий, для зрячих помощников.

activity-ok = успешно
activity-failed = ошибка
activity-agent-tool = Агент, { $tool }, { $outcome }: { $summary }
activity-client-tool = { $source }, { $tool }, { $outcome }: { $summary }
activity-question = Вопрос: { $text }
activity-step = Шаг для вас: { $text }
activity-answer = Ответ: { $answer }
activity-answer-yes = да
activity-answer-no = нет
activity-answer-done = готово
activity-answer-withdrawn = вопрос снят
activity-error = Ошибка: { $text }
activity-stopped = Остановка: { $text }

## Надписи самой страницы панели (sidepanel.html).

page-panel-title = Waymark
page-panel-settings-link = Настройки
page-panel-conversation = Разговор
page-panel-activity = Журнал действий
page-panel-no = Нет
page-panel-yes = Да
page-panel-message = Сообщение или команда
page-panel-send = Отправить
page-panel-hint = Список команд — /help.
