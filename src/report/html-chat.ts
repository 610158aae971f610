/**
 * A `simulate:` scenario's conversation in report.html: the customer's and the droid's lines
 * as chat bubbles, each answer with its latency, folded under the scenario's row.
 */
import { formatMs } from '../units.js';
import type { ScenarioEntry } from './sections/scenarios.js';
import { escapeHtml as h } from './view.js';

export const CHAT_CSS = `.chat{display:flex;flex-direction:column;gap:.3rem;max-width:640px}.chat .msg{padding:.3rem .6rem;border-radius:.6rem;max-width:80%;white-space:pre-wrap}
.chat .customer{align-self:flex-end;background:#e3f0ff}.chat .droid{align-self:flex-start;background:#f1f1f1}.chat .lat{color:#777;font-size:.8rem;margin-left:.4rem}`;

/** The conversation of `s` as an HTML fragment ('' when it simulated nothing). */
export function chatHtml(s: ScenarioEntry): string {
  const sim = s.simulation;
  if (!sim) return '';
  const lines = sim.turns.map(
    (t) =>
      `<div class="msg customer">${h(t.customer)}</div><div class="msg droid">${h(t.droid)}<span class="lat">${h(formatMs(t.latencyMs))}</span></div>`,
  );
  return `<details class="conversation"><summary>conversation: ${sim.turns.length} customer line${sim.turns.length === 1 ? '' : 's'}, ended ${h(sim.end)}</summary><div class="chat">${lines.join('')}</div></details>`;
}
