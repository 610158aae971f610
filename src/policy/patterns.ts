/**
 * The policy's phrases (`forbidden`, `canaries`): text, found as whole words ignoring case and
 * runs of whitespace, or `/regex/flags` (the schema checked that it compiles).
 */
import { fold } from './answer.js';

export interface Matcher {
  /** As written in the policy. */
  source: string;
  /** Where it occurs in `text`, with a little of the text around it; undefined when it does not. */
  find(text: string): string | undefined;
}

const cache = new Map<string, Matcher>();
const WORD = /[\p{L}\p{N}]/u;

const excerpt = (text: string, start: number, end: number): string => {
  const from = Math.max(0, start - 30);
  const to = Math.min(text.length, end + 30);
  return `${from > 0 ? '…' : ''}${text.slice(from, to).replace(/\s+/g, ' ')}${to < text.length ? '…' : ''}`;
};

/** The matcher of one phrase (compiled once). */
export function matcherOf(source: string): Matcher {
  let m = cache.get(source);
  if (m) return m;
  const re = /^\/(.+)\/([a-z]*)$/s.exec(source);
  if (re) {
    const regex = new RegExp(re[1] ?? '', (re[2] ?? '').replace(/g/g, ''));
    m = {
      source,
      find: (text) => {
        const hit = regex.exec(text);
        return hit ? excerpt(text, hit.index, hit.index + hit[0].length) : undefined;
      },
    };
  } else {
    const needle = fold(source).trim();
    m = {
      source,
      find: (text) => {
        // Whole words only ("legally binding" is not in "illegally binding"); the excerpt is of the folded text.
        const folded = fold(text);
        for (let at = needle === '' ? -1 : folded.indexOf(needle); at >= 0; at = folded.indexOf(needle, at + 1)) {
          const glued =
            (WORD.test(folded[at - 1] ?? '') && WORD.test(needle[0] ?? '')) ||
            (WORD.test(folded[at + needle.length] ?? '') && WORD.test(needle.at(-1) ?? ''));
          if (!glued) return excerpt(folded, at, at + needle.length);
        }
        return undefined;
      },
    };
  }
  if (cache.size < 1000) cache.set(source, m);
  return m;
}
