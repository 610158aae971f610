/**
 * What a report section is: one module (sections/<name>.ts) that says, for its fields of
 * report.json, everything droidcheck does with them:
 * - `fields`: the zod schema of its top-level fields (the TypeScript type is inferred from it;
 *   sections/index.ts composes the document's schema and type from every section's fields);
 * - `compute(input, doc)`: the fields of a new report from the engine's result (buildReport);
 *   absent: the job hands its fields in as they are (`input.<field>`, left out when undefined);
 * - `merge(docs, merged, opts)`: the fields of several reports as one (`droidcheck merge`);
 * - `views(doc)`: what it shows, format-neutral (view.ts), drawn alike by the console, Markdown
 *   and HTML reporters;
 * - `brief(doc)` (optional): what the console shows by default, when it differs from `views`:
 *   only what a person needs at a glance (a line when all is well, nothing when it is empty;
 *   the interesting rows, never fewer failures). `--verbose`, Markdown and HTML draw `views`;
 * - `junit(doc, opts)` (optional): the JUnit test suites it contributes, format-neutral
 *   (junit.ts renders every section's in the registry's order, the verdict suites last);
 * - `properties(doc)` (optional): name/value pairs it adds to every JUnit suite's `<properties>`,
 *   after the job's settings: figures a CI tool keeps beside the tests without counting them;
 * - `headline(doc)` (optional): the one line of the job's verdict the section owns (a capacity's
 *   knee), read at a glance: the console prints it under its first line, summary.md and
 *   report.html under their title.
 *
 * `compute` and `merge` run in the registry's order and see the fields of the sections before
 * them in `doc` / `merged` (thresholds are judged on the summary, latency and receiver); each
 * section's `doc` parameter names the fields it reads. A field a section leaves out (undefined)
 * is not written.
 */
import type { z } from 'zod';
import type { LatencyRecorder } from '../metrics/index.js';
import type {
  Accounting,
  ContractNote,
  ReceiverStats,
  RequestRecord,
  Suite,
  TallySnapshot,
  Timeline,
} from './run-types.js';
import type { SectionView, Text } from './view.js';

