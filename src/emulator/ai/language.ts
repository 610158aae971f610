/**
 * Language detection and number words (English and Thai).
 */

export type Language = 'th' | 'en';

/**
 * `customerInsight.user_language` is a language *name* (async docs page example: "English"), and
 * the intent webhook carries both `language` and `languageName` (docs intent-webhook.mdx).
 */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', th: 'Thai' };

const THAI = /[\u0E00-\u0E7F]/;
const LETTER = /[A-Za-z\u0E00-\u0E7F]/;

/** Thai script anywhere => 'th', else 'en'. */
export function detectLanguage(text: string): Language {
  return THAI.test(text) ? 'th' : 'en';
}

/** The language of the message, or of the latest human turn when the message has no letters ("2"). */
export function conversationLanguage(message: string, humanTurns: string[]): Language {
  if (LETTER.test(message)) return detectLanguage(message);
  for (let i = humanTurns.length - 1; i >= 0; i--) {
    const turn = humanTurns[i]!;
    if (LETTER.test(turn)) return detectLanguage(turn);
  }
  return 'en';
}

const WORDS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  couple: 2,
  pair: 1,
  single: 1,
  dozen: 12,
  หนึ่ง: 1,
  สอง: 2,
  สาม: 3,
  สี่: 4,
  ห้า: 5,
  หก: 6,
  เจ็ด: 7,
  แปด: 8,
  เก้า: 9,
  สิบ: 10,
};

/** Thai digits ๐-๙ to ASCII digits. */
function normaliseDigits(text: string): string {
  return text.replace(/[\u0E50-\u0E59]/g, (d) => String(d.charCodeAt(0) - 0x0e50));
}

/** "2", "two", "สอง" => a number; anything else => undefined. */
export function parseQuantityToken(token: string): number | undefined {
  const t = normaliseDigits(token.toLowerCase());
  if (/^\d{1,3}$/.test(t)) {
    const n = Number(t);
    return n > 0 ? n : undefined;
  }
  return WORDS[t];
}

export const QUANTITY_WORD =
  '(?:\\d{1,3}|[\\u0E50-\\u0E59]{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|couple|dozen|หนึ่ง|สอง|สาม|สี่|ห้า|หก|เจ็ด|แปด|เก้า|สิบ)';
