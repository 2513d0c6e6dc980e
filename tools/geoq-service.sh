# Sourced (not run) by the scripts that start `geoq serve` and measure or test it over
# loopback: benchmarks/access, load and tracking, tools/schemathesis and tools/browser-test.
#
#   . tools/geoq-service.sh      (from the package root)

# Builds the release geoq and geoq-server, which runs `geoq serve` (their output on standard
# error), and prints geoq's path.
release_geoq() {
    swift build -c release --product geoq >&2
    swift build -c release --product geoq-server >&2
    echo "$(swift build -c release --show-bin-path)/geoq"
}

# Prints a TCP port of 127.0.0.1 that is free now.
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Prints the CPU time process PID has used so far, in clock ticks (getconf CLK_TCK a second):
# user, then system.
cpu_ticks() {
    awk '{ print $14, $15 }' "/proc/$1/stat"
}

# Waits until the service on PORT answers /readyz, checking every PAUSE seconds (default 0.5)
# at most TRIES times (default 120). Returns either way: the first request shows a service that
# never came up.
wait_until_ready() {
    local port=$1 tries=${2:-120} pause=${3:-0.5}
    for _ in $(seq 1 "$tries"); do
        curl -sf "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break
        sleep "$pause"
    done
    return 0
}
