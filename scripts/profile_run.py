"""The profile section of scripts/benchmark.py (`--only profile`): where `lab.pipeline.writes=per-flush` spends its
time on `/pipeset/<count>`, next to redis-benchmark -c 1 -P 1000 doing the same SETs (issue 22, item 4).

A warm per-flush app runs its timed requests under JFR (`jcmd JFR.start settings=profile`); around each request
and each redis-benchmark run, /proc gives the CPU seconds and read/write syscalls of the client (the app's JVM, or
redis-benchmark) and of redis-server, per million commands. JFR's execution samples say which methods and packages
the app's CPU went to, /proc's per-thread CPU which threads.
"""
import resource
import statistics
import subprocess
import sys
from collections import Counter
from pathlib import Path

import paired

# Kernel thread names (cut to 15 characters) to the part of the app they belong to.
THREAD_GROUPS = (("lettuce-", "Lettuce/Netty event loop"), ("http-nio-", "request thread (Tomcat)"),
                 ("C1 CompilerThre", "JIT compiler"), ("C2 CompilerThre", "JIT compiler"), ("GC Thread", "GC"),
                 ("G1 ", "GC"), ("VM Thread", "VM thread"), ("JFR", "JFR itself"))


def thread_group(name):
    for prefix, group in THREAD_GROUPS:
        if name.startswith(prefix):
            return group
    return "other"


def syscalls(pid):
    """Read and write syscalls a process has made (/proc/<pid>/io syscr + syscw)."""
    try:
        fields = dict(line.split(": ") for line in Path(f"/proc/{pid}/io").read_text().splitlines())
    except OSError:
        return 0
    return int(fields["syscr"]) + int(fields["syscw"])


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def jcmd(pid, *words):
    done = subprocess.run(["jcmd", str(pid), *words], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"jcmd {pid} {' '.join(words)} failed: {done.stdout[-300:]} {done.stderr[-300:]}")


def execution_samples(recording):
    """(thread name, top frame) of every jdk.ExecutionSample in a recording, from `jfr print`."""
    text = subprocess.run(["jfr", "print", "--events", "jdk.ExecutionSample", str(recording)], capture_output=True,
                          text=True, check=True).stdout
    samples, thread, in_stack, top = [], "", False, None
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("sampledThread = "):
            thread = stripped.split('"')[1] if '"' in stripped else stripped
        elif stripped.startswith("stackTrace = ["):
            in_stack, top = True, None
        elif in_stack and stripped == "]":
            in_stack = False
            samples.append((thread, top or "(no frame)"))
        elif in_stack and top is None and stripped and stripped != "...":
            top = stripped.split(" line:")[0].strip()
    return samples


def package_of(frame):
    """The package of a frame's class, cut to three parts: io.netty.buffer.PooledByteBuf.x() -> io.netty.buffer."""
    parts = frame.split("(")[0].split(".")
    package = []
    for part in parts:
        if part[:1].isupper():
            break
        package.append(part)
    return ".".join(package[:3]) or "(default)"


def share_rows(counter, total, limit, code=True):
    quote = "`" if code else ""
    return [f"| {quote}{name}{quote} | {count} | {count / total:.1%} |" for name, count in counter.most_common(limit)]


