import { describe, expect, it } from 'vitest';
import { ApiError, ContractError, DroidcheckError, ERROR_CLASSES, EXIT, ScenarioError, TransportError } from '../src/errors.js';

describe('errors table', () => {
  it('gives every class a distinct, stable DROIDCHECK_ERR_* code', () => {
    const codes = ERROR_CLASSES.map((c) => c.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(code).toMatch(/^DROIDCHECK_ERR_[A-Z_]+$/);
  });

  it('instances carry their class code and an exit code from the table', () => {
    const samples: DroidcheckError[] = [
      new ScenarioError([{ location: { file: 'a.yaml', line: 3, col: 5 }, message: 'bad' }]),
      new ApiError({ status: 401, error: 'Unauthorized', message: 'Invalid API key', endpoint: 'get-droid-answer-async' }),
      new TransportError('reset', 'ECONNRESET'),
      new ContractError('get-droid-answer', [{ path: 'answer', message: 'expected string' }]),
    ];
    const exits = new Set<number>(Object.values(EXIT));
    for (const e of samples) {
      expect(e.code).toBe((e.constructor as unknown as { code: string }).code);
      expect(exits.has(e.exitCode)).toBe(true);
    }
  });

  it('formats scenario errors as file:line:col', () => {
    const e = new ScenarioError([{ location: { file: 'x.yaml', line: 12, col: 7 }, message: 'unknown key' }]);
    expect(e.message).toBe('x.yaml:12:7: unknown key');
    expect(e.exitCode).toBe(EXIT.USAGE);
  });

  it('keeps status, error and message on ApiError', () => {
    const e = new ApiError({ status: 400, error: 'Bad Request', message: 'Invalid humanMessage format', endpoint: 'x' });
    expect([e.status, e.error, e.apiMessage]).toEqual([400, 'Bad Request', 'Invalid humanMessage format']);
    expect(e.message).toContain('HTTP 400 Bad Request: Invalid humanMessage format');
  });
});
