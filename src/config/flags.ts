/**
 * What a user gives droidcheck's jobs, as flags, in the config file, or through the API
 * (`JobFlags`), before resolution (resolve.ts): derived from the table of options (options.ts),
 * so a new option is one table entry. Numbers may arrive as strings (flags) or numbers (YAML,
 * API); durations need their unit ("30s", "500ms").
 */
import type { OptionKey, OptionKind, Options } from './options.js';

/** The raw type of each kind of option: a value (text or number), a switch, a list. */
type RawOf<K extends OptionKind> = K extends 'value'
  ? string | number
  : K extends 'list'
    ? string[]
    : K extends 'optional'
      ? string | boolean
      : boolean;

/** Every option of the table, by its key (the config file's key), as given. */
export type TableFlags = { [K in OptionKey]?: RawOf<Options[K]['kind']> };

/** The options of `run`, `load` and `capacity` (the table's), and the config file's `judge:` section. */
export interface JobFlags extends TableFlags {
  /** Where the embedded emulator runs (a table option without a flag: API only), typed by its choices. Default `worker`. */
  emulatorThread?: 'worker' | 'inline';
  /** The config file's `judge:` section, as written (validated by src/llm/config.ts). */
  judge?: unknown;
}

/** The flags that name a real target and where its webhooks reach this process: those of every command that sends to a service and receives its webhooks. */
export type TargetFlagKey = 'baseUrl' | 'droidId' | 'receiverHost' | 'receiverPort' | 'publicUrl';

/** @deprecated The table's options are one set; kept for callers of the former split. */
export type CommonFlags = JobFlags;
/** @deprecated See {@link CommonFlags}. */
export type LoadFlags = JobFlags;
/** @deprecated See {@link CommonFlags}. */
export type CapacityFlags = JobFlags;

/** The commands that run as a job through the pipeline (jobs/pipeline/pipeline.ts), each with its configuration (job-config.ts). */
export type JobKind = 'run' | 'load' | 'capacity' | 'redteam' | 'webhook-policy';
