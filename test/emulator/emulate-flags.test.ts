/**
 * `droidcheck emulate` flags for message forwarding: --message-webhook-url and --verify-token
 * (default: DROID_VERIFY_TOKEN from the environment), mapped to emulator options.
 */
import { describe, expect, it } from 'vitest';
import { emulateOptions } from '../../src/cli/emulate-command.js';
import { resolveConfig, type JobFlags } from '../../src/config/index.js';
import { UsageError } from '../../src/errors.js';

/** `emulate`'s options as the CLI makes them: the one resolution of its flags and environment. */
const optionsOf = async (flags: JobFlags, env: NodeJS.ProcessEnv) =>
  emulateOptions(resolveConfig('emulate', flags, env));

const base = { host: '127.0.0.1', port: '0', seed: '1' };

describe('emulate flags for the message webhook', () => {
  it('passes the URL and the verify token from the flag or the environment', async () => {
    const fromFlag = await optionsOf(
      { ...base, messageWebhookUrl: 'http://127.0.0.1:8787/messages', verifyToken: 'flag-token' },
      { DROID_VERIFY_TOKEN: 'env-token' },
    );
    expect(fromFlag).toMatchObject({ messageWebhookUrl: 'http://127.0.0.1:8787/messages', verifyToken: 'flag-token' });
    const fromEnv = await optionsOf(
      { ...base, messageWebhookUrl: 'http://127.0.0.1:8787/messages' },
      { DROID_VERIFY_TOKEN: 'env-token' },
    );
    expect(fromEnv.verifyToken).toBe('env-token');
    const none = await optionsOf(base, {});
    expect(none).not.toHaveProperty('messageWebhookUrl');
    expect(none).not.toHaveProperty('verifyToken');
  });

  it('refuses a message webhook URL that is not a URL (exit 2, with an example)', async () => {
    await expect(optionsOf({ ...base, messageWebhookUrl: 'localhost/messages' }, {})).rejects.toThrow(UsageError);
    await expect(optionsOf({ ...base, messageWebhookUrl: 'localhost/messages' }, {})).rejects.toThrow(
      /--message-webhook-url: "localhost\/messages" is not a URL; write e\.g\. http/,
    );
  });
});
