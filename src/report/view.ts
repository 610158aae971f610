/**
 * The format-neutral view of a report section, and the one painter per medium that draws it.
 *
 * A section (sections/*.ts) says once what it shows: a title, a line beside it, key/value rows,
 * tables (column headers, alignment, an optional unit), pairs of texts with their word diff
 * (inline on the console and in Markdown, side by side in HTML) and notes, each piece of text
 * with an optional tone. The console, Markdown and HTML reporters draw every view the same way, so a
 * figure shown in one format is shown in all of them; colour, ANSI codes and percentages are
 * defined here and nowhere else.
 */
import { textTable } from '../text-table.js';
import { formatPercent } from '../units.js';

/** What a piece of text means, not how it looks: each medium paints it its own way. */
export type Tone = 'ok' | 'fail' | 'warn' | 'muted' | 'strong';
export interface Span {
  text: string;
  tone?: Tone;
  /** A path, expression or identifier: code in Markdown and HTML. */
  code?: boolean;
}
/** Text of a view: plain, one span, or spans side by side. */
export type Text = string | Span | readonly (string | Span)[];

interface Column {
  header: string;
  /** Printed after the header (`p99 (ms)`) when every cell of the column is in it. */
  unit?: string;
  /** Default: the first column left, the others right. */
  align?: 'l' | 'r';
  /**
   * The console only: a cell longer than this is cut with `…` (so a table fits 100 columns);
   * Markdown and HTML show it whole.
   */
  maxWidth?: number;
}

export interface ViewTable {
  caption?: string;
  columns: readonly Column[];
  rows: readonly (readonly Text[])[];
  /** A line under the table, e.g. `… 12 more in report.json`. */
  more?: string;
}

/** A piece of a word diff: in both texts, or only in the first (`removed`) or the second (`added`). */
export interface DiffPart {
  text: string;
  change?: 'added' | 'removed';
}

/** Two texts compared, with what else changed beside them. */
export interface TextDiff {
  title: Text;
  /** The word diff of the two texts; absent: the texts are the same. */
  parts?: readonly DiffPart[];
  /** What else changed, a line each. */
  details?: readonly Text[];
}

/**
 * Pairs of texts: the console and Markdown draw each word diff inline (console `[-removed-]`
 * `{+added+}`, Markdown ~~removed~~ **added**), HTML the two texts side by side, the words
 * that differ highlighted.
 */
export interface DiffList {
  caption: string;
  /** The two texts' names (HTML's column headers), e.g. `['baseline', 'current']`. */
  labels: readonly [string, string];
  items: readonly TextDiff[];
  /** A line under the list, e.g. `… 12 more in report.json`. */
  more?: string;
}

export interface SectionView {
  /** The HTML anchor. */
  id: string;
  title: string;
  tone?: Tone;
  /** Beside the title (console, Markdown) or under it (HTML). */
  summary?: Text;
  /** Key/value rows. */
  rows?: readonly (readonly [string, Text])[];
  /** Lines read before the tables (the verdict's reasons: a comparison's flips), a line each. */
  lead?: readonly Text[];
  tables?: readonly ViewTable[];
  /** After the tables, or before them with `diffsFirst`. */
  diffs?: DiffList;
  /** The diffs come before the tables (what changed in the answers before the figures). */
  diffsFirst?: boolean;
  notes?: readonly Text[];
  /** HTML only: the boxes the page script draws charts into (html-charts.ts), by element id. */
  charts?: readonly string[];
  /** HTML only, in place of a chart the sample cannot support: `ack: 12 samples: too few for a chart (...)`. */
  chartNotes?: readonly Text[];
}

export const span = (text: string, tone?: Tone, code = false): Span => ({
  text,
  ...(tone && { tone }),
  ...(code && { code }),
});
export const code = (text: string): Span => ({ text, code: true });
/** A share 0..1 as a whole percentage (`75%`; null: `-`), the one used by every section. */
export const pct = (x: number | null, digits = 0): string => formatPercent(x, digits);
/** `1 request` / `3 requests`. */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** `t` cut to `max` characters, the last one `…` when it was longer (tones kept). */
function clipText(t: Text, max: number): Text {
  const parts = spans(t);
  const length = parts.reduce((n, p) => n + (typeof p === 'string' ? p : p.text).length, 0);
  if (length <= max) return t;
  const out: (string | Span)[] = [];
  let left = max - 1;
  for (const p of parts) {
    if (left <= 0) break;
    const text = typeof p === 'string' ? p : p.text;
    const cut = text.slice(0, left);
    left -= cut.length;
    out.push(typeof p === 'string' ? cut : { ...p, text: cut });
  }
  out.push('…');
  return out;
}

