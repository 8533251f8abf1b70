#!/usr/bin/env python3
"""Checks that every relative link of the repository's Markdown files
resolves: the file or directory exists, and a #anchor names a heading of
the Markdown file it points to (GitHub's anchors: the heading's text in
lower case, punctuation dropped, spaces as hyphens, -1, -2... for
repeats). Links in code blocks and code spans are not links. Exits 1 and
lists every broken link, or prints how many were checked.

    python3 .ci/doclinks.py [FILE.md...]     (default: every tracked and new .md)
"""
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
SKIP = ("node_modules/",)

INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFDEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")


def markdown_files():
    out = subprocess.run(["git", "-C", ROOT, "ls-files", "--cached", "--others",
                          "--exclude-standard", "*.md"],
                         capture_output=True, text=True, check=True).stdout.split()
    return sorted(f for f in out if not any(s in f for s in SKIP)
                  and os.path.exists(os.path.join(ROOT, f)))


def prose_lines(text):
    """(line number, line) of the lines outside fenced code blocks, with
    code spans blanked."""
    fence = None
    for i, line in enumerate(text.split("\n"), 1):
        m = FENCE.match(line)
        if m:
            if fence is None:
                fence = m.group(1)
                continue
            if line.strip().startswith(fence):
                fence = None
                continue
        if fence is not None:
            continue
        yield i, re.sub(r"`[^`]*`", lambda m: " " * len(m.group(0)), line)


def slug(heading):
    h = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links: their text
    h = h.replace("`", "").lower()
    h = re.sub(r"<[^>]+>", "", h)
    h = re.sub(r"[^\w\- ]", "", h)
    return h.replace(" ", "-")


_anchors = {}


def anchors(path):
    if path not in _anchors:
        seen, out = {}, set()
        with open(path, encoding="utf-8") as f:
            text = f.read()
        fence = None
        for line in text.split("\n"):
            m = FENCE.match(line)
            if m:
                if fence is None:
                    fence = m.group(1)
                elif line.strip().startswith(fence):
                    fence = None
                continue
            if fence is not None:
                continue
            m = HEADING.match(line)
            if not m:
                continue
            s = slug(m.group(2))
            n = seen.get(s, 0)
            seen[s] = n + 1
            out.add(s if n == 0 else f"{s}-{n}")
        for m in re.finditer(r"<a\s+(?:name|id)=\"([^\"]+)\"", text):
            out.add(m.group(1))
        _anchors[path] = out
    return _anchors[path]


def check(rel):
    path = os.path.join(ROOT, rel)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    broken, n = [], 0
    for lineno, line in prose_lines(text):
        targets = [m.group(1) for m in INLINE.finditer(line)]
        m = REFDEF.match(line)
        if m:
            targets.append(m.group(1))
        for t in targets:
            if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", t):  # http:, mailto:, ...
                continue
            n += 1
            target, _, anchor = t.partition("#")
            if target:
                dest = os.path.normpath(os.path.join(os.path.dirname(path), target))
                if t.startswith("/"):
                    dest = os.path.normpath(os.path.join(ROOT, target.lstrip("/")))
                if not os.path.exists(dest):
                    broken.append(f"{rel}:{lineno}: {t}: no such file")
                    continue
            else:
                dest = path
            if anchor and dest.endswith(".md") and os.path.isfile(dest):
                if anchor not in anchors(dest):
                    broken.append(f"{rel}:{lineno}: {t}: no heading #{anchor} in "
                                  f"{os.path.relpath(dest, ROOT)}")
    return broken, n


def main():
    files = sys.argv[1:] or markdown_files()
    broken, total = [], 0
    for f in files:
        b, n = check(f)
        broken += b
        total += n
    for b in broken:
        print(b)
    print(f"{total} relative links in {len(files)} Markdown files: "
          f"{len(broken)} broken")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
