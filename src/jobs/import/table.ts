/**
 * `droidcheck import --table`: the imported AI turns as ONE table scenario (`each:`, the
 * scenario language's tables: docs/tables-and-code.md) reading a JSON lines file beside the
 * suite, one row per turn, instead of one scenario per turn: the suite stays a screenful
 * however many conversations are imported, and the rows are data to edit, sort or extend.
 *
 * A row: `customer`, `turn` (1-based position of the AI turn in its conversation), `excerpt`
 * (the customer's message, shortened, for the scenario's name), `message`, `answer` (the
 * recorded AI answer) and `history` (the chat turns before the message, as a suite writes them;
 * a list, so JSON lines rather than CSV). The scenario:
 *
 * ```yaml
 * - name: "customer {{ vars.customer }}, turn {{ vars.turn }}: {{ vars.excerpt }}"
 *   tags: [imported, "customer-{{ vars.customer }}"]
 *   each: ./imported.rows.jsonl
 *   chatHistory: "{{ vars.history }}"
 *   humanMessage: "{{ vars.message }}"
 *   expect:
 *     answer: { similar: { value: "{{ vars.answer }}", threshold: 0.8 } }
 * ```
 * Each row then runs, is named and is reported exactly as the scenario `import` writes without
 * `--table` would be.
 */
import { basename } from 'node:path';

/** One AI turn to import (import.ts `ImportedTurn`, the fields a row needs). */
interface TableTurn {
  chatHistory: readonly unknown[];
  humanMessage: string;
  answer: string;
  ordinal: number;
}

/** The rows file of the suite `out`: `imported.yaml` -> `imported.rows.jsonl` (beside it). */
export function rowsFileOf(out: string): string {
  return out.replace(/\.ya?ml$/i, '.rows.jsonl');
}

/** `text` on one line, at most `max` characters (a scenario's name). */
export function excerpt(text: string, max = 50): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/**
 * The suite document (plain data) and the rows file's text for the turns of each customer.
 * `rowsFile`: the rows file's path (only its name is written: it lies beside the suite).
 */
export function tableSuite(
  name: string,
  byCustomer: readonly { customerId: string | number; turns: readonly TableTurn[] }[],
  threshold: number,
  rowsFile: string,
): { suite: Record<string, unknown>; rows: string } {
  const rows = byCustomer.flatMap(({ customerId, turns }) =>
    turns.map((t) =>
      JSON.stringify({
        customer: customerId,
        turn: t.ordinal,
        excerpt: excerpt(t.humanMessage),
        message: t.humanMessage,
        answer: t.answer,
        history: t.chatHistory,
      }),
    ),
  );
  const scenario = {
    name: 'customer {{ vars.customer }}, turn {{ vars.turn }}: {{ vars.excerpt }}',
    tags: ['imported', 'customer-{{ vars.customer }}'],
    each: `./${basename(rowsFile)}`,
    chatHistory: '{{ vars.history }}',
    humanMessage: '{{ vars.message }}',
    expect: { answer: { similar: { value: '{{ vars.answer }}', threshold } } },
  };
  return { suite: { suite: name, scenarios: [scenario] }, rows: `${rows.join('\n')}\n` };
}
