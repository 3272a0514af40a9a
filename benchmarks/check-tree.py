#!/usr/bin/env python3
"""Holds Canopy's element trees to an HTML5 parser's, page by page.

Canopy builds its tree from libxml2 2.9's events and repairs it to the tree a browser builds
(README, "The tree a browser builds"). This compares the outline `canopy-bench --outline 1`
prints for each page (element names, nested) with the one html5lib, an implementation of HTML5
tree construction, builds from the same file, and prints where the first pages differ.

    python3 -m venv /tmp/h5 && /tmp/h5/bin/pip install html5lib
    swift run -c release canopy-bench /usr/share/doc/openjdk-17-doc/api --outline 1 --max-pages 100000 > /tmp/outline.txt
    /tmp/h5/bin/python benchmarks/check-tree.py /usr/share/doc/openjdk-17-doc/api /tmp/outline.txt

With `--write-html5 FILE` it also writes html5lib's outlines: Tests/act-html5-trees.txt holds
those of the W3C ACT test cases (../shared/act), which a test compares with Canopy's trees.

Both parse as a browser with scripting off would (`<noscript>` content is elements), which is how
Canopy audits it. Exits 1 when a page differs.
"""
import argparse
import sys

import html5lib

parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
parser.add_argument("folder", help="the folder canopy-bench read")
parser.add_argument("outline", help="the file canopy-bench --outline 1 wrote")
parser.add_argument("--max-bytes", type=int, default=1 << 20, help="skip larger pages (html5lib is slow on them)")
parser.add_argument("--show", type=int, default=15, help="how many differing pages to show")
parser.add_argument(
    "--write-html5", metavar="FILE",
    help="also write html5lib's outlines of the pages compared to FILE, as Tests/act-html5-trees.txt holds them",
)
arguments = parser.parse_args()


def outline(element):
    """The element's name and its element children's outlines, as canopy-bench writes them. A
    `<template>`'s content is a fragment of its own in a browser's DOM, and not in Canopy's tree;
    html5lib's element tree puts it under the template, so it is left out here."""
    name = element.tag.rsplit("}", 1)[-1]
    children = [] if name == "template" else [child for child in element if isinstance(child.tag, str)]
    if not children:
        return name
    return name + "(" + " ".join(outline(child) for child in children) + ")"


same = skipped = 0
differing = []
html5_outlines = []
with open(arguments.outline, encoding="utf-8") as lines:
    for line in lines:
        path, _, canopy = line.rstrip("\n").partition("\t")
        with open(arguments.folder + "/" + path, "rb") as page:
            html = page.read()
        if len(html) > arguments.max_bytes:
            skipped += 1
            continue
        tree = html5lib.parse(html, treebuilder="etree", namespaceHTMLElements=False, transport_encoding="utf-8")
        html5 = outline(tree)
        html5_outlines.append(f"{path}\t{html5}\n")
        if html5 == canopy:
            same += 1
            continue
        at = next((index for index, (a, b) in enumerate(zip(canopy, html5)) if a != b), min(len(canopy), len(html5)))
        differing.append((path, at, canopy, html5))

if arguments.write_html5:
    with open(arguments.write_html5, "w", encoding="utf-8") as output:
        output.write("# html5lib's element trees of the W3C ACT test cases (benchmarks/check-tree.py --write-html5)\n")
        output.writelines(sorted(html5_outlines))
print(f"{same + len(differing)} pages compared ({skipped} larger than {arguments.max_bytes} bytes skipped): "
      f"{same} the same, {len(differing)} different")
for path, at, canopy, html5 in differing[: arguments.show]:
    start = max(0, at - 80)
    print(f"{path} at character {at}:\n  canopy  …{canopy[start:at + 80]}\n  html5lib …{html5[start:at + 80]}")
sys.exit(1 if differing else 0)
