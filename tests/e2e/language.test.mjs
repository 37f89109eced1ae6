// Waymark in the user's language: Chromium started in Russian (`--lang=ru`, with Debian's
// chromium-l10n) makes `chrome.i18n.getUILanguage()` say `ru`, and the panel, the settings page and
// the host speak Russian. The panel's words come from the catalogues in i18n/locales/ru, which the
// extension loads from its package at start. One browser, on a Russian shop page (fixtures/shop-ru.html):
// the connection, /help, /list and /more, acting by number, a question answered /нет and one /да, a
// chat with the scripted model with a step handed to the user, the settings page, and axe on both pages.
// What Waymark says (transcript, status line, alert region) may hold no English word but values from
// the page or the model, commands, key and program names, and "Waymark".
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';
import {
  EXTENSION_ID, command, connectMcp, launch, openPanel, openPanelFor, replyCount, send, serveStatic, startModel, until,
  waitForAlert, waitForQuestion, waitForReply, waitForStatus,
} from './lib/harness.mjs';

const require = createRequire(import.meta.url);
const AXE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
const FIXTURES = path.join(path.dirname(new URL(import.meta.url).pathname), 'fixtures');

/// Latin words Russian sentences may hold: the product, commands' arguments, keys, programs, addresses.
const TECHNICAL = new Set([
  'Waymark', 'N', 'all', 'on', 'off', 'up', 'down', 'top', 'bottom', 'Enter', 'Tab', 'Escape', 'Space',
  'Orca', 'Edge', 'Chrome', 'Ollama', 'OpenAI', 'API', 'URL', 'MCP', 'http', 'https', 'v1', 'qwen2', '7b',
  'instruct', 'chrome', 'edge', 'extensions', 'shortcuts', 'build', 'sh', 'install', 'example', 'com',
  'WAYMARK_LLM_MODEL', 'WAYMARK_LLM_BASE_URL', 'scripted',
]);

