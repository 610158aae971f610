/**
 * `initProject(dir, { force, emulatorProfile })`: writes a starter project for `droidcheck init`:
 * - `scenarios/starter.yaml`: a PORTABLE suite (the same text as the repository's
 *   scenarios/portable.yaml): it asserts documented behaviour only (an answer with text and an
 *   intents list, an address parsed, a grand total in money format, the test customer read, and
 *   an `ask` for JSON answered with JSON text: spec 5 promises the format, not the prompt's keys),
 *   so it passes against the embedded emulator and against any service that keeps to the spec;
 *   commented examples show shop-specific expectations to adapt (a product, its price, an intent
 *   name, wording, the keys of the AI's JSON) and a burst (docs/bursts.md) whose expectations
 *   hold whatever a droid does with one. Valid for `run` and `load`;
 * - `scenarios/emulator-profile.yaml` (when `emulatorProfile` is given): the demo shop the
 *   embedded emulator answers from (catalogue, prices, intents, seeded customers), to read;
 * - `droidcheck.schema.json`: the JSON Schema of the suite format (editor completion);
 * - `.env.example`: the environment a real target needs (no token value: secrets stay out of files);
 * - `droidcheck.config.yaml`: default options of run, load and capacity (one section per command for the options of one);
 * - `droidcheck.policy.yaml` and `droidcheck.policy.schema.json` (when `policy` and
 *   `policySchema` are given: policy/ writes them from the emulator's profile, which this folder
 *   may not import): the demo shop's price list, shipping fee and promises as a shop policy, so
 *   every answer of `droidcheck run` is checked against it (docs/policy.md);
 * - `droidcheck.config.schema.json` (when `configSchema` is given: config/ derives it from the table of
 *   options, which this folder may not import): the config file's JSON Schema, which the config
 *   file's first line names for the YAML language server, so an editor refuses a misspelt key.
 * Existing files are kept (listed in `skipped`) unless `force`. Paths are relative to `dir`.
 */
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { exportScenarioJsonSchema } from './json-schema.js';

export const STARTER_SUITE = String.raw`# yaml-language-server: $schema=../droidcheck.schema.json
# Portable checks: every expectation here holds for any service that keeps to the Message Endpoint
# API specification (droidcheck's embedded emulator, the real service, another implementation),
# because each asserts documented behaviour only, never a shop's catalogue, intent names or wording:
# - an answer arrives with text and an intents list (async: on the webhook, matched to its
#   requestId; an answer that never comes is a timeout, one for no request an orphan); the list
#   may be empty: which intents exist, and so whether a greeting raises one, is your droid's
#   configuration;
# - an address written in the message is parsed into addressParsing;
# - the cart has a grand total in money format: an amount, then a currency code ("2,580.00 THB");
# - the test customer can be read, and asked about: a prompt that asks for JSON gets JSON text
#   (the spec promises the format, not the keys the prompt names);
# - every scenario runs in both modes, so the sync and the async answer must both hold it (the
#   report's Parity section also compares them field by field).
# Your droid's own expectations (products, prices, intent names, wording, the keys of its JSON
# answers) come on top: adapt the commented examples at the end. droidcheck's emulator answers from
# its demo shop, whose catalogue, prices and intents are in scenarios/emulator-profile.yaml.
suite: Portable checks
scenarios:
  - name: answers a greeting with text and intents
    tags: [smoke]
    humanMessage: Hello there!
    expect:
      answer: { present: true }
      intents: { present: true }                         # a list, maybe empty: the names are your droid's configuration
      customerInsight.user_language: { present: true }
    latency: "< 180s"                                    # the spec's answer limit

  - name: parses the delivery address written in the message
    tags: [address]
    humanMessage: Please deliver my order to 99 Sukhumvit Rd, Bangkok 10110
    expect:
      addressParsing.postal_code: "10110"
      addressParsing.city: { icontains: bangkok }

  - name: a purchase gets a cart with a grand total in money format
    tags: [cart]
    repeat: 3                                            # AI answers vary: 2 of 3 must pass
    passRate: 0.66
    humanMessage: I would like to buy 2 shirts, please send them to 99 Sukhumvit Rd, Bangkok 10110
    expect:
      shoppingCart.grandTotal: { matches: "^\\d[\\d,]*(\\.\\d+)?\\s?[A-Z]{3}$" }
      addressParsing.postal_code: "10110"

  - name: reads the test customer and asks the AI about them, as JSON
    tags: [crm]
    modes: [async]                                       # the async answer names the test customer
    steps:
      - say: Hi, I am looking for a gift for my sister
        capture: { customer: customerId }
      - call: customer
        customerId: "{{ vars.customer }}"
        expect: { botEnabled: { present: true } }
      - call: ask
        customerId: "{{ vars.customer }}"
        prompt: 'Analyze user sentiment. Respond ONLY with valid JSON: { "status": "positive" | "negative" | "neutral", "reason": "brief explanation" }'
        expect:
          answer: { json: {} }                           # JSON text, whatever its keys

# Your shop's expectations: adapt the product, the price, the intent name, the wording and the keys
# of the AI's JSON to your droid, then uncomment (indent as the scenarios above). As written they
# hold for droidcheck's embedded emulator (its demo shop: 1,290.00 THB a shirt, free shipping from
# 1,500.00 THB, an intent named "purchase"; its ask answers with the keys the prompt spells out),
# so droidcheck run passes with them too.
#
#  - name: buys two Oxford shirts
#    tags: [cart, my-shop]
#    humanMessage: I want to buy 2 Oxford shirts, please send them to 99 Sukhumvit Rd, Bangkok 10110
#    expect:
#      intents: { includes: purchase }                    # your droid's intent name
#      shoppingCart.grandTotal: { money: "2,580.00 THB" } # 2 x 1,290.00 THB, shipping free
#      answer: { icontains: oxford }                      # your droid's wording
#
#  - name: the AI's sentiment JSON has the keys the prompt asks for
#    tags: [crm, my-shop]
#    modes: [async]
#    steps:
#      - say: Hi, I am looking for a gift for my sister
#        capture: { customer: customerId }
#      - call: ask
#        customerId: "{{ vars.customer }}"
#        prompt: 'Analyze user sentiment. Respond ONLY with valid JSON: { "status": "positive" | "negative" | "neutral", "reason": "brief explanation" }'
#        expect:
#          answer: { json: { status: { oneOf: [positive, negative, neutral] }, reason: { present: true } } }  # your droid's keys
#
# A table: the scenario runs once per row (rows inline, or each: ./products.csv beside this file),
# each run named by its row; and a check of your own written as a function. The code: line needs
# scenarios/checks.mjs (below); tables, rows files and code checks: docs/tables-and-code.md.
#
#  - name: "buys 2 x {{ vars.product }}"
#    tags: [cart, my-shop-table]
#    each:
#      - { product: Oxford shirt, total: "2,580.00 THB" }
#      - { product: Silk scarf, total: "1,780.00 THB" }
#    humanMessage: I want to buy 2 {{ vars.product }}, please send them to 99 Sukhumvit Rd, Bangkok 10110
#    expect:
#      shoppingCart.grandTotal: { money: "{{ vars.total }}" }
#      # answer: { code: ./checks.mjs#namesGrandTotal }   # scenarios/checks.mjs:
#      #   export function namesGrandTotal(answer, { payload }) {
#      #     const total = payload.shoppingCart?.grandTotal;
#      #     return answer.includes(total) || { pass: false, message: 'the answer does not name ' + total };
#      #   }
#
# A customer who does not wait: two messages 300 ms apart, the second sent before the first is
# answered (docs/bursts.md). As written it holds whatever your droid does with a burst (answer each
# message, answer them in turn, refuse the later ones while busy, or drop the earlier one): the
# answer the customer saw last has text and an intents list. Every burst is also checked for
# answers out of order, a stale last answer and a cart that regressed: findings in the report, not
# failures. Expect more for the way your droid chose, e.g. with final: last-message a cart holding
# every product of the burst.
#
#  - name: a customer who does not wait for the answer
#    tags: [burst]
#    steps:
#      - burst:
#          say:
#            - Hi, do you sell shirts?
#            - I would like to buy 2, please send them to 99 Sukhumvit Rd, Bangkok 10110
#          gap: 300ms
#          final: last-delivered                        # judge the last answer the customer saw
#        expect:
#          answer: { present: true }
#          intents: { present: true }
`;

