/**
 * The messages a judge is sent (the `judge` matcher, docs/llm.md): a system message with the
 * grading rules and the JSON verdict format (promptfoo's llm-rubric format), then a user message
 * with the rubric, the grounding context when `grounded`, and the output to grade. Temperature 0 is
 * set by the caller. `PROMPT_VERSION` is part of every cache key: change it with the text.
 */
import type { GroundingTurn, JudgeContext } from './types.js';

export const PROMPT_VERSION = 1;

const SYSTEM = [
  "You grade the output of a shop's customer-service chatbot against a rubric.",
  'If the statement in the rubric is true of the output, the output passes; otherwise it fails.',
  'Respond with a single JSON object and nothing else, with this structure:',
  '{"pass": boolean, "score": number, "reason": string}',
  'score is from 0.0 (the rubric is not met at all) to 1.0 (fully met); reason is one short sentence.',
  '',
  'Examples:',
  '<Rubric>Greets the customer</Rubric>',
  '<Output>Hello! How can I help you today?</Output>',
  '{"pass": true, "score": 1.0, "reason": "The output opens with a greeting."}',
  '<Rubric>States the total price</Rubric>',
  '<Output>We have Oxford shirts in white and blue.</Output>',
  '{"pass": false, "score": 0.0, "reason": "No price or total is stated."}',
].join('\n');

const GROUNDED_RULE =
  'The output is the answer to the conversation given below. Also fail it when it contradicts the conversation, ' +
  'the shopping cart or the parsed address given with it (for example a different price, quantity, total or address).';

function turnLine(t: GroundingTurn): string {
  const who = t.type === 'ai' ? 'assistant' : t.type;
  if (t.contentType === 'image') return `${who}: [image ${t.content}${t.alt ? ` described as: ${t.alt}` : ''}]`;
  return `${who}: ${t.content}`;
}

function json(value: unknown): string {
  try {
    return JSON.stringify(value ?? null);
  } catch {
    return 'null';
  }
}

/** The chat messages for one verdict. */
export function judgeMessages(
  rubric: string,
  answer: string,
  context?: JudgeContext,
): { role: 'system' | 'user'; content: string }[] {
  const parts: string[] = [];
  if (context) {
    parts.push(GROUNDED_RULE, '');
    parts.push(
      '<Conversation>',
      ...context.chatHistory.map(turnLine),
      `human: ${context.humanMessage}`,
      '</Conversation>',
    );
    parts.push(`<ShoppingCart>${json(context.shoppingCart)}</ShoppingCart>`);
    parts.push(`<AddressParsing>${json(context.addressParsing)}</AddressParsing>`);
  }
  parts.push(`<Rubric>${rubric}</Rubric>`, `<Output>${answer}</Output>`);
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: parts.join('\n') },
  ];
}
