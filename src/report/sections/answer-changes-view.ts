/**
 * How the answer changes of a comparison read (answer-changes.ts decides them): a line when
 * either report holds no answers, else a list of the changed answer turns, each with the word
 * diff of its two texts (jsdiff's `diffArrays` over the texts' words: a changed word reads as
 * the word removed and the new one added) and what else changed (intents, cart, address,
 * whether it was answered). The unchanged are counted, not listed.
 */
import { lazyRequire } from '../../lazy-require.js';
import { span, type DiffList, type DiffPart, type Span, type Text, type TextDiff } from '../view.js';
import type { AnswerChange, AnswerComparison } from './answer-changes.js';

/** jsdiff, loaded by the first answer change shown (compared runs only). */
const jsdiff = lazyRequire<typeof import('diff')>('diff');

/** Most changed answers a view lists (report.json has them all). */
export const MAX_ANSWER_DIFFS = 50;

/** Words and the whitespace between them (a word: anything between two spaces, its punctuation included). */
const tokens = (text: string): string[] => text.split(/(\s+)/).filter((t) => t !== '');

/**
 * One change where the diff has words replaced one by one with the spaces between them in
 * common (`[-To-]{+Total+} [-pay:-]{+due:+}` reads as `[-To pay:-]{+Total due:+}`): a common
 * space between changes on both sides joins them, each side keeping it.
 */
function joinChanges(parts: readonly DiffPart[]): DiffPart[] {
  const out: DiffPart[] = [];
  let removed = '';
  let added = '';
  const flush = (): void => {
    if (removed !== '') out.push({ text: removed, change: 'removed' });
    if (added !== '') out.push({ text: added, change: 'added' });
    removed = added = '';
  };
  parts.forEach((p, i) => {
    if (p.change === 'removed') removed += p.text;
    else if (p.change === 'added') added += p.text;
    else if (removed !== '' && added !== '' && /^\s+$/.test(p.text) && parts[i + 1]?.change) {
      removed += p.text;
      added += p.text;
    } else {
      flush();
      out.push(p);
    }
  });
  flush();
  return out;
}

/**
 * The word diff of two texts, as view parts: whitespace-delimited words, as `git diff
 * --word-diff` takes them, so `1,780.00` -> `2,670.00` is one word changed, not four pieces of it.
 */
function wordDiff(base: string, current: string): DiffPart[] {
  return joinChanges(
    jsdiff()
      .diffArrays(tokens(base), tokens(current))
      .map((c) => ({
        text: c.value.join(''),
        ...(c.removed ? { change: 'removed' as const } : c.added ? { change: 'added' as const } : {}),
      })),
  );
}

const quoted = (s: string): string => (s === '' ? '(empty)' : JSON.stringify(s));
const lineText = (line: unknown): string => (typeof line === 'string' ? line : (JSON.stringify(line) ?? 'null'));

type Spans = (string | Span)[];

/** `+buy, -question`: the added in the `ok` tone, the removed in the `fail` one. */
function plusMinus(added: readonly string[], removed: readonly string[]): Spans {
  const marks = [...added.map((a) => span(`+${a}`, 'ok')), ...removed.map((r) => span(`-${r}`, 'fail'))];
  return marks.flatMap((m, i) => (i > 0 ? [', ', m] : [m]));
}

/** What changed beside the text, a line each. */
function details(c: AnswerChange): Text[] {
  const out: Text[] = [];
  if (c.outcome) out.push(`answered: ${c.outcome.base} -> ${c.outcome.current}`);
  if (c.intents) out.push(['intents: ', ...plusMinus(c.intents.added, c.intents.removed)]);
  if (c.cart) {
    const parts: Spans[] = [];
    if (c.cart.added.length > 0 || c.cart.removed.length > 0)
      parts.push(['lines ', ...plusMinus(c.cart.added.map(lineText), c.cart.removed.map(lineText))]);
    for (const [label, d] of [
      ['grand total', c.cart.grandTotal],
      ['shipping fee', c.cart.shippingFee],
    ] as const)
      if (d) parts.push([`${label} ${quoted(d.base)} -> ${quoted(d.current)}`]);
    out.push(['cart: ', ...parts.flatMap((p, i) => (i > 0 ? ['; ', ...p] : p))]);
  }
  if (c.address)
    out.push(`address: ${c.address.map((a) => `${a.field} ${quoted(a.base)} -> ${quoted(a.current)}`).join(', ')}`);
  return out;
}

/** `Shop › buys shirts [sync] turn 2` (repeat and turn only when they tell something). */
function titleOf(c: AnswerChange): string {
  return `${c.suite} › ${c.name} [${c.mode}]${c.repeat ? ` repeat ${c.repeat + 1}` : ''}${c.turn > 1 ? ` turn ${c.turn}` : ''}`;
}

/**
 * The notes and the diff list of `answers` (a comparison's): `max` changed answers at most,
 * the rest counted under the list.
 */
export function answerChangesView(
  answers: AnswerComparison | undefined,
  max = MAX_ANSWER_DIFFS,
): { notes: Text[]; diffs?: DiffList } {
  if (!answers) return { notes: [] };
  if (answers.notRecorded.length > 0) {
    const which =
      answers.notRecorded.length === 2
        ? 'either report'
        : `the ${answers.notRecorded[0] === 'base' ? 'baseline' : 'current report'}`;
    return {
      notes: [
        span(
          `answers not compared: not recorded in ${which} (written by a droidcheck before it kept answers)`,
          'muted',
        ),
      ],
    };
  }
  const { compared, unchanged, changed } = answers;
  if (changed.length === 0)
    return {
      notes: [
        span(
          compared === 0 ? 'answers: none in both reports to compare' : `answers: ${compared} compared, none changed`,
          'muted',
        ),
      ],
    };
  const items = changed.slice(0, max).map(
    (c): TextDiff => ({
      title: span(titleOf(c), 'strong'),
      ...(c.text && { parts: wordDiff(c.text.base, c.text.current) }),
      details: details(c),
    }),
  );
  return {
    notes: [],
    diffs: {
      caption: `Answers that changed: ${changed.length} of ${compared} (${unchanged} unchanged, not listed)`,
      labels: ['baseline', 'current'],
      items,
      ...(changed.length > max && {
        more: `… ${changed.length - max} more in report.json (comparison.answers)${max < MAX_ANSWER_DIFFS ? `; --verbose, summary.md and report.html list up to ${MAX_ANSWER_DIFFS}` : ''}`,
      }),
    },
  };
}
