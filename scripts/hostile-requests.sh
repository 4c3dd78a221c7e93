#!/usr/bin/env bash
# Replays a table of hostile requests against pipelining-lab and prints the answers counted by status.
#   A fresh redis-server on a free port and the app jar on another (both started and stopped here, loopback
#   only, never 6379), unless BASE_URL points at an app that is already running.
# The table: malformed percent-encoding (query and path), over-long URLs and headers, TRACE and other methods
# an endpoint does not take, foreign Host (DNS rebinding) and cross-site runs and deletes, bad numbers in every
# place, broken POST /runs bodies, unknown and unexposed endpoints; every letter of every run route
# percent-encoded (and path parameters, and same-site origins) from another site, an unknown parameter on every
# owned endpoint, values with control characters, spaces or another case, Accept headers no answer meets, text
# Accepts on a bad request, and bodies over the size limit.
# Checks: each answer has the status the table expects, no answer is a 5xx, every 4xx is
# application/problem+json, the app is still healthy afterwards, and its log has no ERROR line.
# Exits non-zero on any failed check.
#
# Usage: scripts/hostile-requests.sh          (builds the jar with -DskipTests if target/ has none)
#        BASE_URL=http://127.0.0.1:8080 scripts/hostile-requests.sh
# Environment: JAR, REDIS_SERVER (redis-server), VERBOSE=1 prints every case
set -euo pipefail

cd "$(dirname "$0")/.."
readonly REDIS_SERVER=${REDIS_SERVER:-redis-server}
readonly WORK=$(mktemp -d "${TMPDIR:-/tmp}/pipelining-lab-hostile.XXXXXX")
redis_pid=""
app_pid=""

log() { printf '[hostile] %s\n' "$*" >&2; }

cleanup() {
	# Only the processes this script started, by pid.
	if [[ -n "$app_pid" ]] && kill -0 "$app_pid" 2>/dev/null; then kill -TERM "$app_pid" 2>/dev/null || true; fi
	if [[ -n "$redis_pid" ]] && kill -0 "$redis_pid" 2>/dev/null; then kill -TERM "$redis_pid" 2>/dev/null || true; fi
}
trap cleanup EXIT

free_port() {
	local port
	for _ in $(seq 1 100); do
		port=$((20000 + RANDOM % 40000))
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
			echo "$port"
			return
		fi
	done
	log "no free port found"
	exit 2
}

base=${BASE_URL:-}
if [[ -z "$base" ]]; then
	jar=${JAR:-}
	if [[ -z "$jar" ]]; then
		jar=$(ls target/pipelining-lab-*.jar 2>/dev/null | grep -v -- '-plain' | head -1 || true)
		if [[ -z "$jar" ]]; then
			log "building the jar (./mvnw -B -q -DskipTests package)"
			./mvnw -B -q -DskipTests package >"$WORK/build.log" 2>&1 || { cat "$WORK/build.log" >&2; exit 2; }
			jar=$(ls target/pipelining-lab-*.jar | grep -v -- '-plain' | head -1)
		fi
	fi
	redis_port=$(free_port)
	mkdir -p "$WORK/redis"
	"$REDIS_SERVER" --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no --daemonize no \
		--dir "$WORK/redis" --logfile "$WORK/redis/redis.log" &
	redis_pid=$!
	app_port=$(free_port)
	log "redis-server pid $redis_pid on 127.0.0.1:$redis_port; app $jar on 127.0.0.1:$app_port"
	java -Xmx256m -jar "$jar" --server.port="$app_port" --spring.data.redis.host=127.0.0.1 \
		--spring.data.redis.port="$redis_port" --lab.local-redis.enabled=false >"$WORK/app.log" 2>&1 &
	app_pid=$!
	base="http://127.0.0.1:$app_port"
	for _ in $(seq 1 480); do
		curl -s -o /dev/null --max-time 2 "$base/actuator/health" && break
		kill -0 "$app_pid" 2>/dev/null || { cat "$WORK/app.log" >&2; log "the app died while starting"; exit 2; }
		sleep 0.5
	done
