#!/usr/bin/env python3
"""The stdin/stdout problems both judges run in scripts/bench-stdio-vs-livecodebench.sh.

Writes JSON: a list of {"name", "solutions": [python source, ...], "tests": [{"input",
"expected"}, ...]}. Problems are competitive-programming shaped (parse the input, compute,
print); each has three correct solutions written in different styles (input(),
sys.stdin, a helper function) and ten tests, the last ones larger. Expected outputs are
computed here by plain Python written for this file (no solution is run on the host).
Deterministic: a fixed seed.

    python3 scripts/stdio_bench_problems.py OUT.json [--tests 10]
"""

import argparse
import json
import random

PROBLEMS = []


def problem(fn):
    PROBLEMS.append(fn)
    return fn


@problem
def sum_list(rng, size):
    xs = [rng.randint(-10**9, 10**9) for _ in range(size)]
    inp = f"{len(xs)}\n{' '.join(map(str, xs))}\n"
    return inp, f"{sum(xs)}\n", [
        "n = int(input())\nprint(sum(map(int, input().split())))\n",
        "import sys\ndata = sys.stdin.read().split()\nprint(sum(int(x) for x in data[1:]))\n",
        "def main():\n    n = int(input())\n    t = 0\n    for x in input().split():\n        t += int(x)\n    print(t)\nmain()\n",
    ]


@problem
def max_subarray(rng, size):
    xs = [rng.randint(-100, 100) for _ in range(max(1, size))]
    best, cur = xs[0], 0
    for x in xs:
        cur = max(x, cur + x)
        best = max(best, cur)
    return f"{len(xs)}\n{' '.join(map(str, xs))}\n", f"{best}\n", [
        "n = int(input())\na = list(map(int, input().split()))\nbest = a[0]\ncur = 0\nfor x in a:\n    cur = max(x, cur + x)\n    best = max(best, cur)\nprint(best)\n",
        "import sys\nd = sys.stdin.read().split()\na = [int(x) for x in d[1:]]\nb = c = a[0]\nfor x in a[1:]:\n    c = x if c < 0 else c + x\n    b = max(b, c)\nprint(b)\n",
        "def kadane(a):\n    best, cur = a[0], 0\n    for x in a:\n        cur = max(x, cur + x)\n        if cur > best:\n            best = cur\n    return best\ninput()\nprint(kadane(list(map(int, input().split()))))\n",
    ]


