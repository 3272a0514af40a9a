#!/usr/bin/env python3
"""Where a profiled `canopy report` spent its samples, by the calls right below a function.

Reads demangled `perf script` output on stdin and counts each sample under the frames that
`ROOT` (default `ReportWriter.write(to:)`) called, `DEPTH` frames deep (default 3). Record with
DWARF call graphs, since libsqlite3 and libc have no frame pointers:

  perf record -F 499 --call-graph dwarf,16384 -o /tmp/report.perf .build/release/canopy report --store S --reports R
  perf script -i /tmp/report.perf | swift demangle --simplified | benchmarks/perf-stages.py ['ROOT'] [DEPTH]
"""
import collections
import sys

root = sys.argv[1] if len(sys.argv) > 1 else "ReportWriter.write(to:)"
depth = int(sys.argv[2]) if len(sys.argv) > 2 else 3
stages = collections.Counter()
total = 0


def count(frames):
    global total
    if not frames:
        return
    total += 1
    # A frame line is "address symbol+offset (library)"; keep the symbol.
    names = [frame.split(" ", 1)[1].rsplit(" (", 1)[0].split("+0x")[0] if " " in frame else frame for frame in frames]
    below = [index for index, name in enumerate(names) if name.endswith(root)]
    if not below:
        stages["(not under %s)" % root] += 1
        return
    outermost = max(below)
    stages[" > ".join(reversed(names[max(0, outermost - depth):outermost]))] += 1


frames = []
for line in sys.stdin:
    if not line.strip():
        count(frames)
        frames = []
    elif line[0] in "\t ":
        frames.append(line.strip())
count(frames)
for stage, samples in stages.most_common(40):
    print("%5.1f%%  %s" % (100 * samples / max(total, 1), stage[:200]))
