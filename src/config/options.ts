/**
 * THE table of options: every option of `run`, `load`, `capacity`, `doctor`, `redteam`, `receive`,
 * `emulate`, `webhook-policy` and `coverage`, declared once,
 * with its flag (and short flag), environment variable, config-file key, parser (with its unit
 * and bounds), default, help and the commands it belongs to. Everything else is derived from it:
 *
 * - the commander options of each command (cli/job-options.ts `addOptions`);
 * - the config file's schema and its value checks (file.ts): a file value goes through the same
 *   parser as the flag, its error at `droidcheck.config.yaml:line:col`;
 * - the resolution, flags > environment > `.env` > config file > defaults (values.ts);
 * - the `JobFlags` type of the library API (flags.ts);
 * - the options table of docs/options.md (options-doc.ts; a test compares the two).
 *
 * The key of an entry is its name in the config file and in `JobFlags` (camelCase). A key that
 * belongs to every job command (run, load and capacity) is a top-level key of the config file;
 * the others live in the `run:`, `load:` or `capacity:` section of their commands.
 *
 * Every default is here (or, for the embedded emulator's own, in src/defaults.ts, which the
 * emulator reads too): a command's resolver (resolve.ts) shapes resolved values, it adds none.
 *
 * Parsers throw UsageError (DROIDCHECK_ERR_USAGE, exit 2) or, for `thresholds`, ThresholdError
 * (DROIDCHECK_ERR_THRESHOLD, exit 2), naming `where` (the flag, the variable or the file key).
 */
import { EMULATOR_DEFAULTS, EMULATOR_DELIVERY_DEFAULTS, EMULATOR_WEAKNESSES, JOB_DEFAULTS } from '../defaults.js';
import { DroidcheckError, isDroidcheckError, UsageError } from '../errors.js';
import { CATEGORY_IDS } from '../redteam/registry.js';
import { didYouMean } from '../suggest.js';
import { parseThreshold } from '../metrics/threshold-parse.js';
import { createReporter, parseOutputFiles, reporters as REPORTERS } from '../report/reporter.js';
import { parseShard, parseStages, parseWeights } from '../runner/index.js';
import {
  DEFAULT_STREAM,
  parseChoice,
  parseDuration,
  parseGrep,
  parseInstant,
  parseNumber,
  parseRedisUrl,
  parseSecret,
  parseShare,
  parseUrl,
} from './parse.js';

/** The commands whose options the table declares. */
export const OPTION_COMMANDS = [
  'run',
  'load',
  'capacity',
  'doctor',
  'redteam',
  'receive',
  'emulate',
  'webhook-policy',
  'coverage',
] as const;
export type OptionCommand = (typeof OPTION_COMMANDS)[number];
/**
 * The commands that read the config file: an option only `receive`, `emulate` or
 * `webhook-policy` take is a flag (or environment variable), never a key of the file.
 */
const FILE_COMMANDS: readonly OptionCommand[] = ['run', 'load', 'capacity', 'doctor', 'redteam', 'coverage'];
/** True when `command` reads the config file (its options are keys of the file); the others take flags and the environment only. */
export const readsConfigFile = (command: OptionCommand): boolean => FILE_COMMANDS.includes(command);
/** The commands that send traffic through the job pipeline. */
export const JOB_COMMANDS = ['run', 'load', 'capacity'] as const;

/** A value as given: a flag's text, a YAML scalar, a list, a switch. */
export type Raw = string | number | boolean | readonly string[];

/**
 * `value`: `--flag <v>`; `switch`: `--flag` (true); `negated`: `--no-flag` (false, default true);
 * `list`: repeatable `--flag <v>` (a YAML list in the file); `optional`: `--flag [v]` (true without a value).
 */
export type OptionKind = 'value' | 'switch' | 'negated' | 'list' | 'optional';

export interface OptionSpec<T = unknown> {
  /** In the table: absent, `value` when the option has an `arg` (its own or its parser's), else `switch`. */
  kind: OptionKind;
  /**
   * Long flag, `--max-in-flight`. In the table: absent, the key in kebab case; `false`, no flag
   * (`paths` is the commands' argument; `emulatorThread` is set through the library API only).
   */
  flag?: string;
  /** Short flag, `-c`: one meaning across commands. */
  short?: string;
  /** Placeholder of the value in help, `<n>`, `<duration>`; in the table, absent: its parser's (`measured`). */
  arg?: string;
  /** Environment variable read between the flag and the config file. */
  env?: string;
  /**
   * False: not a config-file key (a per-invocation option: shards, baselines, ports). In the
   * table: absent, true when a command that reads the config file takes it (FILE_COMMANDS).
   */
  file?: boolean;
  commands: readonly OptionCommand[];
  /** What a raw value becomes; throws naming `where`. */
  parse(raw: Raw, where: string): T;
  /** Raw default, parsed like a given value; absent: no value (or one derived, see `defaultText`). */
  default?: Raw;
  /** The default as help shows it when it is derived from other options. */
  defaultText?: string;
  /** Unit of the value for the docs: `duration`, `req/s`, `count`, `%`...; in the table, absent: its parser's. */
  unit?: string;
  help: string;
  /** Per-command differences (help, default, bounds). */
  byCommand?: Partial<
    Record<
      OptionCommand,
      { help?: string; default?: Raw; defaultText?: string; env?: string; parse?(raw: Raw, where: string): T }
    >
  >;
}

// ---- parsers -------------------------------------------------------------------------------------

function text(raw: Raw, where: string): string {
  if (typeof raw === 'string' || typeof raw === 'number') return String(raw);
  throw new UsageError(`${where}: expected a value, got ${Array.isArray(raw) ? 'a list' : String(raw)}`);
}

function list(raw: Raw, where: string): string[] {
  if (Array.isArray(raw)) return [...(raw as readonly string[])].map((v) => text(v, where));
  return [text(raw, where)];
}

function bool(raw: Raw, where: string): boolean {
  if (typeof raw === 'boolean') return raw;
  throw new UsageError(`${where}: "${String(raw)}" must be true or false`);
}

/**
 * Runs a parser that names its own flag (`--stages: ...`) and puts `where` in its place when the
 * value came from elsewhere (the file, the environment).
 */
function relabel<T>(flag: string, where: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (!isDroidcheckError(err)) throw err;
    const message = err.message.startsWith(`${flag}: `)
      ? `${where}: ${err.message.slice(flag.length + 2)}`
      : err.message.startsWith(`${where}: `)
        ? err.message
        : `${where}: ${err.message}`;
    if (message === err.message) throw err;
    throw new DroidcheckError(err.code, message, err.exitCode, { cause: err });
  }
}

