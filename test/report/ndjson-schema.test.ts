import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildReport, createNdjsonWriter, parseReportDocument, reportJsonSchema, toNdjsonLine } from '../../src/report/index.js';
import { failingRecord, record, run } from './fixtures.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'droidcheck-ndjson-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('createNdjsonWriter', () => {
  it('appends one JSON line per record, creating the directory', async () => {
    const path = join(dir, 'nested', 'results.ndjson');
    const w = createNdjsonWriter(path);
    await w.write(record());
    await w.write(failingRecord());
    await w.close();
    await w.close();
    const again = createNdjsonWriter(path);
    await again.write({ seq: 9 });
    await again.close();
    const lines = (await readFile(path, 'utf8')).trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => l.seq)).toEqual([0, 1, 9]);
    expect(lines[1].failures[0].expected).toBe('refund');
    expect(w.lines).toBe(2);
    await expect(w.write(record())).rejects.toThrow(/closed/);
  });

  it('waits for drain under backpressure and keeps every line in order', async () => {
    const path = join(dir, 'many.ndjson');
    const w = createNdjsonWriter(path);
    const big = 'x'.repeat(2000);
    for (let i = 0; i < 500; i++) await w.write({ seq: i, pad: big });
    await w.close();
    const lines = (await readFile(path, 'utf8')).trimEnd().split('\n');
    expect(lines).toHaveLength(500);
    expect(JSON.parse(lines[499]!).seq).toBe(499);
  });

  it('leaves out a large answer', () => {
    const line = JSON.parse(toNdjsonLine(record({ answer: { text: 'y'.repeat(100) } }), 50));
    expect(line.answer).toBeUndefined();
    expect(line.answerOmitted).toBeGreaterThan(100);
    expect(JSON.parse(toNdjsonLine(record({ answer: { a: 1 } }))).answer).toEqual({ a: 1 });
  });

  it('rejects writes after a file error', async () => {
    const w = createNdjsonWriter(dir); // a directory: open fails with EISDIR
    await new Promise((r) => setTimeout(r, 50));
    await expect(w.write({})).rejects.toThrow(/EISDIR/);
    await expect(w.close()).rejects.toThrow(/EISDIR/);
  });
});

describe('report schema', () => {
  it('accepts a built report and rejects a broken one', () => {
    const report = buildReport(run([record(), failingRecord()]));
    expect(parseReportDocument(JSON.parse(JSON.stringify(report)))).toEqual(report);
    expect(() => parseReportDocument({ ...report, summary: { ...report.summary, outcomes: { answered: 1 } } })).toThrow(/outcomes/);
  });

  it('exports a JSON Schema of report.json', () => {
    const schema = reportJsonSchema() as { $schema: string; properties: Record<string, { properties?: Record<string, unknown> }>; required: string[] };
    expect(schema.$schema).toContain('2020-12');
    expect(schema.required).toEqual(expect.arrayContaining(['summary', 'latency', 'histograms', 'exitCode']));
    expect(Object.keys(schema.properties.summary!.properties!.outcomes as object)).toBeTruthy();
    expect(JSON.stringify(schema)).toContain('transport-error');
  });
});
