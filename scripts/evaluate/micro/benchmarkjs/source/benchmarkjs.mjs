// benchmark.js suite over the same workloads as micro.bench.js.
import Benchmark from 'benchmark';
import {
  countHits, decodeRecords, encodeRecords, joinInts, lookupKeys,
  makeRecords, makeSessionMap, randomInts, sortNumbers,
} from './workloads.js';

const records = makeRecords(200);
const recordsJson = encodeRecords(records);
const ints1k = randomInts(1000);
const ints10k = randomInts(10000);
const sessions = makeSessionMap(5000);
const keys = lookupKeys(1000);

// Shorter than the 5 s default so the whole suite takes about 5 s (the shared fixture used 2 s,
// about 15 s a suite; 0.5 s lets 136 runs fit in the evaluation's time budget).
const options = { maxTime: 0.5 };

new Benchmark.Suite('micro')
  .add('JSON#stringify', () => encodeRecords(records), options)
  .add('JSON#parse', () => decodeRecords(recordsJson), options)
  .add('Array#join', () => joinInts(ints1k), options)
  .add('Map#has', () => countHits(sessions, keys), options)
  .add('sort#1000', () => sortNumbers(ints1k), options)
  .add('sort#10000', () => sortNumbers(ints10k), options)
  .on('cycle', (event) => {
    console.log(String(event.target));
  })
  .on('complete', function () {
    console.log('Fastest is ' + this.filter('fastest').map('name'));
  })
  .run();