/** A parser that names its value's placeholder in help and its unit in the docs: an entry that uses it need not. */
const measured = <T>(arg: string, unit: string | undefined, parse: (raw: Raw, where: string) => T) =>
  Object.assign(parse, { arg, ...(unit !== undefined && { unit }) });

/**
 * What a parser takes of a YAML value, as JSON Schema: the config file's schema (json-schema.ts,
 * droidcheck.config.schema.json) refuses what the parser refuses, so an editor and droidcheck
 * agree (test/config/config-schema.test.ts feeds both the same files). What a pattern cannot
 * state (a bound of a number written as a string, a URL, a threshold's grammar) is left to the
 * parser; a parser without one takes any scalar in the schema.
 */
export type ValueSchema = { anyOf: Record<string, unknown>[] };
const withSchema = <P extends object>(parse: P, json: ValueSchema): P & { json: ValueSchema } =>
  Object.assign(parse, { json });
/** The schema of a string `pattern` with blanks around it, as the parsers trim. */
const text$ = (pattern: string) => ({ type: 'string', pattern: `^\\s*${pattern}\\s*$` });
/** A decimal number as Number() reads it (`5`, `5.`, `.5`, `2.50`); POSITIVE: one with a digit other than 0. */
const DECIMAL = '(?:\\d+(?:\\.\\d*)?|\\.\\d+)';
const POSITIVE = `(?=[\\d.]*[1-9])${DECIMAL}`;
const UNIT = '\\s*(?:ms|s|m|h)';

const duration = withSchema(
  measured('<duration>', 'duration', (raw, where): number => parseDuration(text(raw, where), where)),
  // A unit, or 0 alone (units.ts: a bare number is ambiguous).
  { anyOf: [text$(`(?:${DECIMAL}${UNIT}|0+(?:\\.0*)?)`), { const: 0 }] },
);
const positiveDuration = (example: string) =>
  withSchema(
    measured('<duration>', 'duration', (raw, where): number => {
      const ms = duration(raw, where);
      if (ms <= 0) throw new UsageError(`${where}: must be > 0, e.g. ${example}`);
      return ms;
    }),
    { anyOf: [text$(`${POSITIVE}${UNIT}`)] },
  );
const integer = (min: 0 | 1, max?: number, unit?: string) =>
  withSchema(
    measured('<n>', undefined, (raw, where): number =>
      parseNumber(typeof raw === 'number' ? raw : text(raw, where), where, {
        min,
        ...(max !== undefined && { max }),
        integer: true,
        ...(unit && { unit }),
      }),
    ),
    {
      anyOf: [
        { type: 'integer', minimum: min, ...(max !== undefined && { maximum: max }) },
        text$(min === 1 ? '0*[1-9]\\d*' : '\\d+'),
      ],
    },
  );
const rate = (above: boolean) =>
  withSchema(
    measured('<req/s>', 'req/s', (raw, where): number =>
      parseNumber(typeof raw === 'number' ? raw : text(raw, where), where, { min: 0, above, unit: 'req/s' }),
    ),
    {
      anyOf: [
        { type: 'number', ...(above ? { exclusiveMinimum: 0 } : { minimum: 0 }) },
        text$(above ? POSITIVE : DECIMAL),
      ],
    },
  );
/** 0..1 as a number or its text (`0.25`). */
const FRACTION = '(?:0*(?:\\.\\d*)?|0*1(?:\\.0*)?|\\.\\d+)';
const fraction = withSchema(
  (raw: Raw, where: string): number =>
    parseNumber(typeof raw === 'number' ? raw : text(raw, where), where, { min: 0, max: 1 }),
  { anyOf: [{ type: 'number', minimum: 0, maximum: 1 }, text$(`(?=[\\d.]*\\d)${FRACTION}`)] },
);
/** A share: 0..1, or a percentage up to 100% (`1%`, `0.01`). */
const share = withSchema((raw: Raw, where: string): number => parseShare(text(raw, where), where), {
  anyOf: [
    { type: 'number', minimum: 0, maximum: 1 },
    text$(`(?:(?=[\\d.]*\\d)${FRACTION}|0*(?:\\d{1,2}(?:\\.\\d*)?|\\.\\d+|100(?:\\.0*)?)\\s*%)`),
  ],
});
const choice = <C extends string>(choices: readonly C[]) =>
  withSchema((raw: Raw, where: string): C => parseChoice(text(raw, where), where, choices), {
    anyOf: [{ enum: [...choices] }],
  });
const url = measured('<url>', undefined, (raw, where): string => parseUrl(text(raw, where), where));
const string = (raw: Raw, where: string): string => {
  const t = text(raw, where);
  if (t.trim() === '') throw new UsageError(`${where}: the value is empty`);
  return t;
};
const strings = (raw: Raw, where: string): string[] => list(raw, where);
const port = measured('<port>', undefined, integer(0, 65_535));
/** A duration in ms as a user writes it, for a default stated in ms: 5000 is `5s`, 500 is `500ms`. */
const durationText = (ms: number): string => (ms > 0 && ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`);
const seed = integer(0, 2 ** 32 - 1);
/** Reporter names; an unknown one is refused with a did-you-mean (the report registry's message). */
const reporterNames = withSchema(
  (raw: Raw, where: string): string[] =>
    list(raw, where).map((name) => {
      if (!Object.hasOwn(REPORTERS, name)) relabel('--reporter', where, () => createReporter(name, { outDir: '.' }));
      return name;
    }),
  { anyOf: [{ enum: Object.keys(REPORTERS) }] },
);
const secret = (raw: Raw, where: string): string => parseSecret(text(raw, where), where);
const thresholds = (raw: Raw, where: string): string[] =>
  list(raw, where).map((e) => relabel('threshold', where, () => parseThreshold(e).expression));

/**
 * One of `choices`, a thing of a registry (a red-team category, a planted weakness): an unknown
 * name is refused with a did-you-mean and the whole list (`what`: its singular and plural).
 */
const registered =
  <C extends string>(choices: readonly C[], what: [string, string]) =>
  (name: string, where: string): C => {
    if ((choices as readonly string[]).includes(name)) return name as C;
    const near = didYouMean(name, choices);
    throw new UsageError(
      `${where}: unknown ${what[0]} "${name}"${near ? ` — did you mean "${near}"?` : ''}; the ${what[1]} are ${choices.join(', ')}`,
    );
  };
const category = registered(CATEGORY_IDS, ['category', 'categories']);
const weakness = registered(EMULATOR_WEAKNESSES, ['weakness', 'weaknesses']);

/** A comma-separated list of weaknesses (`--emulator-weaknesses`); refused when it names none. */
const weaknessList = (raw: Raw, where: string) => {
  const names = string(raw, where)
    .split(',')
    .map((w) => w.trim())
    .filter((w) => w !== '');
  if (names.length === 0)
    throw new UsageError(`${where}: the list names nothing; write e.g. discount,negative-quantity`);
  return names.map((name) => weakness(name, where));
};

/** The OTLP transports (OTEL_EXPORTER_OTLP_PROTOCOL: OpenTelemetry's exporter configuration). */
const OTLP_PROTOCOLS = ['http/protobuf', 'http/json', 'grpc'] as const;

/** `--trace-url`: an http(s) URL holding `{traceId}`. */
const traceUrlTemplate = (raw: Raw, where: string): string => {
  const t = string(raw, where);
  if (!t.includes('{traceId}'))
    throw new UsageError(`${where}: "${t}" has no {traceId}; write e.g. http://localhost:16686/trace/{traceId}`);
  parseUrl(t.replaceAll('{traceId}', '0'), where);
  return t;
};