/// The English words of `text`: Latin words that are not commands (`/list`) nor technical.
function englishWords(text) {
  return (text.replace(/(^|\s|\()\/[\p{L}?]+/gu, ' ').match(/[A-Za-z][A-Za-z0-9_]*/g) ?? [])
    .filter((w) => !TECHNICAL.has(w));
}

let model;
let browser;
let site;
let page;
let panel;

const SCRIPT = [
  // "Войди в аккаунт": typing into the password field is the user's step (its number comes later).
];

before(async () => {
  model = await startModel(SCRIPT);
  site = await serveStatic(FIXTURES);
  const env = {
    LANGUAGE: 'ru',
    LANG: 'ru_RU.UTF-8',
    WAYMARK_LLM_BASE_URL: model.url,
    WAYMARK_LLM_MODEL: 'scripted',
    WAYMARK_LLM_TIMEOUT_SECS: '20',
  };
  browser = await launch({ args: ['--lang=ru'], env });
  page = await browser.context.newPage();
  await page.goto(`${site.url}shop-ru.html`);
  // Everything the alert region says is recorded too, as a screen reader hears it.
  panel = await openPanelFor(browser.context, page);
});

after(async () => {
  await browser?.close();
  await site?.close();
  model?.close();
});

/// Runs axe in a page (evaluated over the DevTools protocol, which the extension page's CSP allows).
async function axe(target) {
  await target.evaluate(AXE);
  const result = await target.evaluate((tags) => window.axe.run(document, { runOnly: { type: 'tag', values: tags } }), TAGS);
  return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join('; ')})`);
}

/// What Waymark has said in the panel so far: transcript entries, status lines, alerts.
async function said() {
  return panel.evaluate(() => [
    ...[...document.querySelectorAll('#transcript .msg-waymark')].map((e) => e.textContent),
    ...window.__waymarkStatusLog,
    ...window.__waymarkAlertLog,
  ]);
}

/// Fails naming every sentence with an English word in it.
function assertRussian(sentences, values = []) {
  const english = sentences
    .map((s) => values.reduce((t, v) => t.replaceAll(v, ' '), s))
    .map((s, i) => [sentences[i], englishWords(s)])
    .filter(([, words]) => words.length > 0);
  assert.deepEqual(english, [], 'English in what Waymark said');
}

const number = (lines, name) => lines.find((l) => l.includes(`, ${name}`))?.split(', ')[0];
let lines = [];

test('the panel connects, helps and lists in Russian, with Russian roles and plurals', async () => {
  assert.equal(await panel.evaluate(() => chrome.i18n.getUILanguage()), 'ru');
  await waitForStatus(panel, /^Подключено\.$/);
  assert.equal(await panel.getAttribute('html', 'lang'), 'ru');
  assert.equal(await panel.title(), 'Waymark');
  assert.equal(await panel.textContent('label[for="message"]'), 'Сообщение или команда');
  assert.equal(await panel.getAttribute('#transcript', 'aria-label'), 'Разговор');
  assert.deepEqual(await axe(panel), [], 'idle, in Russian');

  await command(panel, '/ping', /^Понг, \d+ мс\.$/);
  await command(panel, '/details', /^Хост Waymark 0\.1\.0, процесс \d+, ответил за \d+ мс\.$/);
  const help = await command(panel, '/help', /^Команды: /);
  assert.match(help, /\/yes или \/да: ответить «да» на вопрос Waymark/);
  assert.match(help, /\/help: список команд\.$/);
  await command(panel, '/хелп', /^Неизвестная команда \/хелп\. Список команд — \/help\.$/);

  const first = await command(panel, '/list', /^13 элементов на странице «Магазин», с 1 по 10:/);
  assert.match(first, /\n1, поле ввода, Имя\n/);
  assert.match(first, /\n2, поле со списком, Размер[,\n]/);
  assert.match(first, /, флажок, Подписаться на новости\n/);
  assert.match(first, /, переключатель, Курьером, отмечено\n/);
  assert.match(first, /, кнопка, Удалить аккаунт\n/);
  assert.match(first, /\nДальше ещё 3: введите \/more\.$/);
  const rest = await command(panel, '/more', /^13 элементов на странице «Магазин», с 11 по 13:/);
  assert.match(rest, /, ссылка, Контакты\n/);
  assert.match(rest, /\n13, кнопка, Тёмная тема, нажато$/);
  await command(panel, '/more', /^Это был весь список\.$/);
  lines = `${first}\n${rest}`.split('\n');
  await command(panel, '/find корзина', /^Нет элементов, подходящих под «корзина»\. Введите \/list, чтобы услышать все\.$/);
  await command(panel, '/click', /^Введите \/click и номер, например \/click 12\.$/);
  await command(panel, '/click 99', /^Номера 99 нет: список идёт от 1 до 13\./);
  assertRussian(await said());
});

test('acting by number, and a question answered /да, are said in Russian', async () => {
  await command(panel, `/type ${number(lines, 'Имя')} Иван`, /^Текст введён: \d+, поле ввода, Имя\.$/);
  assert.equal(await page.inputValue('#name'), 'Иван');
  await command(panel, `/click ${number(lines, 'Сохранить черновик')}`, /^Нажато: \d+, кнопка, Сохранить черновик\. На странице ничего не изменилось\.$/);
  assert.equal(await page.evaluate(() => window.events.saved), 1);

  await send(panel, `/click ${number(lines, 'Оплатить')}`);
  await waitForQuestion(panel, { timeout: 20_000 });
  assert.equal(await panel.textContent('#no'), 'Нет');
  assert.equal(await panel.textContent('#yes'), 'Да');
  assert.deepEqual(await axe(panel), [], 'a question pending, in Russian');
  await command(panel, '/да', /^Нажато: \d+, кнопка, Оплатить 84,97 €\.( На странице ничего не изменилось\.)?$/, 20_000);
  assert.equal(await page.evaluate(() => window.events.paid), 1);
  assert.deepEqual(await axe(panel), [], 'after the answer');
});

test('a question answered /нет: its words and its outcome are Russian', async () => {
  const before = await replyCount(panel);
  await send(panel, `/click ${number(lines, 'Удалить аккаунт')}`);
  await waitForQuestion(panel, { timeout: 20_000 });
  const question = await panel.textContent('#question-text');
  await send(panel, '/нет');
  await until(async () => (await replyCount(panel)) > before, 'the outcome of /нет', 20_000);
  assert.equal(await page.evaluate(() => window.events.deleted), 0, 'nothing was deleted');
  // The site is named by its host name, "localhost" for the loopback address the fixtures use.
  assertRussian([question], ['Удалить аккаунт', 'localhost']);
  assertRussian(await said());
});

test('a chat with the scripted model and a step handed to the user, in Russian', async () => {
  await model.addSteps([
    { kind: 'tool_call', name: 'browser_overlay_act', arguments: { index: Number(number(lines, 'Пароль')), action: 'type', text: 'hunter2' } },
    // After "готово" (and Waymark's fresh look at the page).
    { kind: 'tool_call', name: 'assistant_done', arguments: { reason: 'Вы вошли.' } },
  ]);
  await command(panel, '/chat', /^Режим чата: ваши сообщения идут агенту\. Выход — \/exit\.$/);
  await send(panel, 'Войди в аккаунт');
  await waitForAlert(panel, { timeout: 20_000 });
  assert.equal(await page.inputValue('#pw'), '', 'the agent typed nothing into the password field');
  await page.fill('#pw', 'набрано пользователем');
  await command(panel, 'готово', /^Вы вошли\.$/, 20_000);
  await waitForStatus(panel, /^Агент готов\.$/);
  await command(panel, '/exit', /^Режим чата выключен: вводите команды или \/chat, чтобы снова говорить с агентом\.$/);
});

test('the hand-over and the agent\'s progress are Russian', async () => {
  assertRussian(await said(), ['Вы вошли.']);
});

test('the settings page speaks Russian, and axe finds nothing on it', async () => {
  const settings = await browser.context.newPage();
  await settings.goto(`chrome-extension://${EXTENSION_ID}/settings.html`);
  await waitForStatus(settings, /^Настройки загружены\.$/);
  assert.equal(await settings.getAttribute('html', 'lang'), 'ru');
  assert.equal(await settings.title(), 'Настройки Waymark');
  assert.equal(await settings.textContent('h1'), 'Настройки Waymark');
  assert.equal(await settings.textContent('label[for="max_tool_steps"]'), 'Предел шагов');
  assert.equal(await settings.textContent('#llm_model-hint'), 'Задано окружением, а не этой страницей.');
  assert.ok((await settings.locator('#overrides li').allTextContents()).includes(
    'Модель: задано переменной окружения WAYMARK_LLM_MODEL, которая важнее этой страницы; измените или удалите её там, где запускается браузер.',
  ));
  assert.deepEqual(await axe(settings), [], 'loaded, in Russian');
  await settings.fill('#max_tool_steps', '0');
  await settings.press('#max_tool_steps', 'Enter');
  await waitForStatus(settings, /^Не сохранено: 1 ошибка\.$/);
  assert.equal(await settings.textContent('#max_tool_steps-error'), 'Введите целое число шагов от 1 до 1000.');
  assert.deepEqual(await axe(settings), [], 'with a validation error, in Russian');
  // The config file's path is a value: it names the user's folders.
  const file = (await settings.textContent('#source')).match(/в файле (.+)\.$/)?.[1];
  assert.ok(file, 'the page says where the settings are kept');
  const text = await settings.evaluate(() => document.body.innerText);
  assertRussian(text.split('\n'), [file, site.url, model.url, '127.0.0.1']);
  await settings.close();
});

