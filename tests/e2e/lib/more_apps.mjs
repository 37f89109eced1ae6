// Three more real applications nobody here wrote, installed from the registries and served on
// 127.0.0.1 from one temporary folder the tests own (lib/real_apps.mjs's parts), for
// tests/e2e/real_apps_tools.test.mjs:
// - Adminer (Debian's `adminer`), a database administration tool, on a private MariaDB;
// - Roundcube (Debian's `roundcube-core`, `roundcube-sqlite3`), a webmail, over Dovecot's IMAP
//   (Debian's `dovecot-imapd`) with real delivery: an SMTP server (aiosmtpd, Debian's
//   `python3-aiosmtpd`) puts every mail it takes into the local user bob's Maildir, which Dovecot
//   serves. Both mail servers run unprivileged (as `nobody` when the tests run as root) from a
//   configuration written here;
// - JupyterLab, a notebook environment with its own widget toolkit, from PyPI at a pinned version in
//   a venv under target/ (`ensure_real_apps` in xtask/src/tools.rs; WAYMARK_REAL_APPS_VENV says where).
// No system service, database or configuration is used or changed.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  checkInstalled, freePort, php, readTail, run, startMariadb, startPhp, startServer, waitFor, workspace,
} from './real_apps.mjs';

const ADMINER = '/usr/share/adminer/adminer.php';
const ROUNDCUBE = '/var/lib/roundcube/public_html';
/// The database account Adminer is logged in with (Adminer refuses one without a password).
export const DB_USER = { user: 'adminer', password: 'canary-Table-at-dawn-42', database: 'aviary' };
/// The mail users: alice works in Roundcube, bob is the local user she writes to.
export const MAIL_USERS = { alice: 'canary-Mail-at-dawn-42', bob: 'canary-Post-at-dawn-42' };
export const MAIL_DOMAIN = 'mail.test';

function venv() {
  return process.env.WAYMARK_REAL_APPS_VENV ?? path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../../target/real-apps-venv');
}

const NEEDS = () => [
  ['php', 'php-cli'],
  ['mariadbd', 'mariadb-server-core'],
  ['mariadb', 'mariadb-client-core'],
  [ADMINER, 'adminer'],
  [`${ROUNDCUBE}/index.php`, 'roundcube-core'],
  ['/usr/share/roundcube/SQL/sqlite.initial.sql', 'roundcube-sqlite3'],
  ['/usr/sbin/dovecot', 'dovecot-imapd'],
  ['/usr/lib/python3/dist-packages/aiosmtpd', 'python3-aiosmtpd'],
  [`${venv()}/bin/jupyter-lab`, 'jupyterlab (PyPI, in a venv: ./build.sh test installs it)'],
];

/// Who the mail servers run as: this user, or `nobody` for root (Dovecot's login processes refuse
/// root, and a mail server has no business with root's rights).
function unprivileged() {
  if (process.getuid?.() !== 0) return { as: {}, user: execFileSync('id', ['-un']).toString().trim(), group: execFileSync('id', ['-gn']).toString().trim() };
  const uid = Number(execFileSync('id', ['-u', 'nobody']).toString());
  const gid = Number(execFileSync('id', ['-g', 'nobody']).toString());
  const group = execFileSync('id', ['-gn', 'nobody']).toString().trim();
  return { as: { uid, gid }, user: 'nobody', group };
}

/// Gives `dir` and everything in it to the unprivileged user.
function handOver(dir, { as }) {
  if (as.uid === undefined) return;
  execFileSync('chown', ['-R', `${as.uid}:${as.gid}`, dir]);
}

// ---------------------------------------------------------------------------------------------------
// Adminer on a private MariaDB, logged in as an account with a password.

async function startAdminer(dir, children) {
  const mariadb = await startMariadb(dir, children);
  const { user, password, database } = DB_USER;
  await mariadb.sql(`CREATE DATABASE ${database}; CREATE USER '${user}'@'localhost' IDENTIFIED BY '${password}'; `
    + `GRANT ALL ON ${database}.* TO '${user}'@'localhost'; `
    + `CREATE TABLE ${database}.birds (id INT PRIMARY KEY AUTO_INCREMENT, name VARCHAR(40)); `
    + `INSERT INTO ${database}.birds (name) VALUES ('Canary'), ('Finch');`);
  const root = path.join(dir, 'adminer');
  fs.mkdirSync(root);
  fs.symlinkSync(ADMINER, path.join(root, 'index.php'));
  const server = await startPhp('adminer', dir, { root, children });
  return {
    ...server,
    ...DB_USER,
    /// What Adminer's login form's Server field takes: the socket (Adminer reads `host:socket`).
    server: `localhost:${mariadb.socket}`,
    /// The tables of the database now.
    tables: async () => (await mariadb.sql('SHOW TABLES', database)).map(([name]) => name),
    sql: (query) => mariadb.sql(query, database),
  };
}

// ---------------------------------------------------------------------------------------------------
// Mail: Dovecot's IMAP and a delivering SMTP server, unprivileged, and Roundcube over them.

