#!/usr/bin/env bash
# Runs the pipelining-lab Redis topologies from local redis-server processes
# (no Docker), on the same ports as docker-compose.yml. Run with no arguments
# for the usage text.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

readonly PROG="scripts/redis-topology.sh"
readonly SENTINEL_MASTER_NAME="mymaster"
readonly SENTINEL_QUORUM=2

usage() {
	cat >&2 <<EOF
Usage: $PROG start|stop|status standalone|sentinel|cluster

Runs a Redis topology from local redis-server processes (no Docker), on the
same ports as docker-compose.yml, all bound to 127.0.0.1:

  standalone  one Redis on 6379
  sentinel    master 6379, replicas 6380 6381, sentinels 26379 26380 26381
              watching master name '$SENTINEL_MASTER_NAME'
  cluster     6 nodes 7379-7384 (3 masters + 3 replicas, bus ports +10000),
              created with redis-cli --cluster create --cluster-replicas 1

Commands:
  start   start the topology, wait until it is ready and print the command
          that starts the app on it. A port already used by something this
          script did not start is an error, except for standalone when a
          usable Redis already answers there: that one is used as-is.
  stop    stop only the processes whose pid files this script wrote
          (SHUTDOWN NOSAVE, then kill); anything else is left alone.
  status  print every node: port, role, pid, up/down (exit code 3 if a
          node is down).

Environment:
  PIPELINING_LAB_REDIS_DIR  base work dir (default \${TMPDIR:-/tmp}/pipelining-lab-redis);
                            configs, logs and pid files go to <base>/<topology>/
  REDIS_MASTER_PORT         port of the standalone Redis and of the sentinel
                            master (default 6379). Set it when 6379 is taken,
                            e.g. by a system Redis:
                              REDIS_MASTER_PORT=6390 $PROG start sentinel
  REDIS_REPLICA_PORTS       sentinel replicas (default "6380 6381")
  REDIS_SENTINEL_PORTS      sentinels (default "26379 26380 26381")
  REDIS_CLUSTER_PORTS       cluster nodes, at least 6 (default "7379 7380 7381 7382 7383 7384")
  REDIS_TOPOLOGY_TIMEOUT    seconds to wait for readiness (default 60)
  REDIS_SERVER, REDIS_CLI   binaries to use (default: redis-server, redis-cli on PATH)
Port lists may be separated by spaces or commas.
EOF
	exit 2
}

info() { printf '%s\n' "$*"; }
warn() { printf 'WARNING: %s\n' "$*" >&2; }
die() {
	printf 'ERROR: %s\n' "$*" >&2
	exit 1
}

((BASH_VERSINFO[0] >= 4)) || die "bash 4 or newer is needed (this is bash $BASH_VERSION)"
[[ $# -eq 2 ]] || usage
readonly ACTION="$1" TOPOLOGY="$2"
case "$ACTION" in start | stop | status) ;; *) usage ;; esac
case "$TOPOLOGY" in standalone | sentinel | cluster) ;; *) usage ;; esac

readonly BASE_DIR="${PIPELINING_LAB_REDIS_DIR:-${TMPDIR:-/tmp}/pipelining-lab-redis}"
readonly WORK_DIR="${BASE_DIR%/}/$TOPOLOGY"
readonly TIMEOUT="${REDIS_TOPOLOGY_TIMEOUT:-60}"
readonly REDIS_SERVER="${REDIS_SERVER:-redis-server}"
readonly REDIS_CLI="${REDIS_CLI:-redis-cli}"

[[ "$TIMEOUT" =~ ^[1-9][0-9]*$ ]] || die "REDIS_TOPOLOGY_TIMEOUT must be a positive number of seconds, got '$TIMEOUT'"
case "$WORK_DIR" in
*'"'* | *\\* | *$'\n'*) die "work dir '$WORK_DIR' must not contain quotes, backslashes or newlines" ;;
esac

# ---------------------------------------------------------------- ports ----

