#!/usr/bin/env python3
"""svg_tick_labels.py FILE.svg... — finds exponent-style numbers in exported plots (SVG from `gpulab export`).

A class reads "100 TFLOP/s" aloud; it stumbles on "10¹⁴", "1e+14" or "1.5·10⁹". QCustomPlot draws a power of ten
as two texts: the base ("10", "1.5·10") and, right after it, the exponent in a smaller font. This finds
  - a text ending in "10" followed by a smaller text that is a whole number (a drawn power: 10^14),
  - a text with an e-notation number (1e+14, 2.5E-3),
  - a text with a written power (×10^9, ·10^9, 10⁹).
Prints each hit as FILE: "text" and exits 1 when there is any, 0 when none (2 for bad usage or an unreadable file).
"""
import re
import sys
import xml.etree.ElementTree as ET

E_NOTATION = re.compile(r"(?<![A-Za-z])\d(?:\.\d+)?[eE][+-]?\d+(?![A-Za-z])")
WRITTEN_POWER = re.compile(r"[×x·*]\s*10\s*(?:\^|[⁰¹²³⁴⁵⁶⁷⁸⁹⁻])|10[⁰¹²³⁴⁵⁶⁷⁸⁹⁻]+|10\^-?\d")
WHOLE = re.compile(r"^[-−]?\d+$")


def texts(path):
    """(text, font size) for every <text> element in document order; font-size is inherited from groups."""
    out = []

    def walk(el, size):
        tag = el.tag.rsplit("}", 1)[-1]
        s = el.get("font-size")
        if s:
            try:
                size = float(re.sub(r"[a-z]+$", "", s))
            except ValueError:
                pass
        if tag == "text":
            out.append(("".join(el.itertext()).strip(), size))
            return
        for child in el:
            walk(child, size)

    walk(ET.parse(path).getroot(), 0.0)
    return out


def problems(path):
    found = []
    items = [t for t in texts(path) if t[0]]
    for i, (text, size) in enumerate(items):
        if E_NOTATION.search(text) or WRITTEN_POWER.search(text):
            found.append(text)
        elif text.endswith("10") and i + 1 < len(items):
            nxt, nsize = items[i + 1]
            if WHOLE.match(nxt) and 0 < nsize < size:
                found.append("%s^%s" % (text, nxt))
    return found


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    bad = 0
    for path in argv[1:]:
        try:
            hits = problems(path)
        except (OSError, ET.ParseError) as e:
            print("%s: cannot read: %s" % (path, e), file=sys.stderr)
            return 2
        for h in hits:
            print('%s: "%s"' % (path, h))
        bad += len(hits)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
