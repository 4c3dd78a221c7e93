#!/usr/bin/env bash
# The Compose profile's app (port 8080, or the port given, e.g. a fleet replica's) becomes ready and answers
# /pipeset/1000 with 200: used by the compose job.
# No credentials: docker-compose.yml runs its apps with LAB_SECURITY_OPEN=true, their port published on 127.0.0.1 only.
set -euo pipefail
port="${1:-8080}"
for _ in $(seq 90); do
  curl -fsS "localhost:$port/actuator/health/readiness" >/dev/null 2>&1 && break
  sleep 2
done
curl -fsS "localhost:$port/actuator/health/readiness"
echo
status="$(curl -s -o /tmp/pipeset.json -w '%{http_code}' "localhost:$port/pipeset/1000")"
cat /tmp/pipeset.json
echo
test "$status" = 200
