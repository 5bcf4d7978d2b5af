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
 * The plugin interface of QEMU 7.2 (API version 1) is declared here, as far as this plugin uses
 * it, because Debian ships no qemu-plugin.h: the functions are the ones qemu-system-arm exports. */
#include <inttypes.h>
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

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *insn, enum qemu_plugin_op op, void *ptr,
                                                uint64_t imm);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn, qemu_plugin_vcpu_udata_cb_t cb,
                                            enum qemu_plugin_cb_flags flags, void *userdata);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void *userdata);
void qemu_plugin_outs(const char *string);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

static uint64_t count;  /* instructions executed (one vCPU: the M4) */
static uint64_t marker; /* address of the marker instruction (Thumb bit cleared) */
static uint64_t hits;

static void on_marker(unsigned int vcpu, void *udata) {
  char line[64];
  (void)vcpu;
  (void)udata;
  snprintf(line, sizeof line, "mark %" PRIu64 " %" PRIu64 "\n", hits++, count);
  qemu_plugin_outs(line);
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
  size_t n = qemu_plugin_tb_n_insns(tb);
  (void)id;
  for (size_t i = 0; i < n; i++) {
    struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
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
  if (marker == 0) {
    fprintf(stderr, "insn_count_plugin: marker=ADDRESS is required\n");
    return -1;
  }
  qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
  qemu_plugin_register_atexit_cb(id, on_plugin_exit, NULL);
  return 0;
}
