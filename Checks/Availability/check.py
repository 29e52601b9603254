#!/usr/bin/env python3
"""Checks that the package's sources use nothing above its deployment floor.

This machine cannot compile for Apple platforms, but the toolchain's own
module interfaces record Apple availability on every platform, and symbol
graphs extracted from them carry it. So:

1. the floor is read from `platforms:` in Package.swift;
2. the availability of every public declaration of the toolchain modules the
   sources may use (the standard library, _Concurrency, Observation,
   Synchronization, Dispatch, Foundation) is read from their symbol graphs;
3. each target's sources are type-checked with the exact command SwiftPM
   uses, dumping the typed AST as JSON: every reference to a declaration
   (its USR) and every type a declaration or expression has (its mangled
   name, demangled to find the nominal types in it) is located;
4. a use fails when a platform's required version is above both the floor
   and what the enclosing declarations' `@available` and the enclosing
   `if #available` / `guard #available` require.

Usage: check.py [--package DIR] SCRATCH_BIN TARGET...  (run by `run`,
which builds first). DIR is the package whose targets and floor are
checked, the repository's own by default; the client matrix's shows that
the macro's expansions use nothing above a client's floor either.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
PACKAGE = ROOT  # the package checked (--package)
MODULES = ["Swift", "_Concurrency", "Observation", "Synchronization", "Dispatch", "Foundation"]
# Package.swift's platform names → the availability domains symbol graphs use.
PLATFORMS = {"macOS": "macOS", "iOS": "iOS", "tvOS": "tvOS", "watchOS": "watchOS",
             "visionOS": "visionOS", "macCatalyst": "macCatalyst"}
# Mac Catalyst code is iOS code: a declaration with no macCatalyst entry of
# its own takes its iOS one.
INHERITS = {"macCatalyst": "iOS"}


def version(text):
    """`10.15`, `10_15`, `13` → (major, minor, patch)."""
    parts = [int(part) for part in str(text).replace("_", ".").split(".") if part != ""]
    return tuple((parts + [0, 0, 0])[:3])


def dotted(v):
    return ".".join(map(str, v[:2] if v[2] == 0 else v))


def floor_of_package():
    """`.iOS(.v13)`, `.macOS(.v10_15)` … in Package.swift's `platforms:`."""
    manifest = open(os.path.join(PACKAGE, "Package.swift")).read()
    platforms = re.search(r"platforms:\s*\[(\s*\.(?:macOS|iOS|tvOS|watchOS|visionOS|macCatalyst)\(.*?)\]", manifest, re.S)
    if not platforms:
        sys.exit("availability check: Package.swift declares no platforms")
    floor = {}
    for name, v in re.findall(r"\.(\w+)\(\.v([0-9_]+)\)", platforms.group(1)):
        if name in PLATFORMS:
            floor[PLATFORMS[name]] = version(v)
    return floor


def symbol_availability(scratch):
    """USR → {domain: introduced}, and `Module.Type` → the same, for types."""
    by_usr, by_type = {}, {}
    global USR_NAMES
    out = tempfile.mkdtemp(prefix="kvo-symbols-")
    for module in MODULES:
        result = subprocess.run(
            ["swift-symbolgraph-extract", "-module-name", module, "-target", target_triple(),
             "-output-dir", out, "-minimum-access-level", "public", "-I", os.path.join(scratch, "Modules")],
            capture_output=True, text=True)
        if result.returncode != 0:
            print(f"availability check: no symbol graph for {module}: {result.stderr.strip()[:200]}", file=sys.stderr)
    always = set()  # requirements a default implementation makes available everywhere
    for name in os.listdir(out):
        graph = json.load(open(os.path.join(out, name)))
        module = graph["module"]["name"]
        unavailable_anywhere = {s["identifier"]["precise"] for s in graph["symbols"] if not s.get("availability")}
        for relation in graph.get("relationships", []):
            # A requirement added later with a default implementation that
            # every OS has (`&*` on FixedWidthInteger, added in Swift 6) is
            # callable everywhere: the call reaches the implementation.
            if relation["kind"] == "defaultImplementationOf" and relation["source"] in unavailable_anywhere:
                always.add(relation["target"])
        for symbol in graph["symbols"]:
            introduced = {}
            for entry in symbol.get("availability", []):
                if "introduced" in entry and entry.get("domain") in PLATFORMS.values():
                    v = entry["introduced"]
                    introduced[entry["domain"]] = (v.get("major", 0), v.get("minor", 0), v.get("patch", 0))
            if not introduced:
                continue
            by_usr[symbol["identifier"]["precise"]] = introduced
            USR_NAMES[symbol["identifier"]["precise"]] = module + "." + ".".join(symbol["pathComponents"])
            if symbol["kind"]["identifier"] in ("swift.struct", "swift.class", "swift.enum", "swift.protocol", "swift.typealias"):
                by_type[module + "." + ".".join(symbol["pathComponents"])] = introduced
    for usr in always:
        by_usr.pop(usr, None)
    return by_usr, by_type


