#!/usr/bin/env bash
# Bounded load test of pipelining-lab on this machine, loopback only:
#   a fresh redis-server on a free port (started and stopped here, never 6379),
#   the app jar with -Xmx256m on another free port,
#   4 concurrent /pipeset/1000000 runs plus 50 concurrent small mixed requests
#   (loop and pipelined, every operation), then a graceful stop (SIGTERM).
# Checks: every answer is 200 or a documented 429/503 problem (no 500s), every
# SET answer has verified == count, no OutOfMemoryError in the app log, the app
# survives the burst and exits cleanly, Redis holds the keys the runs reported.
# Prints a summary table; exits non-zero on any failed check.
#
# Usage: scripts/load-test.sh            (builds the jar with -DskipTests if needed)
#        JAR=target/x.jar scripts/load-test.sh
# Environment: BIG (4) BIG_COUNT (1000000) SMALL (50) HEAP (256m)
#              MAX_TIME (seconds per request, 300) REDIS_SERVER (redis-server)
set -euo pipefail

cd "$(dirname "$0")/.."
source scripts/lib.sh
readonly BIG=${BIG:-4}
readonly BIG_COUNT=${BIG_COUNT:-1000000}
readonly SMALL=${SMALL:-50}
readonly HEAP=${HEAP:-256m}
readonly MAX_TIME=${MAX_TIME:-300}
readonly REDIS_SERVER=${REDIS_SERVER:-redis-server}
readonly WORK=$(mktemp -d "${TMPDIR:-/tmp}/pipelining-lab-load.XXXXXX")
# Requests that can run side by side without spoiling each other's checks: no SET comparison or sweep, whose
# set-up deletes the keys concurrent SET runs verify.
readonly MIX=("/pipeset/2000" "/loopset/200" "/pipeget/2000" "/loopget/200" "/listinput/1000" "/piperpop/500"
	"/looprpop/100" "/pipeping/1000" "/loopping/200" "/pipeset/1000?flushPolicy=buffered-100"
	"/compare/get/500?variants=loop,pipelined,multi-key" "/sweep/ping/1000?batchSizes=10,100" "/pipeset/500?ttl=600")

redis_pid=""
app_pid=""
failures=0

log() { printf '[load-test] %s\n' "$*" >&2; }
fail() { log "FAIL: $*"; failures=$((failures + 1)); }

cleanup() {
	# Only the processes this script started, by pid.
	if [[ -n "$app_pid" ]] && kill -0 "$app_pid" 2>/dev/null; then kill -KILL "$app_pid" 2>/dev/null || true; fi
	if [[ -n "$redis_pid" ]] && kill -0 "$redis_pid" 2>/dev/null; then kill -TERM "$redis_pid" 2>/dev/null || true; fi
}
trap cleanup EXIT

# Every stat of a JSON answer the checks need, without jq: "field":number.
field() { grep -o "\"$2\":[0-9]*" "$1" | head -1 | cut -d: -f2 || true; }

jar=${JAR:-}
if [[ -z "$jar" ]]; then
	jar=$(lab_jar) || exit 2
fi

redis_port=$(lab_free_port) || exit 2
mkdir -p "$WORK/redis"
"$REDIS_SERVER" --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no --daemonize no \
	--dir "$WORK/redis" --logfile "$WORK/redis/redis.log" &
redis_pid=$!
for _ in $(seq 1 100); do
	redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break
	sleep 0.1
done
redis-cli -p "$redis_port" ping >/dev/null || { log "redis-server did not start"; exit 2; }
# Someone else's data, which must come out untouched.
redis-cli -p "$redis_port" set "someone-else:key" "keep me" >/dev/null
redis-cli -p "$redis_port" set "pipelining-labX:key:1" "keep me too" >/dev/null

app_port=$(lab_free_port) || exit 2
log "redis-server pid $redis_pid on 127.0.0.1:$redis_port; app $jar with -Xmx$HEAP on 127.0.0.1:$app_port"
java "-Xmx$HEAP" -jar "$jar" --server.port="$app_port" --spring.data.redis.host=127.0.0.1 \
	--spring.data.redis.port="$redis_port" --lab.local-redis.enabled=false >"$WORK/app.log" 2>&1 &
app_pid=$!
lab_wait_healthy "$app_port" "$app_pid" 120 || { cat "$WORK/app.log" >&2; exit 2; }

base="http://127.0.0.1:$app_port"
mkdir -p "$WORK/answers"
start=$(date +%s%N)
n=0
for i in $(seq 1 "$BIG"); do
	n=$((n + 1))
	(curl -s --max-time "$MAX_TIME" -o "$WORK/answers/$n.json" -w '%{http_code} %{time_total}' \
		"$base/pipeset/$BIG_COUNT" >"$WORK/answers/$n.status"; echo "big /pipeset/$BIG_COUNT" >"$WORK/answers/$n.what") &