/** An amount of US dollars, > 0. */
const usd = measured('<usd>', 'USD', (raw, where): number =>
  parseNumber(typeof raw === 'number' ? raw : text(raw, where).replace(/^\$/, ''), where, {
    min: 0,
    above: true,
    unit: 'USD',
  }),
);

/**
 * `--model-price MODEL=IN/OUT` (repeatable; a YAML list in the file): USD per million input and
 * output tokens, e.g. `gpt-4o-mini=0.15/0.6`.
 */
const modelPriceList = (raw: Raw, where: string): { model: string; inputPerMTok: number; outputPerMTok: number }[] =>
  list(raw, where).map((entry) => {
    const m = /^(.+)=([^/=]+)\/([^/=]+)$/.exec(entry.trim());
    if (!m)
      throw new UsageError(
        `${where}: "${entry}" must be MODEL=IN/OUT, USD per million input and output tokens, e.g. gpt-4o-mini=0.15/0.6`,
      );
    const price = (v: string, what: string): number =>
      parseNumber(v.trim(), `${where} ${m[1]!.trim()} (${what})`, { min: 0, unit: 'USD per million tokens' });
    return { model: m[1]!.trim(), inputPerMTok: price(m[2]!, 'input'), outputPerMTok: price(m[3]!, 'output') };
  });

/** An entry as the table writes it: `kind`, `flag` and `file` may be left to their defaults (OptionSpec). */
type TableEntry<T = unknown> = Omit<OptionSpec<T>, 'kind' | 'flag'> & { kind?: OptionKind; flag?: string | false };

/** A table entry, its literal type kept (so `JobFlags` and the resolved values are typed from it). */
const opt = <const S extends TableEntry<ReturnType<S['parse']>>>(spec: S): S => spec;

type KindOf<S> = S extends { kind: infer K extends OptionKind }
  ? K
  : S extends { arg: string } | { parse: { arg: string } }
    ? 'value'
    : 'switch';
/** An entry with its `kind` filled in (and its `flag`: read it as OptionSpec's, through specFor or flagName). */
type Complete<S> = S & { kind: KindOf<S> };

/** The table with each entry's default `kind`, `flag` and `file` filled in (see OptionSpec). */
function complete<T extends Record<string, TableEntry>>(table: T): { readonly [K in keyof T]: Complete<T[K]> } {
  const entries = Object.entries(table).map(([key, { kind, flag, ...rest }]) => {
    const { arg, unit } = rest.parse as { arg?: string; unit?: string };
    return [
      key,
      {
        ...rest,
        ...(rest.arg === undefined && arg !== undefined && { arg }),
        ...(rest.unit === undefined && unit !== undefined && { unit }),
        kind: kind ?? (rest.arg === undefined && arg === undefined ? 'switch' : 'value'),
        file: rest.file ?? rest.commands.some((c) => FILE_COMMANDS.includes(c)),
        ...(flag !== false && { flag: flag ?? `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}` }),
      },
    ];
  });
  return Object.fromEntries(entries) as { readonly [K in keyof T]: Complete<T[K]> };
}

const ALL_JOBS = JOB_COMMANDS;
const TARGET = ['run', 'load', 'capacity', 'doctor', 'redteam'] as const;
/** The job commands and `redteam` (which sends through the same target, receiver and reports). */
const JOBS_AND_REDTEAM = [...ALL_JOBS, 'redteam'] as const;
/** Where the service is and where its webhooks come: the jobs, doctor and webhook-policy. */
const REMOTE = [...TARGET, 'webhook-policy'] as const;
/** The embedded emulator's webhook retry policy: `emulate`, and `webhook-policy` against the embedded emulator. */
const EMULATED_RETRY = ['emulate', 'webhook-policy'] as const;
/** The probes of `webhook-policy` (jobs/webhook-policy/probes.ts), in the order they are sent. */
const PROBE_NAMES = ['fail', 'recover', 'stall', 'slow'] as const;
/** How `redteam` sends its attacks (`--strategy`): each category's templates, or the adaptive attacker. */
const REDTEAM_STRATEGIES = ['templates', 'adaptive'] as const;
/** A webhook-policy probe (`--probes`). */
export type ProbeName = (typeof PROBE_NAMES)[number];

// ---- the table -----------------------------------------------------------------------------------

