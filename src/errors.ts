/**
 * Every error droidcheck raises, each with a stable code (`DROIDCHECK_ERR_*`).
 * Callers branch on `err.code`, never on the message. This module imports nothing of ours.
 *
 * Exit codes (docs/exit-codes.md): 0 all passed; 1 an expectation failed; 2 usage or scenario
 * error; 99 a threshold (SLO) was breached; 98 nothing failed, but latency thresholds were not
 * judged because droidcheck does not trust its latency figures (the load generator was bound:
 * metrics/thresholds-trust.ts), or graded checks not judged because the budget of model calls
 * was spent (BudgetError); 130 interrupted; 70 a droidcheck bug. A CI step branches on
 * them, so they never change meaning.
 *
 * ERROR_CODES below is the one table of every `DROIDCHECK_ERR_*` code that reaches a user or a
 * report; docs/errors.md documents each (test/errors.test.ts keeps the two and src/ in step).
 */

/**
 * Every `DROIDCHECK_ERR_*` code droidcheck prints or writes into a report, with its meaning in
 * one line. Thrown errors carry one as `err.code`; a request record's `error.code` (report.json,
 * results.ndjson) carries one too, including the record-only codes (ANSWER_FAILED, STEP,
 * TURN, UNEXPECTED) that no class throws.
 */
export const ERROR_CODES = {
  DROIDCHECK_ERR_USAGE: 'a bad flag, option or argument (exit 2)',
  DROIDCHECK_ERR_SCENARIO:
    'a scenario suite or an emulator/fault profile is malformed; each problem at file:line:col (exit 2)',
  DROIDCHECK_ERR_CONFIG_FILE:
    'droidcheck.config.yaml (or --config FILE) is malformed; every problem at file:line:col, all at once (exit 2)',
  DROIDCHECK_ERR_POLICY:
    'the shop policy file (droidcheck.policy.yaml or --policy FILE) is missing or malformed; every problem at file:line:col (exit 2)',
  DROIDCHECK_ERR_CONFIG: 'configuration missing or contradictory, e.g. a real target without its token (exit 2)',
  DROIDCHECK_ERR_THRESHOLD: 'a threshold (SLO) expression is malformed or names an unknown metric (exit 2)',
  DROIDCHECK_ERR_SETUP:
    'every request failed the same set-up way before any was answered: the target or its configuration is wrong (exit 2)',
  DROIDCHECK_ERR_API: 'the service answered a request with a non-2xx status (the request fails: exit 1)',
  DROIDCHECK_ERR_TRANSPORT:
    'no HTTP answer at all: connection refused or reset, socket error (the request fails: exit 1)',
  DROIDCHECK_ERR_TIMEOUT: 'no answer within the deadline: sync response or webhook (the request fails: exit 1)',
  DROIDCHECK_ERR_CONTRACT:
    'a 2xx body that is not JSON or breaks the documented shape where the runner needs it (exit 1)',
  DROIDCHECK_ERR_ANSWER_FAILED:
    'the answer webhook carried an error payload instead of an answer (the request fails: exit 1)',
  DROIDCHECK_ERR_STEP:
    'a step of a steps scenario ended in an outcome other than answered (the scenario fails: exit 1)',
  DROIDCHECK_ERR_TURN: 'a turn of a simulated conversation got no answer (the scenario fails: exit 1)',
  DROIDCHECK_ERR_JUDGE: 'the language model behind judge/similar gave no verdict; a judge error, never a pass (exit 1)',
  DROIDCHECK_ERR_BUDGET:
    'not judged: the budget of model calls (--max-cost, --max-tokens) was spent, so no model was asked; never a pass, and when nothing failed (exit 98)',
  DROIDCHECK_ERR_ABORTED: "cancelled by the run's abort: second Ctrl-C, or the grace period over (exit 130)",
  DROIDCHECK_ERR_UNEXPECTED:
    'a request failed with an error droidcheck does not know (not a DroidcheckError): a bug to report (exit 1)',
  DROIDCHECK_ERR_INTERNAL: 'a broken invariant of droidcheck itself, e.g. outcomes that do not add up (exit 70)',
} as const;
/** One of the codes of ERROR_CODES. */
export type ErrorCode = keyof typeof ERROR_CODES;

