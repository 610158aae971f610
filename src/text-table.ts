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