export const OPTIONS = complete({
  // -- run, load: the closed model
  concurrency: opt({
    short: '-c',
    commands: ['run', 'load'],
    parse: integer(1, 100_000),
    default: 8,
    unit: 'requests',
    help: 'requests in flight at most, closed model',
    byCommand: {
      load: { help: 'virtual users of the closed model (not with --rate or --stages, which choose the open model)' },
    },
  }),
  shard: opt({
    arg: '<i/n>',
    commands: ['run', 'load'],
    file: false,
    parse: (raw: Raw, where: string) => parseShard(text(raw, where), where),
    help: 'run only shard i of n (deterministic split of the scenarios), e.g. 1/3',
    byCommand: {
      load: {
        help: 'run execution segment i of n of the load: every n-th arrival of every stage (or 1/n of --concurrency), for `merge`',
      },
    },
  }),
  baseline: opt({
    arg: '<file>',
    commands: ['run'],
    file: false,
    parse: string,
    help: 'compare with this report.json; exit 1 on a regression',
  }),
  failOnFlaky: opt({
    commands: ['run'],
    parse: bool,
    default: false,
    help: 'a flaky scenario (passed some repeats, failed others) fails the run',
  }),
  // -- run: the answers report.json keeps for compare (report/sections/answers.ts)
  keepAnswers: opt({
    commands: ['run'],
    parse: bool,
    default: false,
    help: "keep every turn's answer in report.json (text, intents, cart, address), not only each scenario's last, for compare",
  }),
  // -- load: the arrival rate
  rate: opt({
    commands: ['load'],
    parse: rate(true),
    help: 'constant arrival rate (open model)',
  }),
  duration: opt({
    short: '-d',
    commands: ['load'],
    parse: positiveDuration('30s'),
    default: '30s',
    help: 'length of a constant-rate or closed run',
  }),
  stages: opt({
    arg: '<list>',
    commands: ['load'],
    parse: (raw: Raw, where: string) => relabel('--stages', where, () => parseStages(text(raw, where))),
    unit: 'duration:req/s,...',
    help: 'ramping arrival rate, k6-style duration:target list, e.g. 10s:100,30s:100,10s:0',
  }),
  startRate: opt({
    commands: ['load', 'capacity'],
    parse: rate(false),
    default: 0,
    help: 'rate at the start of the first stage',
    byCommand: { capacity: { help: 'first rate (step) or lower bound (bisect)', default: 50, parse: rate(true) } },
  }),
  warmup: opt({
    commands: ['load', 'capacity'],
    parse: duration,
    default: 0,
    help: 'excluded from the figures, from the start',
    byCommand: { capacity: { help: 'warm-up before each rate, excluded from its figures', default: '2s' } },
  }),
  maxInFlight: opt({
    commands: ['load', 'capacity'],
    parse: integer(1),
    unit: 'requests',
    defaultText: 'peak arrival rate × --timeout × 1.2, at least 1000',
    help: 'in-flight cap of the open model; arrivals beyond it are dropped and counted (load.dropped.rate < 1% is a default threshold)',
    byCommand: {
      capacity: {
        help: 'in-flight cap; a rate at which arrivals are dropped does not pass',
        defaultText: '--max-rate × --timeout × 1.2, at least 1000',
      },
    },
  }),
  maxRequests: opt({
    commands: ['load'],
    parse: integer(1),
    unit: 'requests',
    help: 'send at most this many requests (warm-up included)',
  }),
  weights: opt({
    kind: 'list',
    flag: '--weight',
    arg: '<scenario=n>',
    commands: ['load', 'capacity'],
    default: [],
    parse: (raw: Raw, where: string) => relabel('--weight', where, () => parseWeights(list(raw, where))),
    help: 'weight of a scenario in the mix (name, suite/name, name:mode), repeatable',
  }),
  seed: opt({
    commands: ['load', 'capacity', 'redteam', 'emulate'],
    parse: seed,
    default: 1,
    help: 'seed of the mix PRNG, a whole number',
    byCommand: {
      emulate: { help: 'seed of every random draw (faults, jitter)', default: EMULATOR_DEFAULTS.seed },
      redteam: { help: 'seed of the attack generator, a whole number: the same seed sends the same attacks' },
    },
  }),
  ackOnly: opt({
    commands: ['load', 'capacity'],
    parse: bool,
    default: false,
    help: 'async requests end at the acknowledgement (capacity of the ack path)',
  }),
  progress: opt({
    commands: ['load'],
    parse: duration,
    default: '5s',
    help: 'progress line interval on stderr, 0 for none',
  }),
  startAt: opt({
    arg: '<time>',
    commands: ['load'],
    file: false,
    parse: (raw: Raw, where: string) => parseInstant(text(raw, where), where),
    unit: 'ISO 8601',
    help: 'wait until this ISO 8601 instant (with its offset, e.g. 2026-05-01T12:00:00Z) before sending: one instant for every shard',
  }),
  // -- capacity: the search
  strategy: opt({
    arg: '<name>',
    commands: ['capacity'],
    parse: choice(['step', 'bisect'] as const),
    default: 'step',
    help: 'step or bisect',
  }),
  step: opt({
    commands: ['capacity'],
    parse: rate(true),
    defaultText: 'the start rate',
    help: 'increment of the step strategy',
  }),
  maxRate: opt({
    commands: ['capacity'],
    parse: rate(true),
    default: 2000,
    help: 'highest rate tried',
  }),
  precision: opt({
    commands: ['capacity'],
    parse: rate(true),
    defaultText: '5% of the max rate',
    help: 'bisect stops when the interval is this narrow',
  }),
  minCapacity: opt({
    commands: ['capacity'],
    parse: rate(true),
    defaultText: 'none',
    help: 'the capacity a CI gate requires: exit 99 when the knee (the highest rate where every criterion held) is below it, naming the knee and what ended the search',
  }),
  maxSteps: opt({
    commands: ['capacity'],
    parse: integer(1, 1000),
    default: 20,
    help: 'most rates measured',
  }),
  stepDuration: opt({
    commands: ['capacity'],
    parse: positiveDuration('10s'),
    default: '10s',
    help: 'measured length of each rate; a rate too low for the samples its criteria need (a p99: 100) is measured longer, and says so',
  }),
  ackP99: opt({
    commands: ['capacity'],
    parse: positiveDuration('100ms'),
    default: '100ms',
    help: 'ack p99 limit (the service promises acknowledgements under 100 ms)',
  }),
  answerP99: opt({
    commands: ['capacity'],
    parse: positiveDuration('60s'),
    defaultText: 'not judged',
    help: 'answer p99 limit',
  }),
  maxErrorRate: opt({
    arg: '<rate>',
    commands: ['capacity'],
    parse: share,
    default: '1%',
    unit: '%',
    help: 'highest accepted error rate, e.g. 1% or 0.01',
  }),
  minPassRate: opt({
    arg: '<rate>',
    commands: ['capacity'],
    parse: share,
    default: '99%',
    unit: '%',
    help: "lowest share of answers right (their expectations held) at a passing rate, e.g. 99% or 0.99: judged on the Wilson 95% interval's lower bound where the sample allows, else on the share; 0% judges latency only",
  }),
  // -- every job: selection
  paths: opt({
    flag: false,
    kind: 'list',
    commands: ALL_JOBS,
    parse: strings,
    default: ['scenarios'],
    help: "scenario files or directories (the commands' arguments)",
  }),
  mode: opt({
    short: '-m',
    arg: '<mode>',
    commands: JOBS_AND_REDTEAM,
    parse: choice(['sync', 'async', 'both'] as const),
    defaultText: "each scenario's own",
    help: "override the scenarios' modes: sync, async or both",
    byCommand: {
      redteam: {
        help: 'answer endpoint of the attacks: sync (get-droid-answer) or async (get-droid-answer-async + webhook)',
        default: 'sync',
        defaultText: 'sync',
        parse: choice(['sync', 'async'] as const),
      },
    },
  }),
  tags: opt({
    kind: 'list',
    flag: '--tag',
    arg: '<tag>',
    commands: ALL_JOBS,
    parse: strings,
    default: [],
    help: 'only scenarios with this tag (repeatable: any of them)',
  }),
  excludeTags: opt({
    kind: 'list',
    flag: '--exclude-tag',
    arg: '<tag>',
    commands: ALL_JOBS,
    parse: strings,
    default: [],
    help: 'leave out scenarios with this tag (repeatable), e.g. emulator-only against a real service',
  }),
  grep: opt({
    arg: '<text>',
    commands: ALL_JOBS,
    parse: (raw: Raw, where: string) => relabel('--grep', where, () => parseGrep(text(raw, where))),
    help: 'only scenarios whose "suite name" contains the text (ignoring case); /re/flags for a regex',
  }),
  // -- every job: reports and verdicts
  reportDir: opt({
    short: '-o',
    arg: '<dir>',
    commands: [...JOBS_AND_REDTEAM, 'webhook-policy'],
    parse: string,
    default: 'reports',
    help: 'where reports are written',
  }),
  reporters: opt({
    kind: 'list',
    flag: '--reporter',
    short: '-r',
    arg: '<name>',
    commands: [...JOBS_AND_REDTEAM, 'webhook-policy'],
    parse: reporterNames,
    // An empty list (none named) means this default too (values.ts).
    default: ['console', 'json', 'junit', 'html', 'markdown', 'ndjson'],
    defaultText: 'all but progress',
    help: 'reporter, repeatable: console, json, junit, html, markdown, ndjson, progress',
    byCommand: {
      // Its report is the learned policy: no requests to list (ndjson) nor scenarios to test (junit).
      'webhook-policy': {
        default: ['console', 'json', 'markdown', 'html'],
        defaultText: 'console, json, markdown, html',
      },
    },
  }),
  outputFiles: opt({
    kind: 'list',
    flag: '--output-file',
    arg: '<name=path>',
    commands: JOBS_AND_REDTEAM,
    file: false,
    default: [],
    parse: (raw: Raw, where: string) => relabel('--output-file', where, () => parseOutputFiles(list(raw, where))),
    help: 'output path of one reporter, repeatable, e.g. junit=out/junit.xml',
  }),
  verbose: opt({
    commands: JOBS_AND_REDTEAM,
    parse: bool,
    default: false,
    help: 'console: a line per request and every section in full (default: a line per suite, the failures in full, empty sections left out)',
  }),
  thresholds: opt({
    kind: 'list',
    flag: '--threshold',
    arg: '<expr>',
    commands: ALL_JOBS,
    parse: thresholds,
    default: [],
    help: 'SLO threshold with its unit, repeatable, e.g. "ack.p99 < 100ms", "outcome.timeout.rate < 1%"',
  }),
  defaultThresholds: opt({
    kind: 'negated',
    flag: '--no-default-thresholds',
    commands: ALL_JOBS,
    parse: bool,
    default: true,
    help: "do not judge the spec's limits (ack.p99 < 100ms, answer.max < 180s, sync.max < 180s, load.dropped.rate < 1%)",
  }),
  // -- every job: the shop's policy (src/policy, docs/policy.md)
  policy: opt({
    arg: '<file>',
    commands: [...JOBS_AND_REDTEAM, 'coverage'],
    parse: (raw: Raw, where: string) => {
      const file = string(raw, where);
      if (file.trim() === '')
        throw new UsageError(`${where}: expected a policy file (YAML, docs/policy.md), got nothing`);
      return file;
    },
    defaultText: 'droidcheck.policy.yaml when present',
    help: "the shop's policy file (price list, shipping fee, max discount, forbidden phrases, canaries, languages) every answer is checked against; a violation fails its scenario",
    byCommand: {
      coverage: {
        help: "the shop's policy file whose list prices and shipping rule give the generated rows' grand totals",
        defaultText:
          "the report's own shop (its policy file, or the embedded emulator's demo shop), else droidcheck.policy.yaml when present",
      },
    },
  }),
  // -- every job: requests
  timeout: opt({
    short: '-t',
    commands: REMOTE,
    parse: positiveDuration('180s'),
    default: '180s',
    help: 'deadline per request (sync answer or webhook)',
    byCommand: {
      doctor: { help: 'how long --round-trip waits for the webhook' },
      'webhook-policy': {
        help: 'how long to wait, in all, for the service to give up on every probe (a retry schedule of minutes needs more)',
        default: '10m',
      },
    },
  }),
  messageWebhookCheck: opt({
    commands: TARGET,
    parse: positiveDuration('15s'),
    default: durationText(JOB_DEFAULTS.messageWebhookCheckMs),
    help: "how long the first send that waits for the bot's reply waits for any forwarded message (its own echo included) before every reply wait fails at once",
    byCommand: {
      doctor: {
        help: "--round-trip also waits up to this long for any forwarded message on the receiver's /messages (2 s after the answer at most: the customer's own message is forwarded before it)",
      },
    },
  }),
  firstAnswerTimeout: opt({
    commands: ALL_JOBS,
    parse: positiveDuration('20s'),
    help: 'against a remote target: stop (exit 2) when this long after the first acknowledgement no webhook of any kind has arrived (the answer webhook points elsewhere); without it, a hint at 15 s and each answer waits out --timeout',
  }),
  syncMessage: opt({
    arg: '<form>',
    commands: JOBS_AND_REDTEAM,
    parse: choice(['auto', 'object', 'string'] as const),
    default: 'auto',
    help: 'humanMessage form of get-droid-answer: auto (find out), object or string',
  }),
  retries: opt({
    commands: ALL_JOBS,
    parse: integer(0, 10),
    default: 0,
    help: 'retry a submit answered 429 or 5xx up to N times (Retry-After honoured, backoff with jitter)',
  }),
  think: opt({
    kind: 'negated',
    flag: '--no-think',
    commands: ALL_JOBS,
    parse: bool,
    default: true,
    help: "skip the customer's pauses (think:) between the steps of a conversation; they never count in a latency",
  }),
  burstGap: opt({
    commands: ALL_JOBS,
    // A duration up to 10 min (the bound is the parser's: a pattern cannot state it).
    parse: withSchema(
      measured('<duration>', 'duration', (raw, where): number => {
        const ms = duration(raw, where);
        if (ms > 600_000)
          throw new UsageError(
            `${where}: at most 10m: messages further apart are turns of a conversation, not a burst`,
          );
        return ms;
      }),
      duration.json,
    ),
    help: "send each conversation's consecutive say turns as one burst, this far apart, without waiting for the answers (docs/bursts.md)",
  }),
  warmUp: opt({
    kind: 'negated',
    flag: '--no-warm-up',
    commands: ALL_JOBS,
    parse: bool,
    default: true,
    help: 'do not open connections with a read-only call before measuring',
  }),
  grace: opt({
    commands: JOBS_AND_REDTEAM,
    parse: duration,
    default: '5s',
    help: 'after an interrupt, how long in-flight requests may finish',
  }),
  emulatorThread: opt({
    flag: false,
    kind: 'value',
    commands: [...JOBS_AND_REDTEAM, 'webhook-policy'],
    file: false,
    parse: choice(['worker', 'inline'] as const),
    default: 'worker',
    help: "where the embedded emulator runs: a worker thread, or `inline` in the job's own thread (tests, profiling)",
  }),
  // -- the target and the receiver
  baseUrl: opt({
    env: 'DROID_BASE_URL',
    commands: REMOTE,
    parse: url,
    defaultText: 'the embedded emulator',
    help: 'real service base URL; token from DROID_API_TOKEN',
  }),
  droidId: opt({
    arg: '<id>',
    env: 'DROID_ID',
    commands: [...REMOTE, 'emulate'],
    parse: (raw: Raw, where: string) => String(integer(1)(raw, where)),
    help: 'droid id of the real service',
    byCommand: { emulate: { help: 'droid id of the emulated droid', defaultText: "the profile's", env: undefined } },
  }),
  receiverHost: opt({
    arg: '<host>',
    commands: REMOTE,
    parse: string,
    default: '127.0.0.1',
    help: 'address the webhook receiver binds to',
  }),
  receiverPort: opt({
    commands: REMOTE,
    parse: port,
    default: 0,
    defaultText: '0, any free port',
    help: 'port of the webhook receiver',
  }),
  publicUrl: opt({
    commands: REMOTE,
    parse: url,
    help: 'public webhook URL when a tunnel is in front of the receiver (the URL configured in the service)',
  }),
  config: opt({
    arg: '<file>',
    commands: [...TARGET, 'coverage'],
    file: false,
    parse: string,
    defaultText: './droidcheck.config.yaml when present',
    help: 'config file of default options',
  }),
  // -- coverage: from gap to tests
  scenarios: opt({
    arg: '<file>',
    commands: ['coverage'],
    file: false,
    parse: string,
    help: 'write a scenario table (each: rows) covering the products the report never covered: each row asks for one and buys 2, its grand total from the policy',
  }),
  // -- doctor
  roundTrip: opt({
    commands: ['doctor'],
    file: false,
    parse: bool,
    default: false,
    help: 'also send one real async request (one AI answer) and wait for its webhook on the receiver',
  }),
  maxClockSkew: opt({
    commands: ['doctor'],
    file: false,
    parse: duration,
    default: durationText(JOB_DEFAULTS.maxClockSkewMs),
    help: "warn when the service's clock is further off than this",
  }),
  // -- graders, shards on several machines, metrics
  judgeModel: opt({
    arg: '<name>',
    commands: JOBS_AND_REDTEAM,
    file: false,
    parse: string,
    help: 'chat model grading `judge` expectations (OpenAI-compatible: OPENAI_BASE_URL, OPENAI_API_KEY); config file: judge.model',
    byCommand: {
      redteam: {
        help: 'chat model grading the judged attack categories (off-topic, competitor; prompt-leak without --canary) and rewording with --rephrase; config file: judge.model',
      },
    },
  }),
  simulatorModel: opt({
    arg: '<name>',
    commands: ['run', 'redteam'],
    file: false,
    parse: string,
    defaultText: 'the judge model',
    help: 'chat model playing the customer of `simulate:` scenarios (same endpoint and key as the judge); config file: judge.simulatorModel',
    byCommand: {
      redteam: {
        help: 'chat model playing the attacker of --strategy adaptive (same endpoint and key as the judge); config file: judge.simulatorModel',
      },
    },
  }),
  embeddingModel: opt({
    arg: '<name>',
    commands: ALL_JOBS,
    file: false,
    parse: string,
    help: 'embedding model of `similar` expectations; config file: judge.embeddingModel',
  }),
  cache: opt({
    kind: 'negated',
    flag: '--no-cache',
    commands: JOBS_AND_REDTEAM,
    file: false,
    parse: bool,
    default: true,
    help: 'neither read nor write the judge and embedding cache (.droidcheck/cache)',
  }),
  deliveries: opt({
    kind: 'optional',
    arg: '[redis-url]',
    commands: ALL_JOBS,
    file: false,
    parse: (raw: Raw, where: string): string | boolean => (typeof raw === 'boolean' ? raw : text(raw, where)),
    help: 'start no receiver: read deliveries from the Redis Stream `droidcheck receive` fills (no URL: DROIDCHECK_REDIS_URL)',
  }),
  stream: opt({
    arg: '<key>',
    env: 'DROIDCHECK_STREAM',
    commands: [...ALL_JOBS, 'receive'],
    file: false,
    parse: string,
    default: DEFAULT_STREAM,
    help: 'stream key of --deliveries',
    byCommand: { receive: { help: 'stream key the deliveries are published to' } },
  }),
  metricsPort: opt({
    commands: [...ALL_JOBS, 'receive'],
    file: false,
    parse: port,
    help: 'serve Prometheus metrics at http://host:port/metrics while the job runs (0: any free port)',
  }),
  metricsHost: opt({
    arg: '<host>',
    commands: [...ALL_JOBS, 'receive'],
    file: false,
    parse: string,
    default: '127.0.0.1',
    help: 'address of the metrics server',
  }),
  metricsLinger: opt({
    commands: ALL_JOBS,
    file: false,
    parse: duration,
    default: 0,
    help: 'keep serving metrics this long after the job, so the last scrape sees the final counts',
  }),
  // -- telemetry: OpenTelemetry export and trace context (docs/telemetry.md)
  otlpEndpoint: opt({
    env: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    commands: [...JOBS_AND_REDTEAM, 'receive', 'emulate'],
    parse: url,
    help: 'export traces and metrics over OTLP to this collector (off unless set; the OTEL_* variables apply: docs/telemetry.md)',
  }),
  otlpProtocol: opt({
    arg: '<protocol>',
    env: 'OTEL_EXPORTER_OTLP_PROTOCOL',
    commands: [...JOBS_AND_REDTEAM, 'receive', 'emulate'],
    parse: choice(OTLP_PROTOCOLS),
    default: 'http/protobuf',
    help: 'OTLP transport: http/protobuf, http/json or grpc',
  }),
  traceContext: opt({
    kind: 'negated',
    flag: '--no-trace-context',
    commands: JOBS_AND_REDTEAM,
    parse: bool,
    default: true,
    help: 'send no W3C traceparent header to the service (by default every call carries one)',
  }),
  traceUrl: opt({
    arg: '<template>',
    commands: JOBS_AND_REDTEAM,
    parse: traceUrlTemplate,
    help: 'link each failure in report.html to its trace: a URL with {traceId}, e.g. http://localhost:16686/trace/{traceId}',
  }),
  // -- the budget of model calls (docs/llm.md, Budget)
  maxCost: opt({
    commands: JOBS_AND_REDTEAM,
    parse: usd,
    help: 'make no model call (judge, embeddings, simulator, attacker) once this much is spent; what is left is not judged (exit 98)',
  }),
  maxTokens: opt({
    commands: JOBS_AND_REDTEAM,
    parse: integer(1, Number.MAX_SAFE_INTEGER, 'tokens'),
    unit: 'tokens',
    help: 'make no model call once the run used this many tokens (input and output)',
  }),
  maxConversationTokens: opt({
    commands: ['run', 'redteam'],
    parse: integer(1, Number.MAX_SAFE_INTEGER, 'tokens'),
    unit: 'tokens',
    help: 'end a simulated customer or an adaptive attack once its model calls used this many tokens',
  }),
  modelPrices: opt({
    kind: 'list',
    flag: '--model-price',
    arg: '<model=in/out>',
    commands: JOBS_AND_REDTEAM,
    parse: modelPriceList,
    help: 'price of a model, USD per million input/output tokens (e.g. gpt-4o-mini=0.15/0.6); overrides the built-in table',
  }),
  // -- redteam: the attacks (config file: the `redteam:` section)
  attempts: opt({
    commands: ['redteam'],
    parse: integer(1, 10_000),
    default: 10,
    unit: 'count',
    help: 'attacks per category (more narrow the 95% interval of each success rate)',
  }),
  products: opt({
    kind: 'list',
    flag: '--product',
    arg: '<name>',
    commands: ['redteam'],
    parse: strings,
    default: [],
    defaultText: "the embedded emulator's catalogue; none against a real service",
    help: 'a product the droid sells, repeatable: price and cart attacks order it',
  }),
  canaries: opt({
    kind: 'list',
    flag: '--canary',
    arg: '<text>',
    commands: ['redteam'],
    parse: strings,
    default: [],
    help: "a line of the droid's own instructions that must never be shown, repeatable (prompt-leak)",
  }),
  categories: opt({
    kind: 'list',
    flag: '--category',
    arg: '<id>',
    commands: ['redteam'],
    parse: withSchema((raw: Raw, where: string) => list(raw, where).map((id) => category(id, where)), {
      anyOf: [{ enum: [...CATEGORY_IDS] }],
    }),
    default: [],
    defaultText: 'every category',
    help: 'only this attack category, repeatable (docs/redteam.md lists them)',
  }),
  maxSuccessRate: opt({
    arg: '<share>',
    commands: ['redteam'],
    parse: share,
    default: 0,
    unit: '%',
    help: 'a category fails above this attack success rate, e.g. 5% or 0.05 (default 0: any success fails)',
  }),
  rephrase: opt({
    commands: ['redteam'],
    parse: bool,
    default: false,
    help: 'the judge model rewords each attack line (cached); needs --judge-model',
  }),
  // -- redteam: the adaptive strategy (`--strategy adaptive`: redteam/adaptive.ts, llm/attacker.ts)
  attackStrategy: opt({
    // The flag of capacity's `strategy` too: one word per command, two keys (two unrelated value sets).
    flag: '--strategy',
    arg: '<name>',
    commands: ['redteam'],
    parse: choice(REDTEAM_STRATEGIES),
    default: 'templates',
    help: "templates: each category's phrasings, one attack turn each; adaptive: the chat model plays an attacker who escalates over several turns toward the category's goal (a discount, another customer's data, the instructions), adapting to each answer, every turn judged by the oracles and the policy's rules; needs --simulator-model or --judge-model",
  }),
  turns: opt({
    commands: ['redteam'],
    parse: integer(1, 20),
    default: 5,
    unit: 'count',
    help: 'customer messages of one adaptive attack at most (--strategy adaptive)',
  }),
  emulatorWeaknesses: opt({
    arg: '<list>',
    commands: ['redteam'],
    file: false,
    parse: weaknessList,
    defaultText: 'none: a robust droid',
    help: 'plant these weaknesses in the embedded emulator, comma-separated (discount, cross-conversation-leak, recite-instructions, negative-quantity): watch each oracle fire',
  }),
  // -- receive: the webhooks of a real service into a Redis Stream
  host: opt({
    arg: '<host>',
    commands: ['receive', 'emulate'],
    parse: string,
    default: '127.0.0.1',
    help: 'address to bind (0.0.0.0 in a container)',
    byCommand: { emulate: { help: 'address to bind', default: EMULATOR_DEFAULTS.host } },
  }),
  port: opt({
    arg: '<n>',
    commands: ['receive', 'emulate'],
    parse: port,
    default: 8787,
    help: 'port to listen on (0: any free port)',
    byCommand: { emulate: { default: EMULATOR_DEFAULTS.port } },
  }),
  redis: opt({
    arg: '<url>',
    env: 'DROIDCHECK_REDIS_URL',
    commands: ['receive'],
    // A password is accepted from the environment only: a flag shows in the process list.
    parse: (raw: Raw, where: string) => parseRedisUrl(text(raw, where), where, where === 'DROIDCHECK_REDIS_URL'),
    help: 'Redis to publish to, redis://host:6379/0 (a password only in the environment variable)',
  }),
  maxLen: opt({
    commands: ['receive'],
    parse: integer(0),
    default: 1_000_000,
    unit: 'entries',
    help: 'trim the stream to about this many entries, 0: never',
  }),
  redisTimeout: opt({
    commands: ['receive'],
    parse: positiveDuration('2s'),
    default: '2s',
    help: 'answer 503 (the service retries) when Redis takes longer to store a delivery',
  }),
  id: opt({
    arg: '<name>',
    commands: ['receive'],
    parse: string,
    defaultText: 'hostname:pid',
    help: 'receiver id written to every entry',
  }),
  // -- emulate: the emulator alone
  profile: opt({
    arg: '<file>',
    commands: ['emulate'],
    parse: string,
    help: 'emulator profile YAML (droid, customers, channels, catalogue)',
  }),
  faults: opt({
    arg: '<file>',
    commands: ['emulate'],
    parse: string,
    help: 'fault profile YAML (delays, errors, webhook faults)',
  }),
  token: opt({
    arg: '<token>',
    env: 'DROID_API_TOKEN',
    commands: ['emulate'],
    parse: secret,
    defaultText: 'generated and printed',
    help: 'bearer token',
  }),
  testCustomerId: opt({
    arg: '<n>',
    commands: ['emulate'],
    help: 'the droid\'s test customer, or "none"',
    parse: (raw: Raw, where: string): number | null => (raw === 'none' ? null : integer(1)(raw, where)),
  }),
  webhookUrl: opt({
    kind: 'list',
    arg: '<url>',
    commands: ['emulate'],
    default: [],
    defaultText: "the emulator's own echo receiver",
    parse: (raw: Raw, where: string) => list(raw, where).map((u) => url(u, where)),
    help: 'answer webhook URL, repeatable: several are taken in turn, like a load balancer',
  }),
  webhookSecret: opt({
    arg: '<secret>',
    env: 'DROID_WEBHOOK_SECRET',
    commands: ['emulate'],
    parse: secret,
    help: 'webhook secret appended as ?secret=',
  }),
  messageWebhookUrl: opt({
    commands: ['emulate'],
    parse: url,
    help: 'message-forwarding webhook: every stored message (send, bot replies) is POSTed here',
  }),
  verifyToken: opt({
    arg: '<token>',
    env: 'DROID_VERIFY_TOKEN',
    commands: ['emulate'],
    parse: secret,
    help: 'message webhook verify token appended as ?verify_token=',
  }),
  ackDelay: opt({
    commands: ['emulate'],
    parse: duration,
    help: 'delay before the async acknowledgement, e.g. 20ms',
  }),
  answerDelay: opt({
    commands: ['emulate'],
    parse: duration,
    help: 'delay before the answer, e.g. 2s',
  }),
  // -- emulate: the planted knee (capacity judged by answer quality)
  degradeAbove: opt({
    commands: ['emulate'],
    parse: integer(1),
    unit: 'answers',
    defaultText: "the profile's degradeAbove (none: never)",
    help: 'above this many answers in progress, answers lose their cart and intents and become a generic apology (latency unchanged): a planted knee for capacity --min-pass-rate',
  }),
  webhookAttempts: opt({
    commands: EMULATED_RETRY,
    parse: integer(1, 20),
    default: EMULATOR_DELIVERY_DEFAULTS.attempts,
    unit: 'attempts',
    help: "the emulator's webhook retry policy: attempts per delivery, the first included",
  }),
  webhookBackoff: opt({
    commands: EMULATED_RETRY,
    parse: duration,
    default: durationText(EMULATOR_DELIVERY_DEFAULTS.backoffMs),
    help: "the emulator's webhook retry policy: delay before retry n is this × 2^(n-1) (capped at 10 s), times the jitter",
  }),
  webhookTimeout: opt({
    commands: EMULATED_RETRY,
    parse: positiveDuration('5s'),
    default: durationText(EMULATOR_DELIVERY_DEFAULTS.timeoutMs),
    help: "the emulator's webhook retry policy: how long an attempt waits for the receiver's answer",
  }),
  webhookJitter: opt({
    arg: '<fraction>',
    commands: EMULATED_RETRY,
    parse: fraction,
    default: EMULATOR_DELIVERY_DEFAULTS.jitter,
    help: "the emulator's webhook retry policy: each delay drawn in [1 - f, 1 + f) × its base (seeded), 0 for the exact schedule",
  }),
  // -- webhook-policy: what the service does when the receiver fails
  probes: opt({
    arg: '<list>',
    commands: ['webhook-policy'],
    default: PROBE_NAMES.join(','),
    unit: 'names',
    parse: (raw: Raw, where: string) => {
      const names = text(raw, where)
        .split(',')
        .map((n) => n.trim())
        .filter((n) => n !== '');
      if (names.length === 0) throw new UsageError(`${where}: name at least one probe of ${PROBE_NAMES.join(', ')}`);
      return [...new Set(names.map((n) => parseChoice(n, where, PROBE_NAMES)))];
    },
    help: 'probes to send, one async answer each: fail (500 to every attempt), recover (503 then 200), stall (no answer, then 200), slow (200 after 6 s)',
  }),
  quiet: opt({
    commands: ['webhook-policy'],
    parse: positiveDuration('20s'),
    default: '20s',
    help: 'a probe is given up when no attempt came for this long after its last one (at least twice the longest gap seen, plus 1 s)',
  }),
  rateLimit: opt({
    commands: ['emulate'],
    parse: integer(1),
    unit: 'req/s',
    help: 'requests per second per token before 429',
  }),
} as const);

