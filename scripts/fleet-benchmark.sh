#!/usr/bin/env bash
# Fleet runs on this machine (issue 38, part 4): 1, 2, then 3 app jar processes on loopback, each started with
# lab.fleet.join=true against one given Redis, one fleet run POSTed to the first of them, and a table of what the
# fleet measured: instances, ops/s over the common window, p50/p99 from the members' histograms added, and what
# limited each member (limitedBy). Loopback only; the Redis is the caller's (started with scripts/redis-topology.sh,
# say) and must be empty of the lab's keys or hold nothing you need under the prefix: each step ends with
# DELETE /keys.
#
#   scripts/fleet-benchmark.sh 127.0.0.1:6379                 # one standalone Redis
#   scripts/fleet-benchmark.sh --cluster 127.0.0.1:7000,127.0.0.1:7001,127.0.0.1:7002
#
# Environment: COUNT (3000000) MODE (pipelined, or pipelined-by-node on a cluster) BATCH (10000) CLIENTS (1)
#              LAB_FLEET_SECRET (a random one for this run's apps)
#              INSTANCES ("1 2 3") HEAP (512m) JAR (built with -DskipTests when absent)
#              APP (the command that starts one app, instead of java -jar, e.g. "java -cp <classpath> <main class>")
# On two cores more instances share the same two cores with Redis: expect no gain, and limitedBy to say why.
# The apps' logs go to target/fleet-benchmark/.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

redis_args=()
if [[ "${1:-}" == "--cluster" ]]; then
	nodes="${2:?--cluster needs host:port,host:port,...}"
	redis_args=(--spring.data.redis.cluster.nodes="$nodes")
	first="${nodes%%,*}"
else
	first="${1:?usage: scripts/fleet-benchmark.sh HOST:PORT | --cluster HOST:PORT,...}"
	redis_args=(--spring.data.redis.host="${first%%:*}" --spring.data.redis.port="${first##*:}")
fi
case "${first%%:*}" in
	127.0.0.1 | localhost) ;;
	*) echo "loopback only: $first is not 127.0.0.1 or localhost" >&2; exit 1 ;;
esac

readonly COUNT=${COUNT:-3000000} MODE=${MODE:-pipelined} BATCH=${BATCH:-10000} CLIENTS=${CLIENTS:-1}
readonly INSTANCES=${INSTANCES:-1 2 3} HEAP=${HEAP:-512m}
if [[ -n "${APP:-}" ]]; then
	read -ra app <<<"$APP"
else
	app=(java -Xmx"$HEAP" -jar "${JAR:-$(lab_jar)}")
fi
# What the apps sign their fleet messages with (lab.fleet.secret): one for this script's apps alone, in their
# environment rather than on a command line that ps shows.
LAB_FLEET_SECRET="${LAB_FLEET_SECRET:-$(head -c 32 /dev/urandom | base64)}"
export LAB_FLEET_SECRET
logs=target/fleet-benchmark
mkdir -p "$logs"
pids=()
stop_apps() {
	for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
	for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
	pids=()
}
trap stop_apps EXIT

printf '| instances | ops/s | p50 ms | p99 ms | limitedBy per member |\n|---|---|---|---|---|\n'
for n in $INSTANCES; do
	ports=()
	for i in $(seq "$n"); do
		port="$(lab_free_port)"
		"${app[@]}" --server.port="$port" --lab.local-redis.enabled=false --lab.fleet.join=true \
			"${redis_args[@]}" >"$logs/app-$n-$i.log" 2>&1 &
		pids+=($!)
		ports+=("$port")
		lab_wait_healthy "$port" "$!" 180
	done
	base="http://127.0.0.1:${ports[0]}"
	body=$(printf '{"operation": "set", "mode": "%s", "count": %d, "batchSize": %d, "clients": %d, "instances": %d}' \
		"$MODE" "$COUNT" "$BATCH" "$CLIENTS" "$n")
	location=$(curl -fsS -D - -o /dev/null -H 'Content-Type: application/json' -d "$body" "$base/runs" |
		tr -d '\r' | awk 'tolower($1) == "location:" { print $2 }')
	until record=$(curl -fsS "$base$location") && jq -e '.status | IN("DONE", "FAILED", "CANCELLED")' \
		<<<"$record" >/dev/null; do
		sleep 1
	done
	jq -r --argjson n "$n" '
		if .status != "DONE" then "| \($n) | \(.status): \(.problem.detail // "") | | | |"
		else .results[0] as $r
			| "| \($n)\(if .fleet.partial then " (partial: \(.fleet.instances) ran)" else "" end)"
			+ " | \($r.opsPerSecond | round) | \($r.latency.p50) | \($r.latency.p99) | "
			+ ((.fleet.members // [{instance: .instance, limitedBy: $r.limitedBy}])
				| map("\(.limitedBy.what // .stopped // "?")") | join(", ")) + " |"
		end' <<<"$record"
	curl -fsS -o /dev/null -X DELETE "$base/keys"
	stop_apps
done
