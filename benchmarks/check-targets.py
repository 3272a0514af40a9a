#!/usr/bin/env python3
"""Runs every target selector a crawl stored against an HTML5 parser's tree of its page.

Canopy builds its tree with libxml2 2.9 and repairs it to the tree a browser builds; a target
is only useful if it finds the element in a browser's DOM. This reads the findings of a store
written by a crawl of the javadoc corpus (benchmarks/serve-javadoc.sh), parses each page with
html5lib (an implementation of HTML5 tree construction) and counts, for each target, the
elements it matches: exactly one is right, and that one must have the tag of the finding's
snippet. Framed targets (a list of selectors) are counted apart.

    python3 -m venv /tmp/h5 && /tmp/h5/bin/pip install html5lib beautifulsoup4
    /tmp/h5/bin/python benchmarks/check-targets.py Reports/canopy.sqlite [--pages N]

Exits 1 when a target matches no element, several, or one of another tag.
"""
import argparse
import collections
import re
import sqlite3
import sys

from bs4 import BeautifulSoup
import soupsieve

parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
parser.add_argument("store")
parser.add_argument("--pages", type=int, default=None, help="check only the first N pages (by URL)")
parser.add_argument("--root", default="/usr/share/doc/openjdk-17-doc/api", help="the folder the server serves")
parser.add_argument("--origin", default="http://127.0.0.1:8081", help="the origin the crawl read it from")
parser.add_argument(
    "--max-bytes", type=int, default=1 << 20,
    help="skip larger pages: each target is matched over the whole tree in Python, and javadoc's largest pages take hours",
)
arguments = parser.parse_args()

database = sqlite3.connect(arguments.store)
targets_by_page = collections.defaultdict(list)
for url, target, snippet in database.execute(
    """SELECT pages.url, detail.target, detail.snippet
       FROM findings JOIN pages ON pages.id = findings.page_id JOIN finding_details AS detail ON detail.id = findings.detail_id"""
):
    targets_by_page[url].append((target, snippet or ""))

counts = collections.Counter()
problems = []
pages = sorted(targets_by_page)[: arguments.pages]
for url in pages:
    if not url.startswith(arguments.origin):
        counts["page not in the corpus"] += 1
        continue
    with open(arguments.root + url[len(arguments.origin):], "rb") as page:
        html = page.read()
    if len(html) > arguments.max_bytes:
        counts["on pages skipped for their size"] += len(targets_by_page[url])
        continue
    tree = BeautifulSoup(html, "html5lib")
    for target, snippet in targets_by_page[url]:
        if target.startswith('["'):
            counts["framed"] += 1
            continue
        try:
            found = soupsieve.select(target, tree)
        except Exception as error:  # soupsieve refuses a selector it cannot parse
            counts["unparsable"] += 1
            problems.append(f"unparsable {target!r} on {url}: {error}")
            continue
        tag = re.match(r"<([A-Za-z][^\s/>]*)", snippet)
        if len(found) != 1:
            counts["no element" if not found else "several elements"] += 1
            problems.append(f"{len(found)} elements for {target!r} on {url}")
        elif tag and tag.group(1).lower() != found[0].name.lower():
            counts["another tag"] += 1
            problems.append(f"<{found[0].name}> for {target!r} on {url}, the finding is on {snippet[:60]!r}")
        else:
            counts["one element, the finding's tag"] += 1

print(f"{len(pages)} pages, {sum(counts.values())} targets:", dict(counts))
for problem in problems[:20]:
    print("  " + problem)
sys.exit(1 if problems else 0)
