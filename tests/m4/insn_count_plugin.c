/* A QEMU TCG plugin that counts executed guest instructions exactly (scripts/m4-report.sh).
 *
 *   qemu-system-arm ... -plugin insn_count_plugin.so,marker=0xADDR -d plugin -D LOG
 *
 * Every translated instruction gets an inline "count += 1" that runs each time it executes, so the
 * count is exact whatever the block boundaries. At each execution of the instruction at `marker`
 * (the entry of hqc_m4_mark, tests/m4/m4_support.hpp) the plugin logs "mark N COUNT" with N the
 * running number of that marker hit; at exit it logs "total COUNT". The difference between two
 * marks is the instructions from one marker call to the next (the constant cost of the markers
 * themselves is measured by an empty operation and subtracted by the report).
 *
 * Two optional modes (scripts/m4-cycles.py, tests/m4/ct_trace_test.sh):
 *   profile=1  per translation block: how often it ran and how often control then left it for an
 *              address other than its fall-through (its last instruction branched). At each marker
 *              the plugin logs "tb N START NINSNS EXECS TAKEN FALLIN" for every block that ran since the
 *              previous marker (N = the marker that ends the window), then clears the counts;
 *              a last field FALLIN counts the runs entered by falling through from the block
 *              that ends where it starts (QEMU splits straight-line code at page boundaries).
 *   trace=1    a 64-bit FNV-1a hash of the executed trace since the previous marker: the start and
 *              length of every block executed (a block runs straight through, so this fixes the
 *              sequence of PCs) and the address and direction of every data access. At each
 *              marker it logs "hash N HEX".
 *
 * The plugin interface of QEMU 7.2 (API version 1) is declared here, as far as this plugin uses
 * it, because Debian ships no qemu-plugin.h: the functions are the ones qemu-system-arm exports. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
typedef struct qemu_info_t qemu_info_t;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS = 0 };
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 = 0 };
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void *userdata);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
typedef uint32_t qemu_plugin_meminfo_t;
enum qemu_plugin_mem_rw { QEMU_PLUGIN_MEM_R = 1, QEMU_PLUGIN_MEM_W = 2, QEMU_PLUGIN_MEM_RW = 3 };
typedef void (*qemu_plugin_vcpu_mem_cb_t)(unsigned int vcpu_index, qemu_plugin_meminfo_t info, uint64_t vaddr,
                                          void *userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *insn, enum qemu_plugin_op op, void *ptr,
                                                uint64_t imm);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn, qemu_plugin_vcpu_udata_cb_t cb,
                                            enum qemu_plugin_cb_flags flags, void *userdata);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb, qemu_plugin_vcpu_udata_cb_t cb,
                                          enum qemu_plugin_cb_flags flags, void *userdata);
void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *insn, qemu_plugin_vcpu_mem_cb_t cb,
                                      enum qemu_plugin_cb_flags flags, enum qemu_plugin_mem_rw rw, void *userdata);
bool qemu_plugin_mem_is_store(qemu_plugin_meminfo_t info);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void *userdata);
void qemu_plugin_outs(const char *string);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

static uint64_t count;  /* instructions executed (one vCPU: the M4) */
static uint64_t marker; /* address of the marker instruction (Thumb bit cleared) */
static uint64_t hits;
static int profile, trace;

/* profile=1: one record per translated block (a block translated twice has two records). */
struct block {
  /* first instruction; the last one; the address after it. QEMU's Thumb translator reads the
     first halfword of the next instruction to decide whether it crosses a page, and those bytes
     count towards the last instruction's size when the block ends there (a block ending at a
     page boundary reports a last instruction 2 bytes too long), so `end` may lie 2 bytes past
     the true end: a block entered at an address after the last instruction and not beyond `end`
     is a fall-through. */
  uint64_t start, last_insn, end;
  uint64_t ninsns, execs, taken;
  uint64_t fallin; /* runs entered from the block before it in memory, by falling through */
};
static struct block **blocks;
static size_t nblocks, capblocks;
static struct block *last; /* the block that ran last */

/* trace=1: FNV-1a over 64-bit words. */
static uint64_t hash = 1469598103934665603ull;
static void mix(uint64_t v) {
  for (int i = 0; i < 8; i++) {
    hash ^= (v >> (8 * i)) & 0xff;
    hash *= 1099511628211ull;
  }
}

