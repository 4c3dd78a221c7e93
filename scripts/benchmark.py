#!/usr/bin/env python3
"""Runs the pipelining-lab benchmark matrix against a fresh redis-server and writes a Markdown report.

Started by scripts/benchmark.sh, which builds the jar first. Everything runs on loopback: a redis-server on a free
port that this script starts and stops, the packaged app on another free port, and redis-benchmark on the same
server as the ceiling a single client connection can reach.
"""
import argparse
import json
import os
import platform
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import paired
from profile_run import profile_section
from recipe_pair import recipe_section

ROOT = Path(__file__).resolve().parent.parent


def free_port(bus=False):
    """A free loopback port; with bus, one whose cluster bus port (+10000, so at most 55535) is free too."""
    while True:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if not bus:
            return port
        if port <= 55535:
            with socket.socket() as s:
                try:
                    s.bind(("127.0.0.1", port + 10000))
                    return port
                except OSError:
                    pass


def wait_until(check, timeout, what):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except (OSError, subprocess.CalledProcessError):
            pass
        time.sleep(0.2)
    raise SystemExit(f"timed out waiting for {what}")


class Redis:
    def __init__(self, workdir, *extra):
        self.port = free_port(bus="--cluster-enabled" in extra)
        self.dir = workdir / f"redis-{self.port}"
        self.dir.mkdir()
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.dir), "--logfile", str(self.dir / "redis.log"), *extra])
        try:
            wait_until(lambda: self.cli("PING") == "PONG", 10, "redis-server")
        except BaseException:
            self.stop()
            raise

    def cli(self, *args):
        return subprocess.run(["redis-cli", "-p", str(self.port), *args], capture_output=True, text=True,
                              check=True).stdout.strip()

    def flush(self):
        # This script's own server only: it was started above on a free port and holds nothing else.
        self.cli("FLUSHALL")

    def version(self):
        return re.search(r"redis_version:(\S+)", self.cli("INFO", "server")).group(1)

    def connections_received(self):
        return int(re.search(r"total_connections_received:(\d+)", self.cli("INFO", "stats")).group(1))

    def benchmark(self, test, pipeline, requests, distinct, size=None, clients=1, cluster=False):
        args = ["redis-benchmark", "-p", str(self.port), "-c", str(clients), "-P", str(pipeline), "-n", str(requests),
                "-t", test, "--csv"]
        if cluster:
            # Each client is given one master and keys whose hash tag puts them in that master's slots.
            args.append("--cluster")
        if distinct:
            args += ["-r", "100000000"]
        if size:
            args += ["-d", str(size)]
        done = subprocess.run(args, capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(args)} failed ({done.returncode}): {done.stdout[-500:]} {done.stderr[-500:]}")
        out = done.stdout
        rates = {}
        for line in out.splitlines():
            cells = [c.strip('"') for c in line.split(",")]
            if len(cells) > 1 and cells[0] != "test":
                rates[cells[0].lower()] = float(cells[1])
        return rates

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=10)


class Standalone:
    """One master with `replicas` replicas of its own, on free ports: the standalone side of a like-for-like
    comparison with a cluster whose masters have as many replicas each (every write is applied once more per
    replica, on the same cores)."""

    def __init__(self, workdir, replicas):
        self.master = Redis(workdir)
        self.replicas = []
        try:
            for _ in range(replicas):
                self.replicas.append(Redis(workdir, "--replicaof", "127.0.0.1", str(self.master.port)))
            wait_until(lambda: all("master_link_status:up" in r.cli("INFO", "replication") for r in self.replicas),
                       30, "the standalone replicas to sync")
        except BaseException:
            self.stop()
            raise

    @property
    def port(self):
        return self.master.port

    def flush(self):
        # This script's own servers only; the replicas follow their master.
        self.master.flush()

    def stop(self):
        for server in [*self.replicas, self.master]:
            server.stop()


class Cluster:
    """Three masters with `replicas` replicas each, on free ports, as scripts/redis-topology.sh makes them."""

    def __init__(self, workdir, replicas):
        self.nodes = []
        try:
            for _ in range(3 * (1 + replicas)):
                self.nodes.append(Redis(workdir, "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf"))
            subprocess.run(["redis-cli", "--cluster", "create", *(f"127.0.0.1:{n.port}" for n in self.nodes),
                            "--cluster-replicas", str(replicas), "--cluster-yes"], capture_output=True, check=True)
            wait_until(lambda: all("cluster_state:ok" in n.cli("CLUSTER", "INFO") for n in self.nodes), 30,
                       "the cluster to serve every slot")
        except BaseException:
            self.stop()
            raise

    def flush(self):
        # This script's own servers only; replicas follow their masters.
        for node in self.nodes:
            if "role:master" in node.cli("INFO", "replication"):
                node.cli("FLUSHALL")

    def masters(self):
        return [node for node in self.nodes if "role:master" in node.cli("INFO", "replication")]

    def settings(self):
        return [f"--spring.data.redis.cluster.nodes={','.join(f'127.0.0.1:{n.port}' for n in self.nodes)}"]

    def stop(self):
        for node in self.nodes:
            node.stop()


