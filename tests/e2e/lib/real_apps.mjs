// Real web applications nobody here wrote, from Debian's packages, served on 127.0.0.1 for the
// end-to-end tests: WordPress (a blog engine with the block editor) on a private MariaDB, and MediaWiki
// on SQLite. Everything lives in one temporary folder the tests own: the database server runs there on
// a socket (no network port), PHP's built-in server serves each application on a free port, and the
// machine's own web server, databases and /etc are left alone. `./build.sh test` installs the
// packages (ensure_real_apps); a fresh install of both with their content takes 10-15 s per run.
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { watchLog } from './tripwire.mjs';

/// A PHP string literal of `s`.
export const php = (s) => `'${s.replace(/[\\']/g, '\\$&')}'`;

export const run = promisify(execFile);

const WORDPRESS = '/usr/share/wordpress';
const MEDIAWIKI = '/usr/share/mediawiki';
export const ADMIN = { user: 'admin', password: 'canary-Song-at-dawn-42' };
export const WIKI_ADMIN = { user: 'Admin', password: 'canary-Song-at-dawn-42' };

/// What must be installed, and the Debian packages that bring it (the list `./build.sh test` installs:
/// `ensure_real_apps` in xtask/src/tools.rs).
const NEEDS = [
  ['php', 'php-cli'],
  ['mariadbd', 'mariadb-server-core'],
  ['mariadb-install-db', 'mariadb-server-core'],
  ['mariadb', 'mariadb-client-core'],
  [`${WORDPRESS}/wp-settings.php`, 'wordpress'],
  [`${WORDPRESS}/wp-content/themes/twentytwentythree/style.css`, 'wordpress-theme-twentytwentythree'],
  [`${MEDIAWIKI}/maintenance/install.php`, 'mediawiki'],
];

export function which(name) {
  if (name.startsWith('/')) return fs.existsSync(name) ? name : null;
  for (const dir of (process.env.PATH ?? '').split(':').concat(['/usr/sbin', '/sbin'])) {
    const file = path.join(dir, name);
    if (fs.existsSync(file)) return file;
  }
  return null;
}

/// Fails with what to install when a piece of `needs` (`[file or command, Debian package]`) is missing.
export function checkInstalled(needs = NEEDS) {
  const missing = needs.filter(([what]) => !which(what));
  if (missing.length > 0) {
    const packages = [...new Set(missing.map(([, pkg]) => pkg))].join(' ');
    throw new Error(`the real applications are not installed (missing ${missing.map(([w]) => w).join(', ')}): `
      + `run ./build.sh test, which installs them, or apt-get install ${packages} php-mysql php-sqlite3`);
  }
}

