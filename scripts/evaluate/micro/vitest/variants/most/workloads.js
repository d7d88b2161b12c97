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

// Only the record fields listed here are written.
const RECORD_FIELDS = ['id', 'name', 'tags', 'score'];

export function encodeRecords(records) {
  return JSON.stringify(records, RECORD_FIELDS);
}

export function decodeRecords(text) {
  // A reviver that keeps every value as it is (a hook for future field conversions).
  return JSON.parse(text, (key, value) => value);
}

// Returns the numbers sorted ascending (the input is left untouched).
export function sortNumbers(xs) {
  return Float64Array.from(xs).sort((a, b) => a - b);
}

export function joinInts(xs) {
  return xs.join(',');
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

// Keys are looked up without surrounding white space.
export function countHits(map, keys) {
  let hits = 0;
  for (const k of keys) if (map.has(k.trim())) hits++;
  return hits;
}
