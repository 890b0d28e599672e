import { type Html, html } from './html.js';

export interface Series {
  name: string;
  values: number[];
}

export interface ChartOptions {
  /** Vertical marks at label positions (a release first seen): a dotted line and its name, no colour needed. */
  marks?: { index: number; label: string }[];
  /** The first column of the numbers table (default Day). */
  labelHeader?: string;
  /** How an axis label shows (default: the date without its year). */
  tick?: (label: string) => string;
}

/** Dash patterns and point marks tell the lines apart without colour (printed, or for colour-blind readers). */
const DASHES = ['', '6 3', '2 3', '10 3 2 3', '1 2', '12 6'];
const MARKS = ['circle', 'square', 'diamond', 'triangle', 'cross', 'plus'] as const;

const WIDTH = 720;
const HEIGHT = 240;
const PAD = { left: 44, right: 120, top: 12, bottom: 36 };

function mark(kind: (typeof MARKS)[number], x: number, y: number): Html {
  const r = 3;
  switch (kind) {
    case 'circle':
      return html`<circle cx="${x}" cy="${y}" r="${r}"/>`;
    case 'square':
      return html`<rect x="${x - r}" y="${y - r}" width="${2 * r}" height="${2 * r}"/>`;
    case 'diamond':
      return html`<path d="M${x} ${y - r - 1}L${x + r + 1} ${y}L${x} ${y + r + 1}L${x - r - 1} ${y}Z"/>`;
    case 'triangle':
      return html`<path d="M${x} ${y - r - 1}L${x + r + 1} ${y + r}L${x - r - 1} ${y + r}Z"/>`;
    case 'cross':
      return html`<path d="M${x - r} ${y - r}L${x + r} ${y + r}M${x + r} ${y - r}L${x - r} ${y + r}" fill="none"/>`;
    default:
      return html`<path d="M${x - r} ${y}L${x + r} ${y}M${x} ${y - r}L${x} ${y + r}" fill="none"/>`;
  }
}

/**
 * A line chart as inline SVG, drawn on the server: no script and nothing loaded from elsewhere (the
 * console's CSP allows neither). Each series has its own dash pattern and point mark, shown in a legend, and
 * the same numbers follow as a table, so it reads without colour and with a screen reader.
 */
export function lineChart(
  title: string,
  labels: string[],
  series: Series[],
  id = 'chart',
  options: ChartOptions = {},
): Html {
  const tick = options.tick ?? ((label: string) => label.slice(5));
  const max = Math.max(1, ...series.flatMap((s) => s.values));
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const x = (i: number) => PAD.left + (labels.length > 1 ? (i * plotW) / (labels.length - 1) : plotW / 2);
  const y = (v: number) => PAD.top + plotH - (v * plotH) / max;
  const ticks = [0, Math.round(max / 2), max];
  const every = Math.max(1, Math.ceil(labels.length / 6));
  return html`<figure class="card chart">
<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="${id}-title" xmlns="http://www.w3.org/2000/svg" font-size="11" stroke="currentColor" fill="currentColor">
<title id="${id}-title">${title}</title>
${ticks.map(
  (t) =>
    html`<line x1="${PAD.left}" x2="${PAD.left + plotW}" y1="${y(t)}" y2="${y(t)}" stroke-opacity="0.2"/><text x="${PAD.left - 6}" y="${y(t) + 4}" text-anchor="end" stroke="none">${t}</text>`,
)}
${labels.map((label, i) =>
  i % every === 0 || i === labels.length - 1
    ? html`<text x="${x(i)}" y="${HEIGHT - PAD.bottom + 16}" text-anchor="middle" stroke="none">${tick(label)}</text>`
    : '',
)}
${(options.marks ?? []).map(
  (m, n) =>
    html`<g class="mark"><line x1="${x(m.index)}" x2="${x(m.index)}" y1="${PAD.top}" y2="${PAD.top + plotH}" stroke-dasharray="1 3"/><text x="${x(m.index) + 3}" y="${PAD.top + 10 + (n % 3) * 12}" stroke="none">${m.label}</text></g>`,
)}
${series.map((s, n) => {
  const points = s.values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  const dash = DASHES[n % DASHES.length];
  const kind = MARKS[n % MARKS.length] ?? 'circle';
  // The legend, in the right margin: the series' own line and mark beside its name and total.
  const ly = PAD.top + 8 + n * 16;
  const lx = PAD.left + plotW + 12;
  const total = s.values.reduce((a, b) => a + b, 0);
  return html`<g class="series" data-series="${s.name}"><polyline points="${points}" fill="none" stroke-width="1.5" stroke-dasharray="${dash}"/>
${s.values.map((v, i) => mark(kind, x(i), y(v)))}
<line x1="${lx}" x2="${lx + 22}" y1="${ly}" y2="${ly}" stroke-width="1.5" stroke-dasharray="${dash}"/>${mark(kind, lx + 11, ly)}
<text x="${lx + 28}" y="${ly + 4}" stroke="none">${s.name} (${total})</text></g>`;
})}
</svg>
<figcaption>${title}</figcaption>
<details><summary>The numbers</summary><table><thead><tr><th>${options.labelHeader ?? 'Day'}</th>${series.map((s) => html`<th>${s.name}</th>`)}</tr></thead>
<tbody>${labels.map((label, i) => html`<tr><td>${label}</td>${series.map((s) => html`<td>${s.values[i] ?? 0}</td>`)}</tr>`)}</tbody></table></details>
</figure>`;
}
