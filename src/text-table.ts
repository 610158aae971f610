/**
 * Plain-text tables for terminals (leaf module). Compute, then render: returns lines, prints
 * nothing. ANSI colour codes in cells do not skew the widths.
 */

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

/** Visible width of `text` (ANSI codes left out). */
function visibleWidth(text: string): number {
  return text.replace(ANSI, '').length;
}

function pad(cell: string, width: number, left: boolean): string {
  const fill = ' '.repeat(Math.max(0, width - visibleWidth(cell)));
  return left ? cell + fill : fill + cell;
}

/**
 * Rows to lines: the first column left-aligned, the others right-aligned (or as `align`
 * says: 'l' | 'r' per column), two spaces apart, each line indented by `indent` (default 2).
 */
export function textTable(
  rows: readonly (readonly string[])[],
  opts: { align?: readonly ('l' | 'r')[]; indent?: number } = {},
): string[] {
  const cols = Math.max(0, ...rows.map((r) => r.length));
  const widths = Array.from({ length: cols }, (_, c) => Math.max(0, ...rows.map((r) => visibleWidth(r[c] ?? ''))));
  const indent = ' '.repeat(opts.indent ?? 2);
  return rows.map((r) =>
    `${indent}${r.map((cell, c) => pad(cell, widths[c] ?? 0, (opts.align?.[c] ?? (c === 0 ? 'l' : 'r')) === 'l')).join('  ')}`.trimEnd(),
  );
}

/**
 * `line` as lines of at most `width` visible columns (ANSI codes are zero-width): broken at the
 * last space that fits, each continuation indented by the line's own indent plus 4; a word
 * longer than the width is cut where it reaches it. A line that fits is returned as it is.
 */
export function wrapLine(line: string, width: number): string[] {
  if (visibleWidth(line) <= width) return [line];
  const lead = /^ */.exec(line)?.[0].length ?? 0;
  const indent = ' '.repeat(Math.min(lead + 4, Math.floor(width / 2)));
  // Tokens: an ANSI code (zero width) or one visible character.
  const tokens = line.match(/\u001b\[[0-9;]*m|[\s\S]/gu) ?? [];
  const isCode = (t: string): boolean => t.startsWith('\u001b');
  const out: string[] = [];
  let cur: string[] = [];
  let vis = 0;
  let space = -1; // index in `cur` of the last space a line may break at
  let floor = lead; // `cur`'s indent: never a break point
  for (const t of tokens) {
    if (!isCode(t) && vis >= width) {
      const broken = space >= floor;
      const at = broken ? space : cur.length;
      out.push(cur.slice(0, at).join('').trimEnd());
      cur = [...indent, ...cur.slice(broken ? at + 1 : at)];
      floor = indent.length;
      vis = cur.filter((x) => !isCode(x)).length;
      space = cur.lastIndexOf(' ');
    }
    if (t === ' ' && cur.length >= floor) space = cur.length;
    cur.push(t);
    if (!isCode(t)) vis += 1;
  }
  out.push(cur.join('').trimEnd());
  return out;
}
