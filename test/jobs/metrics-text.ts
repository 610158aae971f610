/**
 * A strict reader of the Prometheus text exposition format (version 0.0.4,
 * prometheus.io/docs/instrumenting/exposition_formats), for the tests: a tokenizer over each
 * line (metric name, `{label="value",...}` with `\\`, `\"` and `\n` escapes, a float value with
 * `+Inf`/`-Inf`/`NaN` in any case, an optional timestamp), `# HELP` and `# TYPE` lines, and the format's
 * rules: a family's TYPE comes before its samples and only once, a sample belongs to a declared
 * family (a histogram's `_bucket`, `_sum`, `_count`), label names are valid and not repeated, a
 * histogram's buckets are cumulative and end in `le="+Inf"` equal to `_count`. Any violation
 * throws, naming the line.
 */

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  help: string | undefined;
  samples: Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*/;

/** A float as Prometheus reads it (Go's strconv.ParseFloat: Inf, Infinity and NaN in any case). */
function parseValue(text: string, line: number): number {
  const special = /^([+-]?)(inf|infinity|nan)$/i.exec(text);
  if (special) return special[2]!.toLowerCase() === 'nan' ? NaN : special[1] === '-' ? -Infinity : Infinity;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) throw new Error(`line ${line}: "${text}" is not a float`);
  return Number(text);
}

/** Tokenizes one sample line. */
function parseSample(text: string, line: number): Sample {
  const name = NAME.exec(text)?.[0];
  if (!name) throw new Error(`line ${line}: no metric name in "${text}"`);
  let i = name.length;
  const labels: Record<string, string> = {};
  if (text[i] === '{') {
    i++;
    while (text[i] !== '}') {
      const labelName = LABEL_NAME.exec(text.slice(i))?.[0];
      if (!labelName) throw new Error(`line ${line}: bad label name at column ${i + 1}`);
      if (labelName in labels) throw new Error(`line ${line}: label ${labelName} repeated`);
      i += labelName.length;
      if (text[i] !== '=' || text[i + 1] !== '"') throw new Error(`line ${line}: expected ="..." after ${labelName}`);
      i += 2;
      let value = '';
      for (;;) {
        const c = text[i];
        if (c === undefined) throw new Error(`line ${line}: unterminated label value`);
        i++;
        if (c === '"') break;
        if (c === '\\') {
          const e = text[i++];
          if (e === 'n') value += '\n';
          else if (e === '\\' || e === '"') value += e;
          else throw new Error(`line ${line}: bad escape \\${e}`);
        } else value += c;
      }
      labels[labelName] = value;
      if (text[i] === ',') i++;
      else if (text[i] !== '}') throw new Error(`line ${line}: expected , or } at column ${i + 1}`);
    }
    i++;
  }
  if (text[i] !== ' ') throw new Error(`line ${line}: expected a space before the value`);
  const parts = text
    .slice(i + 1)
    .trim()
    .split(/\s+/);
  if (parts.length < 1 || parts.length > 2) throw new Error(`line ${line}: expected a value and an optional timestamp`);
  if (parts[1] !== undefined && !/^-?\d+$/.test(parts[1])) throw new Error(`line ${line}: bad timestamp ${parts[1]}`);
  return { name, labels, value: parseValue(parts[0]!, line) };
}

function familyOf(name: string, families: Map<string, Family>): Family | undefined {
  const exact = families.get(name);
  if (exact) return exact;
  for (const suffix of ['_bucket', '_sum', '_count']) {
    if (!name.endsWith(suffix)) continue;
    const f = families.get(name.slice(0, -suffix.length));
    if (f && (f.type === 'histogram' || (f.type === 'summary' && suffix !== '_bucket'))) return f;
  }
  return undefined;
}

function checkHistogram(f: Family): void {
  const series = new Map<string, Sample[]>();
  for (const s of f.samples) {
    const { le: _le, ...rest } = s.labels;
    const key = JSON.stringify(Object.entries(rest).sort());
    series.set(key, [...(series.get(key) ?? []), s]);
  }
  for (const samples of series.values()) {
    const buckets = samples.filter((s) => s.name === `${f.name}_bucket`);
    const count = samples.find((s) => s.name === `${f.name}_count`);
    if (!count || !samples.some((s) => s.name === `${f.name}_sum`))
      throw new Error(`${f.name}: a series without _sum or _count`);
    const inf = buckets.find((b) => b.labels.le === '+Inf');
    if (!inf || inf.value !== count.value) throw new Error(`${f.name}: le="+Inf" must equal _count`);
    const sorted = [...buckets].sort((a, b) => parseValue(a.labels.le!, 0) - parseValue(b.labels.le!, 0));
    for (let k = 1; k < sorted.length; k++)
      if (sorted[k]!.value < sorted[k - 1]!.value) throw new Error(`${f.name}: buckets are not cumulative`);
  }
}

/** Parses an exposition; throws on the first violation of the format. */
export function parsePrometheusText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const helps = new Map<string, string>();
  const lines = text.split('\n');
  lines.forEach((raw, index) => {
    const line = index + 1;
    const text = raw.trimEnd();
    if (text.trim() === '') return;
    if (text.startsWith('#')) {
      const m = /^#\s+(HELP|TYPE)\s+(\S+)(?:\s(.*))?$/.exec(text);
      if (!m) return; // a plain comment
      const [, kind, name, rest = ''] = m;
      if (!NAME.test(name!) || NAME.exec(name!)![0] !== name) throw new Error(`line ${line}: bad metric name ${name}`);
      if (kind === 'HELP') helps.set(name!, rest);
      else {
        if (families.has(name!)) throw new Error(`line ${line}: TYPE of ${name} given twice`);
        if (!['counter', 'gauge', 'histogram', 'summary', 'untyped'].includes(rest))
          throw new Error(`line ${line}: unknown type ${rest}`);
        families.set(name!, { name: name!, type: rest as Family['type'], help: helps.get(name!), samples: [] });
      }
      return;
    }
    const sample = parseSample(text, line);
    const family = familyOf(sample.name, families);
    if (!family) throw new Error(`line ${line}: sample ${sample.name} has no TYPE before it`);
    family.samples.push(sample);
  });
  for (const f of families.values()) {
    f.help ??= helps.get(f.name);
    if (f.type === 'histogram') checkHistogram(f);
  }
  return families;
}

/** The value of the sample `name` whose labels include `labels`; throws when there is none or several. */
export function valueOf(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number {
  const family = familyOf(name, families);
  const hits = (family?.samples ?? []).filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  if (hits.length !== 1) throw new Error(`${name}${JSON.stringify(labels)}: ${hits.length} samples`);
  return hits[0]!.value;
}

/** The sum of every sample `name` whose labels include `labels` (0 when none). */
export function sumOf(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number {
  const family = familyOf(name, families);
  return (family?.samples ?? [])
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((n, s) => n + s.value, 0);
}