// ---------------------------------------------------------------------------------------------------
// The host's sentences in Russian, word for word: the gate's question about a page's "Удалить аккаунт"
// button, answered /нет, and an agent chat with the scripted model whose progress and stop are said in
// Russian. The host knows the language from the worker's hello (`ToHost::Hello.language`). Its own
// panel, on its own Russian page, so the cases above keep theirs.

/// The scripted model's answers for the chat below (added when it starts): a look at the page, then a
/// long think that the user stops.
function hostModelSteps() {
  return [
    { kind: 'tool_call', name: 'browser_list_interactives', arguments: {} },
    { kind: 'tool_call', name: 'browser_overlay_act', arguments: { index: 1, action: 'click' }, delay_ms: 3_000 },
  ];
}

let account;
let hostPanel;

/// The words a screen reader hears from the alert region, once they match `pattern`.
async function alertSays(pattern) {
  return waitForAlert(hostPanel, { matching: pattern, timeout: 10_000 });
}

/// Opens the Russian page and its panel, once (the first case of this block does; the browser is the
/// file's own, launched before any case runs).
let opened;
function openAccount() {
  opened ??= (async () => {
    account = await browser.context.newPage();
    await account.goto(`${site.url}account-ru.html`);
    hostPanel = await openPanelFor(browser.context, account);
    await waitForStatus(hostPanel, /^Подключено\.$/);
  })();
  return opened;
}