export async function freePort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/// Waits until `check()` is truthy, every 100 ms, at most `timeout` ms; `process` dying ends the wait.
export async function waitFor(check, what, { timeout = 30_000, child } = {}) {
  const deadline = Date.now() + timeout;
  for (;;) {
    if (child && child.exitCode !== null) throw new Error(`${what}: the process exited with ${child.exitCode}`);
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`waited ${timeout} ms in vain for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/// Starts a long-running server in its own process group (so its workers end with it), logging to
/// `log`. Returns the child.
/// `as`: `{uid, gid}` to run it as (an unprivileged user, when the tests run as root).
export function startServer(command, args, { env = {}, log, children, as = {} }) {
  const out = fs.openSync(log, 'a');
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', out, out], detached: true, ...as });
  fs.closeSync(out);
  children.push(child);
  return child;
}

export function stopServer(child) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return Promise.resolve();
  }
  return exited;
}

// ---------------------------------------------------------------------------------------------------
// MariaDB, private: its own data folder and socket, no TCP port.

const MARIADB_OPTIONS = ['--innodb-log-file-size=4M', '--innodb-buffer-pool-size=32M'];

export async function startMariadb(dir, children) {
  const datadir = path.join(dir, 'mariadb');
  const socket = path.join(dir, 'mariadb.sock');
  // mariadbd refuses to run as root unless told to.
  const user = process.getuid?.() === 0 ? ['--user=root'] : [];
  // --force: a machine whose host name does not resolve (no /etc/hosts, as in a fresh container or
  // debootstrap root) is fine for a server reached only through its socket.
  await run('mariadb-install-db', [
    '--no-defaults', `--datadir=${datadir}`, ...user, '--auth-root-authentication-method=normal',
    '--skip-test-db', '--force', ...MARIADB_OPTIONS,
  ]).catch((error) => {
    throw new Error(`mariadb-install-db failed: ${[error.stdout, error.stderr].filter(Boolean).join('\n') || error.message}`);
  });
  const child = startServer(which('mariadbd'), [
    '--no-defaults', `--datadir=${datadir}`, `--socket=${socket}`, '--skip-networking',
    `--pid-file=${path.join(dir, 'mariadb.pid')}`, `--log-error=${path.join(dir, 'mariadb.err')}`, ...user,
    ...MARIADB_OPTIONS,
  ], { log: path.join(dir, 'mariadb.out'), children });
  const sql = async (query, database = '') => {
    const { stdout } = await run('mariadb', ['--no-defaults', '-S', socket, '-u', 'root', '-N', '-B', '-e', query, ...(database ? [database] : [])]);
    return stdout.split('\n').filter((line) => line !== '').map((line) => line.split('\t'));
  };
  await waitFor(() => sql('SELECT 1'), 'MariaDB to answer', { child }).catch((error) => {
    error.message += `\n${readTail(path.join(dir, 'mariadb.err'))}`;
    throw error;
  });
  return { child, socket, sql };
}

export function readTail(file, chars = 2000) {
  try {
    return fs.readFileSync(file, 'utf8').slice(-chars);
  } catch {
    return '';
  }
}

// ---------------------------------------------------------------------------------------------------
// PHP's built-in server

/// A file PHP runs before every script: it writes the request (method, address, headers, body length)
/// as a line of JSON for the suite's tripwire (lib/tripwire.mjs), then runs `prepend` if there is one.
function tripwirePrepend(name, dir, port, prepend) {
  const log = path.join(dir, `${name}-requests.jsonl`);
  fs.writeFileSync(log, '');
  watchLog(log);
  const file = path.join(dir, `${name}-tripwire.php`);
  fs.writeFileSync(file, `<?php
file_put_contents(${php(log)}, json_encode([
  'method' => $_SERVER['REQUEST_METHOD'] ?? 'GET',
  'url' => $_SERVER['REQUEST_URI'] ?? '/',
  'headers' => array_change_key_case(function_exists('getallheaders') ? (getallheaders() ?: []) : [], CASE_LOWER),
  'bodyLength' => (int) ($_SERVER['CONTENT_LENGTH'] ?? 0),
  'ownHost' => '127.0.0.1:${port}',
]) . "\n", FILE_APPEND | LOCK_EX);
${prepend ? `require ${php(prepend)};` : ''}
`);
  return file;
}

export async function startPhp(name, dir, { root, env = {}, prepend, children }) {
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const args = ['-S', `127.0.0.1:${port}`, '-t', root];
    args.unshift('-d', `auto_prepend_file=${tripwirePrepend(name, dir, port, prepend)}`);
    const log = path.join(dir, `${name}.log`);
    // Workers: the block editor asks for many things at once.
    const child = startServer('php', args, { env: { PHP_CLI_SERVER_WORKERS: '4', ...env }, log, children });
    try {
      await waitFor(async () => (await fetch(`${url}/robots.txt`, { redirect: 'manual' })).status > 0, `${name} to answer`, { child, timeout: 15_000 });
      return { child, url };
    } catch (error) {
      await stopServer(child);
      // Another process took the port between our look and PHP's bind: try another.
      if (attempt < 3 && /Address already in use/.test(readTail(log))) continue;
      error.message += `\n${readTail(log)}`;
      throw error;
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// WordPress: Debian's copy in /usr/share/wordpress, with our own wp-config.php (Debian's reads
// /etc/wordpress/config-<host>.php). A folder of links to Debian's files plus that config is the
// document root; a prepended file points ABSPATH there, since WordPress's files find each other
// through their real (linked-to) paths otherwise.

function prepareWordpress(dir, socket) {
  const root = path.join(dir, 'wordpress');
  const content = path.join(dir, 'wp-content');
  fs.mkdirSync(root);
  fs.mkdirSync(path.join(content, 'uploads'), { recursive: true });
  for (const entry of fs.readdirSync(WORDPRESS)) {
    if (['wp-config.php', 'wp-content', '.htaccess'].includes(entry)) continue;
    fs.symlinkSync(path.join(WORDPRESS, entry), path.join(root, entry));
  }
  for (const entry of ['themes', 'plugins']) fs.symlinkSync(path.join(WORDPRESS, 'wp-content', entry), path.join(content, entry));
  fs.symlinkSync(content, path.join(root, 'wp-content'));
  fs.writeFileSync(path.join(root, 'wp-config.php'), `<?php
define('DB_NAME', 'wordpress');
define('DB_USER', 'root');
define('DB_PASSWORD', '');
define('DB_HOST', ${php(`localhost:${socket}`)});
define('DB_CHARSET', 'utf8mb4');
// Whatever port it is served on this time.
if (isset($_SERVER['HTTP_HOST'])) {
  define('WP_HOME', 'http://' . $_SERVER['HTTP_HOST']);
  define('WP_SITEURL', 'http://' . $_SERVER['HTTP_HOST']);
}
define('WP_CONTENT_DIR', ${php(content)});
define('AUTOMATIC_UPDATER_DISABLED', true);
define('WP_HTTP_BLOCK_EXTERNAL', true);
define('DISABLE_WP_CRON', true);
define('WP_DEBUG', false);
$table_prefix = 'wp_';
require_once ABSPATH . 'wp-settings.php';
`);
  const prepend = path.join(dir, 'wordpress-prepend.php');
  fs.writeFileSync(prepend, `<?php if (!defined('ABSPATH')) define('ABSPATH', ${php(`${root}/`)});\n`);
  return { root, prepend };
}

/// The content the tests work on, made through WordPress's own functions. Prints the ids as JSON.
const WORDPRESS_SEED = String.raw`<?php
require ABSPATH . 'wp-load.php';
$admin = get_user_by('login', getenv('WP_ADMIN_USER'));
wp_set_current_user($admin->ID);
$paragraph = function ($text) { return "<!-- wp:paragraph -->\n<p>$text</p>\n<!-- /wp:paragraph -->"; };
$ids = [];
$ids['canary'] = wp_insert_post(['post_title' => 'Canary post', 'post_status' => 'publish',
  'post_content' => $paragraph('The canary sings at dawn, every day, whatever the weather.')], true);
$ids['announcement'] = wp_insert_post(['post_title' => 'Old announcement', 'post_status' => 'publish',
  'post_content' => $paragraph('The aviary is closed on Mondays.')], true);
$ids['notes'] = wp_insert_post(['post_title' => 'Feeding notes', 'post_status' => 'draft',
  'post_content' => $paragraph('Seeds in the morning, greens at noon.')], true);
$ids['about'] = wp_insert_post(['post_type' => 'page', 'post_title' => 'About the canaries', 'post_status' => 'publish',
  'post_content' => $paragraph('We keep seven canaries.')], true);
foreach ($ids as $name => $id) if (is_wp_error($id)) { fwrite(STDERR, "$name: " . $id->get_error_message()); exit(1); }
$ids['comment'] = wp_insert_comment(['comment_post_ID' => $ids['canary'], 'comment_content' => 'What a lovely song.',
  'comment_author' => 'Reader', 'comment_author_email' => 'reader@example.test', 'comment_approved' => 1]);
// The block editor's welcome guide is a one-time tour; the user here has seen it.
update_user_meta($admin->ID, $wpdb->get_blog_prefix() . 'persisted_preferences',
  ['core/edit-post' => ['welcomeGuide' => false], 'core/edit-site' => ['welcomeGuide' => false,
   'welcomeGuideStyles' => false, 'welcomeGuidePage' => false, 'welcomeGuideTemplate' => false],
   '_modified' => gmdate('c')]);
echo json_encode($ids);
`;

async function startWordpress(dir, mariadb, children) {
  const { root, prepend } = prepareWordpress(dir, mariadb.socket);
  await mariadb.sql('CREATE DATABASE wordpress CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci');
  const server = await startPhp('wordpress', dir, { root, prepend, children });
  // Finishing the install as its owner would: the install form, posted.
  const form = new URLSearchParams({
    weblog_title: 'Canary Blog', user_name: ADMIN.user, admin_password: ADMIN.password,
    admin_password2: ADMIN.password, pw_weak: '1', admin_email: 'admin@example.test', blog_public: '0', language: '',
  });
  const response = await fetch(`${server.url}/wp-admin/install.php?step=2`, { method: 'POST', body: form });
  const page = await response.text();
  if (!/<h1[^>]*>Success!<\/h1>/.test(page)) {
    throw new Error(`WordPress's install form did not succeed (HTTP ${response.status}): ${page.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').slice(0, 600)}`);
  }
  const seed = path.join(dir, 'wordpress-seed.php');
  fs.writeFileSync(seed, WORDPRESS_SEED);
  const { stdout } = await run('php', ['-d', `auto_prepend_file=${prepend}`, seed], {
    env: { ...process.env, WP_ADMIN_USER: ADMIN.user },
  }).catch((error) => {
    throw new Error(`seeding WordPress failed: ${error.stderr || error.stdout || error.message}`);
  });
  const ids = JSON.parse(stdout.slice(stdout.indexOf('{')));
  return {
    ...server,
    ids,
    ...ADMIN,
    /// Rows of a query on WordPress's database, each an array of strings.
    sql: (query) => mariadb.sql(query, 'wordpress'),
  };
}

// ---------------------------------------------------------------------------------------------------
// MediaWiki: Debian's copy served as it is, with its settings (LocalSettings.php) and SQLite database
// in our folder (MW_CONFIG_FILE says where; Debian's own LocalSettings.php is never read).

async function installMediawiki(dir) {
  const home = path.join(dir, 'mediawiki');
  const data = path.join(home, 'data');
  fs.mkdirSync(data, { recursive: true });
  const settings = path.join(home, 'LocalSettings.php');
  const env = { ...process.env, MW_CONFIG_FILE: settings };
  const maintenance = (script, args, options = {}) => run('php', [path.join(MEDIAWIKI, 'maintenance', script), ...args], { env, ...options })
    .catch((error) => {
      throw new Error(`MediaWiki's ${script} failed: ${error.stderr || error.stdout || error.message}`);
    });
  await maintenance('install.php', [
    '--dbtype=sqlite', `--dbpath=${data}`, '--dbname=wiki', '--server=http://127.0.0.1', '--scriptpath=',
    '--lang=en', `--pass=${WIKI_ADMIN.password}`, `--confpath=${home}`, '--skins=Vector', '--extensions=WikiEditor',
    'Canary Wiki', WIKI_ADMIN.user,
  ]);
  fs.appendFileSync(settings, `
# Waymark's tests: whatever port it is served on this time; nothing fetched from outside.
$wgServer = WebRequest::detectServer();
$wgUseInstantCommons = false;
$wgPingback = false;
$wgEnableUploads = false;
`);
  // Pages made as an editor would, through the wiki's own maintenance script.
  const edit = (title, text) => new Promise((resolve, reject) => {
    const child = execFile('php', [path.join(MEDIAWIKI, 'maintenance', 'edit.php'), '--user', WIKI_ADMIN.user, '--summary', 'Seed', title],
      { env }, (error, stdout, stderr) => (error ? reject(new Error(`MediaWiki's edit.php failed: ${stderr || stdout}`)) : resolve()));
    child.stdin.end(text);
  });
  await edit('Canary page', 'The canary is a small songbird.\n\n== Song ==\nIt sings at dawn, every day.\n');
  await edit('Obsolete canary', 'This page is outdated and can be removed.\n');
  return { home, env };
}

