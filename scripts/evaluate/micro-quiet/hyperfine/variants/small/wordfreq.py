"""Count how often each word occurs in data.txt and sum the numbers per word.

Input lines look like "<word> <word> <int>". Prints the 5 most common words.
"""
import re
import sys
from collections import Counter, defaultdict

LINE = re.compile(r"(\w+) (\w+) (\d+)")


def main(path):
    counts = Counter()
    totals = defaultdict(int)
    with open(path) as f:
        for line in f:
            a, b, n = LINE.match(line).groups()
            n = int(n)
            counts[a] += 1
            counts[b] += 1
            totals[a] += n
            totals[b] += n
    for word, c in counts.most_common(5):
        print(word, c, totals[word])


if __name__ == "__main__":
    main(sys.argv[1])
