// Safe output files for the `hqc` tool: a command changes all its output files or none.
//
// Protocol (one OutputSet per command):
//  1. check_paths(): before any work, every input/output and output/output pair is compared by
//     (device, inode) for existing files and by (device, inode of the parent directory, final
//     name) for files that do not exist yet, so `a`, `./a`, `d/../a` and hard links are one file.
//     A match is a usage error. An output whose final name is a directory or a symbolic link, or
//     whose directory does not exist, is refused too (the link is neither followed nor replaced).
//  2. prepare(): opens each output's directory and creates a temporary file in it with a random
//     name, O_CREAT|O_EXCL|O_NOFOLLOW|O_CLOEXEC, mode 0600 for secrets (0644 minus the umask for
//     public outputs). O_EXCL never opens an existing file or follows a planted symlink.
//  3. commit(): writes every temporary fully and fsyncs it; only when all are written are they
//     renamed over their final names (rename(2) is atomic), then the directories are fsynced. If a
//     later rename fails, the earlier ones are rolled back (existing files are swapped in with
//     renameat2(RENAME_EXCHANGE), so the old file can be swapped back).
// On any failure, and whenever the set is destroyed without a commit, every temporary is removed.
// From prepare() until the temporaries are renamed or removed, SIGINT, SIGTERM, SIGHUP and SIGQUIT
// are blocked (a few milliseconds): an interrupt then ends the process after that point, so it
// leaves no temporary (with a secret key in it) behind and never only some of the outputs.
#pragma once

#include <signal.h>
#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace hqc::tools {

struct PathArg {
  std::string flag;  // e.g. "--sk", for messages
  std::string path;
};

struct OutputSpec {
  std::string flag;
  std::string path;
  bool secret;  // created with mode 0600
};

enum class PathCheck { kOk, kUsage, kFailure };

// Step 1. On a problem returns kUsage (two arguments name one file) or kFailure (an output cannot
// be created where it is asked for) with a message in *error.
PathCheck check_paths(const std::vector<PathArg>& inputs, const std::vector<OutputSpec>& outputs, std::string* error);

class OutputSet {
 public:
  explicit OutputSet(std::vector<OutputSpec> outputs);
  OutputSet(const OutputSet&) = delete;
  OutputSet& operator=(const OutputSet&) = delete;
  ~OutputSet();  // removes every temporary that was not committed

  // Step 2: creates the temporaries; false with *error on failure (nothing left behind).
  bool prepare(std::string* error);
  // Step 3: data[i] goes to the i-th output. False with *error on failure: no output changed.
  bool commit(const std::vector<std::pair<const std::uint8_t*, std::size_t>>& data, std::string* error);

 private:
  struct Entry {
    OutputSpec spec;
    int dir_fd = -1;
    std::string base;  // final name inside the directory
    std::string tmp;   // temporary name inside the directory ("" once gone)
    int fd = -1;
  };
  void discard();
  std::vector<Entry> entries_;
  bool signals_blocked_ = false;
  sigset_t old_mask_{};
};

}  // namespace hqc::tools
