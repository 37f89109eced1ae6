# Настройки хоста (config.toml и переменные WAYMARK_), когда они не загружаются или не сохраняются:
# что не так и что делать. Звучат на странице настроек, в панели, когда чат не запускается, и в отчёте
# проверки. Каждая фраза — часть предложения без точки в конце: точку ставит предложение вокруг.

config-unreadable = не удаётся прочитать файл настроек { $path }: { $detail }
config-unreadable-denied = нет прав на чтение файла настроек { $path }
config-parse = файл настроек { $path } написан неверно: { $detail }
config-parse-at = файл настроек { $path } написан неверно: строка { $line }, позиция { $column }
config-parse-at-key = в файле настроек { $path } неверная запись { $key }: строка { $line }, позиция { $column }
config-unknown-key = в файле настроек { $path } неизвестный ключ { $key } (строка { $line })
config-bad-file-value = значение { $key } = { $value } в { $path } не подходит: нужно { $expected }
config-bad-env-value = значение переменной окружения { $name }={ $value } не подходит: нужно { $expected }
config-no-state-dir = нет папки для состояния Waymark: задайте WAYMARK_STATE_DIR (или HOME)
config-no-config-dir = нет папки для настроек Waymark: задайте XDG_CONFIG_HOME (или HOME)
config-unwritable = не удаётся записать файл настроек { $path }: { $detail }
config-unwritable-denied = нет прав на запись файла настроек { $path }

## Каким должно быть значение.
config-expected-url = адрес http:// или https:// API, совместимого с OpenAI, например http://127.0.0.1:11434/v1
config-expected-model = название модели
config-expected-api-key = API-ключ из видимых символов ASCII (без пробелов и переносов строк)
config-expected-seconds = целое число секунд от { $min } до { $max }
config-expected-true-or-false = true или false
config-expected-absolute-path = абсолютный путь
config-expected-steps = целое число шагов от { $min } до { $max }
config-expected-milliseconds = целое число миллисекунд от { $min } до { $max }
config-expected-log-filter = фильтр журнала, например info или debug
config-expected-mcp-server = имя и команда в каждой записи [[mcp_servers]]

## Как исправить.
config-fix-unreadable = сделайте { $path } доступным вам для чтения или удалите его
config-fix-replace = исправьте { $path } или сохраните страницу настроек: файл будет заменён, а старый останется рядом
config-fix-in-settings = задайте значение на странице настроек или измените { $key } в { $path }
config-fix-edit = измените { $key } в { $path }
config-fix-env = измените или удалите переменную { $name }
config-fix-no-state-dir = задайте WAYMARK_STATE_DIR или HOME

config-chat-cannot-start = Чат не запускается: { $detail }. Как исправить: { $fix }.
