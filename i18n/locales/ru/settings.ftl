# Страница настроек: её надписи, строка состояния, подсказки под полями, ошибки при сохранении и
# проверки.

## Надписи страницы (settings.html).

page-settings-title = Настройки Waymark
settings-field-llm-base-url = Адрес языковой модели
page-settings-llm-base-url-hint = API, совместимый с OpenAI, например http://127.0.0.1:11434/v1 для локальной Ollama.
settings-field-llm-model = Модель
page-settings-llm-model-hint = Название модели по этому адресу, например qwen2.5:7b-instruct.
settings-field-llm-api-key = Ключ API
page-settings-llm-api-key-hint = Хранится у хоста Waymark в его файле настроек, никогда не в браузере. Оставьте пустым, чтобы сохранить текущий ключ.
page-settings-clear-key = Удалить сохранённый ключ
settings-field-max-tool-steps = Предел шагов
page-settings-max-tool-steps-hint = Сколько шагов с инструментами делается на один запрос, прежде чем Waymark остановится, расскажет, что сделал, и спросит, продолжать ли. От 1 до 1000.
page-settings-banner-budget-label = Время на баннеры в миллисекундах
page-settings-banner-budget-hint = Сколько времени на один запрос отводится на то, чтобы самому закрывать баннеры о куки и другие. 0 выключает это; не больше 30000.
page-settings-save = Сохранить
page-settings-run-checks = Запустить проверки
page-settings-checks = Проверки
page-settings-checks-empty = Запустите проверки, чтобы проверить настройки, адрес языковой модели и регистрацию в браузерах.
page-settings-where = Откуда эти настройки

## Строка состояния и подсказки.

settings-not-connected = { $status } Настройки нельзя прочитать или сохранить, пока хост не подключён.
settings-worker-unreachable = Не отправлено: фоновый процесс Waymark недоступен. Попробуйте через минуту.
settings-refused = Не сохранено: { $reason }
settings-saved = Сохранено.
settings-loaded = Настройки загружены.
settings-saving = Сохранение…
settings-save-not-connected = Не сохранено: хост Waymark не подключён.
settings-hint-env = Задано окружением, а не этой страницей.
# $field — подпись поля; $variable — имя переменной окружения.
settings-override = { $field }: задано переменной окружения { $variable }, которая важнее этой страницы; измените или удалите её там, где запускается браузер.
settings-hint-key-set = Ключ задан. Оставьте поле пустым, чтобы сохранить его, или введите новый.
settings-hint-no-key = Ключ не задан. Локальным серверам, таким как Ollama, он не нужен.
settings-source-file = Хост хранит эти настройки в файле { $file }.
settings-source-unknown = Хост хранит эти настройки в своём файле настроек.
settings-problems = { $count ->
    [one] Не сохранено: { $count } ошибка.
    [few] Не сохранено: { $count } ошибки.
    [many] Не сохранено: { $count } ошибок.
   *[other] Не сохранено: { $count } ошибки.
}
settings-error-url = Адрес языковой модели должен начинаться с http:// или https://, например http://127.0.0.1:11434/v1.
settings-error-model = Введите название модели, например qwen2.5:7b-instruct.
settings-error-key = В ключе есть пробелы или другие символы, которых в ключах не бывает; вставьте его ещё раз.
settings-error-steps = Введите целое число шагов от { $min } до { $max }.
settings-error-budget = Введите целое число миллисекунд от { $min } до { $max }.

## Проверки.

checks-not-connected = Проверки нельзя запустить: хост Waymark не подключён.
checks-running = Идут проверки…
check-ok = В порядке:
check-warning = Предупреждение:
check-problem = Ошибка:
check-line = { $name }: { $detail }.
check-line-fix = { $name }: { $detail }. Как исправить: { $fix }.
check-name-config = Настройки
check-name-llm = Адрес языковой модели
check-name-chat = Запрос к модели
check-name-state = Папка состояния
check-name-browser = Браузер
check-name-manifest = Регистрация в { $browser }
checks-done = { $count ->
    [0] Проверки завершены: ошибок нет.
    [one] Проверки завершены: { $count } ошибка. Список — под заголовком «Проверки».
    [few] Проверки завершены: { $count } ошибки. Список — под заголовком «Проверки».
    [many] Проверки завершены: { $count } ошибок. Список — под заголовком «Проверки».
   *[other] Проверки завершены: { $count } ошибки. Список — под заголовком «Проверки».
}