# parse_ports NAME VALUE: prints the ports of a space/comma separated list.
parse_ports() {
	local name="$1" value="$2" p
	local -a out=()
	for p in ${value//,/ }; do
		if [[ ! "$p" =~ ^[0-9]+$ ]] || ((p < 1 || p > 65535)); then
			die "$name: '$p' is not a port number"
		fi
		out+=("$p")
	done
	((${#out[@]} > 0)) || die "$name is empty"
	printf '%s\n' "${out[@]}"
}

# (Command substitution, not <(...), so that a bad value stops the script.)
MASTER_PORT="$(parse_ports REDIS_MASTER_PORT "${REDIS_MASTER_PORT:-6379}")"
[[ "$MASTER_PORT" != *$'\n'* ]] || die "REDIS_MASTER_PORT must be a single port"
ports="$(parse_ports REDIS_REPLICA_PORTS "${REDIS_REPLICA_PORTS:-6380 6381}")"
mapfile -t REPLICA_PORTS <<<"$ports"
ports="$(parse_ports REDIS_SENTINEL_PORTS "${REDIS_SENTINEL_PORTS:-26379 26380 26381}")"
mapfile -t SENTINEL_PORTS <<<"$ports"
ports="$(parse_ports REDIS_CLUSTER_PORTS "${REDIS_CLUSTER_PORTS:-7379 7380 7381 7382 7383 7384}")"
mapfile -t CLUSTER_PORTS <<<"$ports"
unset ports
readonly MASTER_PORT REPLICA_PORTS SENTINEL_PORTS CLUSTER_PORTS

# The nodes of the configured topology, one "kind port" per line. The kind is
# the node's initial role and names its directory: <work dir>/<kind>-<port>.
configured_nodes() {
	local p
	case "$TOPOLOGY" in
	standalone) echo "standalone $MASTER_PORT" ;;
	sentinel)
		echo "master $MASTER_PORT"
		for p in "${REPLICA_PORTS[@]}"; do echo "replica $p"; done
		for p in "${SENTINEL_PORTS[@]}"; do echo "sentinel $p"; done
		;;
	cluster)
		for p in "${CLUSTER_PORTS[@]}"; do echo "node $p"; done
		;;
	esac
}

# The nodes this script started last time (recorded by start), else the
# configured ones: stop and status then work without the start-time env.
known_nodes() {
	if [[ -s "$WORK_DIR/nodes" ]]; then
		cat "$WORK_DIR/nodes"
	else
		configured_nodes
	fi
}

# ----------------------------------------------------------- processes ----

# rcli PORT ARGS...: redis-cli against 127.0.0.1:PORT, output without CRs,
# never fails (empty output when nothing answers).
rcli() {
	local port="$1"
	shift
	if command -v timeout >/dev/null 2>&1; then
		timeout 5 "$REDIS_CLI" -h 127.0.0.1 -p "$port" "$@" 2>/dev/null | tr -d '\r' || true
	else
		"$REDIS_CLI" -h 127.0.0.1 -p "$port" "$@" 2>/dev/null | tr -d '\r' || true
	fi
}

# field NAME: reads "name:value" lines (INFO output) on stdin, prints value.
field() { sed -n "/^$1:/{s/^$1://p;q;}"; }

# lab_port_in_use PORT (from lib.sh): something accepts TCP connections on 127.0.0.1:PORT.

node_dir() { echo "$WORK_DIR/$1-$2"; }

# our_pid KIND PORT: prints the pid from the node's pid file if that process
# is alive and is the redis-server we started on 127.0.0.1:PORT (guards
# against a stale pid file whose pid was reused). Removes stale pid files.
our_pid() {
	local pidfile pid args
	pidfile="$(node_dir "$1" "$2")/redis.pid"
	[[ -f "$pidfile" ]] || return 0
	pid="$(tr -dc '0-9' <"$pidfile")"
	if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then
		args="$(ps -p "$pid" -o args= 2>/dev/null || true)"
		# Process title: "redis-server 127.0.0.1:<port>[ [sentinel]|[cluster]]".
		if [[ "$args" == *redis* && "$args " == *"127.0.0.1:$2 "* ]]; then
			echo "$pid"
			return 0
		fi
	fi
	rm -f "$pidfile"
}

# foreign_owner PORT: describes who else uses PORT, if it is one of our
# other topologies (e.g. a standalone still running when starting sentinel).
foreign_owner() {
	local port="$1" pidfile dir topo pid args
	for pidfile in "${BASE_DIR%/}"/*/*-"$port"/redis.pid; do
		[[ -f "$pidfile" ]] || continue
		dir="$(dirname "$pidfile")"
		topo="$(basename "$(dirname "$dir")")"
		[[ "$topo" != "$TOPOLOGY" ]] || continue
		pid="$(tr -dc '0-9' <"$pidfile")"
		if [[ -z "$pid" ]] || ! kill -0 "$pid" 2>/dev/null; then continue; fi
		args="$(ps -p "$pid" -o args= 2>/dev/null || true)"
		if [[ "$args " == *"127.0.0.1:$port "* ]]; then
			echo "the pipelining-lab '$topo' topology (pid $pid); stop it with: $PROG stop $topo"
			return 0
		fi
	done
	return 0
}

# wait_for DESCRIPTION COMMAND...: polls COMMAND until it succeeds or
# REDIS_TOPOLOGY_TIMEOUT passes.
wait_for() {
	local what="$1" deadline=$((SECONDS + TIMEOUT))
	shift
	until "$@"; do
		if ((SECONDS >= deadline)); then
			warn "timed out after ${TIMEOUT}s waiting for: $what"
			warn "logs: $WORK_DIR/*/redis.log; clean up with: $PROG stop $TOPOLOGY"
			exit 1
		fi
		sleep 0.5
	done
}

# ------------------------------------------------------------- configs ----

write_config() {
	local kind="$1" port="$2" dir conf p
	dir="$(node_dir "$kind" "$port")"
	conf="$dir/redis.conf"
	{
		echo "# Generated by $PROG start $TOPOLOGY"
		echo "port $port"
		echo "bind 127.0.0.1"
		echo "daemonize yes"
		echo "pidfile \"$dir/redis.pid\""
		echo "logfile \"$dir/redis.log\""
		echo "dir \"$dir\""
		case "$kind" in
		sentinel)
			echo "sentinel monitor $SENTINEL_MASTER_NAME 127.0.0.1 $MASTER_PORT $SENTINEL_QUORUM"
			echo "sentinel down-after-milliseconds $SENTINEL_MASTER_NAME 5000"
			echo "sentinel failover-timeout $SENTINEL_MASTER_NAME 15000"
			echo "sentinel parallel-syncs $SENTINEL_MASTER_NAME 1"
			echo "sentinel announce-ip 127.0.0.1"
			echo "sentinel announce-port $port"
			;;
		*)
			echo 'save ""'
			echo "appendonly no"
			;;
		esac
		case "$kind" in
		replica)
			echo "replicaof 127.0.0.1 $MASTER_PORT"
			echo "replica-announce-ip 127.0.0.1"
			echo "replica-announce-port $port"
			;;
		node)
			p=$((port + 10000))
			echo "cluster-enabled yes"
			echo "cluster-config-file nodes.conf"
			echo "cluster-node-timeout 5000"
			echo "cluster-port $p"
			echo "cluster-announce-ip 127.0.0.1"
			echo "cluster-announce-port $port"
			echo "cluster-announce-bus-port $p"
			;;
		esac
	} >"$conf"
}

