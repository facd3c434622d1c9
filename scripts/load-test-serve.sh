#!/usr/bin/env bash
# Load test of `verigym serve` on loopback (bounded count and time):
#   1. within capacity: CLIENTS clients with one batch-scoring request each
#      in flight, queue large enough -> requests/s, p50/p99 latency;
#   2. overload: 4x the clients against a queue of 2 -> the server answers
#      "busy" (503) at once, stays up, and every admitted request is answered
#      (accepted == answered == ok responses; no transport errors);
#   3. OpenEnv WebSocket sessions: CLIENTS clients each opening a /ws session,
#      playing a whole guess-number episode with the reference moves and
#      closing -> sessions/s, session p50/p99; then 4x the clients against
#      --max-episodes CLIENTS -> refusals answer CAPACITY_REACHED, every
#      admitted session ends right, and no session is left live afterwards.
# Reports the server's CPU seconds per phase (from /proc) and the load.
# `verigym bench serve` exits 1 when a request was lost or answered wrong.
#   bash scripts/load-test-serve.sh [REQUESTS] [BATCH] [CLIENTS]
# Set VERIGYM=path/to/verigym to skip the build (default: a release build).
set -euo pipefail
cd "$(dirname "$0")/.."
requests=${1:-2000}
batch=${2:-32}
clients=${3:-4}
if [ -z "${VERIGYM:-}" ]; then
  cargo build -q --release --bin verigym
  VERIGYM=${CARGO_TARGET_DIR:-target}/release/verigym
fi
log=$(mktemp)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT

# Starts a server with the given flags; sets $url and $server_pid.
start_server() {
  : >"$log"
  "$VERIGYM" serve --addr 127.0.0.1:0 "$@" 2>"$log" &
  server_pid=$!
  pids+=("$server_pid")
  for _ in $(seq 1 200); do
    if grep -q '^listening on ' "$log"; then break; fi
    sleep 0.05
  done
  url=$(sed -n 's/^listening on //p' "$log" | head -n1)
  [ -n "$url" ] || { echo "the server did not start:"; cat "$log"; exit 1; }
}

# CPU seconds (user + system) the process has used so far.
cpu_seconds() {
  awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f", ($14 + $15) / hz }' "/proc/$1/stat"
}

stop_server() {
  kill -TERM "$server_pid"
  wait "$server_pid"
  echo "server: $(tail -n1 "$log")"
}

echo "load before: $(uptime)"
start_server --queue 64
before=$(cpu_seconds "$server_pid")
echo "== within capacity: $clients clients, $requests requests of $batch answers"
/usr/bin/time -f "client: %U s user + %S s system CPU, %e s wall" \
  "$VERIGYM" bench serve --url "$url" --clients "$clients" --requests "$requests" --batch "$batch"
echo "server CPU: $(echo "$(cpu_seconds "$server_pid") - $before" | bc) s"
stop_server

start_server --queue 2
before=$(cpu_seconds "$server_pid")
over=$((clients * 4))
echo "== overload: $over clients on a queue of 2, $requests requests of $batch answers"
/usr/bin/time -f "client: %U s user + %S s system CPU, %e s wall" \
  "$VERIGYM" bench serve --url "$url" --clients "$over" --requests "$requests" --batch "$batch"
echo "server CPU: $(echo "$(cpu_seconds "$server_pid") - $before" | bc) s"
curl -sf "$url/healthz" >/dev/null && echo "server still answers /healthz after the overload"
stop_server

sessions=$((requests / 4))
start_server --queue 64
before=$(cpu_seconds "$server_pid")
echo "== WebSocket sessions: $clients clients, $sessions sessions of logic/guess-number-v2"
/usr/bin/time -f "client: %U s user + %S s system CPU, %e s wall" \
  "$VERIGYM" bench serve --ws --url "$url" --clients "$clients" --requests "$sessions" --env logic/guess-number-v2
echo "server CPU: $(echo "$(cpu_seconds "$server_pid") - $before" | bc) s"
stop_server

start_server --max-episodes "$clients"
echo "== WebSocket overload: $over clients, at most $clients sessions live"
"$VERIGYM" bench serve --ws --url "$url" --clients "$over" --requests "$sessions" --env logic/guess-number-v2
curl -sf "$url/health" >/dev/null && echo "server still answers /health after the overload"
stop_server
echo "load after: $(uptime)"