export const EXIT = {
  OK: 0,
  EXPECTATION_FAILED: 1,
  USAGE: 2,
  THRESHOLD_BREACHED: 99,
  FIGURES_NOT_TRUSTED: 98,
  INTERRUPTED: 130,
  INTERNAL: 70,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Where in a user's file a problem is: 1-based line and column. */
export interface SourceLocation {
  file: string;
  line: number;
  col: number;
}

export function formatLocation(loc: SourceLocation | undefined): string {
  return loc ? `${loc.file}:${loc.line}:${loc.col}` : '<unknown>';
}

/** Base class: a message that says what was wrong, where, and how to fix it; a stable code; an exit code. */
export class DroidcheckError extends Error {
  readonly code: ErrorCode;
  readonly exitCode: ExitCode;
  constructor(code: ErrorCode, message: string, exitCode: ExitCode, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
    this.exitCode = exitCode;
  }
}

/** One problem in a scenario/config/profile file. */
export interface FileIssue {
  location: SourceLocation;
  message: string;
}

/**
 * The base of an error class that carries only its message: `code` as the class's static `code`
 * and on every instance, `exitCode` fixed by the class. Each class below still declares itself
 * (`class UsageError extends messageError(...) {}`) so that its name, docstring and `instanceof`
 * stay its own.
 */
function messageError<C extends ErrorCode>(code: C, exitCode: ExitCode) {
  return class extends DroidcheckError {
    static readonly code: C = code;
    constructor(message: string) {
      super(code, message, exitCode);
    }
  };
}

/** The base of an error class about a user's file: every problem in `issues`, one `file:line:col: message` line each. Exit 2. */
function fileIssuesError<C extends ErrorCode>(code: C) {
  return class extends DroidcheckError {
    static readonly code: C = code;
    readonly issues: FileIssue[];
    constructor(issues: FileIssue[]) {
      super(code, issues.map((i) => `${formatLocation(i.location)}: ${i.message}`).join('\n'), EXIT.USAGE);
      this.issues = issues;
    }
  };
}

/** DROIDCHECK_ERR_SCENARIO: a scenario suite or an emulator/fault profile is malformed (the config file: ConfigFileError). Exit 2. */
export class ScenarioError extends fileIssuesError('DROIDCHECK_ERR_SCENARIO') {}

/**
 * DROIDCHECK_ERR_CONFIG_FILE: the config file is malformed: a misspelt or misplaced key, a value
 * its option's parser refuses, a secret written into it. Its own code, apart from
 * DROIDCHECK_ERR_SCENARIO (a suite) and DROIDCHECK_ERR_CONFIG (a setting missing or
 * contradictory, fixed in the environment), because the fix is in this one file, at each
 * `issues` position. Exit 2.
 */
export class ConfigFileError extends fileIssuesError('DROIDCHECK_ERR_CONFIG_FILE') {}

/**
 * DROIDCHECK_ERR_POLICY: the shop policy file (droidcheck.policy.yaml, `--policy FILE`,
 * `policy:` of the config file) cannot be read or is malformed: every problem at its
 * file:line:col, all at once. Its own code: the suites and the config file are fine, the fix is
 * in the policy file. Exit 2.
 */
export class PolicyError extends fileIssuesError('DROIDCHECK_ERR_POLICY') {}

/** DROIDCHECK_ERR_USAGE: a bad flag, option or argument. Exit 2. */
export class UsageError extends messageError('DROIDCHECK_ERR_USAGE', EXIT.USAGE) {}

/** DROIDCHECK_ERR_CONFIG: configuration missing or contradictory (e.g. a real target without a token). Exit 2. */
export class ConfigError extends messageError('DROIDCHECK_ERR_CONFIG', EXIT.USAGE) {}

/**
 * DROIDCHECK_ERR_API: the service answered with a non-2xx status.
 * `error` and `message` come from the spec's error body `{error, message}` (spec: Errors) when present.
 */
export class ApiError extends DroidcheckError {
  static readonly code = 'DROIDCHECK_ERR_API';
  readonly status: number;
  readonly error: string | undefined;
  readonly apiMessage: string | undefined;
  /** Seconds from a `Retry-After` header, when the service sent one (429, 503). */
  readonly retryAfterS: number | undefined;
  /** The first bytes of the raw body, for the report (never holds the token). */
  readonly bodyExcerpt: string;
  constructor(init: {
    status: number;
    error?: string | undefined;
    message?: string | undefined;
    retryAfterS?: number | undefined;
    bodyExcerpt?: string;
    endpoint: string;
  }) {
    super(
      ApiError.code,
      `${init.endpoint} answered HTTP ${init.status}` +
        (init.error ? ` ${init.error}` : '') +
        (init.message ? `: ${init.message}` : ''),
      EXIT.EXPECTATION_FAILED,
    );
    this.status = init.status;
    this.error = init.error;
    this.apiMessage = init.message;
    this.retryAfterS = init.retryAfterS;
    this.bodyExcerpt = init.bodyExcerpt ?? '';
  }
}

/** DROIDCHECK_ERR_TRANSPORT: no HTTP answer at all (connection refused/reset, socket error). */
export class TransportError extends DroidcheckError {
  static readonly code = 'DROIDCHECK_ERR_TRANSPORT';
  /** The underlying undici/Node error code, e.g. `ECONNRESET`, `UND_ERR_SOCKET`. */
  readonly causeCode: string | undefined;
  constructor(message: string, causeCode?: string, options?: { cause?: unknown }) {
    super(TransportError.code, message, EXIT.EXPECTATION_FAILED, options);
    this.causeCode = causeCode;
  }
}

/** DROIDCHECK_ERR_TIMEOUT: no answer within the deadline (sync response or webhook). */
export class TimeoutError extends messageError('DROIDCHECK_ERR_TIMEOUT', EXIT.EXPECTATION_FAILED) {}

/** DROIDCHECK_ERR_CONTRACT: a 2xx body that is not JSON or breaks the contract schema. */
export class ContractError extends DroidcheckError {
  static readonly code = 'DROIDCHECK_ERR_CONTRACT';
  readonly violations: { path: string; message: string; value?: unknown }[];
  readonly bodyExcerpt: string;
  constructor(endpoint: string, violations: { path: string; message: string; value?: unknown }[], bodyExcerpt = '') {
    super(
      ContractError.code,
      `${endpoint} broke the contract: ${violations.map((v) => `${v.path || '(body)'}: ${v.message}`).join('; ')}`,
      EXIT.EXPECTATION_FAILED,
    );
    this.violations = violations;
    this.bodyExcerpt = bodyExcerpt;
  }
}

/** DROIDCHECK_ERR_ABORTED: the operation was cancelled by an AbortSignal (e.g. SIGINT). */
export class AbortedError extends messageError('DROIDCHECK_ERR_ABORTED', EXIT.INTERRUPTED) {
  constructor(message = 'aborted') {
    super(message);
  }
}

/** DROIDCHECK_ERR_THRESHOLD: a threshold expression is malformed or names an unknown metric. Exit 2. */
export class ThresholdError extends messageError('DROIDCHECK_ERR_THRESHOLD', EXIT.USAGE) {}

/**
 * DROIDCHECK_ERR_SETUP: every request failed the same way before any was answered (token refused,
 * connection refused, not the API, no webhook configured): the target or its configuration is
 * wrong, not the answers. The run stops early. Exit 2.
 */
export class SetupError extends messageError('DROIDCHECK_ERR_SETUP', EXIT.USAGE) {}

/**
 * DROIDCHECK_ERR_JUDGE: the language model behind a `judge` or `similar` matcher could not give a
 * verdict (unreachable, timed out, HTTP error after retries, or no verdict JSON after retries).
 * A "judge error" (docs/architecture.md, Outcomes): never a failed expectation and never a
 * pass, since a grader that could not grade says nothing about the answer.
 */
export class JudgeError extends messageError('DROIDCHECK_ERR_JUDGE', EXIT.EXPECTATION_FAILED) {}

/**
 * DROIDCHECK_ERR_BUDGET: the budget of model calls (`--max-cost`, `--max-tokens`) is spent, so
 * the call was not made: what it would have graded is "not judged: budget spent", never a pass.
 */
export class BudgetError extends messageError('DROIDCHECK_ERR_BUDGET', EXIT.FIGURES_NOT_TRUSTED) {}

/** DROIDCHECK_ERR_INTERNAL: a broken invariant of droidcheck itself (e.g. outcomes do not add up). */
export class InternalError extends messageError('DROIDCHECK_ERR_INTERNAL', EXIT.INTERNAL) {}

export function isDroidcheckError(err: unknown): err is DroidcheckError {
  return err instanceof DroidcheckError;
}