export type Options = typeof OPTIONS;
export type OptionKey = keyof Options;

/** The entries of `command`, in table order. */
export function optionsOf(command: OptionCommand): [OptionKey, OptionSpec][] {
  return (Object.entries(OPTIONS) as [OptionKey, OptionSpec][]).filter(([, o]) => o.commands.includes(command));
}

/** An entry with `command`'s differences applied. */
export function specFor(key: OptionKey, command: OptionCommand): OptionSpec {
  const o = OPTIONS[key] as OptionSpec;
  const over = o.byCommand?.[command];
  return over ? { ...o, ...over } : o;
}

/** True when the key belongs to every job command: a top-level key of the config file. */
export function isSharedKey(key: OptionKey): boolean {
  const o = OPTIONS[key] as OptionSpec;
  return JOB_COMMANDS.every((c) => o.commands.includes(c));
}

/** `--flag` (or the key, for `paths`) as users name it. */
export function flagName(key: OptionKey): string {
  return (OPTIONS[key] as OptionSpec).flag ?? key;
}

/** The default as help shows it: `8`, `180s`, `the start rate`; undefined when there is none. */
export function defaultShown(spec: OptionSpec): string | undefined {
  if (spec.defaultText !== undefined) return spec.defaultText;
  if (spec.default === undefined || spec.kind === 'switch' || spec.kind === 'negated') return undefined;
  if (Array.isArray(spec.default)) return spec.default.length > 0 ? spec.default.join(', ') : undefined;
  return String(spec.default);
}