fi
authority=${base#http://}

# The table: expected status, method, path, then optional header and body.
declare -a EXPECT=() METHOD=() TARGET=() HEADER=() BODY=()
case_() {
	EXPECT+=("$1")
	METHOD+=("$2")
	TARGET+=("$3")
	HEADER+=("${4:-}")
	BODY+=("${5:-}")
}

# Malformed percent-encoding in the query (Tomcat decodes it lazily; it used to be a 500).
for q in 'batchSize=%ZZ' 'flushPolicy=%FF' 'flushPolicy=%C0%AF' '%ZZ=1' 'foo=%E0%A4' 'rtt=%' 'sample=%1' 'ttl=%G0' \
	'x=%ED%A0%80' 'x=%F8%88%80%80%80'; do
	case_ 400 GET "/pipeping/1?$q"
done
for path in /runs /runs/abc /actuator/health /actuator/metrics / /compare/set/10 /sweep/get/10; do
	case_ 400 GET "$path?x=%ZZ"
done
# Malformed or hostile paths (Tomcat refuses these before any servlet).
for path in '/pipe%ZZ/1' '/%' '/pipeset/%' '/compare/%C0%AF/10' '/pipeset/1%00' '/..%2F..%2Fetc%2Fpasswd' \
	'/pipeset/1%2F2' '/pipeset/%5C..%5C1'; do
	case_ 400 GET "$path"
done
case_ 400 GET "/pipeping/1?x=$(head -c 20000 /dev/zero | tr '\0' a)"
case_ 400 GET "/$(head -c 20000 /dev/zero | tr '\0' a)"
case_ 400 GET "/pipeping/1" "X-Long: $(head -c 20000 /dev/zero | tr '\0' a)"
case_ 400 GET "/pipeping/1" "Cookie: $(head -c 20000 /dev/zero | tr '\0' b)"
# Methods an endpoint does not take.
for path in /pipeping/1 /compare/set/10 /runs /keys /actuator/health; do
	case_ 405 TRACE "$path"
done
for method in PUT PATCH POST DELETE; do
	case_ 405 "$method" /pipeset/10
done
case_ 405 PUT /runs
case_ 405 GET /keys
# DNS rebinding: a Host this server is not.
for host in evil.example evil.example:8080 localhost.evil.example 127.0.0.1.nip.io '[::2]' 10.0.0.1 0.0.0.0; do
	case_ 403 GET /pipeping/1 "Host: $host"
done
case_ 403 GET /actuator/health "Host: evil.example"
case_ 403 DELETE /keys "Host: evil.example"
# Runs and deletes from another site's page.
for origin in http://evil.example null https://127.0.0.1 "http://$authority.evil.example" http://localhost:1; do
	case_ 403 GET /pipeset/10 "Origin: $origin"
done
for path in /pipeping/10 /loopset/10 /compare/set/10 /sweep/ping/10 /listinput/10 /piperpop/1; do
	case_ 403 GET "$path" "Sec-Fetch-Site: cross-site"
done
case_ 403 DELETE /keys "Origin: http://evil.example"
case_ 403 DELETE /keys "Sec-Fetch-Site: cross-site"
case_ 403 POST /runs "Origin: http://evil.example" '{"operation":"ping","mode":"pipelined","count":10}'
case_ 403 DELETE /runs/abc "Sec-Fetch-Site: cross-site"
# Bad numbers and names in every place.
for count in abc -1 0 1.5 1e3 0x10 '%2B10' 1_000 '%D9%A1%D9%A0' 99999999999999999999 9223372036854775808 10000001; do
	case_ 400 GET "/pipeset/$count"
done
for q in batchSize=0 batchSize=abc batchSize=2147483648 sample=-1 sample=1001 ttl=0 ttl=604801 ttl=1.5 \
	flushPolicy=sometimes flushPolicy=buffered-0 flushPolicy=buffered-x rtt=0 rtt=-2 rtt=NaN rtt=Infinity rtt=1e2 \
	repeat=3 variants=loop batchSizes=1,10; do
	case_ 400 GET "/pipeset/10?$q"
done
for q in repeat=0 repeat=10 variants=warp 'variants=,' 'variants=loop,warp' rtt=1001; do
	case_ 400 GET "/compare/set/10?$q"
done
for q in batchSizes=0 'batchSizes=1,x' batchSizes=100 'batchSizes=,'; do
	case_ 400 GET "/sweep/set/10?$q"
done
for op in foo rpush SETX '%20' 'set%3Bflushall' '*'; do
	case_ 400 GET "/compare/$op/10"
done
# Broken POST /runs bodies.
json="Content-Type: application/json"
for body in '' '{' '[]' 'null' '"x"' '{"operation":"set","count":"ten"}' '{"operation":"set","count":-1}' \
	'{"operation":"set","count":10,"keyPrefix":"x"}' '{"operation":"flushall","count":10}' \
	'{"operation":"set","count":10,"batchSize":0}' '{"operation":"set","count":10,"variants":"loop"}' \
	'{"operation":"set","count":10,"mode":"warp"}'; do
	case_ 400 POST /runs "$json" "$body"
done
case_ 415 POST /runs "Content-Type: text/plain" '{"operation":"ping","count":10}'
case_ 415 POST /runs "Content-Type: application/x-www-form-urlencoded" 'operation=ping&count=10'
# Unknown, unexposed or empty things.
for path in /actuator/metrics/nonexistent /actuator/env /actuator/heapdump /actuator/shutdown /error /pipeunknown/10 \
	/runs/does-not-exist /WEB-INF/web.xml /.git/config; do
	case_ 404 GET "$path"
done
# Every route that runs commands, with each letter of its name percent-encoded in turn, or a path parameter, from
# another site: the guard decides on the path the app routes, so each is refused before it runs.
routes=(pipeset pipeget piperpop pipeping pipeincr pipehset pipesadd pipezadd pipelpush loopset loopget looprpop
	loopping loopincr loophset loopsadd loopzadd looplpush pipemixed loopmixed listinput)
for route in "${routes[@]}"; do
	for ((i = 0; i < ${#route}; i++)); do
		encoded="${route:0:i}%$(printf '%02X' "'${route:i:1}")${route:i+1}"
		case_ 403 GET "/$encoded/1" "Sec-Fetch-Site: cross-site"
	done
	case_ 403 GET "/$route;x=1/1" "Sec-Fetch-Site: cross-site"
	# Another port of the same host is the same site, not the same origin.
	case_ 403 GET "/$route/1" "Sec-Fetch-Site: same-site"
done
case_ 403 GET "/compare;a/ping/1" "Sec-Fetch-Site: cross-site"
case_ 403 GET "/%63ompare/ping/1" "Sec-Fetch-Site: cross-site"
case_ 403 GET "/swee%70/ping/1" "Sec-Fetch-Site: cross-site"
# A parameter an endpoint does not take, on every endpoint the lab answers itself.
for route in "${routes[@]}"; do
	case_ 400 GET "/$route/1?bogus=1"
done
for path in / /runs /runs/abc /runs/abc/events /runs/abc/report.csv '/runs/compare?a=x&b=y&' /compare/set/1 \
	/sweep/set/1 /actuator/health /actuator/health/readiness /actuator/info /actuator/metrics /actuator/prometheus \
	/v3/api-docs; do
	sep='?'
	[[ "$path" == *'?'* ]] && sep=''
	case_ 400 GET "$path${sep}bogus=1"
done
case_ 400 DELETE '/keys?pattern=*'
case_ 400 POST '/runs?limit=5' "$json" '{"operation":"ping","mode":"pipelined","count":10}'
# One rule for a value wherever it arrives: nothing trimmed, no other case, plain decimals in JSON too.
for q in 'flushPolicy=flush-on-close%00' 'flushPolicy=%20buffered-10' 'flushPolicy=BUFFERED-10' 'connector=lettuce%0B' \
	'connection=Pooled'; do
	case_ 400 GET "/pipeset/10?$q"
done
case_ 400 GET /compare/SET/1
for body in '{"operation":"set","mode":"pipelined","count":10,"flushPolicy":" buffered-10"}' \
	'{"operation":"set","mode":"pipelined","count":10,"rtt":1e-3}' '{"operation":"SET","mode":"pipelined","count":10}' \
	'{"operation":"set","count":10,"variants":[null]}' '{"operation":"set","count":10,"mode":"pipelined","count":1}' \
	"{\"operation\":\"set\",\"count\":10,\"variants\":[$(printf '"loop",%.0s' $(seq 1 40))\"loop\"]}"; do
	case_ 400 POST /runs "$json" "$body"
done
# An answer that cannot be given is refused before the run writes anything.
for accept in image/png text/html application/xml '*/*;q=x'; do
	case_ 406 GET /pipeset/7 "Accept: $accept"
done
# Problems are problem+json whatever format the results were asked in.
for accept in text/plain text/csv text/markdown; do
	case_ 400 GET /pipeset/abc "Accept: $accept"
done
# A body is bounded before it is parsed.
case_ 413 POST /runs "$json" "{\"operation\":\"set\",\"count\":10,\"variants\":[$(printf '"loop",%.0s' $(seq 1 3000))\"loop\"]}"

total=${#EXPECT[@]}
log "replaying $total hostile requests against $base"
declare -A by_status=() by_expected=()
failures=0
not_problem=0
server_errors=0
for i in $(seq 0 $((total - 1))); do
	args=(-s -g --path-as-is -o "$WORK/body" -w '%{http_code} %{content_type}' --max-time 30 -X "${METHOD[$i]}")
	if [[ -n "${HEADER[$i]}" ]]; then args+=(-H "${HEADER[$i]}"); fi
	if [[ "${METHOD[$i]}" == POST ]]; then args+=(--data-binary "${BODY[$i]}"); fi
	if [[ "${METHOD[$i]}" == POST && -z "${HEADER[$i]}" ]]; then args+=(-H "Content-Type: application/json"); fi
	# (-w prints no newline, so read reports end of input after setting both.)
	read -r code type < <(curl "${args[@]}" "$base${TARGET[$i]}" || echo "000 -") || true
	by_status[$code]=$(( ${by_status[$code]:-0} + 1 ))
	what="${METHOD[$i]} ${TARGET[$i]:0:80}${HEADER[$i]:+ [${HEADER[$i]:0:40}]}${BODY[$i]:+ body ${BODY[$i]:0:40}}"
	if [[ "$code" != "${EXPECT[$i]}" ]]; then
		failures=$((failures + 1))
		log "UNEXPECTED $code (wanted ${EXPECT[$i]}): $what -> $(head -c 200 "$WORK/body")"
	fi
	if [[ "$code" =~ ^5 || "$code" == 000 ]]; then server_errors=$((server_errors + 1)); fi
	if [[ "$code" =~ ^4 && "$type" != application/problem+json* ]]; then
		not_problem=$((not_problem + 1))
		log "NOT problem+json ($code, $type): $what"
	fi
	by_expected[${EXPECT[$i]}]=$(( ${by_expected[${EXPECT[$i]}]:-0} + 1 ))
	if [[ -n "${VERBOSE:-}" ]]; then log "$code $what"; fi
done

healthy=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 "$base/actuator/health" || true)
errors="-"
if [[ -n "$app_pid" ]]; then
	errors=$(grep -a -c ' ERROR ' "$WORK/app.log" || true)
fi

printf '\n%-8s %8s %8s\n' "status" "answers" "expected"
for code in $(printf '%s\n' "${!by_status[@]}" "${!by_expected[@]}" | sort -u); do
	printf '%-8s %8s %8s\n' "$code" "${by_status[$code]:-0}" "${by_expected[$code]:-0}"
done
printf '%-8s %8s\n' "total" "$total"
printf '\nunexpected status: %d   5xx or no answer: %d   4xx not problem+json: %d   health after: %s   ERROR lines in app log: %s\n' \
	"$failures" "$server_errors" "$not_problem" "$healthy" "$errors"

if (( failures > 0 || server_errors > 0 || not_problem > 0 )) || [[ "$healthy" != 200 ]] || [[ "$errors" != "-" && "$errors" != 0 ]]; then
	exit 1
fi
