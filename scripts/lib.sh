# Helpers the scripts in scripts/ share; sourced, not run:
#   source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# Loopback only. Functions print their result on stdout and say what went wrong on stderr.

# lab_port_in_use PORT: succeeds when something listens on 127.0.0.1:PORT.
lab_port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# lab_free_port: a loopback port nothing listens on, from 20000-49999 (clear of 6379 and the
# topology script's defaults).
lab_free_port() {
	local port
	for _ in $(seq 100); do
		port=$((20000 + RANDOM % 30000))
		if ! lab_port_in_use "$port"; then
			echo "$port"
			return 0
		fi
	done
	echo "no free port found" >&2
	return 1
}

# lab_find_jar: the app's executable jar in target/ (not the -plain one), or nothing.
lab_find_jar() {
	find target -maxdepth 1 -name 'pipelining-lab-*.jar' ! -name '*-plain.jar' 2>/dev/null | head -n 1
}

# lab_jar: the app's jar, built first (without tests) when there is none. Run from the project root.
lab_jar() {
	local jar
	jar="$(lab_find_jar)"
	if [[ -z "$jar" ]]; then
		echo "building the jar (./mvnw -B -q -DskipTests package)" >&2
		./mvnw -B -q -DskipTests package >&2 || return 1
		jar="$(lab_find_jar)"
	fi
	[[ -n "$jar" ]] || { echo "no jar in target/" >&2; return 1; }
	echo "$jar"
}

# lab_wait_healthy PORT PID [SECONDS]: waits until the app on PORT answers /actuator/health with a 2xx
# (default 120 s); fails early when process PID has exited.
lab_wait_healthy() {
	local port="$1" pid="$2" deadline=$((SECONDS + ${3:-120}))
	until curl -fsS -o /dev/null --max-time 2 "http://127.0.0.1:$port/actuator/health" 2>/dev/null; do
		if ! kill -0 "$pid" 2>/dev/null; then
			echo "the app (pid $pid) exited while starting" >&2
			return 1
		fi
		if ((SECONDS >= deadline)); then
			echo "the app on port $port was not healthy after ${3:-120} s" >&2
			return 1
		fi
		sleep 0.5
	done
}