test('the gate asks about "Удалить аккаунт" in Russian, and /нет leaves it undone', async () => {
  await openAccount();
  const list = await command(hostPanel, '/list', /Удалить аккаунт/);
  const number = Number(list.match(/^(\d+), [^\n]*Удалить аккаунт/m)?.[1]);
  assert.ok(number > 0, list);
  await send(hostPanel, `/click ${number}`);
  const question = await until(
    async () => hostPanel.textContent('#question-text'),
    'the question',
    10_000,
  );
  assert.match(question, /^Нажать «Удалить аккаунт» \(кнопка\) на сайте localhost\?$/);
  await command(hostPanel, '/нет', /^Не сделано: вы ответили «нет»\.$/);
  assert.equal(await account.evaluate(() => window.events.deleted), 0, 'the account was not deleted');
});

test('an agent chat says its progress and its stop in Russian', async () => {
  await openAccount();
  const n = await replyCount(hostPanel);
  await send(hostPanel, '/chat');
  await waitForReply(hostPanel, /./, { after: n });
  const asked = (await model.requests()).length;
  await model.addSteps(hostModelSteps());
  await send(hostPanel, 'Осмотри страницу');
  await until(async () => (await model.requests()).length >= asked + 2, 'the model asked twice', 15_000);
  await send(hostPanel, '/stop');
  const said = await alertSays(/^Остановлено\./);
  assert.match(
    said,
    /^Остановлено\. Уже сделано: Читаю элементы страницы: \d+ элемент(а|ов)?\. Скажите «продолжай», чтобы продолжить\.$/,
  );
  // The agent's state follows the stop's own words, in Russian (its progress, replaced within
  // moments, is said by the stop: "Уже сделано: Читаю элементы страницы…").
  await waitForStatus(hostPanel, /^Агент готов\.$/);
  assert.equal(await account.evaluate(() => window.events.saved + window.events.deleted), 0, 'nothing ran after the stop');
});

// ---------------------------------------------------------------------------------------------------
// The host's own words on the settings page of a Russian browser: a config file that does not load (a
// value out of range, then text where a number belongs), and the doctor's findings. A browser of its
// own, whose host reads a config folder of its own, so the cases above keep theirs.