done
sleep 0.5
for i in $(seq 0 $((SMALL - 1))); do
	n=$((n + 1))
	uri=${MIX[$((i % ${#MIX[@]}))]}
	(curl -s --max-time "$MAX_TIME" -o "$WORK/answers/$n.json" -w '%{http_code} %{time_total}' "$base$uri" \
		>"$WORK/answers/$n.status"; echo "small $uri" >"$WORK/answers/$n.what") &
done
wait $(jobs -p | grep -v -e "^$app_pid\$" -e "^$redis_pid\$") 2>/dev/null || true
elapsed=$(( ($(date +%s%N) - start) / 1000000000 ))

# One row per kind of request.
declare -A total ok busy unavailable other verified slowest
keys_verified=0
for status_file in "$WORK"/answers/*.status; do
	id=$(basename "$status_file" .status)
	read -r what uri <"$WORK/answers/$id.what"
	code=$(cut -d' ' -f1 "$status_file")
	seconds=$(cut -d' ' -f2 "$status_file")
	kind="$what ${uri%%\?*}"
	kind=${kind%/*}
	total[$kind]=$(( ${total[$kind]:-0} + 1 ))
	case "$code" in
		200) ok[$kind]=$(( ${ok[$kind]:-0} + 1 )) ;;
		429) busy[$kind]=$(( ${busy[$kind]:-0} + 1 )) ;;
		503) unavailable[$kind]=$(( ${unavailable[$kind]:-0} + 1 )) ;;
		*) other[$kind]=$(( ${other[$kind]:-0} + 1 )); fail "$what $uri answered $code: $(head -c 300 "$WORK/answers/$id.json")" ;;
	esac
	if awk -v s="$seconds" -v m="${slowest[$kind]:-0}" 'BEGIN { exit !(s > m) }'; then slowest[$kind]=$seconds; fi
	if [[ "$code" == 200 && "$uri" == /pipeset/* || "$code" == 200 && "$uri" == /loopset/* ]]; then
		count=$(field "$WORK/answers/$id.json" count)
		got=$(field "$WORK/answers/$id.json" verified)
		if [[ "$got" == "$count" && -n "$count" ]]; then
			verified[$kind]=$(( ${verified[$kind]:-0} + 1 ))
			keys_verified=$((keys_verified + count))
		else
			fail "$uri verified ${got:-none} of ${count:-?}"
		fi
	fi
done

oom=$(grep -c "OutOfMemoryError" "$WORK/app.log" || true)
[[ "$oom" == 0 ]] || fail "OutOfMemoryError in the app log ($oom lines)"
kill -0 "$app_pid" 2>/dev/null || fail "the app died during the burst"
errors=$(grep -c " ERROR " "$WORK/app.log" || true)
heap=$(curl -s --max-time 10 "$base/actuator/metrics/jvm.memory.used?tag=area:heap" | grep -o '"value":[0-9.E]*' | head -1 | cut -d: -f2)
demo_keys=$(redis-cli -p "$redis_port" --scan --pattern 'pipelining-lab:key:*' | wc -l)
[[ "$(redis-cli -p "$redis_port" get someone-else:key)" == "keep me" ]] || fail "a foreign key was changed"
[[ "$(redis-cli -p "$redis_port" get pipelining-labX:key:1)" == "keep me too" ]] || fail "a look-alike key was changed"
[[ "$demo_keys" -ge "$BIG_COUNT" ]] || fail "Redis holds $demo_keys demo keys, fewer than one big run wrote"

# Graceful stop, as a container runtime or systemd would.
kill -TERM "$app_pid"
stopped=no
for _ in $(seq 1 120); do
	kill -0 "$app_pid" 2>/dev/null || { stopped=yes; break; }
	sleep 0.5
done
[[ "$stopped" == yes ]] || fail "the app did not stop within 60 s of SIGTERM"
wait "$app_pid" 2>/dev/null && app_exit=0 || app_exit=$?
app_pid=""

printf '\n%-34s %6s %6s %6s %6s %6s %9s %10s\n' "requests" "sent" "200" "429" "503" "other" "verified" "slowest s"
while IFS= read -r kind; do
	printf '%-34s %6s %6s %6s %6s %6s %9s %10s\n' "$kind" "${total[$kind]}" "${ok[$kind]:-0}" "${busy[$kind]:-0}" \
		"${unavailable[$kind]:-0}" "${other[$kind]:-0}" "${verified[$kind]:--}" "${slowest[$kind]}"
done < <(printf '%s\n' "${!total[@]}" | sort)
printf '\n%-40s %s\n' "requests fired" "$n ($BIG x /pipeset/$BIG_COUNT + $SMALL small), in $elapsed s"
printf '%-40s %s\n' "SET keys verified by the answers" "$keys_verified"
printf '%-40s %s\n' "demo keys in Redis afterwards" "$demo_keys"
printf '%-40s %s\n' "foreign keys untouched" "$([[ $failures == 0 ]] && echo yes || echo see failures)"
printf '%-40s %s\n' "heap used after the burst (-Xmx$HEAP)" "$(awk -v b="${heap:-0}" 'BEGIN { printf "%.0f MiB", b / 1048576 }')"
printf '%-40s %s\n' "OutOfMemoryError lines in the app log" "$oom"
printf '%-40s %s\n' "ERROR lines in the app log" "$errors"
printf '%-40s %s\n' "app stopped on SIGTERM" "$stopped (exit $app_exit)"
printf '%-40s %s\n' "work dir (answers, app.log)" "$WORK"

if [[ $failures -gt 0 ]]; then
	log "$failures check(s) failed"
	exit 1
fi
log "all checks passed"
