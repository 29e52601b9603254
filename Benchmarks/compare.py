"""Prints the budget table for one run of the benchmark suites.

Input: package-benchmark's JMH export. Each per-operation row runs 1,000
operations per sample, so a sample's wall-clock microseconds are nanoseconds
per operation; medians (p50) are used throughout.

Times come from the Floors, Ours and Anchors suites; memory from the Memory
suite (bytes asked for, by the malloc interposer) and from HeapProbe (the
heap's growth, which the memory budgets are on). A ratio budget is judged
on the Paired suite, whose rounds time the reference and our row back to back
(the median of the rounds' ratios); the ratio of the two separate medians,
measured minutes apart, is shown next to it.

Instructions per operation come from count-instructions.sh's TSV
(.instructions.tsv, or --instructions FILE), when there is one: each time
row's, and each side of each Paired row's, counted with callgrind. A ratio
row shows its Paired row's two sides when they were counted, else the two
time rows'. The table can be printed from the counts alone, without a run.
"""

import argparse
import csv
import json
import os
import sys

OPS_PER_SAMPLE = 1000
ONE_OBSERVER = "ours: write, 1 .old|.new observer(s)"

# package-benchmark's JMH export carries a metric a row did not measure over
# from the rows before it, so each row is read only for what it measured.
TIME_ONLY = (
    "observe + invalidate",
    "Observation register + write + onChange",
    "register + write + onChange",
    "sink create + cancel",
    "sink + cancel",
)
MEMORY_METRICS = {
    "memory: ours, live registration (token included)": "live bytes per registration",
    "memory: anchor OpenCombine sink": "live bytes per registration",
    "memory: anchor Observation tracking": "live bytes per registration",
    "memory: ours, bytes added per unobserved object": "bytes added per object",
    "memory: ours, first observation of an object": "live bytes per registration",
    "memory: ours, registration on another key of an observed object": "live bytes per registration",
    "memory: ours, bytes added per unobserved object declaring Observable": "bytes added per object",
    "memory: ours, bytes added per written object declaring Observable": "bytes added per object",
    "memory: anchor @Observable, bytes added per object": "bytes added per object",
    "memory: ours, publisher(for:) sink": "live bytes per registration",
    "memory: anchor OpenCombine @Published sink": "live bytes per registration",
    "memory: ours, controller observation": "live bytes per registration",
    "memory: ours, classic observer": "live bytes per registration",
    "memory: ours, changes(for:) stream": "live bytes per registration",
}


# The anchors' median times on this project's reference machines, from
# The anchors as first measured on this project's Linux machines, in ns
# (Benchmarks/README.md, Budgets).
REFERENCE_ANCHORS = {
    "anchor: Observation @Observable write, no observer": (51, 54),
    "anchor: Observation register + write + onChange": (890, 980),
    "anchor: OpenCombine @Published write, 0 sink(s)": (160, 200),
    "anchor: OpenCombine @Published write, 1 sink(s)": (260, 350),
    "anchor: OpenCombine @Published write, 10 sink(s)": (1400, 1500),
    "anchor: OpenCombine CurrentValueSubject.send, 1 sink": (128, 135),
    "anchor: OpenCombine sink create + cancel": (1300, 1550),
}


def machine_factor(rows):
    """How much slower (above 1) or faster this run's machine was than
    the machines the budgets were set on: the geometric mean, over the
    anchors, of each one's median here divided by the middle of its
    reference range."""
    ratios = []
    for name, (low, high) in REFERENCE_ANCHORS.items():
        value = ns_per_op(rows, name)
        if value:
            ratios.append(value / ((low + high) / 2))
    if not ratios:
        return None, 0
    product = 1.0
    for ratio in ratios:
        product *= ratio
    return product ** (1 / len(ratios)), len(ratios)


def load(path):
    if not os.path.exists(path):
        print(f"compare.py: no results in {path}: times left out", file=sys.stderr)
        return {}
    with open(path) as handle:
        elements = json.load(handle)
    rows = {}
    for element in elements:
        name = element["benchmark"].split(".", 3)[-1].replace("_", " ")
        metrics = element["secondaryMetrics"]
        row = {}
        for metric, data in metrics.items():
            row[metric] = data["scorePercentiles"]["50.0"]
        # HeapProbe adds the heap's count to a row the Memory suite has.
        rows.setdefault(name, {}).update(row)
    return rows