def target_triple():
    output = subprocess.run(["swiftc", "-print-target-info"], capture_output=True, text=True).stdout
    return json.loads(output)["target"]["triple"]


def dump_command(scratch, target):
    """SwiftPM's own compile command for `target`, made to dump the typed AST."""
    # SwiftPM prints a command only when it runs it: make it compile the
    # target, and take the command from the build log.
    description = json.loads(subprocess.run(["swift", "package", "describe", "--type", "json"], cwd=PACKAGE,
                                            capture_output=True, text=True, check=True).stdout)
    directory = next(os.path.join(PACKAGE, t["path"]) for t in description["targets"] if t["name"] == target)
    first = next(os.path.join(folder, name) for folder, _, names in sorted(os.walk(directory, followlinks=True))
                 for name in sorted(names) if name.endswith(".swift"))
    os.utime(first)
    result = subprocess.run(["swift", "build", "--target", target, "-v"], cwd=PACKAGE,
                            capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(result.stdout + result.stderr)
    command = None
    for line in (result.stdout + result.stderr).splitlines():
        if re.search(r"swiftc\s.*-module-name " + re.escape(target) + r"\s", line):
            command = line.split()
    if command is None:
        sys.exit(f"availability check: SwiftPM printed no compile command for {target}")
    drop_with_value = {"-emit-module-path", "-output-file-map", "-index-store-path", "-emit-objc-header-path",
                       "-emit-dependencies-path", "-j"}
    drop = {"-emit-dependencies", "-emit-module", "-incremental", "-c", "-v", "-enable-batch-mode",
            "-serialize-diagnostics", "-parseable-output", "-emit-objc-header", "-whole-module-optimization",
            "-emit-module-interface"}
    kept, skip = [], False
    for token in command:
        if skip:
            skip = False
            continue
        if token in drop_with_value:
            skip = True
        elif token in drop or re.fullmatch(r"-j\d+", token):
            continue
        else:
            kept.append(token)
    sources = []
    for token in kept:
        if token.startswith("@"):
            sources += open(token[1:]).read().split()
        elif token.endswith(".swift"):
            sources.append(token)
    kept = [t for t in kept if not t.startswith("@") and not t.endswith(".swift")]
    return kept, sources


def ast_dumps(scratch, target):
    command, sources = dump_command(scratch, target)
    out = tempfile.mkdtemp(prefix="kvo-ast-")
    file_map = {source: {"ast-dump": os.path.join(out, f"{index}.json")} for index, source in enumerate(sources)}
    map_path = os.path.join(out, "map.json")
    json.dump(file_map, open(map_path, "w"))
    result = subprocess.run(command + ["-dump-ast", "-dump-ast-format", "json", "-output-file-map", map_path] + sources,
                            capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(result.stdout + result.stderr)
    return [(source, json.load(open(entry["ast-dump"]))) for source, entry in file_map.items()]


MANGLED_USR = re.compile(r"^s:")
USR_NAMES = {}  # USR → `Module.Name`, for messages


class Walker:
    def __init__(self, floor, by_usr, by_type, source):
        self.floor, self.by_usr, self.by_type = floor, by_usr, by_type
        self.source = source
        self.text = open(source, "rb").read()
        self.uses = []  # (offset, what, {domain: introduced}, context)
        self.types = {}  # mangled type → [(offset, context)]
        self.public = []  # (offset, name, [mangled types], context): public and @usableFromInline declarations

    def line(self, offset):
        return self.text.count(b"\n", 0, offset) + 1

    @staticmethod
    def narrowed(context, specs):
        context = dict(context)
        named = {domain for domain, _ in specs}
        for domain, v in specs:
            targets = [domain] + [child for child, parent in INHERITS.items() if parent == domain and child not in named]
            for target in targets:
                if target in PLATFORMS.values():
                    context[target] = max(context.get(target, (0, 0, 0)), v)
        return context

    @staticmethod
    def attributes(node):
        specs = []
        for attr in node.get("attrs", []) or []:
            if isinstance(attr, dict) and attr.get("_kind") == "available_attr" and "introduced" in attr:
                specs.append((attr["domain"], version(attr["introduced"])))
        return specs

    @staticmethod
    def usable_from_inline(node):
        return any(isinstance(a, dict) and "usable" in a.get("_kind", "").lower() for a in node.get("attrs", []) or [])

    @staticmethod
    def strings(node, keys):
        """Every string under `keys` of `node`: the mangled types and USRs a
        declaration's conformances and generic requirements name."""
        found, stack = [], [node.get(key) for key in keys]
        while stack:
            item = stack.pop()
            if isinstance(item, dict):
                stack.extend(item.values())
            elif isinstance(item, list):
                stack.extend(item)
            elif isinstance(item, str):
                found.append(item)
        return found

    @staticmethod
    def conditions(node):
        specs = []
        for condition in node.get("conditions", []) or []:
            stack = [condition]
            while stack:
                item = stack.pop()
                if isinstance(item, dict):
                    if item.get("_kind") == "#available":
                        for query in item.get("queries", []):
                            if "version" in query:
                                specs.append((query["domain"], version(query["version"])))
                    else:
                        stack.extend(item.values())
                elif isinstance(item, list):
                    stack.extend(item)
        return specs

    def walk(self, node, context, offset=0):
        if isinstance(node, list):
            for index, item in enumerate(node):
                # A property's type is written in the pattern binding that
                # comes before it; the property's `@available` covers it.
                if isinstance(item, dict) and item.get("_kind") == "pattern_binding_decl":
                    following = next((n for n in node[index + 1:] if isinstance(n, dict) and n.get("_kind") == "var_decl"), None)
                    if following is not None:
                        self.walk(item, self.narrowed(context, self.attributes(following)), offset)
                        continue
                self.walk(item, context, offset)
            return
        if not isinstance(node, dict):
            return
        here = node.get("range", {}).get("start", offset) if isinstance(node.get("range"), dict) else offset
        kind = node.get("_kind", "")
        if kind.endswith("_decl"):
            context = self.narrowed(context, self.attributes(node))
            if node.get("access") in ("public", "open") or self.usable_from_inline(node):
                manglings = [node[key] for key in ("interface_type", "extended_type") if isinstance(node.get(key), str)]
                signature = self.strings(node, ("inherits", "generic_signature", "where_requirements"))
                manglings += [t for t in signature if t.startswith("$s")]
                usrs = [t for t in signature if t.startswith("s:")]
                name = (node.get("name") or {}).get("base_name", {}).get("name") if isinstance(node.get("name"), dict) else None
                self.public.append((here, name or node.get("usr", kind), manglings, usrs, context))
        # A reference in an expression (`decl_usr`), a type written in the
        # source (`bind`), a protocol a requirement names (`protocol`).
        for key in ("decl_usr", "bind", "protocol"):
            usr = node.get(key)
            # `for await` calls `next(isolation:)` where the OS has it and
            # `next()` before: the compiler chooses, so the choice made on
            # this machine says nothing of an older OS.
            if context.get("for each") and USR_NAMES.get(usr, "").endswith("next(isolation:)"):
                continue
            if isinstance(usr, str) and MANGLED_USR.match(usr) and usr in self.by_usr:
                self.uses.append((here, USR_NAMES.get(usr, usr), self.by_usr[usr], context))
        for key in ("type", "interface_type", "extended_type", "type_usr"):
            mangled = node.get(key)
            if isinstance(mangled, str) and mangled.startswith("$s"):
                self.types.setdefault(mangled, []).append((here, context))
        if kind == "for_each_stmt":
            context = dict(context, **{"for each": True})
        if kind == "if_stmt":
            then_context = self.narrowed(context, self.conditions(node))
            for key, value in node.items():
                if key in ("then", "then_stmt", "body"):
                    self.walk(value, then_context, here)
                else:
                    self.walk(value, context, here)
            return
        if kind == "brace_stmt":
            inner = context
            for element in node.get("elements", []):
                self.walk(element, inner, here)
                if isinstance(element, dict) and element.get("_kind") == "guard_stmt":
                    inner = self.narrowed(inner, self.conditions(element))
            return
        for value in node.values():
            self.walk(value, context, here)

    def violations(self, type_names):
        found = []

        def check(offset, what, introduced, context):
            for domain, required in self.floor.items():
                needed = introduced.get(domain) or introduced.get(INHERITS.get(domain, ""))
                if needed and needed > context.get(domain, required) and needed > required:
                    found.append((self.line(offset), what, domain, needed, context.get(domain, required)))
                    return

        for offset, what, introduced, context in self.uses:
            check(offset, what, introduced, context)
        for mangled, places in self.types.items():
            for name in type_names.get(mangled, []):
                if name in self.by_type:
                    for offset, context in places:
                        check(offset, name, self.by_type[name], context)
        return found

    def ungated_observation(self, type_names):
        """Public declarations naming an Observation type that do not
        require what `@Observable` requires."""
        found = []
        for offset, name, manglings, usrs, context in self.public:
            named = [n for m in manglings for n in type_names.get(m, []) if n.startswith("Observation.")]
            named += [USR_NAMES.get(usr, usr) for usr in usrs if usr.startswith("s:11Observation")]
            if not named:
                continue
            missing = [f"{domain} {dotted(v)}" for domain, v in OBSERVATION_FLOOR.items()
                       if domain in self.floor and context.get(domain, self.floor[domain]) < v]
            if missing:
                found.append((self.line(offset), name, named[0], missing))
        return found


def demangled_types(manglings):
    """Mangled type → the `Module.Type` names of the toolchain modules in it."""
    manglings = sorted(manglings)
    if not manglings:
        return {}
    result = subprocess.run(["swift", "demangle", "--compact"], input="\n".join(manglings) + "\n",
                            capture_output=True, text=True)
    names = {}
    pattern = re.compile(r"\b(" + "|".join(re.escape(m) for m in MODULES) + r")\.([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Z][A-Za-z0-9_]*)*)")
    for mangled, line in zip(manglings, result.stdout.splitlines()):
        found = set()
        for module, path in pattern.findall(line):
            parts = path.split(".")
            for end in range(1, len(parts) + 1):
                found.add(module + "." + ".".join(parts[:end]))
        names[mangled] = sorted(found)
    return names


# What naming an Observation type requires: what `@Observable` requires.
OBSERVATION_FLOOR = {"macOS": (14, 0, 0), "iOS": (17, 0, 0), "tvOS": (17, 0, 0), "watchOS": (10, 0, 0),
                     "macCatalyst": (17, 0, 0)}


def main():
    global PACKAGE
    arguments = sys.argv[1:]
    if arguments[:1] == ["--package"]:
        PACKAGE = os.path.abspath(arguments[1])
        arguments = arguments[2:]
    if len(arguments) < 2:
        sys.exit(__doc__)
    scratch, targets = arguments[0], arguments[1:]
    floor = floor_of_package()
    print("floor: " + ", ".join(f"{d} {dotted(v)}" for d, v in sorted(floor.items())))
    by_usr, by_type = symbol_availability(scratch)
    print(f"{len(by_usr)} toolchain declarations with Apple availability")
    failures, gating = 0, []
    for target in targets:
        walkers = []
        for source, ast in ast_dumps(scratch, target):
            walker = Walker(floor, by_usr, by_type, source)
            walker.walk(ast, {})
            walkers.append(walker)
        names = demangled_types({m for w in walkers for m in w.types} |
                                {m for w in walkers for _, _, ms, _, _ in w.public for m in ms})
        reported = set()
        for walker in walkers:
            for line, what, domain, needed, allowed in walker.violations(names):
                key = (walker.source, line, what)
                if key in reported:
                    continue
                reported.add(key)
                failures += 1
                where = os.path.relpath(walker.source, PACKAGE)
                print(f"{where}:{line}: {what} needs {domain} {dotted(needed)}; "
                      f"this code is available from {domain} {dotted(allowed)}")
            for line, name, observation_type, missing in walker.ungated_observation(names):
                gating.append(f"{os.path.relpath(walker.source, PACKAGE)}:{line}: {name} names {observation_type} "
                              f"but is not @available({', '.join(missing)}, *)")
        print(f"{target}: {len(walkers)} files checked")
    for line in gating:
        print(line)
    if failures or gating:
        print(f"availability check: {failures} uses above the floor; "
              f"{len(gating)} public symbols naming an Observation type below its floor", file=sys.stderr)
        sys.exit(1)
    print("availability check: nothing above the floor; every public symbol naming an Observation type "
          "requires what @Observable requires")


if __name__ == "__main__":
    main()