const ENV_EXAMPLE = `# droidcheck: a real target (leave DROID_BASE_URL unset to use the embedded emulator).
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

/** Where the config file's JSON Schema is written (and the name it ships under, at the package's root). */
const CONFIG_SCHEMA_FILE = 'droidcheck.config.schema.json';

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

/**
 * The header put above the emulator profile that init copies: what it is, and that editing it
 * changes nothing unless an emulator is started from it.
 */
const PROFILE_HEADER = `# The demo shop droidcheck's embedded emulator answers from when no --base-url is given: its
# catalogue and prices, its intent names, its seeded customers. A copy to read (written by
# droidcheck init): droidcheck run uses the one shipped with droidcheck. To try your own shop's
# data, edit this copy and start an emulator from it:
#   droidcheck emulate --profile scenarios/emulator-profile.yaml   (then run with --base-url)
`;

export async function initProject(
  dir: string,
  opts: {
    force?: boolean;
    emulatorProfile?: string;
    configSchema?: Record<string, unknown>;
    policy?: string;
    policySchema?: Record<string, unknown>;
  } = {},
): Promise<InitResult> {
  const { configSchema } = opts;
  const files: [string, string][] = [
    [join('scenarios', 'starter.yaml'), STARTER_SUITE],
    ...(opts.emulatorProfile !== undefined
      ? [[join('scenarios', 'emulator-profile.yaml'), `${PROFILE_HEADER}${opts.emulatorProfile}`] as [string, string]]
      : []),
    ['droidcheck.schema.json', `${JSON.stringify(exportScenarioJsonSchema(), null, 2)}\n`],
    ['.env.example', ENV_EXAMPLE],
    ...(opts.policy !== undefined ? [['droidcheck.policy.yaml', opts.policy] as [string, string]] : []),
    ...(opts.policySchema !== undefined
      ? [['droidcheck.policy.schema.json', `${JSON.stringify(opts.policySchema, null, 2)}\n`] as [string, string]]
      : []),
    ...(configSchema !== undefined
      ? [[CONFIG_SCHEMA_FILE, `${JSON.stringify(configSchema, null, 2)}\n`] as [string, string]]
      : []),
    [
      'droidcheck.config.yaml',
      configSchema !== undefined
        ? `# yaml-language-server: $schema=./${CONFIG_SCHEMA_FILE}\n${STARTER_CONFIG}`
        : STARTER_CONFIG,
    ],
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
