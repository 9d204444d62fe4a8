// The preview page: draws the bundle's dashboards from /api/model and
// redraws when /api/events says a file changed, keeping the dashboard and
// breakpoint in the address (#/<slug>/<breakpoint>). The grid takes the
// pane's width (up to the breakpoint's own), so nothing scrolls sideways;
// a card's details open beside the grid, never over it. Cards take focus:
// arrows move between them, Enter opens, Esc closes. With --against, the
// change is marked (toggled in the toolbar). Text from the bundle is set as
// text; only a TEXT widget's markdown is set as HTML, rendered safely by wsc.
const BREAKPOINTS = ['lg', 'md', 'sm', 'xs', 'xxs'];
const SVG = 'http://www.w3.org/2000/svg';
let model = { workbooks: [], diagnostics: [], glyphs: {}, version: 0 };
let openCard;
let showChanges = true;

const $ = (id) => document.getElementById(id);
function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined) continue;
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) if (c !== undefined && c !== null) e.append(c);
  return e;
}

function glyph(kind) {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '-1 -1 18 18');
  svg.setAttribute('class', 'glyph');
  svg.setAttribute('aria-hidden', 'true');
  svg.dataset.glyph = kind;
  const path = document.createElementNS(SVG, 'path');
  path.setAttribute('d', model.glyphs[kind] ?? model.glyphs.generic ?? '');
  svg.append(path);
  return svg;
}

/** The dashboard the page opens on: the address's, else the first that changed against the baseline. */
function state() {
  const [, slug, bp] = location.hash.split('/');
  const first = model.workbooks.find((w) => model.against && w.changes?.changed) ?? model.workbooks[0];
  const wb = model.workbooks.find((w) => w.slug === decodeURIComponent(slug ?? '')) ?? first;
  return { wb, bp: BREAKPOINTS.includes(bp) ? bp : 'lg' };
}

function go(slug, bp) {
  location.hash = `#/${encodeURIComponent(slug)}/${bp}`;
}

const marking = () => Boolean(model.against) && showChanges;