static void on_block(unsigned int vcpu, void *udata) {
  struct block *b = udata;
  (void)vcpu;
  if (last) {
    if (b->start > last->last_insn && b->start <= last->end) b->fallin++;
    else last->taken++;
  }
  b->execs++;
  last = b;
}

static void on_block_trace(unsigned int vcpu, void *udata) {
  struct block *b = udata;
  (void)vcpu;
  mix(b->start);
  mix(b->ninsns);
}

static void on_mem(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata) {
  (void)vcpu;
  (void)udata;
  mix(vaddr << 1 | (qemu_plugin_mem_is_store(info) ? 1 : 0));
}

static void flush_window(void) {
  char line[128];
  if (profile) {
    for (size_t i = 0; i < nblocks; i++) {
      struct block *b = blocks[i];
      if (b->execs == 0 && b->taken == 0) continue;
      snprintf(line, sizeof line, "tb %" PRIu64 " 0x%" PRIx64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
               hits, b->start, b->ninsns, b->execs, b->taken, b->fallin);
      qemu_plugin_outs(line);
      b->execs = b->taken = b->fallin = 0;
    }
  }
  if (trace) {
    snprintf(line, sizeof line, "hash %" PRIu64 " %016" PRIx64 "\n", hits, hash);
    qemu_plugin_outs(line);
    hash = 1469598103934665603ull;
  }
}

static void on_marker(unsigned int vcpu, void *udata) {
  char line[64];
  (void)vcpu;
  (void)udata;
  flush_window();
  snprintf(line, sizeof line, "mark %" PRIu64 " %" PRIu64 "\n", hits++, count);
  qemu_plugin_outs(line);
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
  size_t n = qemu_plugin_tb_n_insns(tb);
  (void)id;
  if (profile || trace) {
    struct block *b = calloc(1, sizeof *b);
    struct qemu_plugin_insn *lasti = qemu_plugin_tb_get_insn(tb, n - 1);
    if (!b) abort();
    b->start = qemu_plugin_insn_vaddr(qemu_plugin_tb_get_insn(tb, 0));
    b->last_insn = qemu_plugin_insn_vaddr(lasti);
    b->end = b->last_insn + qemu_plugin_insn_size(lasti);
    b->ninsns = n;
    if (nblocks == capblocks) {
      capblocks = capblocks ? 2 * capblocks : 1024;
      blocks = realloc(blocks, capblocks * sizeof *blocks);
      if (!blocks) abort();
    }
    blocks[nblocks++] = b;
    if (profile) qemu_plugin_register_vcpu_tb_exec_cb(tb, on_block, QEMU_PLUGIN_CB_NO_REGS, b);
    if (trace) qemu_plugin_register_vcpu_tb_exec_cb(tb, on_block_trace, QEMU_PLUGIN_CB_NO_REGS, b);
  }
  for (size_t i = 0; i < n; i++) {
    struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
    if (trace) qemu_plugin_register_vcpu_mem_cb(insn, on_mem, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW, NULL);
    if (qemu_plugin_insn_vaddr(insn) == marker)
      qemu_plugin_register_vcpu_insn_exec_cb(insn, on_marker, QEMU_PLUGIN_CB_NO_REGS, NULL);
    qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64, &count, 1);
  }
}

static void on_plugin_exit(qemu_plugin_id_t id, void *udata) {
  char line[64];
  (void)id;
  (void)udata;
  snprintf(line, sizeof line, "total %" PRIu64 "\n", count);
  qemu_plugin_outs(line);
}

__attribute__((visibility("default"))) int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
                                                               char **argv) {
  (void)info;
  for (int i = 0; i < argc; i++)
    if (strncmp(argv[i], "marker=", 7) == 0) marker = strtoull(argv[i] + 7, NULL, 0) & ~(uint64_t)1;
    else if (strcmp(argv[i], "profile=1") == 0) profile = 1;
    else if (strcmp(argv[i], "trace=1") == 0) trace = 1;
  if (marker == 0) {
    fprintf(stderr, "insn_count_plugin: marker=ADDRESS is required\n");
    return -1;
  }
  qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
  qemu_plugin_register_atexit_cb(id, on_plugin_exit, NULL);
  return 0;
}
