// The preview page: draws the bundle's dashboards from /api/model and
// redraws when /api/events says a file changed, keeping the dashboard and
// breakpoint in the address (#/<slug>/<breakpoint>). Text from the bundle is
// set as text; only a TEXT widget's markdown is set as HTML, rendered safely
// by wsc (raw HTML shown as text).
const BREAKPOINTS = ['lg', 'md', 'sm', 'xs', 'xxs'];
let model = { workbooks: [], diagnostics: [], version: 0 };
let openCard;

const $ = (id) => document.getElementById(id);
function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) if (c !== undefined && c !== null) e.append(c);
  return e;
}

function state() {
  const [, slug, bp] = location.hash.split('/');
  const wb = model.workbooks.find((w) => w.slug === decodeURIComponent(slug ?? '')) ?? model.workbooks[0];
  return { wb, bp: BREAKPOINTS.includes(bp) ? bp : 'lg' };
}

function go(slug, bp) {
  location.hash = `#/${encodeURIComponent(slug)}/${bp}`;
}

function renderNav(current) {
  const nav = $('workbooks');
  nav.replaceChildren(
    el('div', {
      class: 'muted',
      text: `${model.workbooks.length} workbook${model.workbooks.length === 1 ? '' : 's'}`,
    }),
  );
  for (const w of model.workbooks) {
    nav.append(
      el(
        'a',
        {
          href: `#/${encodeURIComponent(w.slug)}/${state().bp}`,
          class: w === current ? 'current' : '',
          'data-slug': w.slug,
        },
        w.title ?? w.name ?? w.slug,
        el('small', { text: w.slug }),
      ),
    );
  }
}

function renderToolbar(wb, bp) {
  const bar = $('toolbar');
  bar.replaceChildren();
  if (!wb) return;
  for (const b of BREAKPOINTS) {
    const own = wb.layouts.includes(b);
    const cls = [b === bp ? 'current' : '', own ? '' : 'derived'].join(' ').trim();
    const title = own ? `${b}: the dashboard's own layout` : `${b}: placed from a larger breakpoint, as the grid does`;
    bar.append(el('button', { class: cls, 'data-bp': b, title, onclick: () => go(wb.slug, b) }, b));
  }
  const g = wb.grids.find((x) => x.breakpoint === bp);
  bar.append(el('span', { class: 'muted', text: `${g.cols} columns, ${g.width}px, ${wb.file}:${wb.line}` }));
}

function cardBody(c) {
  const problems = [];
  if (c.outOfGrid) problems.push('out of the grid');
  if (c.overlaps.length) problems.push(`overlaps ${c.overlaps.join(', ')}`);
  const head = el('div', {}, el('span', { class: 'type', text: c.type }), el('span', { class: 'id', text: c.id }));
  const parts = [head];
  if (c.report) {
    parts.push(el('div', { class: 'title', text: c.report.title ?? c.report.publicId }));
    if (c.report.name) parts.push(el('div', { class: 'muted name', text: c.report.name }));
  } else if (c.missingReport) {
    parts.push(el('div', { class: 'problem', text: `{ $report: ${c.missingReport} } is not in the bundle` }));
  }
  if (c.html !== undefined) {
    const md = el('div', { class: 'md' });
    md.innerHTML = c.html;
    parts.push(md);
  }
  if (problems.length) parts.push(el('div', { class: 'problem', text: problems.join('; ') }));
  return parts;
}

function renderGrid(wb, bp) {
  const grid = $('grid');
  grid.replaceChildren();
  if (!wb) return;
  const g = wb.grids.find((x) => x.breakpoint === bp);
  const colW = g.width / g.cols;
  grid.style.width = `${g.width}px`;
  grid.style.height = `${Math.max(1, g.rows) * g.rowHeight}px`;
  grid.style.setProperty('--col', `${colW}px`);
  grid.dataset.cols = String(g.cols);
  grid.dataset.breakpoint = bp;
  for (const c of g.cards) {
    const box = el('div', {
      class: c.outOfGrid || c.overlaps.length ? 'card bad' : 'card',
      'data-id': c.id,
      'data-type': c.type,
    });
    Object.assign(box.style, {
      left: `${Math.max(0, c.x) * colW}px`,
      top: `${Math.max(0, c.y) * g.rowHeight}px`,
      width: `${c.w * colW}px`,
      height: `${c.h * g.rowHeight}px`,
    });
    const inner = el('div', { onclick: (ev) => (ev.target.closest('a') ? undefined : showDetails(c)) }, ...cardBody(c));
    box.append(inner);
    grid.append(box);
  }
}

function section(title, text) {
  return text === undefined ? undefined : el('div', {}, el('h4', { text: title }), el('pre', { text }));
}

function pretty(s) {
  try {
    return JSON.stringify(JSON.parse(s), null, 2);
  } catch {
    return s;
  }
}

function showDetails(c) {
  openCard = c.id;
  const aside = $('details');
  aside.hidden = false;
  const r = c.report;
  const parts = [
    el('button', { text: 'close', onclick: () => ((aside.hidden = true), (openCard = undefined)) }),
    el('h3', {}, el('span', { class: 'type', text: c.type }), ` ${c.id}`),
    el('div', { class: 'muted', text: `x ${c.x}, y ${c.y}, w ${c.w}, h ${c.h}` }),
    r
      ? el(
          'p',
          {},
          el('strong', { text: r.title ?? r.publicId }),
          el('br'),
          el('span', { class: 'muted', text: `${r.name ?? ''} · ${r.publicId} · ${r.file}` }),
        )
      : undefined,
    r ? section('SQL', r.sqlQuery) : undefined,
    r ? section('JSON query', r.jsonQuery === undefined ? undefined : pretty(r.jsonQuery)) : undefined,
    r ? section('Pivot', r.pivotItems === undefined ? undefined : JSON.stringify(r.pivotItems, null, 2)) : undefined,
    c.text !== undefined ? section('Markdown', c.text) : undefined,
  ];
  aside.replaceChildren(...parts.filter((x) => x !== undefined));
  aside.dataset.id = c.id;
}

function renderDiagnostics() {
  const box = $('diagnostics');
  const ds = model.diagnostics;
  box.replaceChildren(el('h3', { text: ds.length ? `Diagnostics (${ds.length})` : 'No problems found in the bundle' }));
  if (!ds.length) return;
  const list = el('ul');
  for (const d of ds) {
    list.append(
      el(
        'li',
        { class: d.severity },
        el('code', { text: `${d.file}:${d.line}:${d.col}` }),
        ` ${d.severity} ${d.message} [${d.rule}]`,
      ),
    );
  }
  box.append(list);
}

function render() {
  const { wb, bp } = state();
  renderNav(wb);
  renderToolbar(wb, bp);
  renderGrid(wb, bp);
  renderDiagnostics();
  if (openCard && wb) {
    const c = wb.grids.find((x) => x.breakpoint === bp).cards.find((x) => x.id === openCard);
    if (c) showDetails(c);
  }
  $('status').textContent = wb ? `${wb.title ?? wb.name ?? wb.slug} · ${bp}` : 'no workbook in the bundle';
  document.body.dataset.version = String(model.version);
}

async function refresh() {
  const res = await fetch('/api/model', { cache: 'no-store' });
  model = await res.json();
  render();
}

window.addEventListener('hashchange', render);
const events = new EventSource('/api/events');
events.addEventListener('change', () => void refresh());
await refresh();
