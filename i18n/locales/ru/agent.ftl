# Фразы агента в режиме чата: что он делает (область состояния), как прошёл каждый шаг, его сообщения,
# остановка, предел шагов и сбой сервера модели.

## Что делает шаг («Нажимаю 12»), звучит перед ним.
agent-progress-list = Читаю элементы страницы
agent-progress-find = Ищу «{ $what }»
agent-progress-find-controls = Ищу элементы
agent-progress-extract = Читаю страницу
agent-progress-scroll = { $direction ->
    [up] Прокручиваю вверх
    [down] Прокручиваю вниз
    [top] Прокручиваю в начало
   *[bottom] Прокручиваю в конец
}
agent-progress-click = Нажимаю { $index }
agent-progress-type = Ввожу текст в { $index }
agent-progress-choose = Выбираю вариант в { $index }
agent-progress-right-click = Нажимаю правой кнопкой { $index }
agent-progress-hover = Навожу указатель на { $index }
agent-progress-set = Задаю значение { $index }
agent-progress-press = Нажимаю клавишу { $key }
agent-progress-open = Открываю { $address }
agent-progress-open-tab = Открываю { $address } в новой вкладке
agent-progress-back = Возвращаюсь назад
agent-progress-forward = Перехожу вперёд
agent-progress-reload = Обновляю страницу
agent-progress-wait = Жду страницу
agent-progress-tabs = Перечисляю вкладки
agent-progress-switch-tab = Перехожу во вкладку { $index }
agent-progress-show-numbers = Показываю номера
agent-progress-hide-numbers = Скрываю номера
agent-progress-describe = Смотрю на { $index }
agent-progress-preview = Смотрю, что сделает действие
agent-progress-find-banners = Ищу баннеры
agent-progress-close-banners = Закрываю баннеры
agent-progress-click-at = Нажимаю { $index } в его месте на экране
agent-progress-type-at = Ввожу текст в { $index } в его месте на экране
agent-progress-choose-at = Выбираю вариант в { $index } в его месте на экране
agent-progress-focus-next = Перевожу фокус вперёд
agent-progress-focus-prev = Перевожу фокус назад
agent-progress-screenshot = Делаю снимок экрана
agent-progress-upload = Загружаю { $files } в { $index }
agent-progress-download = Нажимаю { $index } и жду окончания скачивания
agent-progress-download-wait = Жду окончания скачивания
agent-progress-external = Использую инструмент { $tool }
agent-progress-admit = Разрешаю { $client } пользоваться браузером
agent-progress-look-again = Снова смотрю на страницу

## Как прошёл шаг.
agent-summary-controls = { $count ->
    [one] { $count } элемент
    [few] { $count } элемента
    [many] { $count } элементов
   *[other] { $count } элемента
}
agent-summary-found = Найдено: { $count }
agent-summary-read = страница прочитана
agent-summary-done = { $step }: готово
agent-summary-failed = { $step }: не получилось
agent-summary-stopped = { $step }: остановлено, результат неизвестен
agent-summary-unusable = { $step }: неверный вызов
agent-summary-step = { $step }: { $outcome }
agent-summary-said-yes = Сделано: вы ответили «да».
agent-summary-waiting = жду вашего ответа «да» или «нет»
agent-summary-banners = закрыто: { $names }

## Сообщения агента.
agent-done = Готово.
agent-ask = Что делать дальше?
agent-busy = Я ещё работаю над вашим прошлым сообщением; дождитесь конца или скажите «стоп».
agent-idle = Агент сейчас ничем не занят.
agent-too-long = Сообщение слишком длинное: { $length ->
    [one] { $length } символ
    [few] { $length } символа
    [many] { $length } символов
   *[other] { $length } символа
}, а агент принимает не больше { $max }. Ничего не отправлено: сократите сообщение или разбейте его на части.
agent-question-lost = Этот вопрос потерялся при перезапуске Waymark, поэтому ничего не сделано. Отправьте сообщение, чтобы продолжить.
agent-handoff-model = Ассистент говорит: { $what }
agent-handoff-unsaid = На странице есть шаг, который можете сделать только вы.
agent-handoff-say-done = { $what } Скажите «готово», когда закончите.
agent-step-stopped-result = Пользователь остановил агента до того, как пришёл результат этого шага; он мог выполниться, а мог и нет. Прежде чем действовать снова, посмотрите на страницу.
agent-mcp-server-failed = { $problem }. Его инструменты недоступны; проверьте [[mcp_servers]] в config.toml.

## Остановка.
agent-stopped = Остановлено. Уже сделано: { $done }. Скажите «продолжай», чтобы продолжить.
agent-stopped-before-any-step = Остановлено до первого шага. Скажите «продолжай», чтобы продолжить.

## Предел шагов, по предложению на сообщение.
agent-limit-planned = Я уже долго планирую, ничего не делая, — останавливаюсь, чтобы свериться с вами.
agent-limit-steps = { $steps ->
    [one] Сделан { $steps } шаг
    [few] Сделано { $steps } шага
    [many] Сделано { $steps } шагов
   *[other] Сделано { $steps } шага
} — это предел для одного сообщения; останавливаюсь, чтобы свериться с вами.
agent-limit-did = Что сделано: { $done }.
agent-limit-all-worked = { $count ->
    [one] { $count } шаг удался, неудач нет.
    [few] { $count } шага удались, неудач нет.
    [many] { $count } шагов удалось, неудач нет.
   *[other] { $count } шага удались, неудач нет.
}
agent-limit-some-failed = Удачных шагов: { $worked }; не получилось: { $failed }.
agent-limit-found = Что удалось узнать: { $facts }.
agent-limit-next = Следующий шаг: { $next }.
agent-limit-next-goal = Следующий шаг: продолжить «{ $goal }».
agent-limit-go-on = Продолжить? Скажите «продолжай» или что изменить.
