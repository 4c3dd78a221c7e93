#!/usr/bin/env bash
# Runs the Postman collection in postman/ with newman against the packaged app on a fresh, empty redis-server.
# The app starts that redis-server itself (lab.local-redis): it is pointed at a free loopback port where nothing
# listens, and stops the server again when it exits. A system Redis on 6379 is never touched.
#
#   scripts/newman.sh [newman options...]      e.g. scripts/newman.sh --folder "Runs as jobs"
#
# Needs a JDK and Node.js (npx fetches newman 6 from the npm registry). Builds the jar when there is none.
# Reports and the app's log go to target/newman/.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

jar="$(lab_jar)"
app_port="$(lab_free_port)"
redis_port="$(lab_free_port)"
mkdir -p target/newman
echo "Starting $jar on 127.0.0.1:$app_port with a fresh redis-server on 127.0.0.1:$redis_port"
# Two run slots: the collection's two long runs take them all, and its third run is answered 429.
java -jar "$jar" --server.port="$app_port" --spring.data.redis.host=127.0.0.1 \
  --spring.data.redis.port="$redis_port" --lab.admission.max-concurrent=2 >target/newman/app.log 2>&1 &
app_pid=$!
stop_app() {
  kill "$app_pid" 2>/dev/null || true
  wait "$app_pid" 2>/dev/null || true
}
trap stop_app EXIT

if ! lab_wait_healthy "$app_port" "$app_pid" 120; then
  echo "The app did not become healthy; its log:" >&2
  tail -n 50 target/newman/app.log >&2
  exit 1
fi

npx --yes newman@6 run postman/pipelining-lab.postman_collection.json \
  -e postman/pipelining-lab.postman_environment.json \
  --env-var "baseUrl=http://127.0.0.1:$app_port" \
  --reporters cli,junit --reporter-junit-export target/newman/newman-junit.xml \
  --timeout-request 120000 "$@"
