"""Count how often each word occurs in data.txt and sum the numbers per word.

Input lines look like "<word> <word> <int>". Prints the 5 most common words.
"""
import re
import sys
from collections import Counter, defaultdict

LINE = re.compile(r"(\w+) (\w+) (\d+)")


def count_words(path):
    counts = Counter()
    with open(path) as f:
        for line in f:
            a, b, _ = LINE.match(line).groups()
            counts[a] += 1
            counts[b] += 1
    return counts


def sum_numbers(path):
    totals = defaultdict(int)
    with open(path) as f:
        for line in f:
            a, b, n = LINE.match(line).groups()
            n = int(n)
            totals[a] += n
            totals[b] += n
    return totals


def main(path):
    counts = count_words(path)
    totals = sum_numbers(path)
    for word, c in counts.most_common(5):
        print(word, c, totals[word])


if __name__ == "__main__":
    main(sys.argv[1])