const spans = (t: Text): readonly (string | Span)[] =>
  typeof t === 'string' ? [t] : Array.isArray(t) ? (t as readonly (string | Span)[]) : [t as Span];
const header = (c: Column): string => (c.unit ? `${c.header} (${c.unit})` : c.header);
const alignOf = (cols: readonly Column[]): ('l' | 'r')[] => cols.map((c, i) => c.align ?? (i === 0 ? 'l' : 'r'));

// ---------------------------------------------------------------- console

const ANSI: Record<Tone, number> = { ok: 32, fail: 31, warn: 33, muted: 2, strong: 1 };
/** Paints text in a tone for a terminal. */
export type Paint = (tone: Tone | undefined, text: string) => string;
export const ansiPaint: Paint = (tone, text) => (tone ? `\u001b[${ANSI[tone]}m${text}\u001b[0m` : text);
export const plainPaint: Paint = (_tone, text) => text;

export function consoleText(t: Text, paint: Paint): string {
  return spans(t)
    .map((s) => (typeof s === 'string' ? s : paint(s.tone, s.text)))
    .join('');
}

/** A view as terminal lines: a blank line, `Title  summary`, rows, lead lines, tables, diffs (before the tables with `diffsFirst`), notes (two-space indent). */
export function consoleLines(v: SectionView, paint: Paint): string[] {
  const lines = [
    '',
    `${paint('strong', paint(v.tone, v.title))}${v.summary !== undefined ? `  ${consoleText(v.summary, paint)}` : ''}`,
  ];
  if (v.rows && v.rows.length > 0)
    lines.push(
      ...textTable(
        v.rows.map(([k, val]) => [k, consoleText(val, paint)]),
        { align: ['l', 'l'] },
      ),
    );
  for (const l of v.lead ?? []) lines.push(`  ${consoleText(l, paint)}`);
  if (v.diffs && v.diffsFirst) lines.push(...consoleDiffs(v.diffs, paint));
  for (const t of v.tables ?? []) {
    if (t.caption) lines.push(`  ${t.caption}:`);
    lines.push(
      ...textTable(
        [
          t.columns.map(header),
          ...t.rows.map((r) =>
            r.map((c, i) => {
              const max = t.columns[i]?.maxWidth;
              return consoleText(max === undefined ? c : clipText(c, max), paint);
            }),
          ),
        ],
        {
          align: alignOf(t.columns),
          indent: t.caption ? 4 : 2,
        },
      ),
    );
    if (t.more) lines.push(`  ${paint('muted', t.more)}`);
  }
  if (v.diffs && !v.diffsFirst) lines.push(...consoleDiffs(v.diffs, paint));
  for (const n of v.notes ?? []) lines.push(`  ${consoleText(n, paint)}`);
  return lines;
}

/** A diff list for a terminal: each title, its word diff (`text: ...`, git's `--word-diff` marks) and details. */
function consoleDiffs(d: DiffList, paint: Paint): string[] {
  const lines = [`  ${d.caption}:`];
  for (const item of d.items) {
    lines.push(`    ${consoleText(item.title, paint)}`);
    if (item.parts) {
      const text = item.parts
        .map((p) =>
          p.change === 'removed'
            ? paint('fail', `[-${p.text}-]`)
            : p.change === 'added'
              ? paint('ok', `{+${p.text}+}`)
              : p.text,
        )
        .join('');
      lines.push(...`text: ${text}`.split(/\r?\n/).map((l, i) => `      ${i > 0 ? '  ' : ''}${l}`.trimEnd()));
    }
    for (const x of item.details ?? []) lines.push(`      ${consoleText(x, paint)}`);
  }
  if (d.more) lines.push(`  ${paint('muted', d.more)}`);
  return lines;
}

// ---------------------------------------------------------------- Markdown

