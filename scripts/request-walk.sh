#!/usr/bin/env bash
# Which of the lab's classes one GET run passes through: starts its own redis-server and the app jar on free
# loopback ports with HotSpot's touched-method log (JDK 17 to 21: -XX:+LogTouchedMethods), lists the lab's methods
# touched by start-up, sends the request once, and lists them again: the methods only the request touched show
# the classes it passes (a method start-up also touched is missed, so the count is a floor).
# Prints each class with how many of its methods the request touched first, then the count of classes, records,
# enums and settings included (CONTRIBUTING.md, "The walk of a GET run", names the ones that carry the request).
#
#   scripts/request-walk.sh                      # GET /pipeset/10
#   scripts/request-walk.sh '/compare/set/1000'  # any run path
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

path="${1:-/pipeset/10}"
jar="$(lab_jar)"
work="$(mktemp -d)"
redis_port="$(lab_free_port)"
app_port="$(lab_free_port)"
redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
	--pidfile "$work/redis.pid" --logfile "$work/redis.log"
java -XX:+UnlockDiagnosticVMOptions -XX:+LogTouchedMethods -jar "$jar" --server.port="$app_port" \
	--spring.data.redis.port="$redis_port" >"$work/app.log" 2>&1 &
app=$!
trap 'kill "$app" 2>/dev/null; kill "$(cat "$work/redis.pid")" 2>/dev/null; rm -rf "$work"' EXIT
lab_wait_healthy "$app_port" "$app"
touched() { jcmd "$app" VM.print_touched_methods | grep 'dev/pipelininglab/' | sort; }
touched >"$work/before"
curl -fsS -o /dev/null "http://127.0.0.1:$app_port$path"
touched >"$work/after"
comm -13 "$work/before" "$work/after" | sed -E 's#^dev/pipelininglab/##; s#\.[^.]*:.*##; s#\$.*##' \
	| sort | uniq -c | sort -rn >"$work/classes"
cat "$work/classes"
echo "$(wc -l <"$work/classes") of the lab's classes touched by GET $path after start-up"