/// A mail in a Maildir's `new/`, as delivery leaves it.
function deliver(maildir, { from, to, subject, body, date }) {
  for (const sub of ['cur', 'new', 'tmp']) fs.mkdirSync(path.join(maildir, sub), { recursive: true });
  const name = `${date.getTime() / 1000}.waymark${Math.random().toString(16).slice(2)}.localhost`;
  const text = [`From: ${from}`, `To: ${to}`, `Subject: ${subject}`, `Date: ${date.toUTCString()}`,
    `Message-ID: <${name}@${MAIL_DOMAIN}>`, 'MIME-Version: 1.0', 'Content-Type: text/plain; charset=utf-8', '', body, ''].join('\r\n');
  fs.writeFileSync(path.join(maildir, 'new', name), text);
}

const SEEDED = [
  { from: `Bob <bob@${MAIL_DOMAIN}>`, subject: 'Please delete the old backups', body: 'The backups from 2019 can go; keep the rest.' },
  { from: `Carol <carol@${MAIL_DOMAIN}>`, subject: 'Seed order for the aviary', body: 'Ten kilos of millet, five of canary grass.' },
  { from: `Newsletter <news@${MAIL_DOMAIN}>`, subject: 'Weekly bird news', body: 'Nothing much happened this week.' },
];

async function startMail(dir, children) {
  const who = unprivileged();
  const home = path.join(dir, 'mail');
  for (const sub of ['run', 'state', 'users']) fs.mkdirSync(path.join(home, sub), { recursive: true });
  const maildir = (user) => path.join(home, 'users', user, 'Maildir');
  SEEDED.forEach((mail, i) => deliver(maildir('alice'), { ...mail, to: `Alice <alice@${MAIL_DOMAIN}>`, date: new Date(Date.UTC(2026, 10, 20 + i, 9)) }));
  for (const sub of ['cur', 'new', 'tmp']) fs.mkdirSync(path.join(maildir('bob'), sub), { recursive: true });
  fs.writeFileSync(path.join(home, 'passwd'), Object.entries(MAIL_USERS).map(([user, pass]) => `${user}:{PLAIN}${pass}\n`).join(''));
  const imapPort = await freePort();
  const conf = path.join(home, 'dovecot.conf');
  const uid = who.as.uid ?? process.getuid();
  const gid = who.as.gid ?? process.getgid();
  // Started by a user other than root, Dovecot runs every process as that user; its login and
  // anvil processes then must not chroot.
  fs.writeFileSync(conf, `base_dir = ${home}/run
state_dir = ${home}/state
log_path = ${home}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%n ${home}/passwd
}
userdb {
  driver = static
  args = uid=${uid} gid=${gid} home=${home}/users/%n
}
mail_location = maildir:~/Maildir
default_internal_user = ${who.user}
default_internal_group = ${who.group}
default_login_user = ${who.user}
service imap-login {
  chroot =
  inet_listener imap {
    address = 127.0.0.1
    port = ${imapPort}
  }
  inet_listener imaps {
    port = 0
  }
}
service anvil {
  chroot =
}
`);
  // The tests' folder is root's: the mail servers may pass through it to theirs, and no further.
  fs.chmodSync(dir, 0o711);
  handOver(home, who);
  const dovecot = startServer('/usr/sbin/dovecot', ['-F', '-c', conf], { log: path.join(dir, 'dovecot.out'), children, as: who.as });
  const smtpPort = await freePort();
  // Every mail it takes goes to bob's Maildir: the one local user mail is sent to.
  const smtp = startServer('/usr/bin/python3', ['-m', 'aiosmtpd', '-n', '-l', `127.0.0.1:${smtpPort}`, '-c', 'aiosmtpd.handlers.Mailbox', maildir('bob')],
    { log: path.join(dir, 'smtp.log'), children, as: who.as });
  const answers = (port) => new Promise((resolve) => {
    import('node:net').then(({ default: net }) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('data', (data) => { socket.destroy(); resolve(/^(\* OK|220)/.test(data.toString())); });
      socket.once('error', () => resolve(false));
    });
  });
  await waitFor(() => answers(imapPort), 'Dovecot to answer', { child: dovecot }).catch((error) => {
    error.message += `\n${readTail(path.join(home, 'dovecot.log'))}`;
    throw error;
  });
  await waitFor(() => answers(smtpPort), 'the SMTP server to answer', { child: smtp });

  const rc = path.join(dir, 'roundcube');
  for (const sub of ['config', 'temp', 'logs']) fs.mkdirSync(path.join(rc, sub), { recursive: true });
  for (const file of ['defaults.inc.php', 'mimetypes.php']) fs.symlinkSync(path.join('/etc/roundcube', file), path.join(rc, 'config', file));
  const db = path.join(rc, 'roundcube.db');
  fs.writeFileSync(path.join(rc, 'config', 'config.inc.php'), `<?php
$config = [];
$config['db_dsnw'] = ${php(`sqlite:///${db}?mode=0600`)};
$config['imap_host'] = ${php(`127.0.0.1:${imapPort}`)};
$config['smtp_host'] = ${php(`127.0.0.1:${smtpPort}`)};
$config['smtp_user'] = '';
$config['smtp_pass'] = '';
$config['mail_domain'] = ${php(MAIL_DOMAIN)};
$config['temp_dir'] = ${php(`${rc}/temp/`)};
$config['log_dir'] = ${php(`${rc}/logs/`)};
$config['des_key'] = 'waymark-tests-24-bytes!!';
$config['product_name'] = 'Canary Mail';
$config['plugins'] = [];
$config['skin'] = 'elastic';
$config['enable_spellcheck'] = false;
$config['create_default_folders'] = true;
`);
  await run('php', ['-r', `$db = new PDO(${php(`sqlite:${db}`)}); exit($db->exec(file_get_contents('/usr/share/roundcube/SQL/sqlite.initial.sql')) === false ? 1 : 0);`])
    .catch((error) => {
      throw new Error(`Roundcube's database could not be made: ${error.stderr || error.message}`);
    });
  const server = await startPhp('roundcube', dir, { root: ROUNDCUBE, env: { ROUNDCUBE_CONFIG_DIR: path.join(rc, 'config') }, children });
  const mails = (user, sub) => {
    try {
      return fs.readdirSync(path.join(maildir(user), sub)).map((name) => fs.readFileSync(path.join(maildir(user), sub, name), 'utf8'));
    } catch {
      return [];
    }
  };
  return {
    ...server,
    user: 'alice',
    password: MAIL_USERS.alice,
    /// Every mail in `user`'s Maildir now (its inbox, delivered or read), as text.
    inbox: (user) => [...mails(user, 'new'), ...mails(user, 'cur')],
    /// The subjects in `user`'s inbox.
    subjects: (user) => [...mails(user, 'new'), ...mails(user, 'cur')].map((m) => /^Subject: (.*)$/m.exec(m)?.[1]),
  };
}

