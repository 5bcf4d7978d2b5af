// Support of the Cortex-M4 firmware images (tests/m4): output over semihosting, arguments,
// instruction-count markers and stack painting. The images run in QEMU's mps2-an386
// (scripts/m4-run.sh) and end with exit(status), which QEMU returns as its own exit status.
#pragma once

#include <cstddef>
#include <cstdint>

namespace m4 {

// Buffered output to the host's stdout (semihosting SYS_WRITE); flush() before exit.
void out(const char* s);
void out_bytes(const char* s, std::size_t n);
void out_uint(std::uint64_t v);
void out_hex(const std::uint8_t* p, std::size_t n);  // upper-case, as in the .rsp files
void flush();

// The value of a "key=value" command-line argument (semihosting SYS_GET_CMDLINE via argv), or
// `fallback` if absent.
std::uint32_t arg_uint(int argc, char** argv, const char* key, std::uint32_t fallback);

// An instruction-count marker: a function the QEMU plugin (tests/m4/insn_count_plugin.c) watches.
// Each call prints, on the plugin's side, the number of instructions executed so far, so the
// count of an operation is the difference between the markers around it (docs/M4.md).
extern "C" void hqc_m4_mark(std::uint32_t id);

// Stack painting: paint() fills the unused stack below the caller's frame with a pattern;
// used() returns how many bytes below the caller's stack pointer at paint() were written since.
// Call both from the same function, around the operation to measure.
void paint_stack();
std::size_t stack_used();

// The measurement images' line for one operation, "op NAME ID STACK" (+ " FAILED"), which
// scripts/m4-report.sh and scripts/m4-mul-bench.py read.
void report_op(const char* name, std::uint32_t id, std::size_t stack, bool failed = false);
// The measurement image's line for the key objects of the cached operations: "transforms PK SK",
// the bytes of transforms the public and the secret key object keep (0 where none are kept).
void report_transforms(std::size_t pk_bytes, std::size_t sk_bytes);

// Tests: a named check; failures are counted and printed.
bool check(bool ok, const char* what);
int failures();

}  // namespace m4