/** A table cell: backslashes and pipes escaped, newlines as spaces. */
export const mdCell = (text: string): string =>
  text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
/** An inline code span that survives backticks in the text. */
export function mdCode(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((m) => m.length));
  const fence = '`'.repeat(longest + 1);
  const pad = longest > 0 ? ' ' : '';
  return `${fence}${pad}${text.replace(/\r?\n/g, ' ')}${pad}${fence}`;
}
const mdRow = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;

export function markdownText(t: Text, inCell = false): string {
  return spans(t)
    .map((s) => {
      if (typeof s === 'string') return inCell ? mdCell(s) : s;
      const text = s.code ? mdCode(s.text) : inCell ? mdCell(s.text) : s.text;
      return s.tone === 'fail' || s.tone === 'strong' ? `**${text}**` : s.tone === 'muted' ? `_${text}_` : text;
    })
    .join('');
}

/** A view as GitHub-flavoured Markdown: `### Title: summary`, rows as a list, tables, notes. */
export function markdownLines(v: SectionView): string[] {
  const lines = ['', `### ${v.title}${v.summary !== undefined ? `: ${markdownText(v.summary)}` : ''}`];
  if (v.rows && v.rows.length > 0) lines.push('', ...v.rows.map(([k, val]) => `- ${k}: ${markdownText(val)}`));
  if (v.lead && v.lead.length > 0) lines.push('', ...v.lead.map((l) => `${markdownText(l)}  `));
  if (v.diffs && v.diffsFirst) lines.push(...markdownDiffs(v.diffs));
  for (const t of v.tables ?? []) {
    if (t.caption) lines.push('', `${t.caption}:`);
    const align = alignOf(t.columns);
    lines.push(
      '',
      mdRow(t.columns.map((c) => mdCell(header(c)))),
      mdRow(align.map((a) => (a === 'l' ? '---' : '---:'))),
    );
    lines.push(...t.rows.map((r) => mdRow(r.map((c) => markdownText(c, true)))));
    if (t.more) lines.push('', `_${t.more}_`);
  }
  if (v.diffs && !v.diffsFirst) lines.push(...markdownDiffs(v.diffs));
  if (v.notes && v.notes.length > 0) lines.push('', ...v.notes.map((n) => `${markdownText(n)}  `));
  return lines;
}

/** `~~x~~` / `**x**` around a diff part, its outer spaces outside the marks (Markdown ignores marks next to a space). */
function markDiff(p: DiffPart): string {
  const text = p.text.replace(/\r?\n/g, ' ');
  if (!p.change || text.trim() === '') return text;
  const [, lead, core, trail] = /^(\s*)([\s\S]*?)(\s*)$/.exec(text) as RegExpExecArray;
  const mark = p.change === 'removed' ? '~~' : '**';
  return `${lead}${mark}${core}${mark}${trail}`;
}

/** A diff list as a Markdown list: each title, its word diff and details nested under it. */
function markdownDiffs(d: DiffList): string[] {
  const lines = ['', `${d.caption}:`, ''];
  for (const item of d.items) {
    lines.push(`- ${markdownText(item.title)}`);
    // A space between a removed word and the added one: `~~2~~ **3**`, never `~~2~~**3**`.
    const text = item.parts?.map(
      (p, i) => (p.change === 'added' && item.parts?.[i - 1]?.change === 'removed' ? ' ' : '') + markDiff(p),
    );
    if (text) lines.push(`  - text: ${text.join('')}`);
    lines.push(...(item.details ?? []).map((x) => `  - ${markdownText(x)}`));
  }
  if (d.more) lines.push('', `_${d.more}_`);
  return lines;
}

// ---------------------------------------------------------------- HTML

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
const HTML_CLASS: Record<Tone, string> = { ok: 'pass', fail: 'fail', warn: 'warn', muted: 'muted', strong: 'strong' };

export function htmlText(t: Text): string {
  return spans(t)
    .map((s) => {
      if (typeof s === 'string') return escapeHtml(s);
      const inner = s.code ? `<code>${escapeHtml(s.text)}</code>` : escapeHtml(s.text);
      return s.tone ? `<span class="${HTML_CLASS[s.tone]}">${inner}</span>` : inner;
    })
    .join('');
}