start_node() {
	local kind="$1" port="$2" dir pid deadline
	dir="$(node_dir "$kind" "$port")"
	# A fresh node every time: no cluster state or dump from an earlier run.
	rm -rf "$dir"
	mkdir -p "$dir"
	write_config "$kind" "$port"
	if [[ "$kind" == sentinel ]]; then
		"$REDIS_SERVER" "$dir/redis.conf" --sentinel >/dev/null
	else
		"$REDIS_SERVER" "$dir/redis.conf" >/dev/null
	fi
	# The pid file appears once the daemon listens on its port.
	deadline=$((SECONDS + 10))
	until pid="$(our_pid "$kind" "$port")" && [[ -n "$pid" ]]; do
		if ((SECONDS >= deadline)); then
			warn "$kind on port $port did not start; last lines of $dir/redis.log:"
			tail -n 15 "$dir/redis.log" >&2 || true
			die "start failed; clean up with: $PROG stop $TOPOLOGY"
		fi
		sleep 0.2
	done
	info "  started $kind on 127.0.0.1:$port (pid $pid)"
}

# ------------------------------------------------------------ readiness ----

pong() { [[ "$(rcli "$1" PING)" == PONG ]]; }

replica_linked() { [[ "$(rcli "$1" INFO replication | field master_link_status)" == up ]]; }

