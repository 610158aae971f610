import { describe, expect, it } from 'vitest';
import { answerPayloadJson } from '../../src/emulator/answer-job.js';
import { generateAnswer } from '../../src/emulator/index.js';
import { buildAnswerPayload } from '../../src/emulator/payload.js';

describe('answerPayloadJson: the answer webhook body, the body part serialised once', () => {
  it('is byte for byte JSON.stringify(buildAnswerPayload(...)), also on the second use of a body', () => {
    const messages = [
      'Hello there!',
      'I want 2 silk scarves delivered to 12 Sukhumvit Rd, Bangkok 10110',
      'ขอสั่งผ้าไหม 1 ผืน "ด่วน" \\ ครับ',
      'my name is Anna, phone 0812345678, I want a cotton shirt',
    ];
    for (const humanMessage of messages) {
      const body = generateAnswer({ humanMessage, chatHistory: [] });
      for (const meta of [
        {
          requestId: 'tpa-abc0000000001',
          droidId: 1,
          customerId: 1001,
          executionTime: 3,
          timestamp: '2026-02-11T03:20:24.267Z',
        },
        {
          requestId: 'tpa-"quoted"',
          droidId: 42,
          customerId: 0,
          executionTime: 13301,
          timestamp: '2026-02-11T03:20:24.268Z',
        },
      ]) {
        expect(answerPayloadJson(body, meta)).toBe(JSON.stringify(buildAnswerPayload(body, meta)));
      }
    }
  });
});
