# Находки проверки (`waymark-host doctor` в терминале и «Проверить» на странице настроек): что нашла
# каждая проверка и что делать; каждая фраза — часть предложения без точки в конце.

## Отчёт в терминале: строка на проверку.
doctor-mark-ok = в порядке
doctor-mark-warning = внимание
doctor-mark-problem = ошибка
doctor-text-line = { $mark }  { $name }: { $detail }
doctor-text-line-fix = { $mark }  { $name }: { $detail } — как исправить: { $fix }
doctor-broken = некоторые проверки нашли ошибки; смотрите строки с пометкой «ошибка»

## Настройки.
doctor-config-ok = { $file ->
    [read] прочитан { $path }
   *[none] файла { $path } нет, взяты значения по умолчанию
}; модель { $model }, { $key ->
    [set] API-ключ задан
   *[none] API-ключа нет
}, предел шагов { $steps }
doctor-config-ok-env = { $file ->
    [read] прочитан { $path }
   *[none] файла { $path } нет, взяты значения по умолчанию
}; из окружения: { $variables }; модель { $model }, { $key ->
    [set] API-ключ задан
   *[none] API-ключа нет
}, предел шагов { $steps }

## Список моделей по адресу модели.
doctor-llm-unreachable = по адресу { $address } никто не отвечает ({ $why })
doctor-llm-no-answer-within = нет ответа за { $seconds } с
doctor-llm-refused = соединение отклонено, или адрес не найден
doctor-fix-llm-unreachable = запущена ли Ollama (или ваш сервер модели)? Задайте WAYMARK_LLM_BASE_URL или адрес на странице настроек
doctor-llm-no-ca = { $address } нельзя проверить: на этом компьютере нет сертификатов удостоверяющих центров, поэтому ни одному адресу https нельзя доверять
doctor-fix-ca = установите их: sudo apt install ca-certificates (в других системах — пакет с сертификатами удостоверяющих центров)
doctor-llm-auth = { $address } не принял API-ключ (HTTP { $status })
doctor-fix-api-key = задайте верный ключ на странице настроек или в WAYMARK_LLM_API_KEY
doctor-llm-no-list = { $address } отвечает, но списка /models у него нет (HTTP 404)
doctor-fix-version = проверьте, что адрес кончается версией API, например /v1
doctor-llm-http = { $address } ответил HTTP { $status }
doctor-fix-server-log = посмотрите журнал сервера или проверьте адрес
doctor-llm-not-openai = { $address } отвечает, но не как API, совместимый с OpenAI (GET /models не дал списка моделей)
doctor-fix-base-url = проверьте адрес: это основа API, обычно с /v1 на конце, например http://127.0.0.1:11434/v1 для Ollama
doctor-llm-ok = { $address } отвечает (модель { $model })
doctor-llm-model-missing = { $address } отвечает, но модели { $model } среди его моделей нет ({ $models }); некоторые серверы тогда молча отвечают другой моделью
doctor-fix-model = укажите в WAYMARK_LLM_MODEL или на странице настроек модель из списка сервера

