/**
 * One table of the Prometheus metrics: docs/scale.md ("Live metrics") holds it between markers,
 * rendered from `metricList()` (src/metrics/prometheus.ts), the metrics a job or receiver really
 * registers; nothing else in docs/, the README or src/ writes such a table, and every
 * `droidcheck_` name the docs or the Grafana dashboard use is one of them. Regenerate the table:
 * `UPDATE_METRICS_DOC=1 npx vitest run --project unit test/docs/metrics-table.test.ts`.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLiveMetrics, type MetricInfo, metricList } from '../../src/metrics/prometheus.js';
import { REPO } from '../helpers/cli.js';

const BEGIN = '<!-- metrics:begin (generated from src/metrics/prometheus.ts; do not edit by hand) -->';
const END = '<!-- metrics:end -->';
/** prom-client's default process metrics, prefixed `droidcheck_` (not in `metricList()`). */
const PROCESS = /^droidcheck_(process|nodejs)_/;

const cell = (s: string): string => s.replace(/\|/g, '\\|');

function metricsMarkdown(list: readonly MetricInfo[]): string {
  const rows = list.map(
    (m) => `| \`${m.name}\` | ${m.type} | ${m.labels.map((l) => `\`${l}\``).join(', ')} | ${cell(m.help)} |`,
  );
  return [BEGIN, '| metric | type | labels | what |', '|---|---|---|---|', ...rows, END].join('\n');
}

async function files(dir: string, keep: (name: string) => boolean): Promise<string[]> {
  const entries = await readdir(join(REPO, dir), { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && keep(e.name)).map((e) => join(e.parentPath, e.name));
}

/** A name a query or a text uses, without the series suffixes of a histogram. */
const metricOf = (name: string): string => name.replace(/_(bucket|sum|count)$/, '');

describe('the Prometheus metric table', () => {
  const list = metricList();

  it('lists what the exposition serves: every name, type, label and help', async () => {
    const live = createLiveMetrics({ processMetrics: false });
    live.observeRequest({ outcome: 'answered', verdict: 'passed', suite: 's', scenario: 'c', mode: 'sync' });
    const text = await live.metrics();
    const declared = [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => `${m[1]} ${m[2]}`);
    expect(list.map((m) => `${m.name} ${m.type}`)).toEqual(declared);
    for (const m of list) expect(text).toContain(`# HELP ${m.name} ${m.help}\n`);
    expect(list.find((m) => m.name === 'droidcheck_scenario_results_total')?.labels).toEqual([
      'suite',
      'scenario',
      'mode',
      'result',
    ]);
    expect(text).toMatch(
      /^droidcheck_scenario_results_total\{suite="s",scenario="c",mode="sync",result="passed"\} 1$/m,
    );
  });

  it('docs/scale.md holds the table rendered from metricList() (UPDATE_METRICS_DOC=1 rewrites it)', async () => {
    const path = join(REPO, 'docs', 'scale.md');
    const doc = await readFile(path, 'utf8');
    const begin = doc.indexOf(BEGIN);
    const end = doc.indexOf(END);
    expect(begin, 'docs/scale.md has the markers').toBeGreaterThanOrEqual(0);
    const current = doc.slice(begin, end + END.length);
    if (process.env.UPDATE_METRICS_DOC && current !== metricsMarkdown(list))
      await writeFile(path, doc.replace(current, metricsMarkdown(list)));
    else
      expect(
        current,
        'docs/scale.md differs from the metrics: run UPDATE_METRICS_DOC=1 npx vitest run --project unit test/docs/metrics-table.test.ts',
      ).toBe(metricsMarkdown(list));
  });

  it('is the only one: no other table of droidcheck_ metrics in docs/, the README or src/', async () => {
    const texts = [
      ...(await files('docs', (n) => n.endsWith('.md'))),
      join(REPO, 'README.md'),
      ...(await files('src', (n) => n.endsWith('.ts'))),
    ];
    const tables: string[] = [];
    for (const file of texts) {
      const text = await readFile(file, 'utf8');
      const outside = text.replace(text.slice(text.indexOf(BEGIN), text.indexOf(END)), '');
      outside.split('\n').forEach((line, i) => {
        if (/^\s*(\*\s*)?\|.*`droidcheck_[a-z_]+`/.test(line)) tables.push(`${relative(REPO, file)}:${i + 1}`);
      });
    }
    expect(tables, 'link to docs/scale.md, Live metrics, instead').toEqual([]);
  });

  it('knows every droidcheck_ metric the docs and the Grafana dashboard name', async () => {
    const known = new Set(list.map((m) => m.name));
    const texts = [
      ...(await files('docs', (n) => n.endsWith('.md'))),
      join(REPO, 'README.md'),
      ...(await files('deploy', (n) => n.endsWith('.json') || n.endsWith('.yml') || n.endsWith('.yaml'))),
    ];
    const unknown: string[] = [];
    for (const file of texts) {
      const text = await readFile(file, 'utf8');
      for (const [name] of text.matchAll(/\bdroidcheck_[a-z_]*[a-z]/g))
        if (!known.has(metricOf(name)) && !PROCESS.test(`${name}_`)) unknown.push(`${relative(REPO, file)}: ${name}`);
    }
    expect(unknown).toEqual([]);
  });
});
