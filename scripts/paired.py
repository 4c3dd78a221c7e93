"""The benchmark's one way of comparing sides (apps, or an app and redis-benchmark): used by every comparison in
scripts/benchmark.py, and by its order study, which varies one part of it at a time.

The method: every side gets the same untimed warm-up requests; then the JVMs are left until their JIT compiler
threads and the whole process are quiet, so each app starts its tries from the same JIT state and no JVM's late
compilation or GC runs on the two cores during another side's try; then the tries, each running every side once on
flushed servers, in alternating order (A B, B A, ...), waiting for quiet before every run. Each side is reported
with its median and range, each ratio with the median of the per-try ratios and their range.
"""
import os
import statistics
import time
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")
# A JVM counts as quiet when it used less than this share of one core over QUIET_WINDOW seconds.
QUIET_SHARE = 0.05
QUIET_WINDOW = 0.5
QUIET_TIMEOUT = 30
MIN_TRIES = 5


class Side:
    """One side of a comparison: `run()` does one timed run and answers ops/s, or (ops/s, a note for the table);
    `pid` is its JVM's process id (None for redis-benchmark), so the others' background CPU can be told apart."""

    def __init__(self, name, run, pid=None):
        self.name = name
        self.run = run
        self.pid = pid


def cpu_seconds(pid):
    """utime + stime of a process (all its threads) from /proc, in seconds; 0 once it has gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICKS


def thread_cpu(pid):
    """CPU seconds per thread name of a process (names as the kernel keeps them, cut to 15 characters)."""
    by_name = {}
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            name = (task / "comm").read_text().strip()
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        by_name[name] = by_name.get(name, 0.0) + (int(fields[11]) + int(fields[12])) / TICKS
    return by_name


def compiler_seconds(pid):
    return sum(cpu for name, cpu in thread_cpu(pid).items() if "CompilerThre" in name)


def wait_quiet(pids, timeout=QUIET_TIMEOUT):
    """Waits until every JVM in `pids` used less than QUIET_SHARE of a core over a window, its JIT compiler threads
    included; answers the seconds waited (the timeout when the machine never got that quiet)."""
    pids = [pid for pid in pids if pid]
    started = time.monotonic()
    while pids and time.monotonic() - started < timeout:
        before = [cpu_seconds(pid) for pid in pids]
        time.sleep(QUIET_WINDOW)
        if all(cpu_seconds(pid) - b < QUIET_SHARE * QUIET_WINDOW for pid, b in zip(pids, before)):
            break
    return time.monotonic() - started


class Tries:
    """What paired_tries measured: ops/s per side per try, the order of each try, and per run the CPU the other
    JVMs used while it ran (ms): the background work a side had to share the two cores with."""

    def __init__(self, sides):
        self.names = [side.name for side in sides]
        self.ops = {name: [] for name in self.names}
        self.notes = {name: [] for name in self.names}
        self.background = {name: [] for name in self.names}
        self.orders = []
        self.settle_seconds = []

    def extend(self, other):
        """Appends another run's tries of the same sides (the order study's cold tries, one fresh pair each)."""
        for name in self.names:
            self.ops[name] += other.ops[name]
            self.notes[name] += other.notes[name]
            self.background[name] += other.background[name]
        self.orders += other.orders
        self.settle_seconds += other.settle_seconds
        return self

    def ratios(self, over, under):
        return [a / b for a, b in zip(self.ops[over], self.ops[under])]


def paired_tries(sides, tries, warm_requests, flush, order="alternate", settle=True, log=print):
    """Runs the one method (see the module's doc); `order` "alternate" or "as-given" (every try in the order of
    `sides`, for the order study), `settle` False skips the waits for quiet (also only for the order study)."""
    pids = [side.pid for side in sides if side.pid]
    for _ in range(warm_requests):
        for side in sides:
            flush()
            side.run()
    result = Tries(sides)
    if settle:
        # The same JIT state for every app: warm, and no compilation still queued from the warm-up.
        result.settle_seconds.append(wait_quiet(pids))
    for i in range(tries):
        ordered = sides if order == "as-given" or i % 2 == 0 else sides[::-1]
        result.orders.append(" ".join(chr(ord("A") + sides.index(side)) for side in ordered))
        for side in ordered:
            flush()
            if settle:
                result.settle_seconds.append(wait_quiet(pids))
            others = [pid for pid in pids if pid != side.pid]
            before = sum(cpu_seconds(pid) for pid in others)
            log(f"try {i + 1}/{tries}: {side.name}")
            answer = side.run()
            ops, note = answer if isinstance(answer, tuple) else (answer, "")
            result.background[side.name].append((sum(cpu_seconds(pid) for pid in others) - before) * 1000)
            result.ops[side.name].append(ops)
            result.notes[side.name].append(note)
    return result


def fmt(number):
    return f"{number:,.0f}"


def spread(values, pct=False):
    show = (lambda v: f"{v:.0%}") if pct else fmt
    return f"{show(statistics.median(values))} ({show(min(values))}-{show(max(values))})"


def method_text(tries, warm_requests):
    caveat = "" if tries >= MIN_TRIES else f" **Fewer than {MIN_TRIES} tries: a smoke run, not a figure.**"
    return (f"One method (docs/benchmark.md, \"One method for every comparison\"): "
            f"{warm_requests} untimed warm-up request(s) per side, then a wait until every JVM (JIT compiler "
            f"threads included) is quiet; {tries} tries, each running every side once on flushed servers in "
            "alternating order (A B, B A, ...), waiting for quiet before each run; medians with the range of the "
            "tries, ratios as the median of the per-try ratios (range)." + caveat)


def tables(result, ratios):
    """Markdown: one row per try (sides, then ratios, then the order), and a summary of medians and ranges."""
    letters = {name: chr(ord("A") + i) for i, name in enumerate(result.names)}
    heads = [f"{letters[name]}: {name}" for name in result.names] + [f"{over} / {under}" for over, under in ratios]
    lines = ["| try | order | " + " | ".join(heads) + " |", "|---:|---|" + "---:|" * len(heads)]
    for i, order in enumerate(result.orders):
        cells = []
        for name in result.names:
            note = result.notes[name][i]
            cells.append(fmt(result.ops[name][i]) + (f" ({note})" if note else ""))
        cells += [f"{result.ops[over][i] / result.ops[under][i]:.0%}" for over, under in ratios]
        lines.append(f"| {i + 1} | {order} | " + " | ".join(cells) + " |")
    lines += ["", "| side or ratio | median (range) | other JVMs' CPU during its runs, median ms |", "|---|---:|---:|"]
    for name in result.names:
        background = result.background[name]
        lines.append(f"| {letters[name]}: {name} ops/s | {spread(result.ops[name])} | "
                     f"{fmt(statistics.median(background)) if background else ''} |")
    for over, under in ratios:
        lines.append(f"| **{over} / {under}** (median of paired ratios) | **{spread(result.ratios(over, under), True)}**"
                     " | |")
    if result.settle_seconds:
        lines += ["", f"Waited for quiet JVMs: {sum(result.settle_seconds):,.1f} s in all, at most "
                      f"{max(result.settle_seconds):,.1f} s before one run."]
    return lines + [""]
