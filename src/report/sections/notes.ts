/**
 * `notes`: where the target's shapes differ from what droidcheck assumed but the specification
 * does not show (never findings), one per endpoint and kind. Each is one line in the console,
 * Markdown and HTML; the shape itself (`paths`) only in report.json.
 */
import { z } from 'zod';
import { uniqueNotes } from '../../outcomes.js';
import type { ContractNote } from '../run-types.js';
import { defineSection } from '../section.js';
import { code, span } from '../view.js';
import { obj, type Assert, type Same } from './common.js';

const noteSchema = obj({
  endpoint: z.string(),
  kind: z.enum(['unverified-shape', 'unknown-fields']),
  message: z.string(),
  paths: z.array(z.string()).describe('the paths involved (dotted): the full shape'),
});
const _note: Assert<Same<z.output<typeof noteSchema>, ContractNote>> = true;
void _note;

const listed = (paths: readonly string[], max = 3): string =>
  `${paths
    .slice(0, max)
    .map((p) => p || '(body)')
    .join(', ')}${paths.length > max ? ` (+${paths.length - max} more)` : ''}`;

/**
 * A note in one line: which paths, never the whole shape the target answered (report.json has
 * the note's full message and every path). An unverified shape names where droidcheck's choice
 * differs; unknown fields name the fields.
 */
function noteLine(n: ContractNote): string {
  if (n.kind === 'unverified-shape')
    return `unverified shape: droidcheck's choice differs at ${listed(n.paths)}; the spec does not show this shape (not a finding; the shape is in report.json)`;
  if (n.kind === 'unknown-fields') return `fields no documentation names: ${listed(n.paths)}`;
  const first = n.message.split('\n')[0]!.trim();
  return first.length > 160 ? `${first.slice(0, 159)}…` : first;
}

type Doc = { notes?: ContractNote[] };

export const notesSection = defineSection({
  name: 'notes',
  fields: {
    notes: z
      .array(noteSchema)
      .optional()
      .describe("notes on the target's shapes where droidcheck's assumptions are not documented (never findings)"),
  },
  compute: (input: { notes?: readonly ContractNote[] }) =>
    input.notes && input.notes.length > 0 ? { notes: [...input.notes] } : {},
  merge: (docs: readonly Doc[]) => {
    const notes = uniqueNotes(docs.flatMap((d) => d.notes ?? []));
    return notes.length > 0 ? { notes } : {};
  },
  views: (d: Doc) =>
    d.notes && d.notes.length > 0
      ? [
          {
            id: 'notes',
            title: 'Notes (not findings)',
            summary: span(
              "where the specification does not show a shape, droidcheck's assumption is only checked as a note",
              'muted',
            ),
            notes: d.notes.map((n) => [code(n.endpoint), ` ${noteLine(n)}`]),
          },
        ]
      : [],
});
