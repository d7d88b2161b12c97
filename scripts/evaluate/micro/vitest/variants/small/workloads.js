// Workloads shared by micro.bench.js (vitest bench) and benchmarkjs.mjs (benchmark.js).

// Small deterministic PRNG (LCG) so every run measures the same data.
function lcg(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

export function makeRecords(n) {
  const rand = lcg(7);
  return Array.from({ length: n }, (_, i) => ({
    id: i,
    name: `record-${i}`,
    tags: ['a', 'bb', 'ccc'].slice(0, 1 + (i % 3)),
    score: rand() * 100,
  }));
}

export function randomInts(n) {
  const rand = lcg(11);
  return Array.from({ length: n }, () => Math.floor(rand() * 2 ** 30));
}

export function encodeRecords(records) {
  return JSON.stringify(records, null, 1);
}

export function decodeRecords(text) {
  return JSON.parse(text);
}

// Returns the numbers sorted ascending (the input is left untouched).
export function sortNumbers(xs) {
  return Float64Array.from(xs).sort();
}

export function joinInts(xs) {
  let s = '';
  for (let i = 0; i < xs.length; i++) s += (i > 0 ? ',' : '') + xs[i];
  return s;
}

export function makeSessionMap(n) {
  const m = new Map();
  for (let i = 0; i < n; i++) m.set(`user-session-${String(i).padStart(9, '0')}`, i);
  return m;
}

// Half of the returned keys are in a map made by makeSessionMap(5000).
export function lookupKeys(count) {
  return Array.from({ length: count }, (_, i) => `user-session-${String(i * 10).padStart(9, '0')}`);
}

export function countHits(map, keys) {
  let hits = 0;
  for (const k of keys) if (map.has(k)) hits++;
  return hits;
}