// ---------------------------------------------------------------------------------------------------
// JupyterLab from its venv, with its settings, data and notebooks in our folder.

async function startJupyter(dir, children) {
  const home = path.join(dir, 'jupyter');
  const notebooks = path.join(home, 'notebooks');
  const settings = path.join(home, 'settings', '@jupyterlab', 'apputils-extension');
  fs.mkdirSync(notebooks, { recursive: true });
  fs.mkdirSync(settings, { recursive: true });
  // No news fetched from outside, and no question about it on first start.
  fs.writeFileSync(path.join(settings, 'notification.jupyterlab-settings'), JSON.stringify({ fetchNews: 'false', checkForUpdates: false }));
  fs.writeFileSync(path.join(notebooks, 'Aviary.ipynb'), JSON.stringify({
    cells: [{ cell_type: 'code', execution_count: null, id: 'first', metadata: {}, outputs: [], source: [] }],
    metadata: { kernelspec: { display_name: 'Python 3 (ipykernel)', language: 'python', name: 'python3' } },
    nbformat: 4,
    nbformat_minor: 5,
  }));
  const port = await freePort();
  const token = `waymark${Math.random().toString(16).slice(2)}`;
  const env = {
    HOME: home,
    JUPYTER_CONFIG_DIR: path.join(home, 'config'),
    JUPYTER_DATA_DIR: path.join(home, 'data'),
    JUPYTER_RUNTIME_DIR: path.join(home, 'runtime'),
    JUPYTERLAB_SETTINGS_DIR: path.join(home, 'settings'),
    JUPYTERLAB_WORKSPACES_DIR: path.join(home, 'workspaces'),
    IPYTHONDIR: path.join(home, 'ipython'),
  };
  const child = startServer(path.join(venv(), 'bin', 'jupyter-lab'), [
    '--no-browser', '--ServerApp.ip=127.0.0.1', `--ServerApp.port=${port}`, '--ServerApp.port_retries=0',
    `--IdentityProvider.token=${token}`, `--ServerApp.root_dir=${notebooks}`, '--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate',
    ...(process.getuid?.() === 0 ? ['--allow-root'] : []),
  ], { env, log: path.join(dir, 'jupyter.log'), children });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${url}/api/status?token=${token}`)).ok, 'JupyterLab to answer', { child, timeout: 60_000 })
    .catch((error) => {
      error.message += `\n${readTail(path.join(dir, 'jupyter.log'))}`;
      throw error;
    });
  return {
    url,
    token,
    /// A notebook's cells as saved now.
    async notebook(name) {
      const response = await fetch(`${url}/api/contents/${encodeURIComponent(name)}?token=${token}`);
      return (await response.json()).content;
    },
  };
}

// ---------------------------------------------------------------------------------------------------

/// Starts the three applications in a fresh temporary folder. Returns
/// { adminer, mail, jupyter, seconds, close }.
export async function startMoreApps() {
  checkInstalled(NEEDS());
  const started = Date.now();
  const { dir, children, close } = workspace();
  try {
    const [adminer, mail, jupyter] = await Promise.all([startAdminer(dir, children), startMail(dir, children), startJupyter(dir, children)]);
    return { adminer, mail, jupyter, dir, seconds: (Date.now() - started) / 1000, close };
  } catch (error) {
    await close();
    throw error;
  }
}
