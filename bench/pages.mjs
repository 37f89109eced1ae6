// Page generators for the overlay benchmark (bench/overlay.mjs): each returns a complete HTML document
// as a string. The pages are deterministic (a seeded generator picks the words) so that two runs of the
// benchmark measure the same DOM.
//
// Both pages carry the same "probe" controls, so every tool can be checked on them:
// - disabled controls, named "Disabled …", that no tool should number (some styled `cursor: pointer`,
//   as many real sites style every button, because browser-use looks at the cursor first);
// - one `aria-disabled="true"` link, named "Aria-disabled …".
// The typical page also holds a same-origin and a cross-origin iframe, each with two buttons named
// "Same-origin frame …" and "Cross-origin frame …" (see frameHtml()).
import { mulberry32 } from '../tests/e2e/lib/random.mjs';

const ADJECTIVES = ['Classic', 'Everyday', 'Organic', 'Waterproof', 'Compact', 'Deluxe', 'Lightweight', 'Vintage',
  'Ergonomic', 'Recycled', 'Wireless', 'Handmade', 'Stainless', 'Foldable', 'Insulated', 'Premium'];
const NOUNS = ['Backpack', 'Kettle', 'Desk Lamp', 'Running Shoe', 'Wool Scarf', 'Headphones', 'Coffee Grinder',
  'Rain Jacket', 'Notebook', 'Water Bottle', 'Cutting Board', 'Phone Case', 'Yoga Mat', 'Teapot', 'Sunglasses',
  'Bike Light'];
const BRANDS = ['Northwind', 'Fabrikam', 'Contoso', 'Tailspin', 'Litware', 'Adatum', 'Proseware', 'Wingtip'];
const HEADLINES = ['City council approves new cycle lanes', 'Local bakery wins national award',
  'Storm warning for the coast this weekend', 'Museum reopens after two-year renovation',
  'School meals to include more vegetables', 'Library extends opening hours',
  'Rail strike called off after late talks', 'New park opens on former factory site',
  'Hospital trials shorter waiting lists', 'Farmers market moves to the harbour',
  'Record turnout at the marathon', 'Bridge repairs delayed until spring'];

const pick = (r, list) => list[Math.floor(r() * list.length)];
const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

// A tiny grey image as a data URL: real <img> elements without any network request.
const IMG = 'data:image/svg+xml,' + encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="110"><rect width="160" height="110" fill="#ccd"/></svg>');

/// The probe controls both pages carry (see the header comment).
function probes() {
  return `
  <div class="probes">
    <button disabled>Disabled plain button 1</button>
    <button disabled>Disabled plain button 2</button>
    <button class="btn" disabled>Disabled pointer button 1</button>
    <button class="btn" disabled>Disabled pointer button 2</button>
    <input disabled aria-label="Disabled input" placeholder="Disabled input">
    <a href="#" role="button" aria-disabled="true" class="btn">Aria-disabled link</a>
  </div>`;
}

// CSS shared by both pages. `.btn` and links get `cursor: pointer` like most shop themes, and the rule
// also reaches disabled `.btn` buttons, as it does on many real sites.
const BASE_CSS = `
  * { box-sizing: border-box; }
  body { margin: 0; font: 15px/1.4 system-ui, sans-serif; color: #222; }
  a { color: #0645ad; cursor: pointer; }
  .btn { cursor: pointer; background: #0a6; color: #fff; border: 0; border-radius: 4px; padding: 6px 10px; }
  .btn.secondary { background: #eee; color: #222; }
  header.top { display: flex; gap: 16px; align-items: center; padding: 8px 16px; background: #123; color: #fff; }
  header.top a { color: #fff; }
  header.top nav a { margin-right: 10px; }
  .probes { display: flex; gap: 8px; padding: 8px 16px; background: #fafafa; }
  .card { border: 1px solid #ddd; border-radius: 6px; padding: 8px; background: #fff; }
  .card img { width: 100%; height: 110px; object-fit: cover; display: block; }
  .card h3 { font-size: 15px; margin: 6px 0; }
  .price s { color: #888; margin-left: 6px; }
  .tags { list-style: none; padding: 0; margin: 4px 0; display: flex; gap: 4px; font-size: 12px; }
  .tags li { background: #eef; padding: 0 4px; border-radius: 3px; }
  footer { background: #222; color: #ddd; padding: 16px; }
  footer a { color: #ddd; }
`;