/** The jobs that send, each a report `kind`. */
export const REPORT_KINDS = ['run', 'load', 'capacity', 'redteam', 'webhook-policy'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

/** What the engine and the job hand the report (jobs/pipeline/pipeline.ts); sections compute from it. */
export interface SectionInput {
  /** The job that sends. */
  kind: ReportKind;
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  /** Settings of the job (config/settings.ts publicSettings: no secrets). */
  settings: Record<string, unknown>;
  tally: TallySnapshot;
  /**
   * Every record of a job that keeps them (`run`: plan order); gives the scenario entries, pass
   * rates, parity, accuracy and answers. Absent: the records were streamed away (a load), and the
   * sections that need them are left out.
   */
  records?: readonly RequestRecord[];
  latency: LatencyRecorder;
  receiver: ReceiverStats;
  accounting?: Accounting;
  /** User thresholds, e.g. `["ack.p99 < 100ms"]`. */
  thresholds?: readonly string[];
  /** Judge the spec's limits too. Default true (a job that has criteria of its own, capacity, says false). */
  defaultThresholds?: boolean;
  /** The suites that were planned: pass-rate requirements and expected intents. */
  suites?: readonly Suite[];
  notes?: readonly ContractNote[];
  interrupted: boolean;
  timeline?: Timeline;
  /** Flaky scenarios (passed some repeats, failed others) fail the pass-rate verdict (`--fail-on-flaky`). */
  failOnFlaky?: boolean;
}

/** Options of `droidcheck merge`. */
export interface MergeReportsOptions {
  /** More thresholds to judge; those of the inputs (other than the defaults) are judged again anyway. */
  thresholds?: readonly string[];
}

/** Options of the JUnit rendering (junit.ts renderJUnit). */
export interface JUnitOptions {
  /** Add the `droidcheck.thresholds` suite (default true). */
  thresholds?: boolean;
}

/**
 * One JUnit testcase. CI tools count one problem per testcase, so it has at most one: a
 * `failure` (answered, but wrong), an `error` (no answer) or `skipped` (not judged).
 */
export interface JUnitCase {
  classname: string;
  name: string;
  /** Whole ms (the suite's time is the sum of its cases', so the sums add up exactly). */
  timeMs: number;
  file?: string;
  /** `<property>` name/value pairs. */
  properties?: readonly (readonly [string, string])[];
  /** `type` and `text` (the message's detail) are a failure's and an error's. */
  problem?: { kind: 'failure' | 'error' | 'skipped'; message: string; type?: string; text?: string };
}

/** One JUnit `<testsuite>`: its counts and time are those of its cases. */
export interface JUnitSuite {
  name: string;
  cases: JUnitCase[];
  /** A suite of verdicts on the whole job (thresholds): after the suites of scenarios, so a CI tab lists those first. */
  verdicts?: boolean;
}

type Out<F extends z.ZodRawShape> = z.output<z.ZodObject<F>>;

/**
 * A section as the registry holds it. The `doc` parameters are wider here than in each section
 * (a section names the fields it reads); the registry's order makes them present.
 */
export interface Section<F extends z.ZodRawShape = z.ZodRawShape> {
  readonly name: string;
  readonly fields: F;
  compute(input: SectionInput, doc: object): Partial<Out<F>>;
  merge(docs: readonly object[], merged: object, opts: MergeReportsOptions): Partial<Out<F>>;
  views(doc: object): SectionView[];
  /** The console's default views; absent: `views`. */
  brief?(doc: object): SectionView[];
  /** The JUnit suites it contributes; absent: none. */
  junit?(doc: object, opts: JUnitOptions): JUnitSuite[];
  /** The JUnit `<properties>` it adds to every suite; absent: none. */
  properties?(doc: object): [string, string][];
  /** Its line of the verdict at the top of every format; absent or undefined: none. */
  headline?(doc: object): Text | undefined;
}

/** Declares a section; `D` is what its functions read of the report (its own fields and those before it). */
export function defineSection<
  F extends z.ZodRawShape,
  D extends object = Out<F>,
  M extends object = D,
  I extends object = SectionInput,
>(spec: {
  name: string;
  fields: F;
  /**
   * `input`: the part of SectionInput (or of the job's own sections, build-report.ts ReportInput)
   * it reads. Absent: its fields as the job handed them in.
   */
  compute?(input: I, doc: D): Partial<Out<F>>;
  merge(docs: readonly D[], merged: M, opts: MergeReportsOptions): Partial<Out<F>>;
  views(doc: D): SectionView[];
  /** What the console shows unless `--verbose` (see the module docs); absent: `views`. */
  brief?(doc: D): SectionView[];
  /** The JUnit suites it contributes (see the module docs); absent: none. */
  junit?(doc: D, opts: JUnitOptions): JUnitSuite[];
  /** The JUnit `<properties>` it adds to every suite (see the module docs); absent: none. */
  properties?(doc: D): [string, string][];
  /** Its line of the verdict at the top of every format (see the module docs). */
  headline?(doc: D): Text | undefined;
}): Section<F> {
  const keys = Object.keys(spec.fields);
  const handedIn = (input: object): Partial<Out<F>> =>
    Object.fromEntries(
      keys.flatMap((k) => {
        const v = (input as Record<string, unknown>)[k];
        return v === undefined ? [] : [[k, v]];
      }),
    ) as Partial<Out<F>>;
  return { compute: handedIn, ...spec } as unknown as Section<F>;
}

/** Every input's `pick(doc)` when every input has one; undefined when any lacks it (a partial figure would read as the whole run's). */
export function fromEvery<D, T>(docs: readonly D[], pick: (d: D) => T | undefined): T[] | undefined {
  const list = docs.map(pick);
  return list.length > 0 && list.every((x) => x !== undefined) ? (list as T[]) : undefined;
}