# sentinel_ready PORT: this sentinel sees the master as healthy, with all
# replicas and all other sentinels, and can reach quorum.
sentinel_ready() {
	local port="$1" out flags slaves others addr
	out="$(rcli "$port" SENTINEL MASTER "$SENTINEL_MASTER_NAME")"
	flags="$(sed -n '/^flags$/{n;p;}' <<<"$out")"
	slaves="$(sed -n '/^num-slaves$/{n;p;}' <<<"$out")"
	others="$(sed -n '/^num-other-sentinels$/{n;p;}' <<<"$out")"
	addr="$(rcli "$port" SENTINEL GET-MASTER-ADDR-BY-NAME "$SENTINEL_MASTER_NAME" | paste -sd: -)"
	[[ "$flags" == master && "$slaves" == "${#REPLICA_PORTS[@]}" &&
		"$others" == "$((${#SENTINEL_PORTS[@]} - 1))" && "$addr" == "127.0.0.1:$MASTER_PORT" ]] || return 1
	[[ "$(rcli "$port" SENTINEL CKQUORUM "$SENTINEL_MASTER_NAME")" == OK* ]]
}

cluster_node_ready() {
	local out
	out="$(rcli "$1" CLUSTER INFO)"
	[[ "$(field cluster_state <<<"$out")" == ok &&
		"$(field cluster_slots_assigned <<<"$out")" == 16384 &&
		"$(field cluster_known_nodes <<<"$out")" == "${#CLUSTER_PORTS[@]}" ]]
}

all_ready() {
	local check="$1" p
	shift
	for p in "$@"; do "$check" "$p" || return 1; done
}

cluster_masters_are() {
	local want="$1" p n=0
	for p in "${CLUSTER_PORTS[@]}"; do
		[[ "$(rcli "$p" INFO replication | field role)" == master ]] && n=$((n + 1))
	done
	((n == want))
}

# --------------------------------------------------------------- start ----

app_command() {
	local env=() joined p
	case "$TOPOLOGY" in
	standalone)
		[[ "$MASTER_PORT" == 6379 ]] || env+=("SPRING_DATA_REDIS_PORT=$MASTER_PORT")
		echo "${env[*]}${env[*]:+ }./mvnw spring-boot:run"
		;;
	sentinel)
		if [[ "${SENTINEL_PORTS[*]}" != "26379 26380 26381" ]]; then
			joined=""
			for p in "${SENTINEL_PORTS[@]}"; do joined+="${joined:+,}127.0.0.1:$p"; done
			env+=("REDIS_SENTINEL_NODES=$joined")
		fi
		echo "${env[*]}${env[*]:+ }./mvnw spring-boot:run -Dspring-boot.run.profiles=sentinel"
		;;
	cluster)
		if [[ "${CLUSTER_PORTS[*]}" != "7379 7380 7381 7382 7383 7384" ]]; then
			joined=""
			for p in "${CLUSTER_PORTS[@]}"; do joined+="${joined:+,}127.0.0.1:$p"; done
			env+=("REDIS_CLUSTER_NODES=$joined")
		fi
		echo "${env[*]}${env[*]:+ }./mvnw spring-boot:run -Dspring-boot.run.profiles=cluster"
		;;
	esac
}

