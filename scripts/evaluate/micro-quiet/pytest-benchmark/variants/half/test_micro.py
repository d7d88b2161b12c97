"""pytest-benchmark suite: string building, JSON, sorting and dict lookups."""
import json
import random

import pytest

_rng = random.Random(3)
RECORDS = [
    {"id": i, "name": f"record-{i}", "tags": ["a", "bb", "ccc"][: 1 + i % 3], "score": _rng.random() * 100}
    for i in range(200)
]
RECORDS_JSON = json.dumps(RECORDS)
INTS = [_rng.randrange(1 << 30) for _ in range(10000)]
WORDS = [f"w{i}" for i in range(2000)]
SESSIONS = {f"user-session-{i:09d}": i for i in range(5000)}
KEYS = [f"user-session-{i * 10:09d}" for i in range(1000)]  # half are present


def join_words(words):
    return " ".join([w for w in words])


def concat_words(words):
    out = ""
    for w in words:
        out += w + " "
    return out


def sort_ints(xs):
    return sorted(xs, key=int)


def count_hits(d, keys):
    return sum(1 for k in keys if k in d)


@pytest.mark.benchmark(group="strings")
def test_join(benchmark):
    result = benchmark(join_words, WORDS)
    assert result.startswith("w0 w1")


@pytest.mark.benchmark(group="strings")
def test_concat(benchmark):
    result = benchmark(concat_words, WORDS)
    assert result.startswith("w0 w1")


@pytest.mark.benchmark(group="json")
def test_json_dumps(benchmark):
    result = benchmark(json.dumps, RECORDS)
    assert result == RECORDS_JSON


@pytest.mark.benchmark(group="json")
def test_json_loads(benchmark):
    result = benchmark(json.loads, RECORDS_JSON)
    assert result == RECORDS


@pytest.mark.benchmark(group="sort")
@pytest.mark.parametrize("n", [100, 1000, 10000])
def test_sort(benchmark, n):
    data = INTS[:n]
    result = benchmark(sort_ints, data)
    assert result == sorted(data)


@pytest.mark.benchmark(group="lookup")
def test_dict_lookup(benchmark):
    result = benchmark(count_hits, SESSIONS, KEYS)
    assert result == 500