@problem
def count_distinct(rng, size):
    xs = [rng.randint(1, max(1, size // 2)) for _ in range(size)]
    return f"{len(xs)}\n{' '.join(map(str, xs))}\n", f"{len(set(xs))}\n", [
        "input()\nprint(len(set(input().split())))\n",
        "import sys\nd = sys.stdin.read().split()\nseen = {}\nfor x in d[1:]:\n    seen[x] = 1\nprint(len(seen))\n",
        "n = int(input())\na = sorted(map(int, input().split()))\nprint(sum(1 for i in range(n) if i == 0 or a[i] != a[i - 1]))\n",
    ]


@problem
def reverse_words(rng, size):
    words = ["".join(rng.choice("abcdefghij") for _ in range(rng.randint(1, 6))) for _ in range(max(1, size))]
    return " ".join(words) + "\n", " ".join(reversed(words)) + "\n", [
        "print(' '.join(input().split()[::-1]))\n",
        "import sys\nw = sys.stdin.readline().split()\nw.reverse()\nsys.stdout.write(' '.join(w) + '\\n')\n",
        "def rev(s):\n    out = []\n    for w in s.split():\n        out.insert(0, w)\n    return ' '.join(out)\nprint(rev(input()))\n",
    ]


@problem
def gcd_pairs(rng, size):
    import math
    pairs = [(rng.randint(1, 10**12), rng.randint(1, 10**12)) for _ in range(max(1, size // 4))]
    inp = f"{len(pairs)}\n" + "".join(f"{a} {b}\n" for a, b in pairs)
    out = "".join(f"{math.gcd(a, b)}\n" for a, b in pairs)
    return inp, out, [
        "import math\nfor _ in range(int(input())):\n    a, b = map(int, input().split())\n    print(math.gcd(a, b))\n",
        "import sys\nd = sys.stdin.read().split()\nt = int(d[0])\nout = []\nfor i in range(t):\n    a, b = int(d[1 + 2 * i]), int(d[2 + 2 * i])\n    while b:\n        a, b = b, a % b\n    out.append(str(a))\nprint('\\n'.join(out))\n",
        "def g(a, b):\n    return a if b == 0 else g(b, a % b)\nn = int(input())\nfor _ in range(n):\n    x, y = map(int, input().split())\n    print(g(x, y))\n",
    ]


@problem
def prefix_queries(rng, size):
    xs = [rng.randint(0, 1000) for _ in range(max(1, size))]
    qs = []
    for _ in range(max(1, size // 2)):
        l = rng.randint(1, len(xs))
        r = rng.randint(l, len(xs))
        qs.append((l, r))
    inp = f"{len(xs)} {len(qs)}\n{' '.join(map(str, xs))}\n" + "".join(f"{l} {r}\n" for l, r in qs)
    out = "".join(f"{sum(xs[l - 1:r])}\n" for l, r in qs)
    return inp, out, [
        "n, q = map(int, input().split())\na = list(map(int, input().split()))\np = [0]\nfor x in a:\n    p.append(p[-1] + x)\nfor _ in range(q):\n    l, r = map(int, input().split())\n    print(p[r] - p[l - 1])\n",
        "import sys\nfrom itertools import accumulate\nd = sys.stdin.read().split()\nn, q = int(d[0]), int(d[1])\np = [0] + list(accumulate(map(int, d[2:2 + n])))\nres = []\nfor i in range(q):\n    l, r = int(d[2 + n + 2 * i]), int(d[3 + n + 2 * i])\n    res.append(p[r] - p[l - 1])\nprint('\\n'.join(map(str, res)))\n",
        "def solve():\n    n, q = map(int, input().split())\n    a = list(map(int, input().split()))\n    pre = [0] * (n + 1)\n    for i in range(n):\n        pre[i + 1] = pre[i] + a[i]\n    for _ in range(q):\n        l, r = map(int, input().split())\n        print(pre[r] - pre[l - 1])\nsolve()\n",
    ]


@problem
def sort_numbers(rng, size):
    xs = [rng.randint(-1000, 1000) for _ in range(max(1, size))]
    return f"{len(xs)}\n{' '.join(map(str, xs))}\n", " ".join(map(str, sorted(xs))) + "\n", [
        "input()\nprint(*sorted(map(int, input().split())))\n",
        "import sys\nd = list(map(int, sys.stdin.read().split()[1:]))\nd.sort()\nprint(' '.join(map(str, d)))\n",
        "def merge_sort(a):\n    if len(a) <= 1:\n        return a\n    m = len(a) // 2\n    l, r = merge_sort(a[:m]), merge_sort(a[m:])\n    out = []\n    i = j = 0\n    while i < len(l) and j < len(r):\n        if l[i] <= r[j]:\n            out.append(l[i]); i += 1\n        else:\n            out.append(r[j]); j += 1\n    return out + l[i:] + r[j:]\ninput()\nprint(*merge_sort(list(map(int, input().split()))))\n",
    ]


@problem
def palindrome_check(rng, size):
    lines = []
    for _ in range(max(1, size // 5)):
        half = "".join(rng.choice("ab") for _ in range(rng.randint(1, 8)))
        lines.append(half + half[::-1] if rng.random() < 0.5 else half + "c" + half)
    inp = f"{len(lines)}\n" + "".join(s + "\n" for s in lines)
    out = "".join(("YES" if s == s[::-1] else "NO") + "\n" for s in lines)
    return inp, out, [
        "for _ in range(int(input())):\n    s = input().strip()\n    print('YES' if s == s[::-1] else 'NO')\n",
        "import sys\nd = sys.stdin.read().split()\nprint('\\n'.join('YES' if w == w[::-1] else 'NO' for w in d[1:]))\n",
        "def pal(s):\n    i, j = 0, len(s) - 1\n    while i < j:\n        if s[i] != s[j]:\n            return False\n        i += 1; j -= 1\n    return True\nfor _ in range(int(input())):\n    print('YES' if pal(input().strip()) else 'NO')\n",
    ]


@problem
def grid_paths(rng, size):
    h = w = max(2, min(30, size // 3))
    grid = ["".join("#" if rng.random() < 0.2 and (i, j) not in ((0, 0), (h - 1, w - 1)) else "." for j in range(w)) for i in range(h)]
    mod = 10**9 + 7
    dp = [[0] * w for _ in range(h)]
    for i in range(h):
        for j in range(w):
            if grid[i][j] == "#":
                continue
            if i == 0 and j == 0:
                dp[i][j] = 1
            else:
                dp[i][j] = ((dp[i - 1][j] if i else 0) + (dp[i][j - 1] if j else 0)) % mod
    inp = f"{h} {w}\n" + "".join(r + "\n" for r in grid)
    return inp, f"{dp[h - 1][w - 1]}\n", [
        "h, w = map(int, input().split())\ng = [input() for _ in range(h)]\nM = 10**9 + 7\ndp = [[0] * w for _ in range(h)]\nfor i in range(h):\n    for j in range(w):\n        if g[i][j] == '#':\n            continue\n        if i == 0 and j == 0:\n            dp[i][j] = 1\n        else:\n            dp[i][j] = ((dp[i-1][j] if i else 0) + (dp[i][j-1] if j else 0)) % M\nprint(dp[h-1][w-1])\n",
        "import sys\nd = sys.stdin.read().split()\nh, w = int(d[0]), int(d[1])\ng = d[2:2 + h]\nrow = [0] * w\nfor i in range(h):\n    for j in range(w):\n        if g[i][j] == '#':\n            row[j] = 0\n        elif i == 0 and j == 0:\n            row[j] = 1\n        elif j:\n            row[j] = (row[j] + row[j - 1]) % 1000000007\nprint(row[w - 1])\n",
        "def count(g, h, w):\n    prev = [0] * w\n    for i in range(h):\n        cur = [0] * w\n        for j in range(w):\n            if g[i][j] != '#':\n                cur[j] = 1 if i == j == 0 else (prev[j] + (cur[j - 1] if j else 0)) % (10**9 + 7)\n        prev = cur\n    return prev[-1]\nh, w = map(int, input().split())\nprint(count([input() for _ in range(h)], h, w))\n",
    ]


@problem
def word_frequency(rng, size):
    words = [rng.choice(["apple", "pear", "fig", "kiwi", "lime", "plum"]) for _ in range(max(1, size))]
    counts = {}
    for wd in words:
        counts[wd] = counts.get(wd, 0) + 1
    out = "".join(f"{k} {counts[k]}\n" for k in sorted(counts))
    return " ".join(words) + "\n", out, [
        "from collections import Counter\nc = Counter(input().split())\nfor k in sorted(c):\n    print(k, c[k])\n",
        "import sys\nd = {}\nfor w in sys.stdin.read().split():\n    d[w] = d.get(w, 0) + 1\nsys.stdout.write(''.join(f'{k} {d[k]}\\n' for k in sorted(d)))\n",
        "def freq(ws):\n    out = {}\n    for w in ws:\n        out[w] = out.get(w, 0) + 1\n    return sorted(out.items())\nfor k, v in freq(input().split()):\n    print(k, v)\n",
    ]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--tests", type=int, default=10)
    args = ap.parse_args()
    rng = random.Random(20261125)
    problems = []
    for fn in PROBLEMS:
        tests, solutions = [], None
        for t in range(args.tests):
            size = 3 + t * t * 4  # small first, up to ~330 items
            inp, out, solutions = fn(rng, size)
            tests.append({"input": inp, "expected": out})
        problems.append({"name": fn.__name__, "solutions": solutions, "tests": tests})
    with open(args.out, "w") as f:
        json.dump(problems, f)


if __name__ == "__main__":
    main()