## Один запрос к модели в том виде, в каком его шлёт агент.
doctor-chat-ok = { $address } отвечает на запрос с инструментами Waymark (модель { $model })
doctor-fix-chat-endpoint = проверьте адрес модели на странице настроек
doctor-chat-server = { $address } не справился с запросом: HTTP { $status } ({ $detail })
doctor-fix-chat-server = сбой на самом сервере: причина в его журнале (часто модели не хватает памяти или упал рабочий процесс); перезапустите сервер или выберите модель поменьше
doctor-chat-bad-response = { $address } ответил на запрос не в формате ответа модели: { $detail }
doctor-fix-chat-url = проверьте, что адрес — основа API, обычно с /v1 на конце, а не веб-страница и не страница ошибки прокси
doctor-chat-no-model = у { $address } нет модели { $model } (HTTP 404 на запрос)
doctor-fix-chat-model = скачайте её (ollama pull { $model }) или укажите модель на странице настроек или в WAYMARK_LLM_MODEL; если она есть, проверьте, что адрес кончается на /v1
doctor-chat-rejected = { $address } отклонил запрос Waymark: HTTP { $status } ({ $detail })
doctor-fix-chat-tools = сервер или модель, возможно, не принимают описания инструментов: что именно отклонено, сказано в журнале сервера; попробуйте модель с вызовом инструментов
doctor-chat-no-tools = модель { $model } по адресу { $address } не принимает инструменты; Waymark будет просить ответ в JSON
doctor-fix-chat-tool-model = для лучших результатов выберите модель с вызовом инструментов
doctor-chat-timeout = { $address } не ответил на запрос за { $seconds } с
doctor-fix-chat-slow = локальная модель, возможно, ещё загружается: проверьте снова через минуту; если она всё так же медленна, увеличьте llm_timeout_secs или выберите модель поменьше
doctor-chat-rate-limited = { $address } ограничивает частоту запросов (HTTP 429: { $detail })
doctor-fix-chat-rate = подождите немного или проверьте тариф этого API-ключа
doctor-chat-auth = { $address } не принял API-ключ для запроса (HTTP { $status })
doctor-fix-chat-other = проверьте, что сервер работает, и посмотрите его журнал

## Папка состояния.
-doctor-elsewhere = или выберите другую папку через WAYMARK_STATE_DIR или state_dir в config.toml
doctor-state-writable = в { $path } можно писать (сеансы, журналы шагов, сокет браузера)
doctor-state-creatable = папки { $path } ещё нет; Waymark может её создать
doctor-state-not-a-folder = { $path } — файл, а не папка, поэтому Waymark ничего не сохраняет
doctor-fix-state-move = уберите этот файл { -doctor-elsewhere }
doctor-state-denied = Waymark не может писать в { $path } (доступ запрещён), поэтому не сохраняет ни сеанс, ни журнал шагов и не открывает сокет для клиентов MCP
doctor-fix-state-chown = снова сделайте себя владельцем: sudo chown -R "$USER" '{ $path }' { -doctor-elsewhere }
doctor-fix-state-permission = дайте своей учётной записи право записи в { $path } (Свойства, Безопасность) { -doctor-elsewhere }
doctor-state-read-only = { $path } находится на диске только для чтения, поэтому Waymark ничего не сохраняет
doctor-fix-state-read-only = выберите папку на записываемом диске через WAYMARK_STATE_DIR или state_dir в config.toml
doctor-state-unwritable = Waymark не может писать в { $path }: { $detail }
doctor-state-refused = Waymark не может писать в { $path }: система отказала
doctor-fix-state-check = проверьте диск и папку { -doctor-elsewhere }

## Манифесты хоста в браузерах.
doctor-no-home = не найдена ваша домашняя папка, поэтому манифесты браузеров не проверить
doctor-fix-set-home = задайте HOME
doctor-no-browser = { $browser } не установлен для этого пользователя (нет { $path })
doctor-registry-no-manifest = раздел реестра { $key } не указывает на манифест
doctor-registry-unreadable = не удаётся прочитать реестр через reg.exe: { $detail }
doctor-registry-missing = { $browser } установлен, но в реестре нет записи для Waymark ({ $key })
doctor-fix-install = выполните waymark-host install --browser { $key }
doctor-manifest-missing = у { $browser } нет манифеста хоста Waymark по пути { $path }
doctor-manifest-not-json = { $path } — не корректный JSON: { $detail }
doctor-manifest-no-binary = в { $path } не указана программа хоста
doctor-manifest-binary-missing = { $path } указывает на { $binary }, а такого файла нет
doctor-manifest-not-allowed = { $path } не разрешает { $origin }
doctor-manifest-ok = { $browser } запускает { $binary }

## Подключён ли браузер сейчас.
doctor-no-browser-connected = ни один браузер не подключён (ни один хост, записанный в { $path }, не отвечает)
doctor-fix-open-browser = откройте { $browsers } с Waymark
doctor-browsers-connected = { $count ->
    [one] подключён { $count } браузер
    [few] подключено { $count } браузера
    [many] подключено { $count } браузеров
   *[other] подключено { $count } браузера
}
