// tests/m4/m4_support.hpp on the mps2-an386 (Cortex-M4) under QEMU with semihosting.
#include "m4_support.hpp"

#include <cstring>

// The RAM the stack may grow into: from the end of the static data (__bss_end of picolibc's
// linker script; the images have no heap) up to __stack (the initial stack pointer).
extern "C" char __bss_end[];
extern "C" char __stack[];

namespace m4 {
namespace {

// ARM semihosting call (operation in r0, parameter block in r1, result in r0).
std::uintptr_t semihost(std::uintptr_t op, const void* arg) {
  register std::uintptr_t r0 __asm__("r0") = op;
  register const void* r1 __asm__("r1") = arg;
  __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}
constexpr std::uintptr_t kSysOpen = 0x01, kSysWrite = 0x05;

std::uintptr_t g_stdout = ~std::uintptr_t{0};
char g_buf[4096];
std::size_t g_len = 0;
int g_failures = 0;

constexpr std::uint32_t kPaint = 0xC5A5C5A5u;
std::uintptr_t g_painted_top = 0;  // the stack pointer of paint()'s caller, less a margin

}  // namespace

void flush() {
  if (g_len == 0) return;
  if (g_stdout == ~std::uintptr_t{0}) {
    static const char kTt[] = ":tt";
    const std::uintptr_t open_args[3] = {reinterpret_cast<std::uintptr_t>(kTt), 4 /* "w" */, 3};
    g_stdout = semihost(kSysOpen, open_args);
  }
  const char* p = g_buf;
  std::size_t n = g_len;
  while (n > 0) {
    const std::uintptr_t args[3] = {g_stdout, reinterpret_cast<std::uintptr_t>(p), n};
    const std::uintptr_t left = semihost(kSysWrite, args);  // bytes NOT written
    if (left >= n) break;
    p += n - left;
    n = left;
  }
  g_len = 0;
}

void out_bytes(const char* s, std::size_t n) {
  while (n > 0) {
    if (g_len == sizeof(g_buf)) flush();
    std::size_t k = sizeof(g_buf) - g_len;
    if (k > n) k = n;
    std::memcpy(g_buf + g_len, s, k);
    g_len += k;
    s += k;
    n -= k;
  }
}

void out(const char* s) { out_bytes(s, std::strlen(s)); }

void out_uint(std::uint64_t v) {
  char d[24];
  std::size_t i = sizeof(d);
  do {
    d[--i] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0);
  out_bytes(d + i, sizeof(d) - i);
}

void out_hex(const std::uint8_t* p, std::size_t n) {
  static const char kHex[] = "0123456789ABCDEF";
  char chunk[128];
  while (n > 0) {
    std::size_t k = n < sizeof(chunk) / 2 ? n : sizeof(chunk) / 2;
    for (std::size_t i = 0; i < k; i++) {
      chunk[2 * i] = kHex[p[i] >> 4];
      chunk[2 * i + 1] = kHex[p[i] & 15];
    }
    out_bytes(chunk, 2 * k);
    p += k;
    n -= k;
  }
}

std::uint32_t arg_uint(int argc, char** argv, const char* key, std::uint32_t fallback) {
  const std::size_t kl = std::strlen(key);
  for (int i = 1; i < argc; i++) {
    if (std::strncmp(argv[i], key, kl) != 0 || argv[i][kl] != '=') continue;
    std::uint32_t v = 0;
    for (const char* p = argv[i] + kl + 1; *p >= '0' && *p <= '9'; p++)
      v = v * 10 + static_cast<std::uint32_t>(*p - '0');
    return v;
  }
  return fallback;
}

// Not inlined and not merged: the plugin finds it by its address (nm) and counts instructions
// between its calls.
extern "C" __attribute__((noinline, used)) void hqc_m4_mark(std::uint32_t id) {
  __asm__ volatile("" : : "r"(id) : "memory");
}

__attribute__((noinline)) void paint_stack() {
  std::uintptr_t sp;
  __asm__ volatile("mov %0, sp" : "=r"(sp));
  // This function's own frame lies below the caller's; leave a margin for it.
  g_painted_top = (sp - 64) & ~std::uintptr_t{3};
  for (std::uintptr_t a = reinterpret_cast<std::uintptr_t>(__bss_end); a < g_painted_top; a += 4)
    *reinterpret_cast<volatile std::uint32_t*>(a) = kPaint;
}

__attribute__((noinline)) std::size_t stack_used() {
  std::uintptr_t a = reinterpret_cast<std::uintptr_t>(__bss_end);
  while (a < g_painted_top && *reinterpret_cast<volatile std::uint32_t*>(a) == kPaint) a += 4;
  // Bytes between the lowest written word and the caller's stack pointer at paint() (sp - 64 + 64).
  return g_painted_top + 64 - a;
}

bool check(bool ok, const char* what) {
  if (!ok) {
    g_failures++;
    out("FAIL: ");
    out(what);
    out("\n");
  }
  return ok;
}

int failures() { return g_failures; }

void report_op(const char* name, std::uint32_t id, std::size_t stack, bool failed) {
  out("op ");
  out(name);
  out(" ");
  out_uint(id);
  out(" ");
  out_uint(stack);
  out(failed ? " FAILED\n" : "\n");
}

void report_transforms(std::size_t pk_bytes, std::size_t sk_bytes) {
  out("transforms ");
  out_uint(pk_bytes);
  out(" ");
  out_uint(sk_bytes);
  out("\n");
}

}  // namespace m4
