import { describe, expect, it } from 'vitest';
import { jobSecrets } from '../../src/jobs/pipeline/job-secrets.js';
import { createRedactor } from '../../src/redact.js';

describe('jobSecrets: one list of what a job must never print', () => {
  it("holds the target token, the three webhook secrets, a Redis password, the emulator's token and the environment's", () => {
    const secrets = jobSecrets(
      {
        target: { kind: 'remote', token: 'tok-remote-0123456789' },
        webhookSecret: 'whs-0123456789abcdef',
        verifyToken: 'vtk-0123456789abcdef',
        intentSecret: 'ins-0123456789abcdef',
        deliveries: { redisUrl: 'redis://:redis-pass-0123456789@127.0.0.1:6379/0' },
      },
      { OPENAI_API_KEY: 'sk-env-0123456789abcdef', HOME: '/home/someone' },
      'emu-token-0123456789',
    );
    const redact = createRedactor(secrets);
    const line =
      'tok-remote-0123456789 whs-0123456789abcdef vtk-0123456789abcdef ins-0123456789abcdef redis-pass-0123456789 emu-token-0123456789 sk-env-0123456789abcdef /home/someone';
    expect(redact(line).split(' ')).toEqual([
      ...Array(7).fill(expect.not.stringMatching(/0123456789/)),
      '/home/someone',
    ]);
  });

  it('takes the configuration of a job without them (emulator target, no webhook secret)', () => {
    expect(jobSecrets({ target: { kind: 'emulator' }, webhookSecret: null }, {}).filter(Boolean)).toEqual([]);
  });
});
