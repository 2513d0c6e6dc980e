-- wrk script of the fleet (benchmarks/tracking/run.sh): each wrk thread is one connection and
-- sends its own batches, in time order, from a file fleet.py wrote (NDJSON batches separated
-- by an empty line), one after another, and stops when they run out.
--
--   wrk -t16 -c16 -d20s --timeout 30s -s fleet.lua URL -- DIR KEY LAYER
--
-- Prints one line of JSON when done: requests answered, seconds, the batch latency (p50, p99,
-- from the request written to the answer read) and the answers that were not 2xx.
local next_thread = 0

function setup(thread)
    thread:set("number", next_thread)
    next_thread = next_thread + 1
end

local text = ""
local headers = {}
local path = ""
local position = 1
local finished = false

-- Only the file is read here: wrk starts each thread as soon as its `init` returns, so a slow
-- init would let the first threads run before the others (and before wrk's clock).
function init(args)
    local dir, key, layer = args[1], args[2], args[3]
    local file = assert(io.open(dir .. "/" .. number .. ".ndjson", "r"), "fleet.lua: no batches for thread " .. number)
    text = file:read("*a")
    file:close()
    headers = { ["Authorization"] = "Bearer " .. key, ["Content-Type"] = "application/x-ndjson" }
    path = "/v1/fixes?layer=" .. layer
end

local last

function request()
    if position <= #text then
        local stop = text:find("\n\n", position, true) or (#text + 1)
        last = wrk.format("POST", path, headers, text:sub(position, stop - 1))
        position = stop + 2
        finished = position > #text
    end
    return last
end

function response(status, headers, body)
    if finished or status ~= 200 then wrk.thread:stop() end
end

function done(summary, latency, requests_made)
    io.write(string.format(
        '{"requests": %d, "seconds": %.3f, "p50_ms": %.2f, "p99_ms": %.2f, "not_ok": %d, "socket_errors": %d}\n',
        summary.requests, summary.duration / 1e6, latency:percentile(50) / 1000, latency:percentile(99) / 1000,
        summary.errors.status, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
