/**
 * A deterministic language check at the level of writing systems: the letters of a text are
 * counted per script (Unicode script properties), and the script with the most letters is the
 * text's. A language is matched through the script it is written in (th: Thai, en/fr/de...:
 * Latin, ja: kana or Han, ...). So `languages: [th, en]` tells a Thai or English answer from a
 * Chinese or Russian one, but not English from French (both Latin): no dictionary, no model.
 */

/** The scripts told apart, with the ISO 639-1 codes written in each. */
const SCRIPTS = {
  Thai: ['th'],
  Latin: [
    'en',
    'fr',
    'de',
    'es',
    'it',
    'pt',
    'nl',
    'id',
    'ms',
    'vi',
    'tl',
    'sv',
    'da',
    'no',
    'fi',
    'pl',
    'cs',
    'tr',
    'ro',
    'hu',
  ],
  Han: ['zh', 'ja'],
  Hiragana: ['ja'],
  Katakana: ['ja'],
  Hangul: ['ko'],
  Cyrillic: ['ru', 'uk', 'bg', 'sr', 'kk', 'mn'],
  Arabic: ['ar', 'fa', 'ur'],
  Devanagari: ['hi', 'mr', 'ne'],
  Lao: ['lo'],
  Khmer: ['km'],
  Myanmar: ['my'],
  Greek: ['el'],
  Hebrew: ['he'],
} as const;
export type Script = keyof typeof SCRIPTS;

const PATTERNS = (Object.keys(SCRIPTS) as Script[]).map((s) => [s, new RegExp(`\\p{Script=${s}}`, 'u')] as const);

/** Letters per script in `text` (digits, punctuation and symbols are not counted). */
function scriptCounts(text: string): Map<Script | 'other', number> {
  const counts = new Map<Script | 'other', number>();
  for (const ch of text) {
    if (!/\p{L}|\p{M}/u.test(ch)) continue;
    const hit = PATTERNS.find(([, re]) => re.test(ch));
    const key = hit ? hit[0] : 'other';
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** The script most of the letters are in, and how many letters there are. */
export function dominantScript(text: string): { script: Script | 'other' | undefined; letters: number } {
  let best: Script | 'other' | undefined;
  let max = 0;
  let letters = 0;
  for (const [s, n] of scriptCounts(text)) {
    letters += n;
    if (n > max) [best, max] = [s, n];
  }
  return { script: best, letters };
}

/** The scripts a language code is written in; empty for a code this table does not know. */
export function scriptsOf(language: string): Script[] {
  return (Object.keys(SCRIPTS) as Script[]).filter((s) => (SCRIPTS[s] as readonly string[]).includes(language));
}
