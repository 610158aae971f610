/**
 * `language`: an answer is written in one of the policy's `languages`, told by its writing
 * system (script.ts: the script most of its letters are in). Undecided: fewer than
 * {@link MIN_LETTERS} letters (a price, an emoji, "OK"), letters of no known script, or a policy
 * language this check does not know the script of. Not applicable: an answer without text.
 *
 * Source: the policy's `languages`; the texts of the specification's answer payload. (The
 * payload's own `customerInsight.user_language` is the customer's language as the droid saw
 * it, a name on the real service, "English": the answer is judged, not that field.)
 */
import { dominantScript, scriptsOf } from '../script.js';
import { notApplicable, undecided, type PolicyRule } from '../types.js';

/** Fewer letters than this say too little about a language. */
const MIN_LETTERS = 12;

export const language: PolicyRule<'language'> = {
  id: 'language',
  key: 'languages',
  source: "the policy's languages; the texts of the specification's answer payload",
  applies: (policy) => (policy.languages?.length ?? 0) > 0,
  check(policy, answer) {
    const text = answer.texts.find((t) => t.field === 'answer') ?? answer.texts[0];
    if (!text) return notApplicable();
    const all = answer.texts.some((t) => t.field === 'answer') ? text.text : answer.texts.map((t) => t.text).join('\n');
    const { script, letters } = dominantScript(all);
    const langs = policy.languages ?? [];
    if (letters < MIN_LETTERS) return undecided(`fewer than ${MIN_LETTERS} letters`);
    if (script === undefined || script === 'other') return undecided('letters of no known script');
    if (langs.some((l) => scriptsOf(l).includes(script))) return { findings: [] };
    if (langs.some((l) => scriptsOf(l).length === 0))
      return undecided('a language whose script the check does not know');
    return {
      findings: [
        {
          field: text.field,
          expected: `one of ${langs.join(', ')}`,
          got: `${script} script`,
          message: `the answer is in ${script} script, which none of the policy's languages (${langs.join(', ')}) is written in`,
        },
      ],
    };
  },
};
