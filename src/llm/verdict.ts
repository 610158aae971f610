/**
 * Reading a judge's verdict from a chat answer's content (promptfoo's llm-rubric format,
 * familiar to users of that tool: `{"pass": boolean, "score": number, "reason": string}`, in the
 * message content, so any OpenAI-compatible server serves, local models without tool calling
 * included).
 *
 * Accepted around the JSON: a reasoning model's `<think>…</think>`, a fenced block
 * (```json … ```), text before and after. Inside: `pass` a boolean (or "true"/"false"), `score` a
 * number 0..1 (or a numeric string; missing => 1 for a pass, 0 for a fail), `reason` a string
 * (missing => ""). Anything else is no verdict.
 *
 * Then the decision: a vote passes when `pass` and `score >= threshold`. A verdict is
 * a close call when its score is within `margin` of the threshold, or its `pass` contradicts its
 * score; a close call is asked three times in all and the majority decides.
 */
import type { Verdict } from './types.js';

/** Every balanced `{…}` object text in `text`, outermost first, in order (strings respected). */
function objectTexts(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"' && depth > 0) inString = true;
    else if (c === '{') {
      if (depth === 0) start = i;
      depth++;
    } else if (c === '}' && depth > 0) {
      depth--;
      if (depth === 0) out.push(text.slice(start, i + 1));
    }
  }
  return out;
}

function toVerdict(value: unknown): Verdict | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const o = value as Record<string, unknown>;
  let pass: boolean;
  if (typeof o.pass === 'boolean') pass = o.pass;
  else if (o.pass === 'true' || o.pass === 'false') pass = o.pass === 'true';
  else return undefined;
  let score: number;
  if (o.score === undefined || o.score === null) score = pass ? 1 : 0;
  else if (typeof o.score === 'number') score = o.score;
  else if (typeof o.score === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(o.score)) score = Number(o.score);
  else return undefined;
  if (!Number.isFinite(score) || score < 0 || score > 1) return undefined;
  const reason = typeof o.reason === 'string' ? o.reason : '';
  return { pass, score, reason };
}

/** The verdict in a judge's content, or undefined when there is none (see module docs). */
export function parseVerdict(content: string): Verdict | undefined {
  const text = content.replace(/<think>[\s\S]*?<\/think>/gi, '').trim();
  const candidates: string[] = [text];
  for (const m of text.matchAll(/```(?:json|JSON)?\s*([\s\S]*?)```/g)) if (m[1]) candidates.push(m[1].trim());
  candidates.push(...objectTexts(text));
  for (const c of candidates) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(c);
    } catch {
      continue;
    }
    const v = toVerdict(parsed);
    if (v) return v;
  }
  return undefined;
}

/** Whether one verdict passes at `threshold`. */
function votePasses(v: Verdict, threshold: number): boolean {
  return v.pass && v.score >= threshold;
}

/** A verdict that must be confirmed by a majority of three (see module docs). */
function isCloseCall(v: Verdict, threshold: number, margin: number): boolean {
  return Math.abs(v.score - threshold) <= margin + 1e-9 || v.pass !== v.score >= threshold;
}

/**
 * The decision over the verdicts at hand: one verdict decides unless it is a close call, then
 * the first three decide by majority. `needed` says how many verdicts the decision needs (1 or
 * 3); when fewer are at hand, `decided` is false.
 */
export function decide(
  verdicts: readonly Verdict[],
  threshold: number,
  margin: number,
): { decided: boolean; needed: number; pass: boolean; score: number; reason: string } {
  const first = verdicts[0];
  if (!first) return { decided: false, needed: 1, pass: false, score: 0, reason: '' };
  if (!isCloseCall(first, threshold, margin))
    return { decided: true, needed: 1, pass: votePasses(first, threshold), score: first.score, reason: first.reason };
  if (verdicts.length < 3) return { decided: false, needed: 3, pass: false, score: first.score, reason: first.reason };
  const votes = verdicts.slice(0, 3);
  const passes = votes.filter((v) => votePasses(v, threshold)).length;
  const pass = passes >= 2;
  const scores = votes.map((v) => v.score).sort((a, b) => a - b);
  const agreeing = votes.find((v) => votePasses(v, threshold) === pass) ?? first;
  return { decided: true, needed: 3, pass, score: scores[1]!, reason: agreeing.reason };
}
