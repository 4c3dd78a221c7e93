#!/usr/bin/env bash
# One command for the whole benchmark: builds the app, starts a fresh redis-server on a free port, runs the
# matrix (SET/GET/RPOP x 10k/100k/1M x every variant) and redis-benchmark as the ceiling, the headline with
# Lettuce's own endpoint and with the lab's batch-writing one, /pipeset under `./mvnw spring-boot:run` and under
# `java -jar`, and writes Markdown tables to target/benchmark.md. Needs redis-server, redis-cli, redis-benchmark
# and python3 on the PATH (and jcmd and jfr for --only profile).
#
# Every comparison of two apps, or of an app and redis-benchmark (headline, launch ways, cluster), uses one method
# (scripts/paired.py, docs/benchmark.md "One method for every comparison"): the same --warm-requests per side,
# a wait until every JVM is quiet, --tries tries (at least 5 for a figure) in alternating order, medians with
# their range and the median of the per-try ratios.
#
#   scripts/benchmark.sh                         # the matrix: 10 minutes to over an hour on 2 cores, as the
#                                                # 1M-command loops pay one loopback round trip each
#   scripts/benchmark.sh --rtt-ms 2 --big 10000000   # plus the RTT lab and 10M SETs at -Xmx256m
#   scripts/benchmark.sh --counts 10000,100000 --repeat 1   # quicker
#   scripts/benchmark.sh --only headline,launch --count 20000 --tries 2 \
#     --launch-counts 10000,20000 --warm-requests 1   # a smoke run of the paired sections (not a figure)
#   scripts/benchmark.sh --only values,fanout,bigvalue   # the workload tables alone (value size, fan-out, big values)
#   scripts/benchmark.sh --only clients --clients 1,4,16,64        # only the many-clients table (Lettuce and Jedis)
#   scripts/benchmark.sh --only shapes           # offered rates (p50/p99, loop and pipeline, direct and at rtt=1),
#                                                # transactions against a pipeline, reactive against async
#   scripts/benchmark.sh --only projection       # the RTT projection against the relay at rtt=1 and 5 (docs/recipes.md)
#   scripts/benchmark.sh --topology cluster      # only /pipeset/1000000 on a 3-master cluster against a
#                                                # standalone master, like for like (no replicas on either side),
#                                                # with pipelined-by-node and both sides' redis-benchmark ceilings
#   scripts/benchmark.sh --topology cluster --cluster-replicas 0,1   # and again with one replica per master on
#                                                # both sides (as scripts/redis-topology.sh and Compose run them)
#   scripts/benchmark.sh --topology cluster --cluster-writes per-command,per-flush   # both ways of writing
#   scripts/benchmark.sh --order-study           # why comparisons disagreed: the cluster pair warm and cold, A
#                                                # first and B first, with and without waiting for quiet JVMs
#   scripts/benchmark.sh --only recipe           # the take-home PipelinedRecipe bare, in a JVM of its own, against
#                                                # /pipeset/1000000 of the same batch: 5 A-B pairs, median ratio
#   scripts/benchmark.sh --only profile          # lab.pipeline.writes=per-flush under JFR: CPU and syscalls per
#                                                # million commands, app against redis-benchmark, top frames
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
# Always rebuilt: a benchmark of a stale jar would measure old code.
./mvnw -q -B package -Dmaven.test.skip=true
jar=$(lab_find_jar)
exec python3 scripts/benchmark.py --jar "$jar" "$@"