async function startMediawiki(dir, installed, children) {
  const server = await startPhp('mediawiki', dir, { root: MEDIAWIKI, env: { MW_CONFIG_FILE: path.join(installed.home, 'LocalSettings.php') }, children });
  return {
    ...server,
    ...WIKI_ADMIN,
    /// The wiki's own API (api.php), as JSON.
    async api(params) {
      const response = await fetch(`${server.url}/api.php?${new URLSearchParams({ format: 'json', formatversion: '2', ...params })}`);
      if (!response.ok) throw new Error(`api.php answered HTTP ${response.status}`);
      return response.json();
    },
    /// The wikitext of a page now, or null when it does not exist.
    async text(title) {
      const answer = await this.api({ action: 'query', prop: 'revisions', rvprop: 'content', rvslots: 'main', titles: title });
      const found = answer.query.pages[0];
      return found.missing ? null : found.revisions[0].slots.main.content;
    },
  };
}

// ---------------------------------------------------------------------------------------------------

/// A fresh temporary folder for servers the tests start, and `close()`, which stops them (SIGKILL when
/// the process exits first) and removes the folder. Returns { dir, children, close }.
export function workspace() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-apps-'));
  const children = [];
  const killAll = () => {
    for (const child of children) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch { /* already gone */ }
    }
  };
  process.once('exit', killAll);
  const close = async () => {
    await Promise.all(children.map(stopServer));
    process.removeListener('exit', killAll);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  return { dir, children, close };
}

/// Installs and starts both applications in a fresh temporary folder. Returns
/// { wordpress: {url, user, password, ids, sql}, mediawiki: {url, user, password, api, text}, seconds, close }.
export async function startRealApps() {
  checkInstalled();
  const started = Date.now();
  const { dir, children, close } = workspace();
  try {
    const [mariadb, wikiInstall] = await Promise.all([startMariadb(dir, children), installMediawiki(dir)]);
    const [wordpress, mediawiki] = await Promise.all([
      startWordpress(dir, mariadb, children),
      startMediawiki(dir, wikiInstall, children),
    ]);
    return { wordpress, mediawiki, dir, seconds: (Date.now() - started) / 1000, close };
  } catch (error) {
    await close();
    throw error;
  }
}
