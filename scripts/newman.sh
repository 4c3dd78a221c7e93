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

find_jar() {
  find target -maxdepth 1 -name 'pipelining-lab-*.jar' ! -name '*-plain.jar' 2>/dev/null | head -n 1
}

jar="$(find_jar)"
if [[ -z "$jar" ]]; then
  ./mvnw -B -q -DskipTests package
  jar="$(find_jar)"
fi

free_port() {
  local port
  for _ in $(seq 100); do
    port=$((20000 + RANDOM % 30000))
    # A connection that succeeds means something listens there.
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return 0
    fi
  done
  echo "no free port found" >&2
  return 1
}

app_port="$(free_port)"
redis_port="$(free_port)"
mkdir -p target/newman
echo "Starting $jar on 127.0.0.1:$app_port with a fresh redis-server on 127.0.0.1:$redis_port"
java -jar "$jar" --server.port="$app_port" --spring.data.redis.host=127.0.0.1 \
  --spring.data.redis.port="$redis_port" >target/newman/app.log 2>&1 &
app_pid=$!
stop_app() {
  kill "$app_pid" 2>/dev/null || true
  wait "$app_pid" 2>/dev/null || true
}
trap stop_app EXIT

healthy=false
for _ in $(seq 120); do
  if curl -fsS "http://127.0.0.1:$app_port/actuator/health" >/dev/null 2>&1; then
    healthy=true
    break
  fi
  if ! kill -0 "$app_pid" 2>/dev/null; then
    break
  fi
  sleep 1
done
if [[ "$healthy" != true ]]; then
  echo "The app did not become healthy; its log:" >&2
  tail -n 50 target/newman/app.log >&2
  exit 1
fi

npx --yes newman@6 run postman/pipelining-lab.postman_collection.json \
  -e postman/pipelining-lab.postman_environment.json \
  --env-var "baseUrl=http://127.0.0.1:$app_port" \
  --reporters cli,junit --reporter-junit-export target/newman/newman-junit.xml \
  --timeout-request 120000 "$@"