class App:
    """The app against `redis`, launched with `java -jar` (default) or with `./mvnw spring-boot:run`."""

    def __init__(self, jar, redis, workdir, heap=None, settings=(), launch="java -jar"):
        self.port = free_port()
        self.launch = launch
        self.log = workdir / f"app-{self.port}.log"
        target = redis.settings() if isinstance(redis, Cluster) else [
            f"--spring.data.redis.port={redis.port}", "--spring.data.redis.host=127.0.0.1"]
        app_args = [f"--server.port={self.port}", *target, "--lab.local-redis.enabled=false", *settings]
        if launch == "spring-boot:run":
            # The README's command; Maven forks the app's JVM, so the whole process group is stopped in stop().
            args = [str(ROOT / "mvnw"), "-q", "-B", "spring-boot:run",
                    "-Dspring-boot.run.arguments=" + " ".join(app_args)]
            if heap:
                args.append(f"-Dspring-boot.run.jvmArguments=-Xmx{heap}")
        else:
            args = ["java"] + ([f"-Xmx{heap}"] if heap else []) + ["-jar", str(jar), *app_args]
        self.proc = subprocess.Popen(args, cwd=ROOT, stdout=self.log.open("w"), stderr=subprocess.STDOUT,
                                     start_new_session=True)
        try:
            wait_until(lambda: self.get("/actuator/health")[0] == 200, 300, f"the app ({launch}) to start")
        except BaseException:
            self.stop()
            raise

    def jvm(self):
        """The pid and command line of the JVM serving this port, as the kernel has them (under spring-boot:run
        that JVM is Maven's child, not self.proc)."""
        for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
            try:
                words = cmdline.read_bytes().split(b"\0")
            except OSError:
                continue
            if words and words[0].endswith(b"java") and any(f"--server.port={self.port}".encode() in w for w in words):
                return int(cmdline.parent.name), words
        return None, None

    def jvm_flags(self):
        """The JVM's -XX: and -Xmx flags as the kernel has them: shows what the launch added."""
        _, words = self.jvm()
        if words is None:
            return None
        return [w.decode() for w in words if w.startswith(b"-XX:") or w.startswith(b"-Xmx")]

    def pid(self):
        return self.jvm()[0]

    def side(self, name, path):
        """This app as one side of a paired comparison: `path` answers a run (or a comparison of one variant)."""

        def run():
            answer = self.run(path)
            result = answer["results"][0] if "results" in answer else answer
            cpu = server_figures(result)[1]
            return result["opsPerSecond"], (f"{cpu} µs/cmd" if cpu else "")

        return paired.Side(name, run, self.pid())

    def get(self, path, timeout=3600):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=timeout) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")

    def run(self, path):
        status, body = self.get(path)
        if status != 200:
            raise SystemExit(f"GET {path} answered {status}: {body}")
        return body

    def stop(self):
        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)


def machine_facts(redis):
    cpu = "unknown"
    try:
        cpu = re.search(r"model name\s*:\s*(.+)", Path("/proc/cpuinfo").read_text()).group(1)
    except (OSError, AttributeError):
        pass
    mem = "unknown"
    try:
        kib = int(re.search(r"MemTotal:\s*(\d+)", Path("/proc/meminfo").read_text()).group(1))
        mem = f"{kib / 1024 / 1024:.1f} GiB"
    except (OSError, AttributeError):
        pass
    java = subprocess.run(["java", "-version"], capture_output=True, text=True).stderr.splitlines()[0]
    return [("CPU", f"{cpu} × {os.cpu_count()} cores"), ("Memory", mem),
            ("OS", f"{platform.system()} {platform.release()}"), ("Java", java), ("Redis", redis.version()),
            ("Date", time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))]


def fmt(number):
    return f"{number:,.0f}"


def ceiling(redis, requests):
    """redis-benchmark with one connection: the most one client connection can get out of this server."""
    rows = []
    for pipeline in (1, 16, 100, 1000):
        n = requests if pipeline > 1 else min(requests, 100_000)
        redis.flush()
        rates = redis.benchmark("set,get", pipeline, n, distinct=True)
        redis.flush()
        rates.update(redis.benchmark("lpush,rpop", pipeline, n, distinct=False))
        redis.flush()
        rows.append((pipeline, rates))
    return rows


# The report's sections; --only picks some, e.g. --only values,fanout for the workload tables alone. The order
# study and the profile run only when named: they answer a question each, not part of the report.
SECTIONS = ("headline", "launch", "recipe", "matrix", "sweep", "rtt", "big", "values", "fanout", "bigvalue",
            "clients", "shapes", "projection")
ON_REQUEST = ("order", "profile")