def load_instructions(path):
    """count-instructions.sh's counts: {(row, side): instructions per
    operation}, side being "" for a time row and "ours" or "reference" for
    a Paired row's."""
    counts = {}
    if path is None or not os.path.exists(path):
        return counts
    with open(path, newline="") as handle:
        for line in csv.DictReader(handle, delimiter="\t"):
            counts[(line["row"], line["side"])] = float(line["instructions per operation"])
    return counts


def paired_ratio(rows, name):
    """The median of a Paired row's per-round ratios (recorded in thousandths)."""
    value = custom(rows, name, "ratio (per mille)")
    return None if value is None else value / 1000


def ns_per_op(rows, name):
    row = rows.get(name)
    if row is None or "Time (wall clock)" not in row:
        return None
    # JMH scores time in microseconds per sample of 1,000 operations.
    return row["Time (wall clock)"] * 1000 / OPS_PER_SAMPLE


def mallocs_per_op(rows, name):
    row = rows.get(name)
    if row is None or "Malloc (total)" not in row or any(part in name for part in TIME_ONLY):
        return None
    return row["Malloc (total)"] / OPS_PER_SAMPLE


def seconds(rows, name):
    row = rows.get(name)
    if row is None:
        return None
    return row["Time (wall clock)"] / 1e6


def custom(rows, name, metric):
    row = rows.get(name)
    return None if row is None else row.get(metric)


def instruction_text(value):
    """Instructions per operation, whole above 100 (callgrind's counts are
    exact; the per-operation share of a loop's entry and exit is not)."""
    if value is None:
        return ""
    return f"{value:,.0f}" if value >= 100 else f"{value:.1f}"