test('the settings page says a config that does not load, and the doctor\'s findings, in Russian', async () => {
  const os = await import('node:os');
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-ru-config-'));
  const file = path.join(scratch, 'waymark', 'config.toml');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, 'max_tool_steps = 0\n');
  const nowhere = 'http://127.0.0.1:9/v1';
  const russian = await launch({
    args: ['--lang=ru'],
    env: {
      LANGUAGE: 'ru', LANG: 'ru_RU.UTF-8', XDG_CONFIG_HOME: scratch, WAYMARK_LLM_BASE_URL: nowhere,
      WAYMARK_LLM_API_KEY: '', OPENAI_API_KEY: '',
    },
  });
  // Values a finding may carry as they are: paths, the address, names of browsers, settings, commands.
  const values = [
    'waymark-host install --browser chromium', 'waymark-host install --browser chrome',
    'waymark-host install --browser edge', 'Google Chrome', 'Microsoft Edge', 'Chromium', nowhere,
    'max_tool_steps', 'WAYMARK_LOG', 'WAYMARK_STATE_DIR', 'qwen2.5:7b-instruct',
    // The page names a registration by the browser's key, as --browser takes it.
    'chromium',
  ];
  const withoutPaths = (lines) => lines.map((l) => l.replace(/[^\s(«]*\/[^\s)»,]*/g, ' '));
  try {
    // The host found the fault when it started: the panel says it once, with the fix, in Russian; and
    // a chat cannot start, saying why and the fix.
    const panel = await openPanel(russian.context);
    const fault = await waitForReply(panel, /^Настройки Waymark не загружаются: /, { timeout: 15_000 });
    assert.match(fault, /значение max_tool_steps = "0" в .* не подходит: нужно целое число шагов от 1 до 1000\. /);
    // Said assertively, in the alert region: everything it says from here on.
    await panel.evaluate(() => {
      window.__alerts = [];
      const alert = document.getElementById('alert');
      new MutationObserver(() => alert.textContent && window.__alerts.push(alert.textContent))
        .observe(alert, { childList: true, characterData: true, subtree: true });
    });
    const before = await replyCount(panel);
    await send(panel, '/chat');
    await until(async () => (await replyCount(panel)) > before, 'the panel to enter chat mode', 5_000);
    await send(panel, 'Найди кнопку входа');
    const refused = await until(
      () => panel.evaluate(() => window.__alerts.find((t) => t.includes('Чат не запускается: '))),
      'the chat to say it cannot start', 15_000,
    ).catch(async (e) => {
      const heard = await panel.evaluate(() => [window.__alerts, document.body.innerText]);
      throw new Error(`${e.message}: ${JSON.stringify(heard)}`);
    });
    assert.match(refused, /Как исправить: задайте значение на странице настроек или измените max_tool_steps в /);
    assertRussian(withoutPaths([fault, refused]), values);

    const settings = await russian.context.newPage();
    await settings.goto(`chrome-extension://${EXTENSION_ID}/settings.html`);
    await waitForStatus(settings, /^В файле настроек 1 ошибка\.$/);
    const problem = await settings.textContent('#max_tool_steps-error');
    assert.match(problem, /max_tool_steps = "0" в .* не подходит: нужно целое число шагов от 1 до 1000/);
    assertRussian(withoutPaths([problem]), values);

    // Text where a number belongs: the file does not parse; the page says where, in Russian.
    fs.writeFileSync(file, 'max_tool_steps = "много"\n');
    await settings.reload();
    await waitForStatus(settings, /^Настройки Waymark не загружаются: .* В полях — значения по умолчанию/);
    const status = await settings.textContent('#status');
    assert.match(status, /неверная запись max_tool_steps: строка 1, позиция 18/);
    assertRussian(withoutPaths([status]), values);
    assert.deepEqual(await axe(settings), [], 'a config that does not load, in Russian');

    // The doctor, run from the page: what each check found and the fix, in Russian.
    fs.rmSync(file);
    await settings.reload();
    await waitForStatus(settings, /^Настройки загружены\.$/);
    await settings.click('#run-doctor');
    await waitForStatus(settings, /^Проверки завершены/, 30_000);
    const checks = await settings.locator('#checks li').allTextContents();
    assert.ok(checks.some((c) => c.includes(`по адресу ${nowhere} никто не отвечает`)), checks.join('\n'));
    // This browser's host started with the broken file, so it took no socket for MCP clients.
    assert.ok(checks.some((c) => /^Предупреждение: Браузер: ни один браузер не подключён/.test(c)), checks.join('\n'));
    assert.ok(checks.some((c) => /Как исправить: запущена ли Ollama/.test(c)), checks.join('\n'));
    assertRussian(withoutPaths(checks), values);
  } finally {
    await russian.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
});

