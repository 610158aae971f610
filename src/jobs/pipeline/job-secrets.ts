/**
 * The secrets a job knows, for its redactor (redact.ts): one list for every job (run, load,
 * capacity, redteam, doctor, webhook-policy), so a secret one of them hides is hidden by all.
 */
import { redisPassword } from '../../config/index.js';
import { environmentSecrets } from '../../redact.js';

/** What of a job's resolved configuration can be secret (each job's config fits it). */
export interface SecretBearingConfig {
  target: { kind: 'emulator' } | { kind: 'remote'; token: string | undefined };
  webhookSecret?: string | null | undefined;
  verifyToken?: string | null | undefined;
  intentSecret?: string | null | undefined;
  deliveries?: { redisUrl: string } | undefined;
}

/**
 * The target's token, the webhook secret, verify token and intent secret, a Redis URL's
 * password, the embedded emulator's token (`emulatorToken`, known once it runs), and the
 * secret-looking values of `env` (redact.ts SECRET_VARIABLES). Absent ones are left for the
 * redactor to skip.
 */
export function jobSecrets(
  config: SecretBearingConfig,
  env: NodeJS.ProcessEnv,
  emulatorToken?: string,
): (string | null | undefined)[] {
  return [
    config.target.kind === 'remote' ? config.target.token : undefined,
    config.webhookSecret,
    config.verifyToken,
    config.intentSecret,
    redisPassword(config.deliveries?.redisUrl),
    emulatorToken,
    ...environmentSecrets(env),
  ];
}
