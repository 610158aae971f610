/**
 * The fault registries are checked by the compiler: each action of the fault profile's schema
 * (faults/profile.ts) has exactly one handler, in hook.ts (requests) and webhook-plan.ts
 * (webhooks). `npm run typecheck` covers this file: each `@ts-expect-error` below must meet the
 * error it expects, or the type check fails.
 */
import { describe, expect, it } from 'vitest';
import { REQUEST_FAULT_HANDLERS, type RequestFaultHandlers } from '../../src/emulator/faults/hook.js';
import { parseFaultProfile, parseFaultProfileFile } from '../../src/emulator/faults/profile.js';
import {
  WEBHOOK_FAULT_HANDLERS,
  planDelivery,
  type WebhookFaultHandlers,
} from '../../src/emulator/faults/webhook-plan.js';

describe('fault handler tables', () => {
  it('a fault action without its handler does not compile', () => {
    const { hang: _hang, ...requestsWithoutHang } = REQUEST_FAULT_HANDLERS;
    // @ts-expect-error: 'hang' is an action of the schema, so a table without it is not a RequestFaultHandlers
    const requests: RequestFaultHandlers = requestsWithoutHang;
    const { late: _late, ...webhooksWithoutLate } = WEBHOOK_FAULT_HANDLERS;
    // @ts-expect-error: 'late' is an action of the schema, so a table without it is not a WebhookFaultHandlers
    const webhooks: WebhookFaultHandlers = webhooksWithoutLate;
    expect(Object.keys(requests)).not.toContain('hang');
    expect(Object.keys(webhooks)).not.toContain('late');
  });

  it('a handler of an action that is not in the schema does not compile either', () => {
    // @ts-expect-error: 'teapot' is no request fault action
    const extra: RequestFaultHandlers = { ...REQUEST_FAULT_HANDLERS, teapot: async () => {} };
    expect(Object.keys(extra)).toContain('teapot');
  });

  it('every action a profile accepts has its handler (the tables and the schema agree at run time too)', () => {
    for (const action of Object.keys(REQUEST_FAULT_HANDLERS))
      expect(parseFaultProfile({ requests: [{ action } as never] }).requests[0]!.action).toBe(action);
    for (const action of Object.keys(WEBHOOK_FAULT_HANDLERS))
      expect(parseFaultProfile({ webhooks: [{ action } as never] }).webhooks[0]!.action).toBe(action);
  });

  it('the rules that fired for one delivery fold into one plan, in rule order', () => {
    const { webhooks } = parseFaultProfile({
      webhooks: [
        { action: 'missing-secret' },
        { action: 'duplicate', copies: 3 },
        { action: 'duplicate', copies: 5 },
        { action: 'late', delayMs: 40 },
        { action: 'wrong-secret' },
      ],
    });
    expect(planDelivery(webhooks)).toEqual({
      drop: false,
      secret: 'wrong',
      copies: 3,
      delayMs: 40,
      errorPayload: undefined,
    });
    expect(planDelivery([])).toMatchObject({ drop: false, secret: 'keep', copies: 1 });
    expect(planDelivery(parseFaultProfile({ webhooks: [{ action: 'drop' }] }).webhooks).drop).toBe(true);
  });

  it("a misspelt field gets a did-you-mean from its own action's fields", () => {
    expect(() => parseFaultProfileFile('webhooks:\n  - { action: duplicate, copeis: 3 }\n', 'f.yaml')).toThrow(
      'f.yaml:2:26: webhooks.0: unknown key "copeis" — did you mean "copies"?',
    );
    expect(() =>
      parseFaultProfileFile('requests:\n  - { action: delay, dealy: { kind: fixed, ms: 5 } }\n', 'f.yaml'),
    ).toThrow('unknown key "dealy" — did you mean "delay"?');
  });
});
