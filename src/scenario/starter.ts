/**
 * `initProject(dir, { force })`: writes a starter project for `droidcheck init`:
 * - `scenarios/starter.yaml`: a suite (plain scenario, repeat with passRate, steps) that passes
 *   against the embedded emulator, with the `# yaml-language-server: $schema=` line;
 * - `droidcheck.schema.json`: the JSON Schema of the suite format (editor completion);
 * - `.env.example`: the environment a real target needs (docs/architecture.md, Conventions; no
 *   token value).
 * Existing files are kept (listed in `skipped`) unless `force`. Paths are relative to `dir`.
 */
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { exportScenarioJsonSchema } from './json-schema.js';

export const STARTER_SUITE = `# yaml-language-server: $schema=../droidcheck.schema.json
suite: Starter
scenarios:
  - name: greets the customer
    tags: [smoke]
    humanMessage: Hello there!
    expect:
      intents: { includes: greeting }
      answer: { present: true }
    latency: "< 180s"

  - name: buys two Oxford shirts
    tags: [cart]
    repeat: 3
    passRate: 0.66
    chatHistory:
      - human: Hi, do you sell shirts?
      - ai: Yes, we have Oxford shirts.
    humanMessage: I want to buy 2 Oxford shirts, please send to 99 Sukhumvit Rd, Bangkok 10110
    expect:
      intents: { includes: purchase }
      shoppingCart.grandTotal: { money: "2,580.00 THB" }
      addressParsing.postal_code: "10110"

  - name: reads the customer and asks about them
    tags: [crm]
    modes: sync
    vars: { customer: 1001 }
    steps:
      - call: customer
        customerId: "{{ vars.customer }}"
        expect: { botEnabled: { present: true } }
        latency: "< 2s"
      - call: ask
        customerId: "{{ vars.customer }}"
        prompt: 'Give the customer''s sentiment as JSON: { "sentiment": "positive" | "negative" | "neutral" }'
        expect:
          answer: { json: { sentiment: { oneOf: [positive, negative, neutral] } } }
`;

export const ENV_EXAMPLE = `# droidcheck: a real target (leave DROID_BASE_URL unset to use the embedded emulator).
# Never commit a real token: keep it in your CI's secret store.
DROID_BASE_URL=
DROID_ID=
DROID_API_TOKEN=
# Webhook secret (at least 32 characters advised): the receiver checks ?secret=
DROID_WEBHOOK_SECRET=
`;

/** The starter config file: options of every job command (src/config/file.ts; docs/options.md). */
const STARTER_CONFIG = `# droidcheck.config.yaml: default options of droidcheck run, load and capacity
# (flags > environment > .env > this file; every option: docs/options.md). Options of one
# command go in its section: run: / load: / capacity: (e.g. load: { concurrency: 8 }).
# Tokens and secrets never go here: export DROID_API_TOKEN and DROID_WEBHOOK_SECRET instead.
paths: [scenarios]
timeout: 180s
reportDir: reports
thresholds:
  - answer.p99 < 180s
# baseUrl: https://your-service.example   # omit to use the embedded emulator
# droidId: 123
`;

export interface InitResult {
  written: string[];
  skipped: string[];
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

export async function initProject(dir: string, opts: { force?: boolean } = {}): Promise<InitResult> {
  const files: [string, string][] = [
    [join('scenarios', 'starter.yaml'), STARTER_SUITE],
    ['droidcheck.schema.json', `${JSON.stringify(exportScenarioJsonSchema(), null, 2)}\n`],
    ['.env.example', ENV_EXAMPLE],
    ['droidcheck.config.yaml', STARTER_CONFIG],
  ];
  const result: InitResult = { written: [], skipped: [] };
  for (const [rel, content] of files) {
    const full = join(dir, rel);
    if (!opts.force && (await exists(full))) {
      result.skipped.push(rel);
      continue;
    }
    await mkdir(dirname(full), { recursive: true });
    await writeFile(full, content, 'utf8');
    result.written.push(rel);
  }
  return result;
}
