#!/usr/bin/env python3
"""The prose rules of the README and the DocC articles (issue 64).

Fails, printing `file:line: …` and the sentence, when:

- a prose sentence has more than 40 words;
- a line outside a code block starts with `Source:` or `Tests:`
  (contributor metadata, which DocC shows as plain text);
- README.md has more than 90 lines.

What is prose. Everything but: fenced code blocks (any language), HTML
comments (the `<!-- check: … -->` setup of blocks.py), table rows (lines
that start with `|`), headings (`#`), DocC directives (a line that starts
with `@`), and list items that hold only links (`- <doc:Safety>`,
`- [How it works](Documentation/Internals.md).`).

What is a sentence. A paragraph (lines up to a blank line, a heading, or
the next list item) is split after `.`, `?` or `!` (and any closing quote,
bracket or `*`) followed by a space and then anything but a lower-case
letter. A colon or a semicolon does not end a sentence.

What is a word. Code spans and symbol links (`` `a.b(c:)` ``,
``` ``Symbol`` ```) and `<doc:…>` links count as one word each; a link
`[text](address)` counts its text. Then a word is any run of non-space
characters with a letter or a digit in it (so `—` and `→` are not words).

    prose.py             # check every document
    prose.py FILE…       # check these documents only
"""
import pathlib
import re
import sys

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent.parent
MAX_WORDS = 40
README_MAX_LINES = 90

FENCE = re.compile(r"^\s*(```|~~~)")
LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
METADATA = re.compile(r"^\s*(?:>\s*)?(?:\*\*)?(Source|Tests):")
LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
DOC_LINK = re.compile(r"<doc:[^>]*>")
SYMBOL = re.compile(r"``[^`]+``")
CODE = re.compile(r"`[^`]+`")
SENTENCE_END = re.compile(r"(?<=[.?!])[\"'”’)\]*_]*\s+(?=[^a-z\s])")
WORD = re.compile(r"\S*[A-Za-z0-9]\S*")


def documents():
    return [REPO / "README.md"] + sorted(REPO.glob("Sources/*/*.docc/*.md"))


def paragraphs(lines):
    """(first line number, text) of each prose paragraph."""
    result, current, start = [], [], 0
    in_fence = in_comment = False

    def close():
        nonlocal current
        if current:
            result.append((start, " ".join(current)))
        current = []

    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if in_comment:
            if "-->" in stripped:
                in_comment = False
            continue
        if FENCE.match(line):
            close()
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        if stripped.startswith("<!--"):
            close()
            in_comment = "-->" not in stripped
            continue
        if not stripped or stripped.startswith(("#", "|", "@")):
            close()
            continue
        text = stripped.removeprefix(">").strip()
        if LIST_ITEM.match(line):
            close()
            text = LIST_ITEM.sub("", line).strip()
        if not current:
            start = number
        current.append(text)
    close()
    return result


def plain(text):
    """The paragraph with each code span and link reduced to words."""
    text = SYMBOL.sub("SYMBOL", text)
    text = CODE.sub("CODE", text)
    text = DOC_LINK.sub("LINK", text)
    return LINK.sub(lambda match: match.group(1), text)


def only_links(text):
    rest = DOC_LINK.sub("", LINK.sub("", text))
    return not re.search(r"[A-Za-z0-9]", rest)


def check(document):
    failures = []
    name = document.relative_to(REPO)
    lines = document.read_text().splitlines()
    if document.name == "README.md" and document.parent == REPO and len(lines) > README_MAX_LINES:
        failures.append(f"{name}:{len(lines)}: {len(lines)} lines, over {README_MAX_LINES}")
    in_fence = False
    for number, line in enumerate(lines, 1):
        if FENCE.match(line):
            in_fence = not in_fence
        elif not in_fence and METADATA.match(line):
            failures.append(f"{name}:{number}: a `{METADATA.match(line).group(1)}:` line: {line.strip()}")
    for start, text in paragraphs(lines):
        if only_links(text):
            continue
        for sentence in SENTENCE_END.split(text):
            words = len(WORD.findall(plain(sentence)))
            if words > MAX_WORDS:
                failures.append(f"{name}:{start}: {words} words in a sentence: {sentence.strip()}")
    return failures


def main(arguments):
    paths = [pathlib.Path(argument).resolve() for argument in arguments] or documents()
    failures = [failure for path in paths for failure in check(path)]
    for failure in failures:
        print(failure, file=sys.stderr)
    if failures:
        sys.exit(f"documentation prose: {len(failures)} problem(s) in {len(paths)} document(s)")
    print(f"documentation prose: {len(paths)} document(s), every sentence at most {MAX_WORDS} words")


if __name__ == "__main__":
    main(sys.argv[1:])