/// A "typical" shop-and-news home page with about 300 controls. `crossOrigin` is the base URL of a
/// second origin (another port on 127.0.0.1) that serves frame.html.
export function typicalPage({ crossOrigin }) {
  const r = mulberry32(1);
  const nav = ['Home', 'New in', 'Women', 'Men', 'Kids', 'Home & Garden', 'Electronics', 'Sports', 'Beauty',
    'Books', 'Gifts', 'Sale'].map((t) => `<a href="/c/${esc(t)}">${esc(t)}</a>`).join('');
  const filterGroups = ['Brand', 'Colour', 'Size', 'Material', 'Rating'].map((group, g) => {
    const boxes = Array.from({ length: 6 }, (_, i) => {
      const id = `f${g}-${i}`;
      const label = group === 'Brand' ? BRANDS[i] : `${group} ${i + 1}`;
      return `<li><input type="checkbox" id="${id}" name="${group}"><label for="${id}">${esc(label)}</label></li>`;
    }).join('');
    return `<fieldset><legend>${group}</legend><ul class="plain">${boxes}</ul></fieldset>`;
  }).join('');
  const cards = Array.from({ length: 24 }, (_, i) => {
    const name = `${pick(r, BRANDS)} ${pick(r, ADJECTIVES)} ${pick(r, NOUNS)}`;
    const price = (5 + r() * 195).toFixed(2);
    return `
      <article class="card">
        <a href="/p/${i}"><img src="${IMG}" alt="${esc(name)}"></a>
        <h3><a href="/p/${i}">${esc(name)}</a></h3>
        <div class="price"><span>£${price}</span></div>
        <label>Size <select name="size-${i}"><option>S</option><option selected>M</option><option>L</option></select></label>
        <div class="actions">
          <button class="btn">Add to basket</button>
          <button class="btn secondary" aria-label="Save ${esc(name)} to wish list">♡</button>
        </div>
        <a href="/p/${i}#reviews">${Math.floor(r() * 400)} reviews</a>
      </article>`;
  }).join('');
  const pages = Array.from({ length: 8 }, (_, i) => `<a href="?page=${i + 1}">${i + 1}</a>`).join(' ');
  const news = HEADLINES.map((h, i) => `
      <li><a href="/news/${i}">${esc(h)}</a> <span>${(i % 5) + 1} hours ago</span>
        <a href="/news/${i}" aria-label="Read more: ${esc(h)}">Read more</a></li>`).join('');
  const footerCols = ['Help', 'About us', 'Shopping', 'Legal'].map((col) => `
      <div><h4>${col}</h4><ul class="plain">${Array.from({ length: 12 }, (_, i) =>
        `<li><a href="/${esc(col)}/${i}">${esc(col)} topic ${i + 1}</a></li>`).join('')}</ul></div>`).join('');
  const social = ['Facebook', 'Instagram', 'YouTube', 'Mastodon', 'RSS']
    .map((s) => `<a href="/social/${s}" aria-label="${s}">${s[0]}</a>`).join(' ');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Northwind Market — shop and local news</title>
<style>${BASE_CSS}
  .layout { display: grid; grid-template-columns: 220px 1fr 300px; gap: 16px; padding: 16px; }
  .grid { display: grid; grid-template-columns: repeat(4, 1fr); gap: 12px; }
  .plain { list-style: none; padding: 0; margin: 0; }
  fieldset { border: 0; padding: 0; margin: 0 0 10px; }
  .footer-cols { display: grid; grid-template-columns: repeat(4, 1fr); gap: 16px; }
  iframe { width: 100%; height: 90px; border: 1px solid #ccc; }
</style></head>
<body>
  <a href="#main">Skip to content</a>
  <header class="top">
    <a href="/"><strong>Northwind Market</strong></a>
    <nav aria-label="Departments">${nav}</nav>
    <a href="/account">Account</a><a href="/orders">Orders</a><a href="/basket">Basket (2)</a>
  </header>
  <form role="search" action="/search" style="display:flex;gap:8px;padding:8px 16px">
    <select aria-label="Department"><option>All</option><option>Electronics</option><option>Home</option></select>
    <input type="search" name="q" aria-label="Search products" placeholder="Search products">
    <button class="btn">Search</button>
  </form>
  ${probes()}
  <div class="layout">
    <aside aria-label="Filters">
      <h2>Filter</h2>${filterGroups}
      <label>Min price <input type="number" name="min" value="0"></label>
      <label>Max price <input type="number" name="max" value="200"></label>
      <button class="btn">Apply filters</button>
    </aside>
    <main id="main">
      <h1>Popular this week</h1>
      <div class="grid">${cards}</div>
      <nav aria-label="Pages">${pages}</nav>
    </main>
    <aside aria-label="Local news">
      <h2>Local news</h2><ul class="plain">${news}</ul>
      <h2>Offers</h2>
      <iframe title="Same-origin offers" src="frame.html?label=Same-origin"></iframe>
      <iframe title="Cross-origin payments" src="${crossOrigin}frame.html?label=Cross-origin"></iframe>
      <form action="/newsletter">
        <h2>Newsletter</h2>
        <input type="email" name="email" aria-label="E-mail address" placeholder="you@example.org">
        <label><input type="checkbox" name="consent"> I agree to receive e-mails</label>
        <button class="btn">Subscribe</button>
      </form>
    </aside>
  </div>
  <footer>
    <div class="footer-cols">${footerCols}</div>
    <p>${social}</p>
    <label>Language <select><option>English</option><option>Cymraeg</option><option>Français</option></select></label>
  </footer>
</body></html>`;
}

/// The framed page: two buttons named after the frame ("Same-origin frame button 1", …).
export function frameHtml() {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Frame</title>
<style>${BASE_CSS}</style></head>
<body>
  <script>
    // The label comes from the query, so one file serves both frames.
    const label = new URLSearchParams(location.search).get('label') || 'Unnamed';
    document.write('<button class="btn">' + label + ' frame button 1</button> ' +
      '<button class="btn">' + label + ' frame button 2</button>');
  </script>
</body></html>`;
}

/// A generated catalogue: a grid of `cards` product cards (6 controls and about 36 DOM nodes each) under a
/// small header, far taller than the viewport. The defaults give about 30,000 nodes and 5,000 controls.
export function cataloguePage({ cards = 830 } = {}) {
  const r = mulberry32(2);
  const grid = [];
  for (let i = 0; i < cards; i++) {
    const name = `${pick(r, BRANDS)} ${pick(r, ADJECTIVES)} ${pick(r, NOUNS)} ${i + 1}`;
    const price = 5 + r() * 195;
    const stars = Math.floor(r() * 5) + 1;
    // Controls: image link, title link, quantity select, compare checkbox, add button, save button.
    // The rest are the non-interactive wrappers real catalogues are made of.
    grid.push(`<article class="card"><div class="media"><a href="/p/${i}"><img src="${IMG}" alt="${esc(name)}"></a>`
      + `<span class="badge">${r() < 0.2 ? 'New' : ''}</span></div>`
      + `<div class="body"><h3><a href="/p/${i}">${esc(name)}</a></h3>`
      + `<p class="desc"><span>${pick(r, ADJECTIVES)} and ${pick(r, ADJECTIVES).toLowerCase()}.</span> `
      + `<span>Ships in ${1 + (i % 5)} days.</span></p>`
      + `<div class="rating" aria-label="${stars} out of 5 stars">`
      + `${'<i>★</i>'.repeat(stars)}${'<i>☆</i>'.repeat(5 - stars)}</div>`
      + `<div class="price"><span>£${price.toFixed(2)}</span><s>£${(price * 1.2).toFixed(2)}</s></div>`
      + `<div class="opts"><label>Qty <select><option>1</option><option>2</option><option>3</option></select></label>`
      + `<label><input type="checkbox"> Compare</label></div>`
      + `<div class="actions"><button class="btn">Add to basket</button>`
      + `<button class="btn secondary">Save</button></div>`
      + `<ul class="tags"><li><span>${pick(r, BRANDS)}</span></li><li><span>${pick(r, NOUNS)}</span></li></ul>`
      + `</div></article>`);
  }
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Catalogue — ${cards} products</title>
<style>${BASE_CSS}
  .grid { display: grid; grid-template-columns: repeat(5, 1fr); gap: 10px; padding: 12px 16px; }
  .rating i { font-style: normal; color: #c80; }
  .badge:empty { display: none; }
</style></head>
<body>
  <header class="top">
    <a href="/"><strong>Catalogue</strong></a>
    <nav aria-label="Sections"><a href="/new">New</a><a href="/sale">Sale</a><a href="/brands">Brands</a></nav>
    <input type="search" aria-label="Search the catalogue" placeholder="Search the catalogue">
    <button class="btn">Search</button>
  </header>
  ${probes()}
  <main><h1>All products</h1><div class="grid">${grid.join('\n')}</div></main>
</body></html>`;
}

/// A busy page: `buttons` buttons in a grid ten wide (about 260 on screen), and a script that rewrites
/// the text of `updated` nodes in them every 16 ms, as a live dashboard or a ticker does. It counts
/// in `window.__updates` the rewrites done and in `window.__frames` the frames drawn
/// (`requestAnimationFrame`); `window.__reset()` sets both to zero.
export function busyPage({ buttons = 1500, updated = 500 } = {}) {
  const cells = Array.from({ length: buttons }, (_, i) => `<button class="btn">Item ${i + 1} <span>0</span></button>`);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Busy page — ${updated} nodes every 16 ms</title>
<style>${BASE_CSS}
  .grid { display: grid; grid-template-columns: repeat(10, 1fr); gap: 6px; padding: 12px 16px; }
</style></head>
<body>
  <main><h1>Live figures</h1><div class="grid">${cells.join('\n')}</div></main>
  <script>
    const spans = [...document.querySelectorAll('.grid span')];
    const step = Math.max(1, Math.floor(spans.length / ${updated}));
    const changing = spans.filter((_, i) => i % step === 0).slice(0, ${updated});
    window.__updates = 0;
    window.__frames = 0;
    window.__reset = () => { window.__updates = 0; window.__frames = 0; };
    let tick = 0;
    setInterval(() => {
      tick++;
      for (const span of changing) span.textContent = String(tick);
      window.__updates++;
    }, 16);
    const frame = () => { window.__frames++; requestAnimationFrame(frame); };
    requestAnimationFrame(frame);
  </script>
</body></html>`;
}
