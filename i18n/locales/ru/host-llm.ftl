# Что слышит пользователь, когда сервер модели не справился (ошибка в чате).

llm-unreachable = По адресу { $address } не отвечает ни одна модель: запущена ли Ollama? Задайте WAYMARK_LLM_BASE_URL ({ $detail }).
llm-auth = Модель по адресу { $address } отвергла ключ API (HTTP { $status }): задайте в WAYMARK_LLM_API_KEY (или OPENAI_API_KEY) действующий ключ ({ $detail }).
llm-model-not-found = Модель { $model } не найдена по адресу { $address } (HTTP 404): загрузите её (ollama pull { $model }) или задайте WAYMARK_LLM_MODEL; если она есть, проверьте, что WAYMARK_LLM_BASE_URL оканчивается на /v1 ({ $detail }).
llm-tools-unsupported = Модель { $model } не принимает инструменты; выберите модель с вызовом инструментов или текстовый запасной режим.
llm-rate-limited = Модель по адресу { $address } ограничивает частоту запросов (HTTP 429), и после { $attempts ->
    [one] { $attempts } попытки
    [few] { $attempts } попыток
    [many] { $attempts } попыток
   *[other] { $attempts } попытки
} ограничение осталось: подождите немного или проверьте тариф этого ключа API ({ $detail }).
llm-server = Сервер модели по адресу { $address } дал сбой (HTTP { $status }) { $attempts ->
    [one] { $attempts } раз подряд
    [few] { $attempts } раза подряд
    [many] { $attempts } раз подряд
   *[other] { $attempts } раза подряд
} ({ $detail }).
llm-rejected = Модель по адресу { $address } отклонила запрос (HTTP { $status }): { $detail }
llm-timeout = Модель по адресу { $address } не ответила за { $seconds } с (локальная модель, возможно, ещё загружается; предел задают WAYMARK_LLM_TIMEOUT_SECS или llm_timeout_secs в config.toml).
llm-context-overflow = Разговор длиннее, чем может прочесть модель по адресу { $address } ({ $detail }): дайте модели больший контекст (llama.cpp: --n_ctx или -c; Ollama: num_ctx) или выберите модель с большим контекстом.
llm-connection-lost = Сервер модели по адресу { $address } закрыл соединение, не договорив ответ: он остановился или упал? Проверьте, что он работает, и загляните в его журнал ({ $detail }).
llm-transport = Не удалось связаться с моделью по адресу { $address }: { $detail }
llm-bad-response = Ответ сервера модели — не ответ чата: { $detail } (начало ответа: { $answer })
llm-invalid = Ответ модели не подходит: { $detail } (начало ответа: { $answer })
