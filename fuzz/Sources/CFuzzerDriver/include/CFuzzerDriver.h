#ifndef GEOQ_FUZZER_DRIVER_H
#define GEOQ_FUZZER_DRIVER_H

#include <stddef.h>
#include <stdint.h>

// libFuzzer's own entry points (libclang_rt.fuzzer, linked by -sanitize=fuzzer).
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*test_one_input)(const uint8_t *data, size_t size));
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

// SwiftPM makes an executable's main its own (main.swift's top-level code), so libFuzzer's
// main is never linked in: the top-level code hands the command line to libFuzzer's driver,
// which then calls the target's LLVMFuzzerTestOneInput for every input.
static inline int geoq_fuzzer_main(int argc, char **argv) {
    return LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput);
}

#endif