// ---------------------------------------------------------------------------------------------------
// Why the page could not do something, in Russian: Waymark's script in the page has no words of its
// own (it answers with a typed reason, which the service worker says), and the host's upload errors
// are said in the user's language. Its own panel, on its own copy of the Russian shop page.

let shop;
let shopPanel;
let shopOpened;
function openShop() {
  shopOpened ??= (async () => {
    shop = await browser.context.newPage();
    await shop.goto(`${site.url}shop-ru.html?reasons`);
    shopPanel = await openPanelFor(browser.context, shop);
    await waitForStatus(shopPanel, /^Подключено\.$/);
  })();
  return shopOpened;
}

/// The number the listing gives the control named `name` (after `role`, as the listing says it).
async function shopNumber(role, name) {
  const list = await command(shopPanel, '/list', new RegExp(name));
  const found = list.match(new RegExp(`^(\\d+), ${role}, ${name}`, 'm'))?.[1];
  assert.ok(found, list);
  return Number(found);
}

test('a number whose control was removed is refused in Russian, with the fresh list', async () => {
  await openShop();
  const n = await shopNumber('кнопка', 'Сохранить черновик');
  await shop.evaluate(() => document.getElementById('save').remove());
  const said = await command(shopPanel, `/click ${n}`, /больше нет на странице/, 20_000);
  assert.match(
    said,
    new RegExp(`^Элемента ${n} \\(кнопка «Сохранить черновик»\\) больше нет на странице: страница изменилась, номера обновлены\\. Ничего не сделано\\.$`),
  );
  assertRussian([said], ['Сохранить черновик']);
});

test('typing into a checkbox is refused in Russian, naming the control as the listing does', async () => {
  await openShop();
  const n = await shopNumber('флажок', 'Подписаться на новости');
  const said = await command(shopPanel, `/type ${n} привет`, /не поле ввода/, 20_000);
  assert.equal(said, `Не удалось ввести текст в элемент ${n} (флажок «Подписаться на новости»): это не поле ввода.`);
  assert.equal(await shop.isChecked('#news'), false, 'the checkbox was not touched');
  assertRussian([said], ['Подписаться на новости']);
});

test('an upload of a missing file is refused in Russian before anyone is asked', async () => {
  await openShop();
  const client = await connectMcp(browser.stateDir, 'Клиент');
  try {
    // The user lets the client in, asked in Russian.
    const first = client.callTool({ name: 'browser_list_tabs', arguments: {} });
    // The client's name, its program beside it ("Клиент (node language.test.mjs) хочет …").
    await waitForQuestion(shopPanel, { matching: /^Клиент \(.*\) хочет пользоваться/, timeout: 20_000 });
    await send(shopPanel, '/да');
    // (Its answer does not matter here: the focused window may show no web page.)
    await first;
    const missing = path.join(browser.stateDir, 'нет-такого-резюме.pdf');
    const answer = await client.callTool({ name: 'browser_upload', arguments: { index: 1, paths: [missing] } });
    const result = JSON.parse(answer.content[0].text);
    assert.equal(result.kind, 'bad_arguments');
    assert.equal(result.error, `Файла ${missing} нет: проверьте путь и имя файла.`);
    assert.equal(await shopPanel.textContent('#question-text'), '', 'no question was asked');
    assertRussian([result.error], [missing]);
  } finally {
    await client.close();
  }
});
