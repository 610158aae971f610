import { describe, expect, it } from 'vitest';
import { CONTRACTS, checkContract } from '../../src/contract/index.js';
import { ContractNotes, NOTE_LOOK_ALL, NOTE_LOOK_EVERY, addContract } from '../../src/runner/contract-notes.js';
import type { RequestRecord } from '../../src/runner/types.js';
import { answerPayload } from '../receiver/payloads.js';

const record = (): RequestRecord => ({
  seq: 0,
  suite: 's',
  scenario: 'x',
  file: 'f.yaml',
  mode: 'async',
  repeat: 0,
  outcome: 'answered',
  passed: true,
  startedAt: '',
  failures: [],
  contractViolations: [],
});

describe('addContract: findings on every body, notes on a sample', () => {
  it('looks at every body up to NOTE_LOOK_ALL, then one in NOTE_LOOK_EVERY', () => {
    const notes = new ContractNotes();
    const looked = Array.from({ length: NOTE_LOOK_ALL + 4 * NOTE_LOOK_EVERY }, () => notes.look('webhook')).filter(
      Boolean,
    ).length;
    expect(looked).toBe(NOTE_LOOK_ALL + 4);
    expect(notes.look('other')).toBe(true);
  });

  it('records a violation of every body, and notes unknown fields once, from a looked-at body', () => {
    const notes = new ContractNotes();
    const clean = answerPayload('tpa-1');
    for (let i = 0; i < NOTE_LOOK_ALL; i++)
      addContract(record(), 'webhook', checkContract(CONTRACTS.webhook, clean), notes, undefined, clean);
    const odd = { ...answerPayload('tpa-2'), droidId: 'one', sentiment: 'happy' };
    const r = record();
    addContract(r, 'webhook', checkContract(CONTRACTS.webhook, odd), notes, undefined, odd); // body NOTE_LOOK_ALL + 1: not looked at
    expect(r.contractViolations.map((v) => v.path)).toEqual(['droidId']);
    const unknownNotes = (): [string, string[]][] =>
      notes
        .list()
        .filter((n) => n.kind === 'unknown-fields')
        .map((n) => [n.kind, n.paths]);
    expect(unknownNotes()).toEqual([]);
    for (let i = 2; i <= NOTE_LOOK_EVERY; i++)
      addContract(record(), 'webhook', checkContract(CONTRACTS.webhook, odd), notes, undefined, odd);
    expect(unknownNotes()).toEqual([['unknown-fields', ['sentiment']]]);
  });
});
