import { describe, expect, it } from 'vitest';
import { buildReport, parseReportDocument, reportJsonSchema } from '../../src/report/index.js';
import { failingRecord, record, run } from './fixtures.js';

describe('report schema', () => {
  it('accepts a built report and rejects a broken one', () => {
    const report = buildReport(run([record(), failingRecord()]));
    expect(parseReportDocument(JSON.parse(JSON.stringify(report)))).toEqual(report);
    expect(() => parseReportDocument({ ...report, summary: { ...report.summary, outcomes: { answered: 1 } } })).toThrow(
      /outcomes/,
    );
  });

  it('exports a JSON Schema of report.json', () => {
    const schema = reportJsonSchema() as {
      $schema: string;
      properties: Record<string, { properties?: Record<string, unknown> }>;
      required: string[];
    };
    expect(schema.$schema).toContain('2020-12');
    expect(schema.required).toEqual(expect.arrayContaining(['summary', 'latency', 'histograms', 'exitCode']));
    expect(Object.keys(schema.properties.summary!.properties!.outcomes as object)).toBeTruthy();
    expect(JSON.stringify(schema)).toContain('transport-error');
  });
});