/** A table of escaped text. */
export function htmlTable(t: ViewTable): string {
  const align = alignOf(t.columns);
  const cls = (i: number): string => (align[i] === 'l' ? ' class="l"' : '');
  const head = `<tr>${t.columns.map((c, i) => `<th${cls(i)}>${escapeHtml(header(c))}</th>`).join('')}</tr>`;
  const body = t.rows.map((r) => `<tr>${r.map((c, i) => `<td${cls(i)}>${htmlText(c)}</td>`).join('')}</tr>`).join('');
  return `${t.caption ? `<h3>${escapeHtml(t.caption)}</h3>` : ''}<table>${head}${body}</table>${t.more ? `<p class="muted">${escapeHtml(t.more)}</p>` : ''}`;
}

const DEL_STYLE = 'background:#fde2e1;color:#8a1c1c';
const INS_STYLE = 'background:#d8f5df;color:#0f5a27;text-decoration:none';

/** One side of a word diff: the parts in both, and this side's own (`change`) highlighted. */
function htmlSide(parts: readonly DiffPart[], own: 'added' | 'removed'): string {
  const tag = own === 'removed' ? 'del' : 'ins';
  const style = own === 'removed' ? DEL_STYLE : INS_STYLE;
  return parts
    .filter((p) => p.change === undefined || p.change === own)
    .map((p) => (p.change ? `<${tag} style="${style}">${escapeHtml(p.text)}</${tag}>` : escapeHtml(p.text)))
    .join('');
}

/** A diff list as a table: each title and details, then the two texts side by side. */
function htmlDiffs(d: DiffList): string {
  const cell = 'class="l" style="white-space:pre-wrap;max-width:420px"';
  const head = `<tr><th class="l"></th><th class="l">${escapeHtml(d.labels[0])}</th><th class="l">${escapeHtml(d.labels[1])}</th></tr>`;
  const rows = d.items.map((item) => {
    const about = [htmlText(item.title), ...(item.details ?? []).map(htmlText)].join('<br>');
    const texts = item.parts
      ? `<td ${cell}>${htmlSide(item.parts, 'removed')}</td><td ${cell}>${htmlSide(item.parts, 'added')}</td>`
      : '<td class="l muted" colspan="2">same text</td>';
    return `<tr><td class="l">${about}</td>${texts}</tr>`;
  });
  return `<h3>${escapeHtml(d.caption)}</h3><table class="answer-diff">${head}${rows.join('')}</table>${d.more ? `<p class="muted">${escapeHtml(d.more)}</p>` : ''}`;
}

/** A view as an HTML fragment: `<h2 id>`, the summary, rows, tables, notes and chart boxes. */
export function htmlSection(v: SectionView): string {
  const title = v.tone ? `<span class="${HTML_CLASS[v.tone]}">${escapeHtml(v.title)}</span>` : escapeHtml(v.title);
  const parts = [`<h2>${title}</h2>`];
  if (v.summary !== undefined) parts.push(`<p>${htmlText(v.summary)}</p>`);
  if (v.rows && v.rows.length > 0)
    parts.push(
      `<table class="kv">${v.rows.map(([k, val]) => `<tr><th class="l">${escapeHtml(k)}</th><td class="l">${htmlText(val)}</td></tr>`).join('')}</table>`,
    );
  parts.push(...(v.lead ?? []).map((l) => `<p class="note">${htmlText(l)}</p>`));
  if (v.diffs && v.diffsFirst) parts.push(htmlDiffs(v.diffs));
  parts.push(...(v.tables ?? []).map(htmlTable));
  if (v.diffs && !v.diffsFirst) parts.push(htmlDiffs(v.diffs));
  parts.push(...(v.notes ?? []).map((n) => `<p class="note">${htmlText(n)}</p>`));
  if (v.charts && v.charts.length > 0)
    parts.push(
      `<div class="charts">${v.charts.map((id) => `<div class="chart" id="${escapeHtml(id)}"></div>`).join('')}</div>`,
    );
  parts.push(...(v.chartNotes ?? []).map((n) => `<p class="muted chart-note">${htmlText(n)}</p>`));
  return `<section class="section" id="${escapeHtml(v.id)}">${parts.join('\n')}</section>`;
}
