/**
 * The largest kinds of object in a V8 heap snapshot (node --heapsnapshot / v8.writeHeapSnapshot),
 * by self size: type and constructor name, count, bytes, and bytes per `--per N` (e.g. the
 * pending requests when the snapshot was taken).
 *   node bench/heap-top.js FILE.heapsnapshot [--top 30] [--per 20000]
 */
import { readFileSync } from 'node:fs';
import { arg } from './lib.js';

const file = process.argv[2];
const top = arg('top', 30);
const perN = arg('per', 1);
const snap = JSON.parse(readFileSync(file, 'utf8'));
const {
  node_fields: fields,
  node_types: [types],
} = snap.snapshot.meta;
const width = fields.length;
const [iType, iName, iSize] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
const groups = new Map();
let total = 0;
for (let i = 0; i < snap.nodes.length; i += width) {
  const type = types[snap.nodes[i + iType]];
  let name = snap.strings[snap.nodes[i + iName]];
  if (type === 'string' || type === 'concatenated string' || type === 'sliced string') name = '(string)';
  else if (type === 'code') name = '(code)';
  else if (name.length > 60) name = `${name.slice(0, 57)}...`;
  const key = `${type} ${name}`;
  const g = groups.get(key) ?? { count: 0, bytes: 0 };
  g.count++;
  g.bytes += snap.nodes[i + iSize];
  total += snap.nodes[i + iSize];
  groups.set(key, g);
}
console.log(
  `${file}: ${(total / 1e6).toFixed(1)} MB in ${snap.nodes.length / width} objects; per ${perN}: ${(total / perN).toFixed(0)} B`,
);
for (const [key, g] of [...groups].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, top)) {
  console.log(
    `${(g.bytes / 1e6).toFixed(2).padStart(8)} MB ${String(g.count).padStart(9)} ${(g.bytes / perN).toFixed(0).padStart(6)} B/n ${(g.count / perN).toFixed(2).padStart(6)}/n  ${key}`,
  );
}