function renderNav(current) {
  const nav = $('workbooks');
  const n = model.workbooks.length;
  nav.replaceChildren(el('div', { class: 'muted', text: `${n} workbook${n === 1 ? '' : 's'}` }));
  for (const w of model.workbooks) {
    const changed = marking() && w.changes?.changed;
    nav.append(
      el(
        'a',
        {
          href: `#/${encodeURIComponent(w.slug)}/${state().bp}`,
          class: [w === current ? 'current' : '', changed ? 'changed' : ''].join(' ').trim(),
          'data-slug': w.slug,
          title: changed ? `changed against ${model.against}` : undefined,
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
  bar.append(
    el('span', { class: 'muted', id: 'grid-info', text: `${g.cols} columns, ${g.width}px, ${wb.file}:${wb.line}` }),
  );
  if (model.against) {
    const box = el('input', { type: 'checkbox', id: 'show-changes', onchange: (e) => toggle(e.target.checked) });
    box.checked = showChanges;
    bar.append(el('label', { class: 'toggle' }, box, ` changes against ${model.against}`));
  }
}

function toggle(on) {
  showChanges = on;
  render();
}

function legend() {
  const item = (cls, text) => el('span', { class: `key ${cls}` }, el('i'), text);
  return el(
    'div',
    { id: 'legend' },
    item('added', 'added'),
    item('removed', 'removed (where it was)'),
    item('moved', 'moved or resized (old box dashed)'),
    item('config', 'config changed'),
  );
}

/** What the card says it is, under its type and id. */
function cardBody(c, marks) {
  const problems = [];
  if (c.outOfGrid) problems.push('out of the grid');
  if (c.overlaps.length) problems.push(`overlaps ${c.overlaps.join(', ')}`);
  const head = el(
    'div',
    { class: 'head' },
    el('span', { class: 'type', text: c.type }),
    el('span', { class: 'id', text: c.id }),
  );
  if (marks) {
    const kinds = marks.kinds;
    const badges = el('span', { class: 'badges' });
    if (kinds.includes('added')) badges.append(el('span', { class: 'badge added', text: 'added' }));
    const layout = kinds.filter((k) => k === 'moved' || k === 'resized');
    if (layout.length) badges.append(el('span', { class: 'badge moved', text: layout.join(', ') }));
    if (kinds.includes('config'))
      badges.append(
        el('span', {
          class: 'badge config',
          // What changed in words: the chart's change, else the one member that changed, else `config`.
          text:
            c.change ?? (marks.paths?.length === 1 ? `${marks.paths[0].replace(/^config\./, '')} changed` : 'config'),
          title: c.change ?? (marks.paths ?? []).join(', '),
        }),
      );
    if (kinds.includes('kept')) badges.append(el('span', { class: 'badge kept', text: 'kept, edited outside wsc' }));
    head.append(badges);
  }
  const parts = [head];
  if (c.report) {
    parts.push(
      el(
        'div',
        { class: 'title' },
        c.glyph ? glyph(c.glyph) : undefined,
        el('span', { text: c.report.title ?? c.report.publicId }),
      ),
    );
    if (c.report.name) parts.push(el('div', { class: 'muted name', text: c.report.name }));
  } else if (c.missingReport) {
    parts.push(el('div', { class: 'problem', text: `{ $report: ${c.missingReport} } is not in the bundle` }));
  } else if (c.glyph) {
    parts.push(el('div', { class: 'title' }, glyph(c.glyph), el('span', { text: c.visualization ?? 'chart' })));
  }
  if (c.chart) parts.push(chartBox(c.chart));
  if (c.filter) {
    parts.push(
      el(
        'div',
        { class: 'filter' },
        el('span', { class: 'label', text: c.filter.label ?? '(no label)' }),
        c.filter.member ? el('code', { text: c.filter.member }) : undefined,
      ),
    );
  }
  if (c.grain) {
    // Its options as chips, the default one filled and ticked (a default that is no option gets a chip too).
    const grain = el('div', { class: 'grain' });
    const options =
      c.grain.options.includes(c.grain.default ?? '') || !c.grain.default
        ? c.grain.options
        : [c.grain.default, ...c.grain.options];
    for (const o of options) {
      const isDefault = o === c.grain.default;
      grain.append(
        el('span', {
          class: isDefault ? 'opt default' : 'opt',
          title: isDefault ? 'default' : undefined,
          text: isDefault ? `${o} ✓` : o,
        }),
      );
    }
    parts.push(grain);
  }
  if (c.html !== undefined) {
    const md = el('div', { class: 'md' });
    md.innerHTML = c.html;
    parts.push(md);
  }
  if (problems.length) parts.push(el('div', { class: 'problem', text: problems.join('; ') }));
  return parts;
}

/** One picture drawn by wsc (an SVG, shown as an image: nothing in it runs), or what stands in its place. */
function picture(ch, caption) {
  const fig = el('figure', { class: 'pic' });
  if (caption) fig.append(el('figcaption', { class: 'muted', text: caption }));
  if (ch.svg) {
    fig.append(
      el('img', { src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(ch.svg)}`, alt: caption ?? 'chart' }),
    );
    if (ch.note) fig.append(el('div', { class: 'muted note', text: ch.note }));
  } else if (ch.error) fig.append(el('div', { class: 'problem', text: `Cube refused the query: ${ch.error}` }));
  else fig.append(el('div', { class: 'muted why', text: ch.why ?? '' }));
  return fig;
}

/** A CHART card's data: its picture, or the baseline's and its own side by side. */
function chartBox(ch) {
  if (!ch.before || !marking()) return el('div', { class: 'chart' }, picture(ch));
  return el('div', { class: 'chart two' }, picture(ch.before, 'before'), picture(ch, 'after'));
}

function place(box, b, colW, rowH) {
  Object.assign(box.style, {
    left: `${Math.max(0, b.x) * colW}px`,
    top: `${Math.max(0, b.y) * rowH}px`,
    width: `${b.w * colW}px`,
    height: `${b.h * rowH}px`,
  });
}

function renderGrid(wb, bp) {
  const grid = $('grid');
  grid.replaceChildren();
  const old = $('legend');
  if (old) old.remove();
  if (!wb) return;
  const g = wb.grids.find((x) => x.breakpoint === bp);
  const changes = marking() ? wb.changes?.grids[bp] : undefined;
  if (changes) grid.before(legend());
  // The pane's width, up to the breakpoint's own: columns keep their proportions, nothing scrolls sideways.
  const width = Math.min(g.width, $('scroller').clientWidth);
  const colW = width / g.cols;
  const info = $('grid-info');
  if (info && width < g.width)
    info.textContent = `${g.cols} columns, ${g.width}px drawn at ${Math.round(width)}px, ${wb.file}:${wb.line}`;
  const rows = Math.max(1, g.rows, ...(changes?.removed ?? []).map((r) => r.box.y + r.box.h));
  grid.style.width = `${width}px`;
  grid.style.height = `${rows * g.rowHeight}px`;
  grid.style.setProperty('--col', `${colW}px`);
  grid.dataset.cols = String(g.cols);
  grid.dataset.breakpoint = bp;
  for (const c of g.cards) {
    const marks = changes?.cards[c.id];
    const kinds = marks?.kinds ?? [];
    const cls = ['card'];
    if (c.outOfGrid || c.overlaps.length) cls.push('bad');
    if (c.chart) cls.push('has-chart');
    for (const k of kinds) cls.push(`chg-${k}`);
    if (c.id === openCard) cls.push('open');
    const box = el('div', {
      class: cls.join(' '),
      'data-id': c.id,
      'data-type': c.type,
      'data-change': kinds.join(' ') || undefined,
    });
    place(box, c, colW, g.rowHeight);
    const label = `${c.type} ${c.id}${c.report?.title ? `: ${c.report.title}` : ''}`;
    const inner = el(
      'div',
      {
        tabindex: '0',
        role: 'button',
        'aria-label': label,
        onclick: (ev) => (ev.target.closest('a') ? undefined : showDetails(c)),
        onkeydown: (ev) => onCardKey(ev, c, inner),
      },
      ...cardBody(c, marks),
    );
    box.append(inner);
    grid.append(box);
    if (marks?.before) {
      const was = el('div', { class: 'was', 'data-was': c.id, title: `${c.id} was here` });
      place(was, marks.before, colW, g.rowHeight);
      grid.append(was);
    }
  }
  $('removed-list')?.remove();
  const list = el('ul', { id: 'removed-list' });
  const meets = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
  for (const r of changes?.removed ?? []) {
    // A removed widget under a card now there: its outline only; its label goes in the list under the grid.
    const covered = g.cards.some((c) => meets(r.box, c));
    const label = [
      el('span', { class: 'badge removed', text: 'removed' }),
      el('span', { class: 'type', text: `${r.type} ` }),
      el('span', { class: 'id', text: r.id }),
    ];
    const gone = el(
      'div',
      { class: covered ? 'gone covered' : 'gone', 'data-removed': r.id },
      covered ? el('div') : el('div', {}, ...label, r.title ? el('div', { text: r.title }) : undefined),
    );
    place(gone, r.box, colW, g.rowHeight);
    grid.append(gone);
    if (covered) {
      const where = `the dashed red box at x ${r.box.x}, y ${r.box.y}, w ${r.box.w}, h ${r.box.h}`;
      list.append(el('li', { 'data-removed-label': r.id }, ...label, ` ${r.title ? `${r.title} ` : ''}(${where})`));
    }
  }
  if (list.children.length > 0) grid.after(list);
  // A TEXT card whose markdown does not fit says so.
  for (const md of grid.querySelectorAll('.md')) if (md.scrollHeight > md.clientHeight + 1) md.classList.add('cut');
}

/** Arrow keys: the nearest card in that direction (by the centres of the boxes). */
function onCardKey(ev, c, inner) {
  if (ev.key === 'Enter' || ev.key === ' ') {
    ev.preventDefault();
    showDetails(c);
    return;
  }
  const dir = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[ev.key];
  if (!dir) return;
  ev.preventDefault();
  const from = inner.getBoundingClientRect();
  const cx = from.left + from.width / 2;
  const cy = from.top + from.height / 2;
  // Cards wholly past this one's edge in that direction first; the nearest by the gap, then by how far aside.
  const beyond = (r) =>
    dir[0] > 0
      ? r.left >= from.right - 2
      : dir[0] < 0
        ? r.right <= from.left + 2
        : dir[1] > 0
          ? r.top >= from.bottom - 2
          : r.bottom <= from.top + 2;
  let best;
  let bestScore = Infinity;
  for (const other of document.querySelectorAll('#grid .card > div')) {
    if (other === inner) continue;
    const r = other.getBoundingClientRect();
    const dx = r.left + r.width / 2 - cx;
    const dy = r.top + r.height / 2 - cy;
    const along = dx * dir[0] + dy * dir[1];
    if (along <= 0) continue;
    const across = Math.abs(dx * dir[1]) + Math.abs(dy * dir[0]);
    const score = (beyond(r) ? 0 : 1e6) + along + 2 * across;
    if (score < bestScore) [best, bestScore] = [other, score];
  }
  best?.focus();
}

function section(title, shown, file) {
  if (shown === undefined) return undefined;
  const where = shown.line !== undefined ? `${file}:${shown.line}` : file;
  return el(
    'div',
    { class: 'section' },
    el('h4', {}, title, ' ', el('code', { class: 'where', text: where })),
    el('pre', { text: shown.yaml }),
  );
}

function closeDetails() {
  const aside = $('details');
  if (aside.hidden) return;
  aside.hidden = true;
  const id = openCard;
  openCard = undefined;
  render();
  document.querySelector(`#grid .card[data-id="${CSS.escape(id ?? '')}"] > div`)?.focus();
}

function showDetails(c) {
  openCard = c.id;
  const aside = $('details');
  const wasHidden = aside.hidden;
  aside.hidden = false;
  const { wb } = state();
  const r = c.report;
  const parts = [
    el('button', { class: 'close', text: 'close (Esc)', onclick: closeDetails }),
    el('h3', {}, el('span', { class: 'type', text: c.type }), ` ${c.id}`),
    el('div', {
      class: 'muted',
      text: `x ${c.x}, y ${c.y}, w ${c.w}, h ${c.h}` + (c.line !== undefined ? ` · ${wb.file}:${c.line}` : ''),
    }),
    r
      ? el(
          'p',
          {},
          el('strong', { text: r.title ?? r.publicId }),
          el('br'),
          el('span', { class: 'muted', text: `${r.name ?? ''} · ${r.publicId} · ${r.file}` }),
        )
      : undefined,
    r && r.members
      ? section('Members', { yaml: r.members.map((m) => `${m.name}  ${m.title}`).join('\n') }, r.file)
      : undefined,
    r ? section('SQL', r.shown.sqlQuery, r.file) : undefined,
    r ? section('Query', r.shown.jsonQuery, r.file) : undefined,
    r ? section('Pivot', r.shown.pivotItems, r.file) : undefined,
    section('Config', c.config, wb.file),
  ];
  aside.replaceChildren(...parts.filter((x) => x !== undefined));
  aside.dataset.id = c.id;
  // The details take room beside the grid: it is drawn again for the narrower pane.
  if (wasHidden) {
    render();
    document.querySelector(`#grid .card[data-id="${CSS.escape(c.id)}"] > div`)?.focus();
  } else {
    for (const open of document.querySelectorAll('#grid .card.open')) open.classList.remove('open');
    document.querySelector(`#grid .card[data-id="${CSS.escape(c.id)}"]`)?.classList.add('open');
  }
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
  const focused = document.activeElement?.closest?.('#grid .card')?.dataset.id;
  renderNav(wb);
  renderToolbar(wb, bp);
  renderGrid(wb, bp);
  renderDiagnostics();
  if (openCard && wb) {
    const c = wb.grids.find((x) => x.breakpoint === bp).cards.find((x) => x.id === openCard);
    if (c) showDetails(c);
  }
  if (focused) document.querySelector(`#grid .card[data-id="${CSS.escape(focused)}"] > div`)?.focus();
  $('status').textContent = wb ? `${wb.title ?? wb.name ?? wb.slug} · ${bp}` : 'no workbook in the bundle';
  const data = model.data;
  $('data').textContent = !data
    ? ''
    : data.from
      ? `charts with data from ${data.from}`
      : `charts without data: ${data.off}`;
  $('data').className = data?.off ? 'off' : 'on';
  const none = model.against && !model.workbooks.some((w) => w.changes?.changed);
  $('nochange').hidden = !none;
  $('nochange').textContent = none ? `No changes: no dashboard changed against ${model.against}.` : '';
  document.body.dataset.version = String(model.version);
}

async function refresh() {
  const res = await fetch('/api/model', { cache: 'no-store' });
  model = await res.json();
  render();
}

window.addEventListener('hashchange', render);
window.addEventListener('keydown', (ev) => {
  if (ev.key === 'Escape') closeDetails();
});
let resizing;
window.addEventListener('resize', () => {
  clearTimeout(resizing);
  resizing = setTimeout(render, 50);
});
const events = new EventSource('/api/events');
events.addEventListener('change', () => void refresh());
await refresh();
