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

const noteSchema = obj({ endpoint: z.string(), kind: z.enum(['unverified-shape', 'unknown-fields']), message: z.string(), paths: z.array(z.string()).describe('the paths involved (dotted): the full shape') });
const _note: Assert<Same<z.output<typeof noteSchema>, ContractNote>> = true;
void _note;

/** The first line of a note's message, at most 160 characters: the rest is in report.json. */
export function noteLine(n: ContractNote): string {
  const first = n.message.split('\n')[0]!.trim();
  const line = first.length > 160 ? `${first.slice(0, 159)}…` : first;
  const more = n.paths.length > 0 ? ` (${n.paths.length} path${n.paths.length === 1 ? '' : 's'} in report.json)` : '';
  return `${n.kind}: ${line}${more}`;
}

type Doc = { notes?: ContractNote[] };

export const notesSection = defineSection({
  name: 'notes',
  fields: { notes: z.array(noteSchema).optional().describe("notes on the target's shapes where droidcheck's assumptions are not documented (never findings)") },
  compute: (input: { notes?: readonly ContractNote[] }) => (input.notes && input.notes.length > 0 ? { notes: [...input.notes] } : {}),
  merge: (docs: readonly Doc[]) => {
    const notes = uniqueNotes(docs.flatMap((d) => d.notes ?? []));
    return notes.length > 0 ? { notes } : {};
  },
  views: (d: Doc) =>
    d.notes && d.notes.length > 0
      ? [{ id: 'notes', title: 'Notes (not findings)', summary: span("where the specification does not show a shape, droidcheck's assumption is only checked as a note", 'muted'), notes: d.notes.map((n) => [code(n.endpoint), ` ${noteLine(n)}`]) }]
      : [],
});
