// Small Google Benchmark suite: vector fill, sort, hash-map lookup,
// string join and memcpy.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

static std::vector<int> RandomInts(size_t n) {
  std::mt19937 rng(42);
  std::uniform_int_distribution<int> dist(0, 1 << 30);
  std::vector<int> v(n);
  for (auto& x : v) x = dist(rng);
  return v;
}

// Appends n ints to a fresh vector whose capacity is reserved up front.
static void BM_VectorFill(benchmark::State& state) {
  const size_t n = static_cast<size_t>(state.range(0));
  for (auto _ : state) {
    std::vector<int> v;
    v.reserve(n);
    for (size_t i = 0; i < n; ++i) v.push_back(static_cast<int>(i));
    benchmark::DoNotOptimize(v.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * n);
}
BENCHMARK(BM_VectorFill)->RangeMultiplier(8)->Range(64, 32768);

// Copies n random ints and sorts the copy.
static void BM_Sort(benchmark::State& state) {
  const auto src = RandomInts(static_cast<size_t>(state.range(0)));
  std::vector<int> v(src.size());
  for (auto _ : state) {
    std::copy(src.begin(), src.end(), v.begin());
    std::stable_sort(v.begin(), v.end());
    benchmark::DoNotOptimize(v.data());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * state.range(0));
  state.SetComplexityN(state.range(0));
}
BENCHMARK(BM_Sort)->Args({1000})->Args({10000})->Complexity(benchmark::oNLogN);

// Keys are 22 characters long, longer than libstdc++'s small-string buffer.
static std::string SessionKey(int i) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "user-session-%09d", i);
  return buf;
}

using SessionMap = std::unordered_map<std::string, int>;

static bool Contains(const SessionMap& m, const std::string& key) {
  return m.find(key) != m.end();
}

// Looks up 1000 keys (half present) in a map of 5000 string keys.
static void BM_MapLookup(benchmark::State& state) {
  SessionMap m;
  for (int i = 0; i < 5000; ++i) m.emplace(SessionKey(i), i);
  std::vector<std::string> keys;
  for (int i = 0; i < 1000; ++i) keys.push_back(SessionKey(i * 10));
  int64_t hits = 0;
  for (auto _ : state) {
    for (const auto& k : keys) {
      if (Contains(m, k)) ++hits;
    }
    benchmark::DoNotOptimize(hits);
  }
  const int64_t lookups = static_cast<int64_t>(state.iterations()) * keys.size();
  state.SetItemsProcessed(lookups);
  state.counters["keys"] = static_cast<double>(keys.size());
  state.counters["hit_ratio"] = static_cast<double>(hits) / lookups;
  state.counters["lookups"] = benchmark::Counter(static_cast<double>(lookups), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_MapLookup);

// Joins 1000 decimal numbers with commas into one std::string.
static void BM_StringJoin(benchmark::State& state) {
  const auto xs = RandomInts(1000);
  for (auto _ : state) {
    std::string s;
    s.reserve(xs.size() * 11);
    for (size_t i = 0; i < xs.size(); ++i) {
      if (i > 0) s += ',';
      s += std::to_string(xs[i]);
    }
    benchmark::DoNotOptimize(s.data());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * xs.size());
}
BENCHMARK(BM_StringJoin);

// Copies a buffer of range(0) bytes.
static void BM_Memcpy(benchmark::State& state) {
  const size_t n = static_cast<size_t>(state.range(0));
  std::vector<char> src(n, 'x'), dst(n), staging(n);
  for (auto _ : state) {
    // Copies through a staging buffer, as a double-buffered writer would.
    std::memcpy(staging.data(), src.data(), n);
    benchmark::ClobberMemory();
    std::memcpy(dst.data(), staging.data(), n);
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * n);
}
BENCHMARK(BM_Memcpy)->Range(1 << 10, 1 << 16);

BENCHMARK_MAIN();
