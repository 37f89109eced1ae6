// The message catalogues (i18n/locales/<language>/*.ftl) as the end-to-end tests read them: which
// languages Waymark speaks, a language's plain messages and the words it understands (input.ftl), and
// the Latin words its catalogue uses, to find English where another language is spoken. The same rules
// as `waymark_i18n::foreign_words`, so a test of a language needs no list of its own.
import fs from 'node:fs';
import path from 'node:path';

const LOCALES = path.join(path.dirname(new URL(import.meta.url).pathname), '../../../i18n/locales');

/// The languages of the catalogues, English first.
export function languages() {
  const all = fs.readdirSync(LOCALES).filter((l) => fs.statSync(path.join(LOCALES, l)).isDirectory()).sort();
  return ['en', ...all.filter((l) => l !== 'en')];
}

const cache = new Map();

/// Every line of a language's catalogue files, comments left out.
function lines(language) {
  if (!cache.has(language)) {
    const dir = path.join(LOCALES, language);
    const text = fs.readdirSync(dir).filter((f) => f.endsWith('.ftl')).sort()
      .map((f) => fs.readFileSync(path.join(dir, f), 'utf8')).join('\n');
    cache.set(language, text.split('\n').filter((l) => !l.startsWith('#')));
  }
  return cache.get(language);
}

/// A one-line message's text as written (`{ $value }` left in), or undefined.
export function message(language, id) {
  const line = lines(language).find((l) => l.startsWith(`${id} = `));
  return line?.slice(id.length + 3);
}

/// A one-line message with its `{ $value }`s as a pattern that matches any value.
export function pattern(language, id) {
  const text = message(language, id);
  if (text === undefined) throw new Error(`${language} has no one-line message ${id}`);
  const parts = text.split(/\{ \$\w+ \}/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.+')}$`);
}

/// The words a language lists in an input.ftl message (what the user may type for one meaning).
export function alternatives(language, id) {
  return (message(language, id) ?? '').split(',').map((w) => w.trim().toLowerCase()).filter(Boolean);
}

/// What a catalogue line says, without the id before `=`, a variant's `[key]`, or any `{ … }`.
function saidPart(line) {
  let rest = line.trimStart();
  const id = rest.match(/^-?[a-z][\w-]* =/);
  if (id) rest = rest.slice(id[0].length);
  rest = rest.trimStart().replace(/^\*?\[[^\]]*\]/, '');
  let said = '';
  let depth = 0;
  for (const c of rest) {
    if (c === '{') depth += 1;
    else if (c === '}') depth = Math.max(0, depth - 1);
    else if (depth === 0) said += c;
  }
  return said;
}

/// The words of `text` in ASCII letters (and digits) only, with a letter among them.
function latinWords(text) {
  return text.split(/[^\p{L}\p{N}_]+/u).filter((w) => /^[\x00-\x7f]+$/.test(w) && /[A-Za-z]/.test(w));
}

const own = new Map();

/// The words of `text`, said in `language`, that its catalogue never uses: Latin words that are none of
/// `values` (longest first) and no command (`/list`).
export function foreignWords(text, language, values = []) {
  if (!own.has(language)) {
    own.set(language, new Set(lines(language).flatMap((l) => latinWords(saidPart(l))).map((w) => w.toLowerCase())));
  }
  const words = own.get(language);
  let rest = text;
  for (const value of [...values].filter(Boolean).sort((a, b) => b.length - a.length)) {
    rest = rest.replaceAll(value, ' ');
  }
  rest = rest.split(/\s+/).filter((w) => !w.replace(/^[(«„"]+/, '').startsWith('/')).join(' ');
  return latinWords(rest).filter((w) => !words.has(w.toLowerCase()));
}
