#!/usr/bin/env python3
"""Every ```swift block of the README and the DocC articles, compiled and run.

Reads the documents themselves, so a block cannot drift from what runs:

- The blocks of one document make one program, in order: a `main.swift` of
  an executable target, where a reader would paste them. A block that
  shows printed output says so in a comment: `// prints "a"` (each quoted
  string one line, in order; `prints "a", then "b"` is two), or a line
  `// prints:` followed by the output, one `// ` line each. The program is
  run and its output compared, line by line, with what the document says.
- What a block needs and does not show lives beside it, in an HTML
  comment, which neither GitHub nor DocC shows, right before the block:
      <!-- check: setup
          let customer = Customer()
      -->
  The code is put before the block. It is indented four spaces in the
  comment: DocC reads a line that starts with `@` (an attribute) as one of
  its directives, even in a comment. `<!-- check: after … -->`, right after
  a block, puts code after it (to close a declaration a block shows part
  of). `<!-- check: program Name -->` starts a new program for this block
  and the ones after it in the document (named `Name`, which `#fileID`
  shows). `<!-- check: uses Module -->` imports a module the block's app
  has and the runtime's own folder must not name in code (Foundation).
  `<!-- check: output -->` before a block of another language
  (a Mermaid picture) says the program prints that block after what the
  swift blocks before it say.
- `<!-- check: manifest -->` marks a `Package.swift` fragment (the
  arguments of `Package(…)` after `name:`). The fragments of one document
  are joined, in order, into one manifest (the README shows the package,
  then the product, in two), loaded with `swift package dump-package`.
- A module the platform lacks (SwiftUI on Linux) is imported where it
  exists; the block's setup gives the rest what it needs of it.

The README's program is built and run a second time as a new Xcode app
target builds it (Swift 5 language mode, the main actor by default,
"Approachable Concurrency"), with warnings as errors: what a reader pastes
first compiles where most readers paste it.

Writes the programs into `.generated/`, a package that depends on this
repository; `run` builds it and calls `check` here.

    blocks.py generate   # write .generated/
    blocks.py check      # run every program that prints, compare
"""
import json
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent.parent
GENERATED = HERE / ".generated"
# Modules a block may import that a platform may lack.
OPTIONAL_MODULES = ("SwiftUI", "UIKit", "AppKit")
# The README's program again, in Xcode's new-app configuration.
XCODE_APP = "DocREADMEInXcodeApp"
XCODE_APP_SETTINGS = """swiftSettings: [
      .swiftLanguageMode(.v5), .defaultIsolation(MainActor.self),
      .enableUpcomingFeature("DisableOutwardActorInference"),
      .enableUpcomingFeature("GlobalActorIsolatedTypesUsability"),
      .enableUpcomingFeature("InferIsolatedConformances"),
      .enableUpcomingFeature("InferSendableFromCaptures"),
      .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
      .unsafeFlags(["-warnings-as-errors"]),
    ]"""

# Fences and directives may be indented, inside a list item; the code in
# them is read without that indentation.
FENCE = re.compile(r"^(\s*)```swift\s*$")
OTHER_FENCE = re.compile(r"^(\s*)```(\w*)\s*$")
DIRECTIVE = re.compile(r"^(\s*)<!-- check: (\w+)(.*)$")


def documents():
    return [REPO / "README.md"] + sorted(REPO.glob("Sources/*/*.docc/*.md"))


class Block:
    def __init__(self, document, line, code):
        self.document = document
        self.line = line
        self.code = code
        self.setup = ""
        self.after = ""
        self.manifest = False
        self.program = None
        # Output blocks of other languages that follow it.
        self.output = []

    @property
    def where(self):
        return f"{self.document.relative_to(REPO)}:{self.line}"


def read_directive(lines, index):
    """The directive starting at `lines[index]`: (kind, argument, code, next index)."""
    match = DIRECTIVE.match(lines[index])
    indent, kind, rest = match.group(1), match.group(2), match.group(3)
    if rest.rstrip().endswith("-->"):
        return kind, rest.rstrip()[:-3].strip(), "", index + 1
    code = []
    index += 1
    while index < len(lines) and lines[index].strip() != "-->":
        code.append(lines[index].removeprefix(indent))
        index += 1
    if index == len(lines):
        sys.exit(f"an unclosed <!-- check: {kind} comment")
    return kind, rest.strip(), textwrap.dedent("\n".join(code)) + "\n", index + 1


