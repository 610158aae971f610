/**
 * Summarises an allocation profile (bench/usage-probe.js with BENCH_ALLOC_PROFILE, or any
 * sampling heap profile of V8): the functions that allocated the most bytes themselves, and the
 * share by place (droidcheck's dist/, each package, node's internals). `--per N` divides by N
 * (e.g. the answers of the run: bytes allocated per answer).
 *
 *   node bench/alloc-top.js FILE [--top 30] [--per 30000]
 */
import { readFileSync } from 'node:fs';
import { arg } from './lib.js';

const file = process.argv[2];
if (!file || file.startsWith('--')) {
  console.error('usage: node bench/alloc-top.js FILE [--top 30] [--per N]');
  process.exit(2);
}
const top = arg('top', 30);
const per = arg('per', 1);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const bySite = new Map();
const byPlace = new Map();
let total = 0;
const where = (url) => {
  if (!url) return '(native/vm)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) return url.slice(nm + 13).split('/')[0];
  if (url.startsWith('node:')) return 'node';
  if (url.includes('/dist/')) return 'droidcheck';
  return url.split('/').at(-1);
};
const walk = (node) => {
  const self = node.selfSize;
  if (self > 0) {
    const f = node.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(dist|node_modules)\//, '$1/')}:${f.lineNumber + 1}`;
    bySite.set(key, (bySite.get(key) ?? 0) + self);
    const place = where(f.url);
    byPlace.set(place, (byPlace.get(place) ?? 0) + self);
    total += self;
  }
  for (const c of node.children ?? []) walk(c);
};
walk(profile.head);
const kb = (b) => `${(b / per / (per === 1 ? 1e6 : 1)).toFixed(per === 1 ? 1 : 0)}${per === 1 ? ' MB' : ' B'}`;
console.log(`${file}: ${kb(total)} allocated${per === 1 ? '' : ' per unit'} (sampled)`);
console.log(
  `by place: ${[...byPlace]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 12)
    .map(([p, b]) => `${p} ${((b / total) * 100).toFixed(1)}%`)
    .join(', ')}`,
);
for (const [key, b] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, top))
  console.log(`${((b / total) * 100).toFixed(1).padStart(5)}% ${kb(b).padStart(9)}  ${key}`);
