-- wrk script of the realistic HTTP load: every request a target drawn at random from a file
-- of request targets (one a line, made by realistic-points.py), so that no two requests in a
-- row ask the same thing.
--
--   wrk -t2 -c16 -d10s -s realistic.lua http://127.0.0.1:18090 -- TARGETS SEED
--
-- Each wrk thread draws from its own generator, seeded with SEED and the thread's number, so
-- that a run is repeatable in what it asks (not in the order the answers come back). The
-- requests are formatted once, in `init`, so that drawing one costs wrk next to nothing: the
-- same script drives geoq and nginx, and in the shared harness wrk competes with the server
-- for the cores.

local next_thread = 0

function setup(thread)
    next_thread = next_thread + 1
    thread:set("number", next_thread)
end

local requests = {}

function init(args)
    local file = assert(io.open(args[1], "r"), "realistic.lua: cannot read " .. tostring(args[1]))
    for target in file:lines() do
        if target ~= "" then requests[#requests + 1] = wrk.format("GET", target) end
    end
    file:close()
    assert(#requests > 0, "realistic.lua: no request targets in " .. args[1])
    math.randomseed((tonumber(args[2]) or 1) * 1000 + (number or 0))
end

function request()
    return requests[math.random(#requests)]
end