# usable_foreign_standalone PORT: a Redis we did not start answers on PORT and
# can serve the standalone topology as-is (no auth, a master, not a cluster).
usable_foreign_standalone() {
	local port="$1" out
	pong "$port" || return 1
	out="$(rcli "$port" INFO)"
	[[ "$(field role <<<"$out")" == master && "$(field cluster_enabled <<<"$out")" == 0 ]]
}

do_start() {
	local kind port pid owner running=0 total=0 foreign=0 p
	local -a nodes=() to_start=()
	mapfile -t nodes < <(configured_nodes)

	if [[ "$TOPOLOGY" == cluster ]] && ((${#CLUSTER_PORTS[@]} < 6)); then
		die "REDIS_CLUSTER_PORTS needs at least 6 ports (3 masters + 3 replicas), got ${#CLUSTER_PORTS[@]}"
	fi
	command -v "$REDIS_SERVER" >/dev/null 2>&1 || die "'$REDIS_SERVER' not found; install redis-server (e.g. apt-get install redis-server)"
	command -v "$REDIS_CLI" >/dev/null 2>&1 || die "'$REDIS_CLI' not found; install redis-tools"

	# Still running from a start with other ports (other environment)?
	if [[ -s "$WORK_DIR/nodes" ]] && [[ "$(cat "$WORK_DIR/nodes")" != "$(configured_nodes)" ]]; then
		while read -r kind port; do
			pid="$(our_pid "$kind" "$port")"
			[[ -z "$pid" ]] || die "the $TOPOLOGY topology is already running with other ports ($kind on $port, pid $pid); run '$PROG stop $TOPOLOGY' first, or use the environment it was started with"
		done <"$WORK_DIR/nodes"
	fi

	# Preflight: decide for every port before starting anything.
	for p in "${nodes[@]}"; do
		read -r kind port <<<"$p"
		total=$((total + 1))
		pid="$(our_pid "$kind" "$port")"
		if [[ -n "$pid" ]]; then
			running=$((running + 1))
			continue
		fi
		if lab_port_in_use "$port"; then
			owner="$(foreign_owner "$port")"
			if [[ -z "$owner" && "$TOPOLOGY" == standalone ]] && usable_foreign_standalone "$port"; then
				info "A Redis already answers on $port; using it (this script did not start it and will not stop it)."
				foreign=1
				running=$((running + 1))
				continue
			fi
			[[ -z "$owner" ]] || die "port $port is already in use by $owner"
			pid="$(rcli "$port" INFO server | field process_id)"
			if [[ -n "$pid" ]]; then
				owner="a Redis (pid $pid) that this script did not start"
			else
				owner="a process this script did not start"
			fi
			case "$kind" in
			standalone | master)
				die "port $port is already in use by $owner. Set REDIS_MASTER_PORT to a free port for the $kind Redis, e.g.: REDIS_MASTER_PORT=6390 $PROG start $TOPOLOGY" ;;
			replica) die "port $port is already in use by $owner. Override the replica ports with REDIS_REPLICA_PORTS" ;;
			sentinel) die "port $port is already in use by $owner. Override the sentinel ports with REDIS_SENTINEL_PORTS" ;;
			node) die "port $port is already in use by $owner. Override the cluster ports with REDIS_CLUSTER_PORTS" ;;
			esac
		fi
		if [[ "$kind" == node ]] && lab_port_in_use $((port + 10000)); then
			die "cluster bus port $((port + 10000)) (node $port + 10000) is already in use by a process this script did not start. Override the cluster ports with REDIS_CLUSTER_PORTS"
		fi
		to_start+=("$p")
	done

	if ((running > 0 && running < total)); then
		die "the $TOPOLOGY topology is partially running ($running of $total nodes); run '$PROG stop $TOPOLOGY' first"
	fi

	mkdir -p "$WORK_DIR"
	printf '%s\n' "${nodes[@]}" >"$WORK_DIR/nodes"
	if ((${#to_start[@]} > 0)); then
		info "Starting $TOPOLOGY topology in $WORK_DIR"
		for p in "${to_start[@]}"; do
			read -r kind port <<<"$p"
			# Sentinels start once the replicas are linked, so they see every
			# replica in their first INFO of the master (not 10 s later).
			if [[ "$kind" == sentinel && "$port" == "${SENTINEL_PORTS[0]}" ]]; then
				wait_for "replicas linked to master $MASTER_PORT" all_ready replica_linked "${REPLICA_PORTS[@]}"
			fi
			start_node "$kind" "$port"
		done
	elif ((foreign == 0)); then
		info "The $TOPOLOGY topology is already running."
	fi

	case "$TOPOLOGY" in
	standalone)
		wait_for "PING on $MASTER_PORT" pong "$MASTER_PORT"
		;;
	sentinel)
		wait_for "PING on every node" all_ready pong "$MASTER_PORT" "${REPLICA_PORTS[@]}" "${SENTINEL_PORTS[@]}"
		wait_for "replicas linked to master $MASTER_PORT" all_ready replica_linked "${REPLICA_PORTS[@]}"
		wait_for "sentinels to see master '$SENTINEL_MASTER_NAME' with ${#REPLICA_PORTS[@]} replicas and ${#SENTINEL_PORTS[@]} sentinels" \
			all_ready sentinel_ready "${SENTINEL_PORTS[@]}"
		;;
	cluster)
		wait_for "PING on every node" all_ready pong "${CLUSTER_PORTS[@]}"
		if ! all_ready cluster_node_ready "${CLUSTER_PORTS[@]}"; then
			local -a addrs=()
			for p in "${CLUSTER_PORTS[@]}"; do addrs+=("127.0.0.1:$p"); done
			info "Creating the cluster: $REDIS_CLI --cluster create ${addrs[*]} --cluster-replicas 1 --cluster-yes"
			"$REDIS_CLI" --cluster create "${addrs[@]}" --cluster-replicas 1 --cluster-yes >"$WORK_DIR/cluster-create.log" 2>&1 || {
				tail -n 20 "$WORK_DIR/cluster-create.log" >&2
				die "redis-cli --cluster create failed (full output: $WORK_DIR/cluster-create.log); clean up with: $PROG stop cluster"
			}
		fi
		wait_for "cluster_state:ok on every node" all_ready cluster_node_ready "${CLUSTER_PORTS[@]}"
		wait_for "$((${#CLUSTER_PORTS[@]} / 2)) masters" cluster_masters_are $((${#CLUSTER_PORTS[@]} / 2))
		;;
	esac

	info "The $TOPOLOGY topology is ready."
	do_status || true
	info ""
	info "Start the app on it with:"
	info "  $(app_command)"
}

# ---------------------------------------------------------------- stop ----

# running PID: the process exists and has not exited (a zombie, exited but not
# yet reaped by its parent, counts as exited).
running() {
	local stat
	kill -0 "$1" 2>/dev/null || return 1
	stat="$(ps -o stat= -p "$1" 2>/dev/null || true)"
	[[ -n "${stat// /}" && "${stat// /}" != Z* ]]
}

# gone_within TENTHS PID: waits up to TENTHS/10 s for PID to exit.
gone_within() {
	local i
	for ((i = 0; i < $1; i++)); do
		running "$2" || return 0
		sleep 0.1
	done
	! running "$2"
}

stop_node() {
	local kind="$1" port="$2" pid answering
	pid="$(our_pid "$kind" "$port")"
	if [[ -z "$pid" ]]; then
		if lab_port_in_use "$port"; then
			info "  $kind $port: not started by this script, left alone"
		else
			info "  $kind $port: not running"
		fi
		return 0
	fi
	# SHUTDOWN only if the server on the port really is our process.
	answering="$(rcli "$port" INFO server | field process_id)"
	if [[ "$answering" == "$pid" ]]; then
		rcli "$port" SHUTDOWN NOSAVE >/dev/null
	fi
	if ! gone_within 50 "$pid"; then
		warn "$kind $port (pid $pid) did not exit after SHUTDOWN NOSAVE; sending SIGTERM"
		kill "$pid" 2>/dev/null || true
		if ! gone_within 50 "$pid"; then
			warn "$kind $port (pid $pid) ignored SIGTERM; sending SIGKILL"
			kill -9 "$pid" 2>/dev/null || true
			if ! gone_within 50 "$pid"; then
				warn "$kind $port (pid $pid) is still running"
				return 1
			fi
		fi
	fi
	rm -f "$(node_dir "$kind" "$port")/redis.pid"
	info "  stopped $kind $port (pid $pid)"
}

do_stop() {
	local kind port line failed=0 k
	local -a nodes=()
	if [[ ! -d "$WORK_DIR" ]]; then
		info "Nothing to stop: $WORK_DIR does not exist."
		return 0
	fi
	# Every node dir we ever created, not just the configured ports: stop
	# works without the environment start was given.
	for line in "$WORK_DIR"/*-*/; do
		[[ -d "$line" ]] || continue
		line="$(basename "$line")"
		nodes+=("${line%-*} ${line##*-}")
	done
	info "Stopping $TOPOLOGY topology ($WORK_DIR)"
	# Recorded nodes without a dir were never started here (an existing Redis
	# that start used as-is): say so and leave them alone.
	if [[ -s "$WORK_DIR/nodes" ]]; then
		while read -r kind port; do
			[[ -d "$(node_dir "$kind" "$port")" ]] || stop_node "$kind" "$port"
		done <"$WORK_DIR/nodes"
	fi
	# Sentinels first (no failover while the master goes down), replicas
	# before their master.
	for k in sentinel replica node master standalone; do
		for line in "${nodes[@]}"; do
			read -r kind port <<<"$line"
			[[ "$kind" == "$k" ]] || continue
			stop_node "$kind" "$port" || failed=1
		done
	done
	((failed == 0)) || die "some processes could not be stopped"
}

# -------------------------------------------------------------- status ----

do_status() {
	local kind port pid role state down=0 line out answering
	local -a nodes=()
	mapfile -t nodes < <(known_nodes)
	info "$TOPOLOGY topology ($WORK_DIR):"
	printf '  %-6s %-10s %-36s %-16s %s\n' PORT NODE ROLE PID STATE
	for line in "${nodes[@]}"; do
		read -r kind port <<<"$line"
		pid="$(our_pid "$kind" "$port")"
		role="-"
		state="down"
		if pong "$port"; then
			state="up"
			if [[ "$kind" == sentinel ]]; then
				out="$(rcli "$port" SENTINEL GET-MASTER-ADDR-BY-NAME "$SENTINEL_MASTER_NAME" | paste -sd: -)"
				role="sentinel ($SENTINEL_MASTER_NAME@${out:-?})"
			else
				out="$(rcli "$port" INFO replication)"
				role="$(field role <<<"$out")"
				[[ "$role" != slave ]] || role="replica"
				[[ "$role" != replica ]] || role="replica of $(field master_port <<<"$out")"
				if [[ "$kind" == node ]]; then
					role="$role, cluster_state:$(rcli "$port" CLUSTER INFO | field cluster_state)"
				fi
			fi
			if [[ -z "$pid" ]]; then
				answering="$(rcli "$port" INFO server | field process_id)"
				pid="${answering:-?} (not ours)"
			fi
		elif lab_port_in_use "$port"; then
			state="up (not Redis?)"
			pid="? (not ours)"
			down=1
		else
			down=1
		fi
		printf '  %-6s %-10s %-36s %-16s %s\n' "$port" "$kind" "$role" "${pid:--}" "$state"
	done
	((down == 0)) || return 3
}

case "$ACTION" in
start) do_start ;;
stop) do_stop ;;
status) do_status ;;
esac