def blocks_of(document):
    """The document's swift blocks, with what their directives say."""
    lines = document.read_text().splitlines()
    blocks, pending, index = [], [], 0
    while index < len(lines):
        if DIRECTIVE.match(lines[index]):
            kind, argument, code, index = read_directive(lines, index)
            if kind == "after":
                if not blocks:
                    sys.exit(f"{document}: <!-- check: after --> before any block")
                blocks[-1].after += code
            else:
                pending.append((kind, argument, code))
            continue
        fence = FENCE.match(lines[index])
        if fence:
            indent = fence.group(1)
            start = index + 1
            end = start
            while end < len(lines) and lines[end].strip() != "```":
                end += 1
            code = "\n".join(line.removeprefix(indent) for line in lines[start:end]) + "\n"
            block = Block(document, start + 1, code)
            for kind, argument, code in pending:
                if kind == "setup":
                    block.setup += code
                elif kind == "manifest":
                    block.manifest = True
                elif kind == "program":
                    block.program = argument
                elif kind == "uses":
                    # A module the app imports and the runtime must not
                    # (Foundation): named in the comment, not in the block.
                    block.setup = f"import {argument}\n" + block.setup
                else:
                    sys.exit(f"{block.where}: unknown directive <!-- check: {kind}")
            pending = []
            blocks.append(block)
            index = end + 1
            continue
        other = OTHER_FENCE.match(lines[index])
        if other and any(kind == "output" for kind, _, _ in pending):
            if not blocks:
                sys.exit(f"{document}:{index + 1}: <!-- check: output --> before any swift block")
            indent = other.group(1)
            end = index + 1
            while end < len(lines) and lines[end].strip() != "```":
                end += 1
            blocks[-1].output += [line.removeprefix(indent) for line in lines[index + 1 : end]]
            pending = []
            index = end + 1
            continue
        if lines[index].strip():
            # A directive belongs to the block right after it.
            if pending:
                sys.exit(f"{document}:{index + 1}: a <!-- check: --> comment not followed by a swift block")
        index += 1
    return blocks


def expected_output(code):
    """The lines a block says it prints, in order."""
    expected = []
    lines = code.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        comment = line.split("//", 1)[1] if "//" in line else ""
        if comment.strip() == "prints:":
            index += 1
            while index < len(lines) and lines[index].lstrip().startswith("//"):
                expected.append(lines[index].lstrip()[2:].removeprefix(" "))
                index += 1
            continue
        said = re.search(r"\bprints ((?:\"[^\"]*\"(?:,? then |, | and )?)+)", comment)
        if said:
            expected += re.findall(r"\"([^\"]*)\"", said.group(1))
        index += 1
    return expected


def program_name(document, name):
    """`Doc` and the document's name, or the name a directive gives (the
    module's name, which `#fileID` shows)."""
    if name:
        return name
    stem = document.stem if document.name != "README.md" else "README"
    return "Doc" + re.sub(r"[^A-Za-z0-9]", "", stem)


def programs():
    """{program name: [blocks]}, and the manifest blocks."""
    result, manifests, owners = {}, [], {}
    for document in documents():
        current = program_name(document, None)
        for block in blocks_of(document):
            if block.manifest:
                manifests.append(block)
                continue
            if block.program:
                current = program_name(document, block.program)
            if owners.setdefault(current, document) != document:
                sys.exit(f"{block.where}: the program {current} is another document's")
            result.setdefault(current, []).append(block)
    return result, manifests


def source_of(blocks):
    """main.swift of one program: its blocks in order, each with its setup."""
    parts = []
    for block in blocks:
        code = block.code
        for module in OPTIONAL_MODULES:
            code = re.sub(
                rf"^import {module}$", f"#if canImport({module})\nimport {module}\n#endif", code, flags=re.M
            )
        parts.append(f"{block.setup}{code}{block.after}")
    # No line of its own between the blocks: a program made of one block
    # has its lines where a reader who pastes it into `main.swift` has them.
    return "".join(parts)