def main(path, instructions_path):
    rows = load(path)
    counts = load_instructions(instructions_path)
    table = []

    def instructions(paired=None, names=(None, None)):
        """(ours, reference) instructions per operation: the Paired row's
        two sides when both were counted, else the two time rows'."""
        if paired and (paired, "ours") in counts and (paired, "reference") in counts:
            return counts[(paired, "ours")], counts[(paired, "reference")]
        return tuple(counts.get((name, "")) if name else None for name in names)

    def add(label, value, unit, reference_label, reference, ratio, budget, met, separate=None,
            counted=(None, None)):
        table.append((label, value, unit, reference_label, reference, ratio, separate, counted, budget, met))

    def ratio_row(label, ours, reference_label, reference, limit, paired=None, at_least=False, names=(None, None)):
        """A ratio budget: judged on the Paired suite's row `paired` when
        the run has it, else on the two separate medians. `names`: the
        time rows of ours and of the reference, for their instructions."""
        separate = ours / reference if ours is not None and reference else None
        ratio = paired_ratio(rows, paired) if paired else None
        if ratio is None:
            ratio = separate
        met = None if ratio is None else (ratio >= limit if at_least else ratio <= limit)
        add(label, ours, "ns", reference_label, reference, ratio, limit_text(limit, at_least), met, separate,
            instructions(paired, names))

    def limit_text(limit, at_least):
        return ("≥ " if at_least else "≤ ") + f"{limit:.3g}×"

    floor_write = ns_per_op(rows, "floor: plain stored write")
    floor_closure = ns_per_op(rows, "floor: write + direct closure call with (old, new)")
    unobserved = ns_per_op(rows, "ours: unobserved write")
    one = ns_per_op(rows, "ours: write, 1 .old|.new observer(s)")
    ten = ns_per_op(rows, "ours: write, 10 .old|.new observer(s)")
    subject = ns_per_op(rows, "anchor: OpenCombine CurrentValueSubject.send, 1 sink")

    ratio_row("unobserved write", unobserved, "plain stored write", floor_write, 1.5,
              "paired: unobserved write ÷ plain stored write",
              names=("ours: unobserved write", "floor: plain stored write"))
    ratio_row("write, 1 observer", one, "write + closure call", floor_closure, 10,
              "paired: write, 1 .old|.new observer ÷ write + direct closure call",
              names=(ONE_OBSERVER, "floor: write + direct closure call with (old, new)"))
    ratio_row("write, 1 observer", one, "CurrentValueSubject.send", subject, 0.2,
              "paired: write, 1 .old|.new observer ÷ CurrentValueSubject.send, 1 sink",
              names=(ONE_OBSERVER, "anchor: OpenCombine CurrentValueSubject.send, 1 sink"))
    ratio_row("write, 10 observers", ten, "write, 1 observer", one, 3,
              "paired: write, 10 .old|.new observers ÷ write, 1 observer",
              names=("ours: write, 10 .old|.new observer(s)", ONE_OBSERVER))

    # The paths beyond a stored key (issue 15's budgets), each judged on its
    # Paired row against the stored key's one-observer write, or against
    # itself at 10 elements.
    for label, name, paired, reference_label, limit in [
        ("write to a dependency of a computed key", "ours: write to a dependency of an observed computed property",
         "paired: write to a dependency of a computed key ÷ write, 1 observer", "write, 1 observer", 8),
        ("write to the leaf of a 3-link chain", "ours: write to the leaf of an observed 3-link chain",
         "paired: write to the leaf of a 3-link chain ÷ write, 1 observer", "write, 1 observer", 10),
        ("write to the leaf of an optional 3-link chain", None,
         "paired: write to the leaf of an optional 3-link chain ÷ write, 1 observer", "write, 1 observer", 10),
        ("the same through a weak link", None,
         "paired: write to the leaf of a 3-link chain through a weak link ÷ write, 1 observer", "write, 1 observer", 10),
        ("the same, observed with .deallocation", None,
         "paired: weak-linked chain leaf write, heard freed ÷ not", "the same without it", 1.05),
        ("replacing the middle link of an optional chain", None,
         "paired: replacing the middle link of an optional chain ÷ of a non-optional chain", "the same, non-optional", 3),
        ("classic observer write (change dictionary)", "ours: classic observer write, .old|.new",
         "paired: classic observer write ÷ write, 1 observer", "write, 1 observer", 6),
        ("setValue(_:forKey:), 1 observer", "ours: setValue(forKey:), 1 .old|.new observer",
         "paired: setValue(forKey:) ÷ write, 1 observer", "write, 1 observer", 5),
        ("array-proxy append, 1 observer", "ours: array-proxy append, 1 .old|.new observer",
         "paired: array-proxy append, 1 observer ÷ write, 1 observer", "write, 1 observer", 6),
        ("array-proxy append at 1,000,000 elements", None,
         "paired: array-proxy append at 1000000 elements ÷ at 10, 1 observer", "the same at 10", 1.5),
        ("array-proxy append at 1,000,000, unobserved", None,
         "paired: array-proxy append at 1000000 elements, unobserved ÷ write, 1 observer", "write, 1 observer", 6),
        ("direct items.append at 1,000,000 elements (.new)", None,
         "paired: direct append at 1000000 elements ÷ at 10, 1 .new observer", "the same at 10", 1.5),
        ("computed key over 1,000 objects, write to one", None,
         "paired: computed key over 1000 objects, write to one ÷ its getter, untracked", "its getter, untracked", 5),
        ("write with 10,000 observers of a computed key", None,
         "paired: write with 10000 observers of a computed key ÷ with 1000", "the same with 1,000", 15),
        # Issues 47 and 53: a tracked closure against an observed computed
        # key over the same reads; a bound write against what a user writes
        # by hand: a one-observer write plus the target's own direct write.
        ("write re-running a tracked closure", None,
         "paired: write re-running a tracked closure ÷ write to a dependency of a computed key",
         "observed computed key, same reads", 1.2),
        ("the value form, .old and .new on both sides", None,
         "paired: write re-reading a tracked value, .old|.new ÷ a computed key observed .old|.new",
         "computed key, .old|.new", 1.3),
        ("the same, key-value only", None,
         "paired: write re-running a tracked closure, key-value only ÷ write to a dependency of a computed key",
         "observed computed key, same reads", 1.2),
        ("one-way bound write", None,
         "paired: one-way bound write ÷ write, 1 observer + the target's direct write",
         "write, 1 observer + target's direct write", 2),
        ("two-way bound write", None,
         "paired: two-way bound write ÷ two writes, 1 observer each",
         "two observed writes", 2),
        # Issue 65: a write to an object of an observed model graph against
        # the same write with one observer of the key; observing a graph
        # against itself at a tenth of the size (O(N): at most 10× for ten
        # times the objects, and a tenth for the noise).
        ("write to an item of an observed graph of 100", None,
         "paired: write to an item of an observed graph of 100 ÷ write, 1 observer of the key",
         "write, 1 observer of the key", 1.5),
        ("the same, an Int, against the one-observer write", None,
         "paired: write to an Int of an item of an observed graph of 100 ÷ write, 1 observer",
         "write, 1 observer", 1.5),
        ("observeGraph + invalidate, 1,000 objects", None,
         "paired: observeGraph + invalidate, 1000 objects ÷ 100 objects", "the same, 100 objects", 11),
        ("recording an undo step for a setting", None,
         "paired: recording an undo step for a setting ÷ write, 1 observer", "write, 1 observer", 2),
        ("the same, in a group (undo.group { })", None,
         "paired: recording an undo step for a setting, in a group ÷ write, 1 observer", "write, 1 observer", 2),
    ]:
        value = ns_per_op(rows, name) if name else None
        reference = one if reference_label == "write, 1 observer" else None
        ratio_row(label, value, reference_label, reference, limit, paired,
                  names=(name, ONE_OBSERVER if reference_label == "write, 1 observer" else None))

    mallocs = mallocs_per_op(rows, ONE_OBSERVER)
    add("mallocs per notification", mallocs, "", "", None, None, "= 0",
        None if mallocs is None else mallocs < 0.001)

    # The budgets are ratios in one run (Benchmarks/README.md); the one absolute
    # budget is read against the anchors of the same run: 150 ns on the
    # machines whose anchor times the README lists, scaled by how much slower
    # or faster the anchors ran here.
    factor, _ = machine_factor(rows)
    for others in [0, 1000]:
        name = f"ours: observe + invalidate, {others} other observers"
        value = ns_per_op(rows, name)
        counted = instructions(names=(name, None))
        if factor is None:
            add(f"observe + invalidate, {others} others", value, "ns", "", None, None, "≤ 150 ns",
                None if value is None else value <= 150, counted=counted)
        else:
            add(f"observe + invalidate, {others} others", value, "ns", "anchors' speed", factor, None,
                f"≤ 150 ns × {factor:.2f} = {150 * factor:.0f} ns", None if value is None else value <= 150 * factor,
                counted=counted)
    base = ns_per_op(rows, "ours: observe + invalidate, 0 other observers")
    crowded = ns_per_op(rows, "ours: observe + invalidate, 1000 other observers")
    ratio_row("observe + invalidate, 1000 others", crowded, "0 others", base, 1.5,
              "paired: observe + invalidate, 1000 other observers ÷ none",
              names=("ours: observe + invalidate, 1000 other observers",
                     "ours: observe + invalidate, 0 other observers"))

    # O(1) amortised in the other registrations: the time per call next to
    # 20,000 others against next to 1,000.
    for label, name, paired in [
        ("controller observe + unobserve", "ours: controller observe + unobserve, {} other observations",
         "paired: controller observe + unobserve, 20000 other observations ÷ 1000"),
        ("classic add + remove", "ours: classic add + remove, {} other observers",
         "paired: classic add + remove, 20000 other observers ÷ 1000"),
    ]:
        few = ns_per_op(rows, name.format(1000))
        many = ns_per_op(rows, name.format(20000))
        ratio_row(f"{label}, 20000 others", many, "1000 others", few, 2, paired,
                  names=(name.format(20000), name.format(1000)))

    # Memory budgets are on the heap (allocator headers and rounding
    # included); the bytes asked for are shown next to each.
    for label, name, limit, reference_label, reference_name in [
        # The budget: each later registration on a key, in long lists too,
        # two objects (registration and token): ≤ 112 B.
        ("heap per registration on an observed key (token included)",
         "memory: ours, live registration (token included)", 112,
         "OpenCombine sink", "memory: anchor OpenCombine sink"),
        ("heap of a first observation (storage + registration + token)",
         "memory: ours, first observation of an object", 256, "", None),
        ("heap of a registration on another key of an observed object",
         "memory: ours, registration on another key of an observed object", 128, "", None),
        # Closure, rerun (its host, with its storage), derived observation
        # with its lock and dependency list, two dependency registrations,
        # the token, and the object's storage: HeapProbe only.
        ("heap of a tracked closure over two keys of a fresh object",
         "memory: ours, tracked closure over two keys of a fresh object", 512, "", None),
        # Issue 65: the graph's own heap, its objects' storages made before.
        ("heap per object of an observed model graph of 1,000",
         "memory: ours, model graph of 1000 objects, per object", 128, "", None),
        ("heap per object of an observed model graph of 100,000",
         "memory: ours, model graph of 100000 objects, per object", 128, "", None),
    ]:
        value = custom(rows, name, "heap bytes per registration")
        requested = custom(rows, name, "live bytes per registration")
        reference = custom(rows, reference_name, "heap bytes per registration") if reference_name else None
        add(label, value, "B", reference_label, reference, None,
            f"≤ {limit} B (asked for: {'n/a' if requested is None else f'{requested:.0f} B'})",
            None if value is None else value <= limit)
    per_object = custom(rows, "memory: ours, bytes added per unobserved object", "bytes added per object")
    add("memory added per unobserved object", per_object, "B", "", None, None, "≤ 8 B",
        None if per_object is None else per_object <= 8)

    one_thread = seconds(rows, "scaling: 1 thread(s), 1000000 observed writes each")
    two_threads = seconds(rows, "scaling: 2 thread(s), 1000000 observed writes each")
    floor_one = seconds(rows, "scaling floor: 1 thread(s), 1000000 plain writes each")
    floor_two = seconds(rows, "scaling floor: 2 thread(s), 1000000 plain writes each")
    floor_speedup = paired_ratio(rows, "paired: 2 threads ÷ 1 thread, plain writes (speedup)")
    if floor_speedup is None and floor_one and floor_two:
        floor_speedup = 2 * floor_one / floor_two
    separate = 2 * one_thread / two_threads if one_thread and two_threads else None
    speedup = paired_ratio(rows, "paired: 2 threads ÷ 1 thread, observed writes (speedup)") or separate
    add("2 threads, 2 objects: throughput", speedup, "×", "plain writes, same", floor_speedup,
        speedup, "≥ 1.8×", None if speedup is None else speedup >= 1.8, separate)

    # Issue 63: two threads writing one observed object, against the same two
    # threads serialised by one pthread_mutex around each write. Time per
    # write from the Scaling rows (a sample is both threads' 2,000,000
    # writes); the budget is judged on the Paired row. The names say
    # "pthread mutex": the JMH export turns underscores into spaces.
    def per_write(name):
        value = seconds(rows, name)
        return None if value is None else value * 1e9 / 2_000_000
    ratio_row("2 threads writing 1 observed object, per write",
              per_write("scaling: 2 threads, 1 object, 1000000 observed writes each"),
              "the same, a pthread_mutex around each write",
              per_write("scaling reference: 2 threads, 1 object, 1000000 observed writes each, "
                        "a pthread mutex around each"),
              1.0, "paired: 2 threads writing 1 observed object ÷ the same serialised by a pthread mutex")

    changes = ns_per_op(rows, "ours: changes(for:) per delivered change")
    stream = ns_per_op(rows, "floor: AsyncStream hand-off")
    ratio_row("changes(for:) per delivered change", changes, "AsyncStream hand-off", stream, 1.2,
              "paired: changes(for:) per delivered change ÷ AsyncStream hand-off",
              names=("ours: changes(for:) per delivered change", "floor: AsyncStream hand-off"))

    # A class that declares Observable, next to @Observable's own and to a
    # class that does not declare it.
    tracked = ns_per_op(rows, "ours: unobserved write, class declaring Observable")
    observation_write = ns_per_op(rows, "anchor: Observation @Observable write, no observer")
    ratio_row("unobserved write, class declaring Observable", tracked, "@Observable write, no observer",
              observation_write, 1, "paired: unobserved write, declaring Observable ÷ @Observable's",
              names=("ours: unobserved write, class declaring Observable",
                     "anchor: Observation @Observable write, no observer"))
    ratio_row("the same, both classes in another module", None, "@Observable write, no observer", None, 1,
              "paired: unobserved write, declaring Observable ÷ @Observable's, across modules")

    def info_row(label, ours, unit, reference_label, reference, paired=None, names=(None, None)):
        """A row measured for comparison, with no budget."""
        separate = ours / reference if ours is not None and reference else None
        ratio = (paired_ratio(rows, paired) if paired else None) or separate
        add(label, ours, unit, reference_label, reference, ratio, "none set", None, separate,
            instructions(paired, names))

    info_row("unobserved write, class declaring Observable", tracked, "ns", "same, not declaring it", unobserved,
             "paired: unobserved write, declaring Observable ÷ not declaring it",
             names=("ours: unobserved write, class declaring Observable", "ours: unobserved write"))
    info_row("Observation register + write + onChange",
             ns_per_op(rows, "ours: Observation register + write + onChange, class declaring Observable"), "ns",
             "@Observable's", ns_per_op(rows, "anchor: Observation register + write + onChange"),
             "paired: register + write + onChange, declaring Observable ÷ @Observable's",
             names=("ours: Observation register + write + onChange, class declaring Observable",
                    "anchor: Observation register + write + onChange"))
    observation_object = custom(rows, "memory: anchor @Observable, bytes added per object", "bytes added per object")
    for label, name in [
        ("memory added per unobserved object declaring Observable",
         "memory: ours, bytes added per unobserved object declaring Observable"),
        ("memory added per written object declaring Observable",
         "memory: ours, bytes added per written object declaring Observable"),
    ]:
        info_row(label, custom(rows, name, "bytes added per object"), "B", "@Observable object", observation_object)

    # publisher(for:), next to OpenCombine's @Published.
    ratio_row("write, 1 publisher(for:) sink", ns_per_op(rows, "ours: write, 1 publisher(for:) sink"),
              "@Published write, 1 sink", ns_per_op(rows, "anchor: OpenCombine @Published write, 1 sink(s)"), 0.5,
              "paired: write, 1 publisher(for:) sink ÷ OpenCombine @Published write, 1 sink",
              names=("ours: write, 1 publisher(for:) sink", "anchor: OpenCombine @Published write, 1 sink(s)"))
    ratio_row("publisher(for:) sink + cancel", ns_per_op(rows, "ours: publisher(for:) sink + cancel"),
              "@Published sink + cancel", ns_per_op(rows, "anchor: OpenCombine @Published sink create + cancel"),
              1 / 3, "paired: publisher(for:) sink + cancel ÷ OpenCombine @Published sink + cancel",
              names=("ours: publisher(for:) sink + cancel", "anchor: OpenCombine @Published sink create + cancel"))
    just = "paired: OpenCombine Just sink + cancel ÷ OpenCombine @Published sink + cancel"
    add("floor: OpenCombine Just sink + cancel", None, "ns", "@Published sink + cancel", None,
        paired_ratio(rows, just), "none set", None, counted=instructions(just))
    mapped = "paired: publisher(for:) map + sink + cancel ÷ OpenCombine @Published map + sink + cancel"
    add("publisher(for:) map + sink + cancel", None, "ns", "@Published map + sink + cancel", None,
        paired_ratio(rows, mapped), "none set", None, counted=instructions(mapped))
    for label, name, reference_label, reference_name in [
        ("heap per publisher(for:) sink", "memory: ours, publisher(for:) sink",
         "@Published sink", "memory: anchor OpenCombine @Published sink"),
        ("heap per controller observation", "memory: ours, controller observation",
         "OpenCombine sink", "memory: anchor OpenCombine sink"),
        ("heap per classic observer", "memory: ours, classic observer",
         "OpenCombine sink", "memory: anchor OpenCombine sink"),
        ("heap per changes(for:) stream", "memory: ours, changes(for:) stream",
         "Observation tracking", "memory: anchor Observation tracking"),
    ]:
        info_row(label, custom(rows, name, "heap bytes per registration"), "B", reference_label,
                 custom(rows, reference_name, "heap bytes per registration"))

    print("| our row | ours | compared with | that | ratio | separate rows | instructions, ours | that "
          "| instruction ratio | budget | met |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|---|---|")
    for label, value, unit, reference_label, reference, ratio, separate, counted, budget, met in table:
        ours_ir, reference_ir = counted
        print("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |".format(
            label,
            "n/a" if value is None else f"{value:.2f} {unit}".strip(),
            reference_label or "",
            "" if reference is None else f"{reference:.2f}",
            "" if ratio is None else f"{ratio:.2f}",
            "" if separate is None else f"{separate:.2f}",
            instruction_text(ours_ir),
            instruction_text(reference_ir),
            f"{ours_ir / reference_ir:.2f}" if ours_ir is not None and reference_ir else "",
            budget,
            "—" if budget == "none set" else "not measured" if met is None else ("yes" if met else "**no**"),
        ))

    factor, count = machine_factor(rows)
    if factor is not None:
        print()
        print(f"Machine speed in this run: the anchors took {factor:.2f}× the times the budgets list for them "
              f"(geometric mean over {count} anchors), so the 150 ns budget of observe + invalidate, set on "
              f"the budgets' machines, is {150 * factor:.0f} ns in this run.")

    print()
    print("Anchors in the same run (median ns per operation; instructions per operation, callgrind):")
    print()
    print("| row | ns | mallocs | instructions |")
    print("|---|---:|---:|---:|")
    time_rows = {name for name in rows if name.startswith(("anchor:", "floor:", "ours:"))}
    time_rows |= {name for name, side in counts if side == ""}
    for name in sorted(time_rows):
        value = ns_per_op(rows, name)
        count = mallocs_per_op(rows, name)
        label = name.replace("|", "\\|")  # a cell may not hold a bare pipe
        print(f"| {label} | {'' if value is None else f'{value:.2f}'} | {'' if count is None else f'{count:.3f}'} "
              f"| {instruction_text(counts.get((name, '')))} |")
    paired_rows = sorted({name for name, side in counts if side in ("ours", "reference")})
    if paired_rows:
        print()
        print("Paired rows in instructions per operation (callgrind; each side counted on its own), "
              "beside the time ratio of the same run:")
        print()
        print("| paired row | ours | reference | instruction ratio | time ratio |")
        print("|---|---:|---:|---:|---:|")
        for name in paired_rows:
            ours_ir, reference_ir = counts.get((name, "ours")), counts.get((name, "reference"))
            ratio = paired_ratio(rows, name)
            print(f"| {name.replace('|', chr(92) + '|')} | {instruction_text(ours_ir)} | {instruction_text(reference_ir)} "
                  f"| {f'{ours_ir / reference_ir:.2f}' if ours_ir is not None and reference_ir else ''} "
                  f"| {'' if ratio is None else f'{ratio:.2f}'} |")
    print()
    print("Memory in the same run (per registration or object: bytes asked for, and the heap's growth):")
    print()
    print("| row | asked for | heap |")
    print("|---|---:|---:|")
    for name, metric in MEMORY_METRICS.items():
        value = custom(rows, name, metric)
        heap = custom(rows, name, "heap bytes per registration") if metric == "live bytes per registration" else None
        if value is not None:
            print(f"| {name} | {value:.0f} B | {'' if heap is None else f'{heap:.0f} B'} |")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="The budget table for one run of the benchmark suites.")
    parser.add_argument("results", nargs="?", default=".benchmarks-results.json",
                        help="package-benchmark's JMH export (compare.sh's .benchmarks-results.json)")
    parser.add_argument("--instructions", default=".instructions.tsv",
                        help="count-instructions.sh's counts (default: .instructions.tsv, if there is one)")
    arguments = parser.parse_args()
    main(arguments.results, arguments.instructions)
