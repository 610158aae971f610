/**
 * `droidcheck emulate` flags for message forwarding: --message-webhook-url and --verify-token
 * (default: DROID_VERIFY_TOKEN from the environment), mapped to emulator options.
 */
import { describe, expect, it } from 'vitest';
import { emulateOptions } from '../../src/cli/emulate-command.js';
import { UsageError } from '../../src/errors.js';

const base = { host: '127.0.0.1', port: '0', seed: '1' };

describe('emulate flags for the message webhook', () => {
  it('passes the URL and the verify token from the flag or the environment', async () => {
    const fromFlag = await emulateOptions(
      { ...base, messageWebhookUrl: 'http://127.0.0.1:8787/messages', verifyToken: 'flag-token' },
      { DROID_VERIFY_TOKEN: 'env-token' },
    );
    expect(fromFlag).toMatchObject({ messageWebhookUrl: 'http://127.0.0.1:8787/messages', verifyToken: 'flag-token' });
    const fromEnv = await emulateOptions(
      { ...base, messageWebhookUrl: 'http://127.0.0.1:8787/messages' },
      { DROID_VERIFY_TOKEN: 'env-token' },
    );
    expect(fromEnv.verifyToken).toBe('env-token');
    const none = await emulateOptions(base, {});
    expect(none).not.toHaveProperty('messageWebhookUrl');
    expect(none).not.toHaveProperty('verifyToken');
  });

  it('refuses a message webhook URL that is not a URL (exit 2, with an example)', async () => {
    await expect(emulateOptions({ ...base, messageWebhookUrl: 'localhost/messages' }, {})).rejects.toThrow(UsageError);
    await expect(emulateOptions({ ...base, messageWebhookUrl: 'localhost/messages' }, {})).rejects.toThrow(
      /--message-webhook-url: "localhost\/messages" is not a URL; write e\.g\. http/,
    );
  });
});
