#!/usr/bin/env python3
"""The default comparison, N in a row (docs/benchmark.md, "The default comparison, five in a row").

Starts a redis-server of its own (no persistence) and the app on it, then sends what the page's Run button sends by
default, a comparison of SET over 10,000 keys with the page's ticked standalone variants, --runs times one after
another (the first right after the app started, as a newcomer's), and prints a Markdown table: how long each took to
answer, the loop's ops/s and the three speedups with their min-max, the advised batch size, and how far apart the
runs' buffered-500 speedups are (the issue's goal: at most 2x).

  scripts/default-compare.py                      # the jar in target/ (./mvnw -B -q -DskipTests package)
  scripts/default-compare.py --classpath CP       # java -cp CP instead (target/classes and the dependencies)
  scripts/default-compare.py --runs 5 --app-port 18091 --redis-port 16411 --keep target/default-compare

Needs redis-server, redis-cli, java and Python 3 on the PATH. Run it with nothing else of yours running; it prints the
load average beside the table, as docs/benchmark.md records it.
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import time
import urllib.request

# The page's ticked variants on a standalone Redis (src/main/resources/static/index.html, the cluster-only ones
# left out as the page leaves them).
VARIANTS = "loop,pipelined-flush-each-command,pipelined-flush-on-close,pipelined-buffered-500,multi-key,script,async"


def wait_healthy(port, app, seconds=180):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if app.poll() is not None:
            sys.exit(f"the app exited while starting (exit {app.returncode})")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/actuator/health", timeout=2):
                return
        except OSError:
            time.sleep(0.5)
    sys.exit(f"the app on port {port} was not healthy after {seconds} s")


def row(results, variant):
    return next((r for r in results if r["variant"] == variant), None)


def span(low, high, unit):
    if low is None or high is None:
        return ""
    return f" ({low:,.0f}-{high:,.0f})" if unit == "" else f" ({low:.2f}-{high:.2f})"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--app-port", type=int, default=18091)
    parser.add_argument("--redis-port", type=int, default=16411)
    parser.add_argument("--jar")
    parser.add_argument("--classpath")
    parser.add_argument("--keep", default="target/default-compare", help="where each answer's JSON is written")
    parser.add_argument("app_args", nargs="*", help="more --name=value for the app, after --")
    args = parser.parse_args()
    os.makedirs(args.keep, exist_ok=True)
    if args.classpath:
        command = ["java", "-cp", args.classpath, "dev.pipelininglab.PipeliningLabApplication"]
    else:
        jars = [j for j in glob.glob("target/pipelining-lab-*.jar") if not j.endswith("-plain.jar")]
        jar = args.jar or (jars[0] if jars else None)
        if not jar:
            sys.exit("no jar in target/: ./mvnw -B -q -DskipTests package, or --classpath")
        command = ["java", "-jar", jar]
    subprocess.run(["redis-server", "--port", str(args.redis_port), "--save", "", "--appendonly", "no",
                    "--daemonize", "yes"], check=True)
    app = None
    try:
        with open(os.path.join(args.keep, "app.log"), "w") as log:
            app = subprocess.Popen(command + [f"--spring.data.redis.port={args.redis_port}",
                                              f"--server.port={args.app_port}"] + args.app_args,
                                   stdout=log, stderr=subprocess.STDOUT)
        wait_healthy(args.app_port, app)
        lines = ["| run | answered in | loop ops/s (min-max) | flush-each-command (min-max) | buffered-500 (min-max) "
                 "| multi-key (min-max) | advice |", "|---:|---:|---:|---:|---:|---:|---:|"]
        buffered = []
        for run in range(1, args.runs + 1):
            url = f"http://127.0.0.1:{args.app_port}/compare/set/{args.count}?variants={VARIANTS}"
            request = urllib.request.Request(url, headers={"Accept": "application/json"})
            start = time.monotonic()
            with urllib.request.urlopen(request, timeout=300) as response:
                body = response.read()
            seconds = time.monotonic() - start
            with open(os.path.join(args.keep, f"run-{run}.json"), "wb") as out:
                out.write(body)
            answer = json.loads(body)
            results = answer["results"]
            loop = row(results, "loop")
            cells = [f"{loop['opsPerSecond']:,.0f}{span(loop.get('opsPerSecondMin'), loop.get('opsPerSecondMax'), '')}"]
            for variant in ("pipelined-flush-each-command", "pipelined-buffered-500", "multi-key"):
                r = row(results, variant)
                cells.append(f"{r['speedup']:.2f}×{span(r.get('speedupMin'), r.get('speedupMax'), '×')}" if r else "")
            b500 = row(results, "pipelined-buffered-500")
            if b500:
                buffered.append(b500["speedup"])
            advice = answer.get("recommendation", {}).get("batchSize")
            lines.append(f"| {run} | {seconds:.1f} s | " + " | ".join(cells) + f" | {advice:,} |" if advice
                         else f"| {run} | {seconds:.1f} s | " + " | ".join(cells) + " | |")
            print(lines[-1], flush=True)
            print("   " + answer["summary"].split(". ")[0] + ".", flush=True)
        print()
        print("\n".join(lines))
        if buffered:
            print(f"\nbuffered-500 {min(buffered):.2f}-{max(buffered):.2f}× "
                  f"({max(buffered) / min(buffered):.2f}× apart); load average {os.getloadavg()[0]:.2f}")
    finally:
        if app is not None:
            app.terminate()
            app.wait(30)
        subprocess.run(["redis-cli", "-p", str(args.redis_port), "shutdown", "nosave"], check=False,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


if __name__ == "__main__":
    main()
