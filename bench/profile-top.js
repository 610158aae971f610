/**
 * Summarises V8 CPU profiles (node --cpu-prof, or a bench's --profile DIR): the functions with
 * the most self time, and the share of time by where the code lives (droidcheck's dist/, each
 * package under node_modules/, node's internals, GC, idle).
 *
 *   node bench/profile-top.js FILE.cpuprofile [--top 25] [--filter dist/]
 */
import { readFileSync } from 'node:fs';
import { argString, arg } from './lib.js';

const file = process.argv[2];
if (!file || file.startsWith('--')) {
  console.error('usage: node bench/profile-top.js FILE.cpuprofile [--top 25] [--filter TEXT]');
  process.exit(2);
}
const top = arg('top', 25);
const filter = argString('filter', undefined);
const profile = JSON.parse(readFileSync(file, 'utf8'));

// Self time per node: each sample is one node id; timeDeltas[i] is the time before sample i (us).
const selfUs = new Map();
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i];
  selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
}
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);

const where = (url) => {
  if (!url) return '(native/vm)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.includes('/dist/')) return 'droidcheck';
  if (url.startsWith('node:')) return 'node';
  return url.split('/').pop();
};

const byFn = new Map();
const byPlace = new Map();
for (const node of profile.nodes) {
  const us = selfUs.get(node.id) ?? 0;
  if (us === 0) continue;
  const cf = node.callFrame;
  const name = cf.functionName || '(anonymous)';
  const short = cf.url ? `${cf.url.replace(/^.*\/(dist|node_modules)\//, '$1/')}:${cf.lineNumber + 1}` : '';
  const key = `${name} ${short}`;
  byFn.set(key, (byFn.get(key) ?? 0) + us);
  const place = ['(garbage collector)', '(idle)', '(program)'].includes(name) ? name : where(cf.url);
  byPlace.set(place, (byPlace.get(place) ?? 0) + us);
}
const pct = (us) => `${((100 * us) / total).toFixed(1).padStart(5)}%`;
console.log(`${file}: ${(total / 1000).toFixed(0)} ms sampled`);
console.log(
  'by place:',
  [...byPlace.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 12)
    .map(([k, v]) => `${k} ${pct(v).trim()}`)
    .join(', '),
);
console.log(`top ${top} functions by self time:`);
for (const [k, v] of [...byFn.entries()]
  .filter(([k]) => !filter || k.includes(filter))
  .sort((a, b) => b[1] - a[1])
  .slice(0, top)) {
  console.log(`  ${pct(v)} ${(v / 1000).toFixed(1).padStart(8)} ms  ${k}`);
}

// Inclusive time of the functions named by --inclusive a,b,c (a frame inside another of the same name counts once).
const inclusive = argString('inclusive', undefined);
if (inclusive) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const names = new Set(inclusive.split(','));
  const sums = new Map([...names].map((n) => [n, 0]));
  const visit = (node, open) => {
    const name = node.callFrame.functionName;
    const entering = names.has(name) && !open.has(name);
    const now = entering ? new Set(open).add(name) : open;
    for (const n of now) sums.set(n, sums.get(n) + (selfUs.get(node.id) ?? 0));
    for (const c of node.children ?? []) visit(byId.get(c), now);
  };
  visit(profile.nodes[0], new Set());
  const busy = total - (byPlace.get('(idle)') ?? 0);
  for (const [n, us] of sums)
    console.log(`inclusive ${n}: ${(us / 1000).toFixed(1)} ms, ${((100 * us) / busy).toFixed(1)}% of busy time`);
}
