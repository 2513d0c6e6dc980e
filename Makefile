# Shortcuts; the scripts in tools/ do the work and are what the README and CI use.
.PHONY: data test bench

# Import every default layer (data/layers.json) into the store, data/geoq.gpkg.
data:
	tools/run import --all

test:
	tools/test

bench:
	tools/ensure-dependencies.sh
	tools/fetch-benchmark-data.sh natural-earth
	swift run -c release geoq-bench