def profile_section(args, redis, start_app, workdir):
    """The tables: per run, client and server CPU and syscalls per million commands (app under JFR, then
    redis-benchmark); the app's CPU by thread; JFR's top methods and packages."""
    count = args.count
    per_million = 1_000_000 / count
    rows = []
    app = start_app(["--lab.pipeline.writes=per-flush"])
    try:
        pid = app.pid()
        path = f"/pipeset/{count}?sample=0"
        for _ in range(args.warm_requests):
            redis.flush()
            app.run(path)
        paired.wait_quiet([pid])
        recording = workdir / "per-flush.jfr"
        jcmd(pid, "JFR.start", "name=lab-profile", "settings=profile", f"filename={recording}")
        threads_before = paired.thread_cpu(pid)
        for i in range(args.profile_runs):
            redis.flush()
            paired.wait_quiet([pid])
            print(f"profile: per-flush run {i + 1}", file=sys.stderr)
            before = (paired.cpu_seconds(pid), paired.cpu_seconds(redis.proc.pid), syscalls(pid),
                      syscalls(redis.proc.pid))
            answer = app.run(path)
            after = (paired.cpu_seconds(pid), paired.cpu_seconds(redis.proc.pid), syscalls(pid),
                     syscalls(redis.proc.pid))
            server_cpu = (answer.get("server") or {}).get("cpuMicrosPerCommand")
            rows.append(("per-flush app", i + 1, answer["opsPerSecond"],
                         *[(b - a) * per_million for a, b in zip(before, after)], server_cpu))
        threads_after = paired.thread_cpu(pid)
        jcmd(pid, "JFR.stop", "name=lab-profile")
        samples = execution_samples(recording)
    finally:
        app.stop()
    for i in range(args.profile_runs):
        redis.flush()
        print(f"profile: redis-benchmark run {i + 1}", file=sys.stderr)
        before = (children_cpu(), paired.cpu_seconds(redis.proc.pid), syscalls(redis.proc.pid))
        ops = redis.benchmark("set", 1000, count, distinct=True)["set"]
        after = (children_cpu(), paired.cpu_seconds(redis.proc.pid), syscalls(redis.proc.pid))
        client, server, server_calls = [(b - a) * per_million for a, b in zip(before, after)]
        rows.append(("redis-benchmark -c 1 -P 1000", i + 1, ops, client, server, None, server_calls, None))
    redis.flush()

    lines = [f"## Profile: `lab.pipeline.writes=per-flush`, `/pipeset/{count}`, against redis-benchmark", "",
             f"A warm app ({args.warm_requests} untimed requests, then quiet), {args.profile_runs} timed requests under "
             "JFR (`settings=profile`), then as many `redis-benchmark -c 1 -P 1000 -r 100000000 -t set` runs of the "
             "same count on the same server. CPU and syscalls from /proc around each run, per million commands: an "
             "app request also pays its own warm-up top-up and the read-back of every key (about as many GETs), "
             "redis-benchmark neither; the INFO column is Redis' CPU around the timed SETs alone. redis-benchmark's "
             "own syscalls are not counted (it has exited before they could be read).", "",
             "| client | run | ops/s | client CPU s / 1M | redis-server CPU s / 1M | client syscalls / 1M | "
             "redis-server syscalls / 1M | server CPU µs/cmd (INFO, timed part) |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for name, run, ops, client, server, client_calls, server_calls, info in rows:
        lines.append(f"| {name} | {run} | {paired.fmt(ops)} | {client:.2f} | {server:.2f} | "
                     f"{paired.fmt(client_calls) if client_calls is not None else ''} | {paired.fmt(server_calls)} | "
                     f"{f'{info:.2f}' if info is not None else ''} |")
    lines.append("")
    for name in ("per-flush app", "redis-benchmark -c 1 -P 1000"):
        mine = [row for row in rows if row[0] == name]
        lines.append(f"- {name}: median {paired.fmt(statistics.median(r[2] for r in mine))} ops/s, client "
                     f"{statistics.median(r[3] for r in mine):.2f} s and redis-server "
                     f"{statistics.median(r[4] for r in mine):.2f} s of CPU per million commands")

    groups = Counter()
    for name, cpu in threads_after.items():
        groups[thread_group(name)] += cpu - threads_before.get(name, 0.0)
    spent = sum(groups.values()) or 1.0
    lines += ["", f"### The app's CPU by thread, over the {args.profile_runs} profiled requests", "",
              "| threads | CPU s | share | CPU s / 1M commands |", "|---|---:|---:|---:|"]
    for group, cpu in groups.most_common():
        lines.append(f"| {group} | {cpu:.2f} | {cpu / spent:.0%} | {cpu * per_million / args.profile_runs:.2f} |")

    total = len(samples) or 1
    lines += ["", f"### JFR execution samples: {len(samples)} in all", "",
              "| thread group | samples | share |", "|---|---:|---:|"]
    lines += share_rows(Counter(thread_group(thread[:15]) for thread, _ in samples), total, 10, code=False)
    lines += ["", "| top frame (method the sample was in) | samples | share |", "|---|---:|---:|"]
    lines += share_rows(Counter(frame.split("(")[0] for _, frame in samples), total, 20)
    lines += ["", "| package of the top frame | samples | share |", "|---|---:|---:|"]
    lines += share_rows(Counter(package_of(frame) for _, frame in samples), total, 12)
    return lines + ["", f"The recording: `{recording}` (open it in JDK Mission Control for whole stacks).", ""]
