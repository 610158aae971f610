/**
 * The layering of docs/architecture.md ("Layout (src/)", the "may import" column) as rules that
 * CI checks (npm run lint:deps, part of npm test). A folder may import the folders its row names
 * and the leaves; nothing may import the CLI but index.ts; no import cycle, type-only imports
 * included. The table is the one statement of what each part may import: test/docs/architecture.test.ts
 * requires this file and checks that its rules allow exactly what each row says.
 */
/** Leaf modules: any part may import them; they import nothing of ours (os-errors.ts: errors.ts only). */
const LEAVES =
  '^src/(errors|clock|outcomes|units|suggest|text-table|redact|random|os-errors|tick-shape|v8-flags|defaults|lazy-require)\\.ts$';

/** `folder` may import only its own files, the leaves and `allowed` folders of src/. */
function mayImport(folder, allowed, comment) {
  const own = [folder, ...allowed].join('|');
  return {
    name: `${folder}-imports`,
    comment,
    severity: 'error',
    from: { path: `^src/${folder}/` },
    to: { path: '^src/', pathNot: [`^src/(${own})/`, LEAVES] },
  };
}

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycle, type-only imports included: a cycle of types still couples two folders.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'leaves-import-nothing',
      comment: 'Leaf modules import nothing of ours (os-errors.ts: the next rule).',
      severity: 'error',
      from: { path: LEAVES, pathNot: '^src/os-errors\\.ts$' },
      to: { path: '^src/' },
    },
    {
      name: 'os-errors-imports-errors',
      comment: 'os-errors.ts maps what the operating system says to a UsageError: it imports errors.ts only.',
      severity: 'error',
      from: { path: '^src/os-errors\\.ts$' },
      to: { path: '^src/', pathNot: '^src/errors\\.ts$' },
    },
    {
      name: 'contract-imports',
      comment: 'contract/: nothing of ours (the one source of truth of every shape).',
      severity: 'error',
      from: { path: '^src/contract/' },
      to: { path: '^src/', pathNot: '^src/contract/' },
    },
    mayImport('client', ['contract'], 'client/: contract and leaves.'),
    mayImport('emulator', ['contract'], 'emulator/: contract and leaves.'),
    mayImport('receiver', ['contract'], 'receiver/: contract and leaves (its Clock comes from src/clock.ts).'),
    mayImport(
      'scenario',
      ['contract'],
      'scenario/: contract and leaves (judge and similar call a provider passed in).',
    ),
    mayImport('llm', [], 'llm/: leaves only.'),
    mayImport('metrics', [], 'metrics/: leaves only.'),
    mayImport(
      'policy',
      ['scenario', 'metrics'],
      'policy/: scenario (the YAML source and zod-issue mapping read the policy file with file:line:col), metrics (the rule ids its thresholds name) and leaves.',
    ),
    mayImport(
      'redteam',
      ['scenario', 'contract', 'llm', 'metrics', 'policy'],
      "redteam/: scenario (money), contract (types), llm (transcripts), metrics (Wilson interval), policy (the shop's list prices and canaries its oracles check against) and leaves; it sends through an injected ask, never a client of its own.",
    ),
    mayImport(
      'coverage',
      ['policy', 'scenario', 'metrics', 'contract'],
      "coverage/: policy (the shop: catalogue, prices, intents, rules), scenario, metrics (the funnel's stages its thresholds name), contract (the endpoints' names) and leaves.",
    ),
    mayImport(
      'runner',
      ['client', 'receiver', 'scenario', 'metrics', 'contract', 'policy', 'coverage'],
      'runner/: client, receiver, scenario, metrics, contract, policy (every answer checked against the shop policy), coverage (every answer counted) and leaves.',
    ),
    mayImport(
      'report',
      ['metrics', 'scenario', 'contract', 'runner', 'receiver', 'redteam', 'policy', 'coverage'],
      "report/: metrics, scenario, contract, redteam (its section's shape and verdict), policy (its section's shape), coverage (its section's shape, merge and comparison) and leaves (runner and receiver: types only, next rule).",
    ),
    {
      name: 'report-types-only',
      comment: 'report/ imports runner/ and receiver/ for their types only (compute first, render second).',
      severity: 'error',
      from: { path: '^src/report/' },
      to: { path: '^src/(runner|receiver)/', dependencyTypesNot: ['type-only'] },
    },
    mayImport(
      'config',
      ['runner', 'report', 'llm', 'scenario', 'metrics', 'policy', 'redteam'],
      'config/: runner, report, llm, metrics (a threshold is parsed where it is given), policy (the default policy file), redteam (the attack categories: --category is checked where it is parsed) and leaves; and scenario/ (below runner), whose YAML source and zod-issue mapping read the config file with file:line:col, as they read suites.',
    ),
    mayImport(
      'telemetry',
      ['runner', 'emulator', 'llm'],
      'telemetry/: runner (the trace port it implements, verdicts), emulator (its tracer port), llm (the model-call observer) and leaves.',
    ),
    {
      name: 'telemetry-loaded-on-demand',
      comment:
        'telemetry/ (and the OpenTelemetry SDK under it) is loaded only when export is on: jobs/ and cli/ import it dynamically (or for its types), nothing else does.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/(telemetry|jobs|cli)/', '^src/index\\.ts$'] },
      to: { path: '^src/telemetry/' },
    },
    {
      name: 'opentelemetry-in-telemetry-only',
      comment: 'The OpenTelemetry packages are imported under src/telemetry/ only, so a run without export loads none.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/telemetry/' },
      to: { path: '@opentelemetry/' },
    },
    {
      name: 'only-index-and-cli-import-cli',
      comment: 'cli/ is the top: everything below it (jobs included) never imports it.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/cli/', '^src/index\\.ts$'] },
      to: { path: '^src/cli/' },
    },
    {
      name: 'nothing-imports-index',
      comment: 'index.ts is the public surface; nothing inside src/ imports it.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/index\\.ts$' },
      to: { path: '^src/index\\.ts$' },
    },
    {
      name: 'no-undeclared-packages',
      comment: 'Every package src/ imports is declared in package.json.',
      severity: 'error',
      from: { path: '^src/' },
      to: { dependencyTypes: ['npm-no-pkg', 'npm-unknown'] },
    },
    {
      name: 'src-not-to-dev-dependencies',
      comment:
        'src/ runs with the dependencies only: devDependencies (autocannon, vitest...) are for tests and bench/; types are fine.',
      severity: 'error',
      from: { path: '^src/' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'Every import resolves (a typo in a path is an error here, not at run time).',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