def generate():
    found, manifests = programs()
    sources = GENERATED / "Sources"
    if sources.exists():
        shutil.rmtree(sources)
    targets = []
    if "DocREADME" in found:
        found[XCODE_APP] = found["DocREADME"]
    for name, blocks in found.items():
        folder = sources / name
        folder.mkdir(parents=True)
        (folder / "main.swift").write_text(source_of(blocks))
        settings = f",\n    {XCODE_APP_SETTINGS}" if name == XCODE_APP else ""
        targets.append(
            f'    .executableTarget(name: "{name}", dependencies: [\n'
            '      .product(name: "KeyValueObserving", package: "KeyValueObserving"),\n'
            '      .product(name: "KeyValueObservingCombine", package: "KeyValueObserving"),\n'
            f"    ]{settings}),"
        )
    manifest = f"""// swift-tools-version: 6.2
// Generated by Checks/Documentation/blocks.py from the README and the DocC
// articles: one program per document. Do not edit.
import PackageDescription

let package = Package(
  name: "DocumentationBlocks",
  platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .visionOS(.v1)],
  dependencies: [.package(name: "KeyValueObserving", path: "{REPO}")],
  targets: [
{chr(10).join(targets)}
  ]
)
"""
    package = GENERATED / "Package.swift"
    if not package.exists() or package.read_text() != manifest:
        package.write_text(manifest)
    expectations = {
        name: [line for block in blocks for line in expected_output(block.code) + block.output]
        for name, blocks in found.items()
    }
    (GENERATED / "expected.json").write_text(json.dumps(expectations, indent=2, ensure_ascii=False))
    joined = {}
    for block in manifests:
        joined.setdefault(block.document, []).append(block)
    (GENERATED / "manifests.json").write_text(
        json.dumps([[blocks[0].where, "".join(block.code for block in blocks)] for blocks in joined.values()])
    )
    count = sum(len(blocks) for blocks in found.values())
    print(f"{count} blocks in {len(found)} programs, {len(manifests)} manifest fragment(s)")


def check_manifests():
    failures = 0
    for where, code in json.loads((GENERATED / "manifests.json").read_text()):
        with tempfile.TemporaryDirectory() as folder:
            root = pathlib.Path(folder)
            (root / "Package.swift").write_text(
                "// swift-tools-version: 6.1\nimport PackageDescription\n\n"
                f'let package = Package(\n  name: "App",\n{code})\n'
            )
            (root / "Sources" / "App").mkdir(parents=True)
            (root / "Sources" / "App" / "App.swift").write_text("")
            result = subprocess.run(
                ["swift", "package", "dump-package"], cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
            )
            if result.returncode != 0:
                print(f"{where}: the manifest fragment does not load:\n{result.stderr}", file=sys.stderr)
                failures += 1
            else:
                print(f"{where}: the manifest fragment loads")
    return failures


def check():
    failures = check_manifests()
    expectations = json.loads((GENERATED / "expected.json").read_text())
    binaries = pathlib.Path(
        subprocess.run(["swift", "build", "--show-bin-path"], cwd=GENERATED, stdout=subprocess.PIPE, text=True, check=True)
        .stdout.strip()
    )
    for name, expected in expectations.items():
        result = subprocess.run([str(binaries / name)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)
        if result.returncode != 0:
            print(f"{name}: exited with {result.returncode}\n{result.stderr}", file=sys.stderr)
            failures += 1
            continue
        printed = result.stdout.splitlines()
        if not expected:
            print(f"{name}: compiles and runs (shows no output)")
        elif printed == expected:
            print(f"{name}: prints what its document says ({len(expected)} lines)")
        else:
            print(f"{name}: prints something else than its document says", file=sys.stderr)
            for line in unified(expected, printed):
                print("  " + line, file=sys.stderr)
            failures += 1
    if failures:
        sys.exit(f"documentation blocks: {failures} failed")
    print("documentation blocks: every block compiles, and prints what its document says")


def unified(expected, printed):
    import difflib

    return difflib.unified_diff(expected, printed, "the document says", "the program printed", lineterm="")


if __name__ == "__main__":
    {"generate": generate, "check": check}[sys.argv[1] if len(sys.argv) > 1 else "generate"]()