def value_sizes(app, redis, sizes, most, budget):
    """SET at each value size, loop against pipelined in one comparison, with redis-benchmark -d as reference."""
    rows = []
    for size in sizes:
        count = max(1, min(most, budget // size))
        print(f"values {size} B x {count}", file=sys.stderr)
        redis.flush()
        comparison = app.run(f"/compare/set/{count}?valueSize={size}&variants=loop,pipelined&sample=0")
        redis.flush()
        references = {}
        for pipeline in (1, 1000):
            # -P beyond -n would still send -P commands at once.
            references[pipeline] = redis.benchmark("set", min(pipeline, count), min(count, 20_000) if pipeline == 1
                                                   else count, distinct=True, size=size)["set"]
            redis.flush()
        rows.append((size, count, comparison, references))
    return rows


def fan_out(app, redis, count, requests, rtts):
    """An API handler's N GETs per request, loop against pipeline, direct and through the latency relay."""
    rows = []
    for rtt in rtts:
        print(f"fan-out {count} x {requests} rtt {rtt:g}", file=sys.stderr)
        redis.flush()
        query = f"requests={requests}&variants=loop,pipelined&sample=0" + (f"&rtt={rtt:g}" if rtt > 0 else "")
        rows.append((rtt, app.run(f"/compare/get/{count}?{query}")))
        redis.flush()
    return rows


def shapes_runs(app, redis, count, rate_count, rtts):
    """The load shapes: loop and pipeline at offered rates (20, 50 and 80% of the loop's own maximum, direct and
    through the relay), transactions against a pipeline, and the reactive template against async and pipelined."""
    paced = []
    for rtt in rtts:
        relay = f"&rtt={rtt:g}" if rtt > 0 else ""
        n = rate_count if rtt == 0 else max(200, rate_count // 20)
        redis.flush()
        print(f"shapes: loop maximum, rtt {rtt:g}", file=sys.stderr)
        top = app.run(f"/loopset/{n}?sample=0{relay}")["opsPerSecond"]
        for share in (0.2, 0.5, 0.8):
            rate = max(1, int(top * share))
            for path in (f"/loopset/{n}", f"/pipeset/{n}?batchSize=100"):
                redis.flush()
                sep = "&" if "?" in path else "?"
                print(f"shapes: {path} at {rate}/s rtt {rtt:g}", file=sys.stderr)
                paced.append((rtt, share, top, app.run(f"{path}{sep}rate={rate}&sample=0{relay}")))
    compared = []
    for variants in ("pipelined,transaction,pipelined-transaction", "async,pipelined,reactive"):
        redis.flush()
        print(f"shapes: {variants}", file=sys.stderr)
        compared.append(app.run(f"/compare/set/{count}?variants={variants}&sample=0"))
    # A cycle of 11 items is 1 SET and 10 GETs: a count divisible by 11 keeps the mix exact.
    mixed_count = (count // 11) * 11
    redis.flush()
    print("shapes: mixed 1:10, loop and pipelined", file=sys.stderr)
    mixed = app.run(f"/compare/mixed/{mixed_count}?ratio=1:10&variants=loop,pipelined&sample=0")
    redis.flush()
    return paced, compared, mixed


def shapes_table(count, paced, compared, mixed):
    lines = ["## Load shapes: a fixed offered rate (`rate=`), latency from the intended send time", "",
             "Each rate is a share of the loop's own maximum measured just before (per added RTT); the pipeline "
             "sends batches of 100 at the same rate. Latency per command for the loop, per batch for the pipeline; "
             "held = at least 95% of the rate reached.", "",
             "| added RTT | share of loop max | rate asked | variant | achieved | held | p50 ms | p99 ms |",
             "|---:|---:|---:|---|---:|---|---:|---:|"]
    for rtt, share, top, r in paced:
        offered = r["offeredRate"]
        lines.append(f"| {rtt:g} ms | {share:.0%} of {fmt(top)} | {fmt(offered['asked'])} | {r['variant']} | "
                     f"{fmt(offered['achieved'])} | {'yes' if offered['held'] else 'no'} | "
                     f"{r['latency']['p50']:.3f} | {r['latency']['p99']:.3f} |")
    lines += ["", f"## Transactions and the reactive template (`/compare/set/{fmt(count)}`)", "",
              "| variant | ops/s | speedup vs first | server commands |", "|---|---:|---:|---:|"]
    for comparison in compared:
        first = comparison["results"][0]["opsPerSecond"]
        for r in comparison["results"]:
            commands = (r.get("server") or {}).get("commands", "")
            lines.append(f"| {r['variant']} | {fmt(r['opsPerSecond'])} | {r['opsPerSecond'] / first:.2f}× | "
                         f"{fmt(commands) if commands != '' else ''} |")
        for skip in comparison.get("skipped", []):
            lines.append(f"| {skip['variant']} | skipped: {skip['reason']} | | |")
    results = mixed["results"]
    lines += ["", f"## Mixed reads and writes, `ratio=1:10` (`/compare/mixed/{fmt(results[0]['count'])}`)", "",
              "| variant | ops/s | SETs/s | GETs/s | hits | misses | speedup | SET p50 ms | GET p50 ms |",
              "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in results:
        mix = r["mix"]
        by_command = mix.get("latencyByCommand") or {}
        set_p50 = f"{by_command['SET']['p50']:.3f}" if "SET" in by_command else ""
        get_p50 = f"{by_command['GET']['p50']:.3f}" if "GET" in by_command else ""
        speedup = f"{r['speedup']:.1f}×" if r.get("speedup") else ""
        lines.append(f"| {r['variant']} | {fmt(r['opsPerSecond'])} | {fmt(mix['setsPerSecond'])} | "
                     f"{fmt(mix['getsPerSecond'])} | {fmt(mix['hits'])} | {fmt(mix['misses'])} | {speedup} | "
                     f"{set_p50} | {get_p50} |")
    return lines + [""]


def projection_check(app, redis, rtts, repeat):
    """What a loopback run's `projection` predicts at the RTT the relay measured, against what the relayed run
    measured: loop and pipeline at each added RTT, medians of `repeat` passes."""
    cases = (("loop", "variants=loop", 2000, lambda rtt: max(100, int(600 / rtt))),
             ("pipelined-flush-on-close, batch 1,000", "variants=pipelined-flush-on-close&batchSize=1000", 100_000,
              lambda rtt: 100_000))
    rows = []
    for name, query, near_count, far_count in cases:
        for rtt in rtts:
            print(f"projection {name} rtt {rtt:g}", file=sys.stderr)
            redis.flush()
            near = app.run(f"/compare/set/{near_count}?{query}&repeat={repeat}&sample=0")["results"][0]
            redis.flush()
            far = app.run(f"/compare/set/{far_count(rtt)}?{query}&repeat={repeat}&sample=0&rtt={rtt:g}")["results"][0]
            redis.flush()
            model = near["projection"]
            # The relay adds rtt to the loopback round trip; its own PING median is reported beside it, but
            # a busy machine inflates those few PINGs far more than it slows the run.
            at = near["measuredRttMillis"] + rtt
            predicted = 1000 / (model["roundTripsPerItem"] * at + model["workMillisPerItem"])
            at_ping = 1000 / (model["roundTripsPerItem"] * far["measuredRttMillis"] + model["workMillisPerItem"])
            rows.append((name, rtt, near, far, at, predicted, at_ping))
    return rows


def projection_table(rows, repeat):
    lines = ["## RTT projection against the RTT lab", "",
             "Each loopback run's `projection` evaluated at its own measured RTT plus the RTT the relay adds, "
             f"against the relayed run's own throughput; medians of {repeat} timed passes.", "",
             "| variant | rtt= | loopback ops/s | loopback RTT + rtt (ms) | PING through the relay (ms) | "
             "predicted ops/s | measured ops/s | error | error at the relay's PING |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for name, rtt, near, far, at, predicted, at_ping in rows:
        error = predicted / far["opsPerSecond"] - 1
        error_ping = at_ping / far["opsPerSecond"] - 1
        lines.append(f"| {name} | {rtt:g} | {fmt(near['opsPerSecond'])} | {at:.3f} | "
                     f"{far['measuredRttMillis']:.3f} | {fmt(predicted)} | {fmt(far['opsPerSecond'])} | {error:+.1%} | "
                     f"{error_ping:+.1%} |")
    return lines + [""]


def size_label(size):
    for unit, factor in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if size >= factor and size % factor == 0:
            return f"{size // factor} {unit}"
    return f"{size} B"


CLIENT_WAYS = (("loop", "shared"), ("loop", "pooled"), ("pipelined", None))


def clients_runs(app, redis, count, clients_list):
    """clients x {loop shared, loop pooled, pipelined} x {lettuce, jedis} for `count` SETs, plus redis-benchmark
    -c C with -P 1 and -P 1000 on the same server, and the connections the server counted for each."""
    rows = []
    for clients in clients_list:
        for pipeline in (1, 1000):
            redis.flush()
            before = redis.connections_received()
            rate = redis.benchmark("set", pipeline, count, distinct=True, clients=clients)["set"]
            # The redis-cli that asks for the count after the run is one more connection.
            opened = redis.connections_received() - before - 1
            rows.append(dict(clients=clients, connector="redis-benchmark", way=f"-P {pipeline}", ops=rate,
                             used=opened, opened=opened))
        for connector in ("lettuce", "jedis"):
            for mode, connection in CLIENT_WAYS:
                way = f"{mode} {connection}" if connection else mode
                if connector == "jedis" and connection == "shared":
                    rows.append(dict(clients=clients, connector=connector, way=way,
                                     skipped="Jedis has no shared connection"))
                    continue
                print(f"clients {clients} {connector} {way}", file=sys.stderr)
                redis.flush()
                path = "/loopset" if mode == "loop" else "/pipeset"
                query = f"?clients={clients}&connector={connector}&sample=0"
                if connection:
                    query += f"&connection={connection}"
                r = app.run(f"{path}/{count}{query}")
                spread = r.get("clients", {}).get("opsPerSecond")
                rows.append(dict(clients=clients, connector=connector, way=way, ops=r["opsPerSecond"],
                                 spread=spread, latency=r["latency"], used=r.get("connections", {}).get("used"),
                                 opened=r.get("connections", {}).get("opened"), verified=r.get("verified")))
    redis.flush()
    return rows


def clients_table(count, rows):
    lines = [f"## Many clients at once: {fmt(count)} SETs split between C clients", "",
             "Each client is a thread with its own disjoint key range; all start together. `loop shared` is Spring "
             "Boot's default (one native Lettuce connection for every thread), `loop pooled` borrows a connection "
             "per call, `pipelined` is `executePipelined` in batches of the default size per client. Server "
             "connections are counted by the Redis server (`CLIENT LIST` for the app's runs, "
             "`total_connections_received` for redis-benchmark). Latency: per command for the loop, per batch for "
             "pipelines.", "",
             "| clients | connector | way | ops/s | per-client ops/s (min–max) | p50 ms | p99 ms | "
             "server connections used | opened during run | verified |",
             "|---:|---|---|---:|---|---:|---:|---:|---:|---:|"]
    for row in rows:
        if "skipped" in row:
            lines.append(f"| {row['clients']} | {row['connector']} | {row['way']} | skipped: {row['skipped']} "
                         f"| | | | | | |")
            continue
        spread = row.get("spread")
        spread_text = f"{fmt(spread['min'])}–{fmt(spread['max'])}" if spread else ""
        latency = row.get("latency")
        p50 = f"{latency['p50']:.3f}" if latency else ""
        p99 = f"{latency['p99']:.3f}" if latency else ""
        verified = fmt(row["verified"]) if row.get("verified") is not None else ""
        lines.append(f"| {row['clients']} | {row['connector']} | {row['way']} | {fmt(row['ops'])} | {spread_text} | "
                     f"{p50} | {p99} | {row['used'] if row['used'] is not None else 'n/a'} | "
                     f"{row['opened'] if row['opened'] is not None else 'n/a'} | {verified} |")
    lines.append("")
    return lines


def server_figures(result):
    """Redis' own view of a run (INFO deltas around the timed pass, server-wide): reads/cmd, CPU µs/cmd, peak reply
    buffer. Blank where the server did not report them."""
    server = result.get("server") or {}
    reads = server.get("readsPerCommand")
    cpu = server.get("cpuMicrosPerCommand")
    peak = server.get("peakOutputBufferBytes")
    return (f"{reads:.3f}" if reads is not None else "", f"{cpu:.2f}" if cpu is not None else "",
            fmt(peak) if peak is not None else "")


def progress(message):
    print(message, file=sys.stderr)


def benchmark_side(name, server, count, clients=1, cluster=False):
    """redis-benchmark -P 1000 as one side of a paired comparison: `count` distinct-key SETs on `server`."""
    return paired.Side(name, lambda: server.benchmark("set", 1000, count, distinct=True, clients=clients,
                                                      cluster=cluster)["set"])


def headline_section(args, jar, redis, workdir):
    """The headline, `/pipeset/<count>`, with Lettuce's own endpoint (the default, what any Spring app gets) and with
    the lab's batch-writing one, each in a JVM of its own, against redis-benchmark -c 1 -P 1000, by the one method."""
    progress("headline: per-command and per-flush against redis-benchmark")
    path = f"/pipeset/{args.count}?sample=0"
    apps = []
    try:
        for writes in ("per-command", "per-flush"):
            apps.append(App(jar, redis, workdir, settings=[f"--lab.pipeline.writes={writes}"]))
        sides = [benchmark_side("redis-benchmark", redis, args.count), apps[0].side("per-command", path),
                 apps[1].side("per-flush", path)]
        result = paired.paired_tries(sides, args.tries, args.warm_requests, redis.flush, log=progress)
    finally:
        for app in apps:
            app.stop()
        redis.flush()
    return ([f"## Headline: `/pipeset/{args.count}`, flushed server", "",
             "`per-command` is Lettuce's own endpoint, the default and what any Spring app gets; `per-flush` is "
             "`lab.pipeline.writes=per-flush`, the lab's batch-writing endpoint, in a JVM of its own; `redis-benchmark` "
             f"is `-c 1 -P 1000 -r 100000000 -n {args.count} -t set` on the same server. An app's cell is its ops/s "
             "with Redis' CPU per command around the timed pass (INFO, server-wide) in brackets. "
             + paired.method_text(args.tries, args.warm_requests), ""]
            + paired.tables(result, [("per-command", "redis-benchmark"), ("per-flush", "redis-benchmark"),
                                     ("per-flush", "per-command")]))


def cluster_against_standalone(args, jar, workdir):
    """`/pipeset/<count>` on a 3-master cluster and on a standalone master, like for like (the standalone master has
    as many replicas as each cluster master), with `pipelined-by-node` and both sides' redis-benchmark ceilings, by
    the one method; once for each replica count and writes setting asked."""
    lines = [f"## Cluster against standalone: `/pipeset/{args.count}`", "",
             "Like for like: a standalone master with N replicas against 3 cluster masters with N replicas each, all "
             "on this machine (a replica applies every write its master takes, on the same cores). One app on each, "
             "same settings; `by node` is the cluster app's variant `pipelined-by-node` (one pipeline per master, all "
             "masters at once). The ceilings: `redis-benchmark -P 1000` for as many distinct-key SETs, `-c 1` on the "
             "standalone master and `--cluster` with `-c` = number of masters (one connection per master) on the "
             "cluster. " + paired.method_text(args.tries, args.warm_requests), ""]
    for replicas in (int(r) for r in str(args.cluster_replicas).split(",")):
        alone_servers = Standalone(workdir, replicas)
        try:
            cluster = Cluster(workdir, replicas)
            try:
                for writes in args.cluster_writes.split(","):
                    settings = [] if writes == "default" else [f"--lab.pipeline.writes={writes}"]
                    progress(f"cluster against standalone, {replicas} replica(s) per master, writes={writes}")
                    apps = []
                    try:
                        apps.append(App(jar, alone_servers, workdir, settings=settings))
                        apps.append(App(jar, cluster, workdir, settings=settings))
                        masters = len(cluster.masters())
                        path = f"/pipeset/{args.count}?sample=0"
                        ceiling_name = f"redis-benchmark --cluster -c {masters}"
                        sides = [apps[0].side("standalone", path), apps[1].side("cluster", path),
                                 apps[1].side("by node", f"/compare/set/{args.count}?variants=pipelined-by-node"
                                                         "&sample=0"),
                                 benchmark_side("redis-benchmark -c 1", alone_servers.master, args.count),
                                 benchmark_side(ceiling_name, cluster.masters()[0], args.count, clients=masters,
                                                cluster=True)]

                        def flush():
                            alone_servers.flush()
                            cluster.flush()

                        result = paired.paired_tries(sides, args.tries, args.warm_requests, flush, log=progress)
                    finally:
                        for app in apps:
                            app.stop()
                    lines += [f"### {replicas} replica(s) per master, writes {writes}", ""]
                    lines += paired.tables(result, [("cluster", "standalone"), ("by node", "standalone"),
                                                    ("by node", ceiling_name), ("standalone", "redis-benchmark -c 1")])
            finally:
                cluster.stop()
        finally:
            alone_servers.stop()
    return lines


def launch_ways_section(args, jar, redis, workdir):
    """`./mvnw spring-boot:run` (the README's command) against `java -jar`, both warm, by the one method: both must
    run the full JIT."""
    counts = [int(c) for c in args.launch_counts.split(",")]
    lines = ["## Launch ways: `./mvnw spring-boot:run` against `java -jar`", "",
             "Same jar contents, same Redis, one app each, both running at once. The JVM flags are read from each "
             "running JVM's command line. " + paired.method_text(args.tries, args.warm_requests), ""]
    apps = []
    try:
        for launch in ("spring-boot:run", "java -jar"):
            progress(f"launch: {launch}")
            apps.append(App(jar, redis, workdir, launch=launch))
        for app in apps:
            flags = app.jvm_flags()
            shown = " ".join(flags) if flags else "(none)" if flags is not None else "(not found)"
            lines.append(f"- `{app.launch}` JVM flags: {shown}")
        lines.append("")
        for count in counts:
            path = f"/pipeset/{count}?sample=0"
            sides = [apps[0].side("spring-boot:run", path), apps[1].side("java -jar", path)]
            result = paired.paired_tries(sides, args.tries, args.warm_requests, redis.flush, log=progress)
            lines += [f"### `/pipeset/{count}`", ""] + paired.tables(result, [("java -jar", "spring-boot:run")])
    finally:
        for app in apps:
            app.stop()
        redis.flush()
    return lines


# The order study's conditions: (name, warm, wait for quiet JVMs, order). "AB" runs the standalone app first in
# every try, "BA" the cluster app; the first row is the one method itself.
ORDER_CONDITIONS = (("the one method: warm, quiet, alternating", True, True, "alternate"),
                    ("warm, quiet, A first", True, True, "AB"),
                    ("warm, quiet, B first", True, True, "BA"),
                    ("warm, no wait for quiet, A first", True, False, "AB"),
                    ("warm, no wait for quiet, B first", True, False, "BA"),
                    ("cold: fresh JVMs each try, A first", False, False, "AB"),
                    ("cold: fresh JVMs each try, B first", False, False, "BA"))


def order_study(args, jar, workdir):
    """Why two ways of comparing the same pair disagreed: the standalone app (A) against the cluster app (B), 3
    masters and no replicas, `/pipeset/<count>`, with one part of the method changed at a time (order, warm-up and
    JIT state, waiting for the other JVM's background work), medians per condition."""
    path = f"/pipeset/{args.count}?sample=0"
    alone_servers = Standalone(workdir, 0)
    rows = []
    try:
        cluster = Cluster(workdir, 0)

        def flush():
            alone_servers.flush()
            cluster.flush()

        def fresh_pair():
            apps = [App(jar, alone_servers, workdir)]
            try:
                apps.append(App(jar, cluster, workdir))
            except BaseException:
                apps[0].stop()
                raise
            return apps, [apps[0].side("A standalone", path), apps[1].side("B cluster", path)]

        try:
            apps, sides = fresh_pair()
            try:
                warmed = False
                for name, warm, settle, order in ORDER_CONDITIONS:
                    if not warm:
                        continue
                    progress(f"order study: {name}")
                    ordered = sides if order in ("alternate", "AB") else sides[::-1]
                    rows.append((name, paired.paired_tries(
                        ordered, args.tries, 0 if warmed else args.warm_requests, flush,
                        order="alternate" if order == "alternate" else "as-given", settle=settle, log=progress)))
                    warmed = True
            finally:
                for app in apps:
                    app.stop()
            for name, warm, _, order in ORDER_CONDITIONS:
                if warm:
                    continue
                progress(f"order study: {name}")
                merged = None
                for cold_try in range(1, args.tries + 1):
                    apps, sides = fresh_pair()
                    try:
                        # Started and idle, but not warm: the first request pays for its own JIT.
                        paired.wait_quiet([side.pid for side in sides])
                        one = paired.paired_tries(sides if order == "AB" else sides[::-1], 1, 0, flush,
                                                  order="as-given", settle=False,
                                                  log=lambda m: progress(f"cold try {cold_try}/{args.tries}: {m}"))
                    finally:
                        for app in apps:
                            app.stop()
                    merged = one if merged is None else merged.extend(one)
                rows.append((name, merged))
        finally:
            cluster.stop()
    finally:
        alone_servers.stop()
    lines = [f"## Order study: standalone (A) against cluster (B), `/pipeset/{args.count}`, 3 masters, no replicas",
             "", f"{args.tries} tries per condition. Warm rows share two apps warmed once ({args.warm_requests} "
             "untimed requests each) and run one after the other; cold rows start both apps afresh for every try and "
             "time their first request. Background: CPU the other JVM used during a side's runs (JIT compilation, GC, "
             "anything), median ms. Best tries: the ratio of each side's best try, the statistic an earlier "
             "comparison used.", "",
             "| condition | A ops/s median (range) | B ops/s median (range) | B/A median of paired ratios (range) | "
             "B/A of best tries | background during A, ms | background during B, ms |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for name, result in rows:
        a, b = result.ops["A standalone"], result.ops["B cluster"]
        lines.append(f"| {name} | {paired.spread(a)} | {paired.spread(b)} | "
                     f"{paired.spread(result.ratios('B cluster', 'A standalone'), True)} | {max(b) / max(a):.0%} | "
                     f"{fmt(statistics.median(result.background['A standalone']))} | "
                     f"{fmt(statistics.median(result.background['B cluster']))} |")
    return lines + [""]


def small_heap_run(jar, redis, workdir, path):
    """One request in a fresh app at -Xmx256m on a flushed server: its answer, the wall time including the
    read-back, heap used and heap max afterwards, and how many OutOfMemoryErrors the app logged."""
    redis.flush()
    small = App(jar, redis, workdir, heap="256m")
    try:
        started = time.monotonic()
        result = small.run(path)
        wall = time.monotonic() - started
        _, heap = small.get("/actuator/metrics/jvm.memory.used?tag=area:heap")
        _, heap_max = small.get("/actuator/metrics/jvm.memory.max?tag=area:heap")
        return result, wall, heap, heap_max, small.log.read_text().count("OutOfMemoryError")
    finally:
        small.stop()
        redis.flush()


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--jar", required=True)
    parser.add_argument("--ops", default="set,get,rpop")
    parser.add_argument("--counts", default="10000,100000,1000000")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--rtt-ms", type=float, default=0, help="also compare loop and pipeline through the relay")
    parser.add_argument("--rtt-count", type=int, default=100_000)
    parser.add_argument("--big", type=int, default=0, help="also run /pipeset/N at -Xmx256m (e.g. 10000000)")
    parser.add_argument("--value-sizes", default="16,1024,16384,262144",
                        help="value-size table: SET loop and pipelined at each size (bytes)")
    parser.add_argument("--value-count", type=int, default=20_000, help="SETs per value size, at most ...")
    parser.add_argument("--value-bytes", type=int, default=1 << 30, help="... this many value bytes per run")
    parser.add_argument("--fanout-count", type=int, default=30, help="fan-out table: GETs per request")
    parser.add_argument("--fanout-requests", type=int, default=2000)
    parser.add_argument("--fanout-rtts", default="0,1", help="added RTTs (ms) for the fan-out table; 0 is direct")
    parser.add_argument("--big-value-count", type=int, default=200_000,
                        help="bigvalue section: /pipeset/N?valueSize=S at -Xmx256m, every value verified")
    parser.add_argument("--big-value-size", type=int, default=16_384)
    parser.add_argument("--count", "--headline-count", "--cluster-count", dest="count", type=int, default=1_000_000,
                        help="SETs per run in every paired comparison (headline, cluster, order study, profile)")
    parser.add_argument("--tries", "--headline-tries", "--cluster-tries", "--launch-tries", dest="tries", type=int,
                        default=paired.MIN_TRIES, help="tries of every paired comparison (at least 5 for a figure)")
    parser.add_argument("--warm-requests", type=int, default=3,
                        help="untimed requests per side before the tries of every paired comparison")
    parser.add_argument("--recipe-count", type=int, default=1_000_000,
                        help="recipe: SETs per run of the recipe bare and of the lab's /pipeset beside it")
    parser.add_argument("--launch-counts", default="10000,1000000",
                        help="/pipeset counts for the spring-boot:run against java -jar section")
    parser.add_argument("--only", default=",".join(SECTIONS),
                        help="comma-separated sections to run: " + ", ".join(SECTIONS + ON_REQUEST)
                        + " (the last two only when named)")
    parser.add_argument("--order-study", action="store_true",
                        help="only the order study: the cluster pair warm and cold, A first and B first, with and "
                             "without waiting for quiet JVMs (same as --only order)")
    parser.add_argument("--profile-runs", type=int, default=3,
                        help="profile: timed /pipeset runs under JFR, and redis-benchmark runs beside them")
    parser.add_argument("--clients", default="1,4,16,64", help="client counts for the many-clients table")
    parser.add_argument("--clients-count", type=int, default=100_000, help="SETs per row of the many-clients table")
    parser.add_argument("--shapes-count", type=int, default=100_000,
                        help="shapes: SETs per transaction and reactive comparison")
    parser.add_argument("--shapes-rate-count", type=int, default=10_000,
                        help="shapes: commands per paced run (a twentieth through the relay)")
    parser.add_argument("--shapes-rtts", default="0,1", help="shapes: added RTTs (ms) for the paced runs")
    parser.add_argument("--topology", choices=["standalone", "cluster"], default="standalone",
                        help="cluster: only cluster against standalone for /pipeset/<--count>")
    parser.add_argument("--cluster-replicas", default="0",
                        help="replicas per master on both sides (the standalone master gets as many as each cluster "
                             "master); comma-separated for one comparison each, e.g. 0,1")
    parser.add_argument("--cluster-writes", default="default",
                        help="comma-separated lab.pipeline.writes settings to compare, e.g. per-command,per-flush")
    parser.add_argument("--projection-rtts", default="1,5",
                        help="added RTTs (ms) at which the projection section checks the model against the relay")
    parser.add_argument("--out", default=str(ROOT / "target" / "benchmark.md"))
    args = parser.parse_args()
    only = {"order"} if args.order_study else set(args.only.split(","))
    if not only <= set(SECTIONS + ON_REQUEST):
        raise SystemExit(f"--only takes {', '.join(SECTIONS + ON_REQUEST)}")
    if only & set(ON_REQUEST) and only - set(ON_REQUEST):
        raise SystemExit(f"{' and '.join(ON_REQUEST)} run on their own servers, without the report's sections")
    clients_list = [int(c) for c in args.clients.split(",") if c.strip()]

    for tool in ("redis-server", "redis-cli", "redis-benchmark", "java"):
        if not shutil.which(tool):
            raise SystemExit(f"{tool} is needed on the PATH")

    workdir = Path(tempfile.mkdtemp(prefix="pipelining-lab-bench-"))
    redis = Redis(workdir)
    lines = []
    if args.topology == "cluster":
        try:
            facts = machine_facts(redis)
            lines += ["## Machine", "", "| | |", "|---|---|"] + [f"| {k} | {v} |" for k, v in facts] + [""]
        finally:
            # Only for the machine facts: the comparison starts servers of its own, replicas included.
            redis.stop()
        lines += cluster_against_standalone(args, args.jar, workdir)
        return report(lines, args.out)
    if only & set(ON_REQUEST):
        try:
            facts = machine_facts(redis)
            lines += ["## Machine", "", "| | |", "|---|---|"] + [f"| {k} | {v} |" for k, v in facts] + [""]
            if "profile" in only:
                lines += profile_section(args, redis, lambda settings: App(args.jar, redis, workdir,
                                                                           settings=settings), workdir)
        finally:
            redis.stop()
        if "order" in only:
            lines += order_study(args, args.jar, workdir)
        return report(lines, args.out)
    try:
        facts = machine_facts(redis)
        ceilings, top = [], {}
        if only & {"headline", "matrix"}:
            print("ceiling: redis-benchmark -c 1 ...", file=sys.stderr)
            ceilings = ceiling(redis, 1_000_000)
            top = dict(ceilings[-1][1])

        headline = headline_section(args, args.jar, redis, workdir) if "headline" in only else []
        launch = launch_ways_section(args, args.jar, redis, workdir) if "launch" in only else []

        app = App(args.jar, redis, workdir)
        try:
            recipe = recipe_section(args, args.jar, redis, workdir, app, progress) if "recipe" in only else []
            matrix = []
            for op in (args.ops.split(",") if "matrix" in only else []):
                for count in (int(c) for c in args.counts.split(",")):
                    print(f"compare {op} {count}", file=sys.stderr)
                    redis.flush()
                    comparison = app.run(f"/compare/{op}/{count}?repeat={args.repeat}&sample=0")
                    matrix.append((op, count, comparison))
                    redis.flush()

            sweep = None
            if "sweep" in only:
                sweep = app.run(f"/sweep/set/100000?batchSizes=1,10,100,1000,10000,100000&repeat={args.repeat}"
                                "&sample=0")
                redis.flush()

            values = None
            if "values" in only:
                values = value_sizes(app, redis, [int(size) for size in args.value_sizes.split(",")],
                                     args.value_count, args.value_bytes)

            fanout = None
            if "fanout" in only:
                fanout = fan_out(app, redis, args.fanout_count, args.fanout_requests,
                                 [float(rtt) for rtt in args.fanout_rtts.split(",")])

            clients_rows = None
            if "clients" in only and clients_list:
                clients_rows = clients_runs(app, redis, args.clients_count, clients_list)

            shapes = None
            if "shapes" in only:
                shapes = shapes_runs(app, redis, args.shapes_count, args.shapes_rate_count,
                                     [float(rtt) for rtt in args.shapes_rtts.split(",")])

            projection = None
            if "projection" in only:
                projection = projection_check(app, redis, [float(r) for r in args.projection_rtts.split(",")],
                                              args.repeat)

            rtt = None
            if args.rtt_ms > 0 and "rtt" in only:
                print(f"rtt {args.rtt_ms} ms", file=sys.stderr)
                rtt = app.run(f"/compare/set/{args.rtt_count}?rtt={args.rtt_ms:g}"
                              f"&variants=loop,pipelined,multi-key&sample=0")
                redis.flush()
        finally:
            app.stop()

        big_value = None
        if "bigvalue" in only and args.big_value_count:
            print(f"big values: {args.big_value_count} x {args.big_value_size} B at -Xmx256m", file=sys.stderr)
            result, wall, _, heap_max, ooms = small_heap_run(
                args.jar, redis, workdir, f"/pipeset/{args.big_value_count}?valueSize={args.big_value_size}&sample=1")
            big_value = (result, wall, heap_max, ooms)

        big = None
        if args.big and "big" in only:
            print(f"big run {args.big} at -Xmx256m", file=sys.stderr)
            big = small_heap_run(args.jar, redis, workdir, f"/pipeset/{args.big}?sample=3")
            redis.flush()

        lines += ["## Machine", "", "| | |", "|---|---|"] + [f"| {k} | {v} |" for k, v in facts] + [""]

        if ceilings:
            lines += ["## Ceiling: redis-benchmark, one connection (ops/s)", "",
                      "SET and GET write and read 1M distinct keys (`-r 100000000`) on a flushed server; LPUSH/RPOP "
                      "use one list.", "",
                      "| pipeline (-P) | SET | GET | LPUSH | RPOP |", "|---:|---:|---:|---:|---:|"]
            for pipeline, rates in ceilings:
                lines.append(f"| {pipeline} | {fmt(rates.get('set', 0))} | {fmt(rates.get('get', 0))} | "
                             f"{fmt(rates.get('lpush', 0))} | {fmt(rates.get('rpop', 0))} |")
            lines.append("")

        lines += headline + launch + recipe

        if matrix:
            ceiling_key = {"set": "set", "get": "get", "rpop": "rpop"}
            lines += [f"## Every variant (median of {args.repeat} timed passes, after a warm-up pass)", "",
                      "Ratio: against redis-benchmark `-c 1 -P 1000` for the same command. Server columns: Redis' "
                      "INFO deltas around the median pass (server-wide: socket reads and CPU per Redis command).", "",
                      "| op | count | variant | ms | ops/s | speedup vs loop | ratio to ceiling | server reads/cmd | "
                      "server CPU µs/cmd |", "|---|---:|---|---:|---:|---:|---:|---:|---:|"]
            summaries = []
            for op, count, comparison in matrix:
                for r in comparison["results"]:
                    ref = top.get(ceiling_key.get(op, op), 0)
                    ratio = f"{r['opsPerSecond'] / ref:.0%}" if ref else "n/a"
                    reads, cpu, _ = server_figures(r)
                    lines.append(f"| {op} | {fmt(count)} | {r['variant']} | {r['elapsedMillis']:,.1f} | "
                                 f"{fmt(r['opsPerSecond'])} | {r['speedup']:.1f}× | {ratio} | {reads} | {cpu} |")
                for skip in comparison.get("skipped", []):
                    lines.append(f"| {op} | {fmt(count)} | {skip['variant']} | skipped: {skip['reason']} | | | | | |")
                summaries.append(f"- {op} {fmt(count)}: {comparison.get('summary', '')}")
            lines += ["", "The app's own summary of each comparison:", ""] + summaries + [""]

        if sweep:
            lines += ["## Throughput against pipeline length (`/sweep/set/100000`)", "",
                      "Peak reply buffer: `client_recent_max_output_buffer` after the pass (sampled by Redis' cron).", "",
                      "| batch size | ms | ops/s | p50 ms per batch | p99 ms per batch | server reads/cmd | "
                      "peak reply buffer bytes |", "|---:|---:|---:|---:|---:|---:|---:|"]
            for r in sweep["results"]:
                reads, _, peak = server_figures(r)
                lines.append(f"| {fmt(r['batchSize'])} | {r['elapsedMillis']:,.1f} | {fmt(r['opsPerSecond'])} | "
                             f"{r['latency']['p50']:.3f} | {r['latency']['p99']:.3f} | {reads} | {peak} |")
            lines.append("")

        if values:
            lines += ["## Value size: SET, loop against pipelined (`/compare/set/N?valueSize=S`)", "",
                      "Each value is `value-<i>-` followed by bytes derived from i, read back and compared in full "
                      "afterwards. N shrinks for big values so one run writes at most "
                      f"{args.value_bytes / 2**20:,.0f} MiB. Batches hold at most `lab.limits.max-batch-bytes` of "
                      "values, so the pipeline's batch size falls as values grow. References: redis-benchmark "
                      "`-c 1 -d S -r 100000000` with `-P 1` and `-P 1000` (or `-P N` when N is smaller).", "",
                      "| value size | N | loop ops/s | loop MB/s | pipelined ops/s | pipelined MB/s | batch size | "
                      "speedup | redis-benchmark -P 1 | redis-benchmark -P 1000 | pipelined / -P 1000 |",
                      "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
            for size, count, comparison, references in values:
                by = {r["mode"]: r for r in comparison["results"]}
                loop, pipe = by["loop"], by["pipelined"]
                lines.append(f"| {size_label(size)} | {fmt(count)} | {fmt(loop['opsPerSecond'])} | "
                             f"{loop['payload']['bytesPerSecond'] / 1e6:,.1f} | {fmt(pipe['opsPerSecond'])} | "
                             f"{pipe['payload']['bytesPerSecond'] / 1e6:,.1f} | {fmt(pipe['batchSize'])} | "
                             f"{pipe['speedup']:.1f}× | {fmt(references[1])} | {fmt(references[1000])} | "
                             f"{pipe['opsPerSecond'] / references[1000]:.0%} |")
            lines.append("")

        if fanout:
            lines += [f"## Fan-out: {args.fanout_count} GETs per request, {fmt(args.fanout_requests)} requests "
                      f"(`/compare/get/{args.fanout_count}?requests={args.fanout_requests}`)", "",
                      "One latency sample per request (the whole handler's work), from an HdrHistogram; requests "
                      "run one after the other on one connection.", "",
                      "| added RTT | measured PING | variant | p50 ms | p90 ms | p99 ms | max ms | requests/s | "
                      "p50 speedup |", "|---:|---:|---|---:|---:|---:|---:|---:|---:|"]
            for added, comparison in fanout:
                loop_p50 = comparison["results"][0]["latency"]["p50"]
                for r in comparison["results"]:
                    lat = r["latency"]
                    lines.append(f"| {added:g} ms | {r['measuredRttMillis']:.3f} ms | {r['variant']} | "
                                 f"{lat['p50']:.3f} | {lat['p90']:.3f} | {lat['p99']:.3f} | {lat['max']:.3f} | "
                                 f"{fmt(r['fanOut']['requestsPerSecond'])} | {loop_p50 / lat['p50']:.1f}× |")
            lines.append("")

        if big_value:
            result, wall, heap_max, ooms = big_value
            limit = heap_max["measurements"][0]["value"] / 2**20
            lines += [f"## {fmt(result['count'])} pipelined SETs of {size_label(result['payload']['valueSize'])} "
                      "at -Xmx256m", "",
                      "| value bytes | batch size (asked) | elapsed (timed part) | wall incl. verification | ops/s | "
                      "MB/s | verified | heap max | OutOfMemoryError |",
                      "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
                      f"| {fmt(result['count'] * result['payload']['valueSize'])} | {fmt(result['batchSize'])} "
                      f"({fmt(result['payload'].get('batchSizeAsked') or result['batchSize'])}) | "
                      f"{result['elapsedMillis'] / 1000:,.1f} s | {wall:,.1f} s | {fmt(result['opsPerSecond'])} | "
                      f"{result['payload']['bytesPerSecond'] / 1e6:,.1f} | {fmt(result['verified'])} | "
                      f"{limit:,.0f} MiB | {ooms} |", ""]

        if clients_rows:
            lines += clients_table(args.clients_count, clients_rows)

        if shapes:
            lines += shapes_table(args.shapes_count, *shapes)

        if projection:
            lines += projection_table(projection, args.repeat)

        if rtt:
            lines += [f"## Added round trip: {args.rtt_ms:g} ms through the latency relay "
                      f"(measured PING {rtt['results'][0]['measuredRttMillis']} ms)", "",
                      "| variant | count | ms | ops/s | speedup vs loop |", "|---|---:|---:|---:|---:|"]
            for r in rtt["results"]:
                lines.append(f"| {r['variant']} | {fmt(r['count'])} | {r['elapsedMillis']:,.1f} | "
                             f"{fmt(r['opsPerSecond'])} | {r['speedup']:.1f}× |")
            lines.append("")

        if big:
            result, wall, heap, heap_max, ooms = big
            used = heap["measurements"][0]["value"] / 2**20
            limit = heap_max["measurements"][0]["value"] / 2**20
            lines += [f"## {fmt(result['count'])} pipelined SETs in one request at -Xmx256m", "",
                      "| elapsed (timed part) | wall incl. verification | ops/s | written | verified | "
                      "heap used after | heap max | OutOfMemoryError |", "|---:|---:|---:|---:|---:|---:|---:|---:|",
                      f"| {result['elapsedMillis'] / 1000:,.1f} s | {wall:,.1f} s | {fmt(result['opsPerSecond'])} | "
                      f"{fmt(result['written'])} | {fmt(result['verified'])} | {used:,.0f} MiB | {limit:,.0f} MiB | "
                      f"{ooms} |", ""]
    finally:
        redis.stop()
    report(lines, args.out)


def report(lines, out):
    text = "\n".join(lines)
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    Path(out).write_text(text + "\n")
    print(text)
    print(f"\nwritten to {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
