#include "output_files.hpp"

#include <fcntl.h>
#include <stdio.h>  // renameat2 (glibc >= 2.28)
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace hqc::tools {

namespace {

std::string quoted(const std::string& s) { return "'" + s + "'"; }

// Splits a path into its directory and final name. A path that ends in '/' or whose final name
// is "." or ".." names a directory: *base is left empty.
void split_path(const std::string& path, std::string* dir, std::string* base) {
  const std::size_t slash = path.find_last_of('/');
  const std::size_t name_at = slash == std::string::npos ? 0 : slash + 1;
  std::string d = slash == std::string::npos ? std::string(1, '.') : path.substr(0, slash == 0 ? 1 : slash);
  std::string b = path.substr(name_at);
  if (b == "." || b == "..") b.clear();
  dir->swap(d);
  base->swap(b);
}

// What a path argument refers to: the file itself when it exists, else the pair (parent
// directory, final name) it would be created as.
struct FileId {
  bool exists = false;
  dev_t dev = 0;
  ino_t ino = 0;
  bool parent_known = false;
  std::string base;
};

FileId identify(const std::string& path) {
  FileId id;
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {  // follows links: a link and its target are one file
    id.exists = true;
    id.dev = st.st_dev;
    id.ino = st.st_ino;
    return id;
  }
  std::string dir;
  split_path(path, &dir, &id.base);
  if (!id.base.empty() && ::stat(dir.c_str(), &st) == 0) {
    id.parent_known = true;
    id.dev = st.st_dev;
    id.ino = st.st_ino;
  } else {
    id.base = path;  // unresolvable: fall back to comparing the names
  }
  return id;
}

bool same_file(const FileId& a, const FileId& b) {
  if (a.exists != b.exists) return false;
  if (a.exists) return a.dev == b.dev && a.ino == b.ino;
  if (a.parent_known != b.parent_known) return false;
  return a.base == b.base && (!a.parent_known || (a.dev == b.dev && a.ino == b.ino));
}

// Why an output path cannot be replaced by a new regular file, or "" if it can.
std::string output_problem(const std::string& path) {
  std::string dir, base;
  split_path(path, &dir, &base);
  if (path.empty()) return "empty file name";
  if (base.empty()) return "names a directory";
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return "is a directory";
    if (S_ISLNK(st.st_mode))
      return "is a symbolic link (hqc neither writes through a link nor replaces it; give the target's path)";
    if (!S_ISREG(st.st_mode)) return "is not a regular file";
    return "";
  }
  if (errno != ENOENT) return std::strerror(errno);
  if (::stat(dir.c_str(), &st) != 0) return "directory " + quoted(dir) + ": " + std::strerror(errno);
  if (!S_ISDIR(st.st_mode)) return quoted(dir) + " is not a directory";
  return "";
}

bool random_name(std::string* name) {
  unsigned char r[8];
  std::size_t got = 0;
  while (got < sizeof(r)) {
    const ssize_t n = ::getrandom(r + got, sizeof(r) - got, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    got += static_cast<std::size_t>(n);
  }
  static const char kHex[] = "0123456789abcdef";
  *name = ".hqc-tmp-";
  for (unsigned char c : r) {
    *name += kHex[c >> 4];
    *name += kHex[c & 15];
  }
  return true;
}

bool write_all(int fd, const std::uint8_t* p, std::size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  return true;
}

}  // namespace

PathCheck check_paths(const std::vector<PathArg>& inputs, const std::vector<OutputSpec>& outputs, std::string* error) {
  std::vector<std::pair<PathArg, FileId>> all;
  all.reserve(inputs.size() + outputs.size());
  for (const auto& in : inputs) all.emplace_back(in, identify(in.path));
  for (const auto& out : outputs) all.emplace_back(PathArg{out.flag, out.path}, identify(out.path));
  // Every pair with at least one output (inputs may share a file: nothing writes it).
  for (std::size_t j = inputs.size(); j < all.size(); j++)
    for (std::size_t i = 0; i < j; i++)
      if (all[i].first.path == all[j].first.path || same_file(all[i].second, all[j].second)) {
        *error = all[i].first.flag + " " + quoted(all[i].first.path) + " and " + all[j].first.flag + " " +
                 quoted(all[j].first.path) + " are the same file; they must be different files";
        return PathCheck::kUsage;
      }
  for (const auto& out : outputs) {
    const std::string problem = output_problem(out.path);
    if (!problem.empty()) {
      *error = "cannot write " + quoted(out.path) + ": " + problem;
      return PathCheck::kFailure;
    }
  }
  return PathCheck::kOk;
}

OutputSet::OutputSet(std::vector<OutputSpec> outputs) {
  for (auto& o : outputs) entries_.push_back(Entry{std::move(o), -1, "", "", -1});
}

OutputSet::~OutputSet() { discard(); }

void OutputSet::discard() {
  for (auto& e : entries_) {
    if (e.fd >= 0) ::close(e.fd);
    e.fd = -1;
    if (!e.tmp.empty() && e.dir_fd >= 0) ::unlinkat(e.dir_fd, e.tmp.c_str(), 0);
    e.tmp.clear();
    if (e.dir_fd >= 0) ::close(e.dir_fd);
    e.dir_fd = -1;
  }
  if (signals_blocked_) {  // a pending interrupt is delivered now, with nothing left behind
    signals_blocked_ = false;
    ::sigprocmask(SIG_SETMASK, &old_mask_, nullptr);
  }
}

bool OutputSet::prepare(std::string* error) {
  sigset_t block;
  sigemptyset(&block);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) sigaddset(&block, sig);
  if (!signals_blocked_ && ::sigprocmask(SIG_BLOCK, &block, &old_mask_) == 0) signals_blocked_ = true;
  for (auto& e : entries_) {
    std::string dir;
    split_path(e.spec.path, &dir, &e.base);
    auto fail = [&](const std::string& why) {
      *error = "cannot write " + quoted(e.spec.path) + ": " + why;
      discard();
      return false;
    };
    if (e.base.empty()) return fail("names a directory");
    e.dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (e.dir_fd < 0) return fail("directory " + quoted(dir) + ": " + std::strerror(errno));
    // Checked again on the opened directory (the path may have changed since check_paths).
    struct stat st {};
    if (::fstatat(e.dir_fd, e.base.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISREG(st.st_mode))
      return fail(S_ISLNK(st.st_mode)   ? "is a symbolic link"
                  : S_ISDIR(st.st_mode) ? "is a directory"
                                        : "is not a regular file");
    const mode_t mode = e.spec.secret ? 0600 : 0644;  // the umask may narrow it further
    for (int attempt = 0; attempt < 100 && e.fd < 0; attempt++) {
      std::string name;
      if (!random_name(&name)) return fail(std::string("no randomness for a temporary name: ") + std::strerror(errno));
      // O_EXCL: never an existing file, never through a symlink planted at the name.
      const int fd = ::openat(e.dir_fd, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
      if (fd >= 0) {
        e.fd = fd;
        e.tmp = name;
      } else if (errno != EEXIST) {
        return fail("cannot create a file in " + quoted(dir) + ": " + std::strerror(errno));
      }
    }
    if (e.fd < 0) return fail("cannot create a temporary file in " + quoted(dir) + ": too many name collisions");
  }
  return true;
}

bool OutputSet::commit(const std::vector<std::pair<const std::uint8_t*, std::size_t>>& data, std::string* error) {
  if (data.size() != entries_.size()) {
    *error = "internal error: output count";
    discard();
    return false;
  }
  for (std::size_t i = 0; i < entries_.size(); i++) {
    Entry& e = entries_[i];
    const bool ok = e.fd >= 0 && write_all(e.fd, data[i].first, data[i].second) && ::fsync(e.fd) == 0;
    const int err = errno;
    const bool closed = e.fd >= 0 && ::close(e.fd) == 0;
    e.fd = -1;
    if (!ok || !closed) {
      *error = "cannot write " + quoted(e.spec.path) + ": " + std::strerror(ok ? errno : err);
      discard();
      return false;
    }
  }
  // Every output is written and synced: now the renames. kExchanged entries hold the replaced file
  // under their temporary name until all renames are done, so that they can be swapped back.
  enum class Done { kCreated, kExchanged, kReplaced };
  std::vector<Done> done;
  for (std::size_t i = 0; i < entries_.size(); i++) {
    Entry& e = entries_[i];
    int rc = ::renameat2(e.dir_fd, e.tmp.c_str(), e.dir_fd, e.base.c_str(), RENAME_NOREPLACE);
    Done how = Done::kCreated;
    if (rc != 0 && errno == EEXIST) {
      rc = ::renameat2(e.dir_fd, e.tmp.c_str(), e.dir_fd, e.base.c_str(), RENAME_EXCHANGE);
      how = Done::kExchanged;
      struct stat st {};
      if (rc == 0 && (::fstatat(e.dir_fd, e.tmp.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))) {
        // Something other than a regular file appeared at the name since it was checked.
        ::renameat2(e.dir_fd, e.tmp.c_str(), e.dir_fd, e.base.c_str(), RENAME_EXCHANGE);
        rc = -1;
        errno = EEXIST;
      }
    }
    if (rc != 0 && (errno == EINVAL || errno == ENOSYS)) {  // file system without renameat2 flags
      rc = ::renameat(e.dir_fd, e.tmp.c_str(), e.dir_fd, e.base.c_str());
      how = Done::kReplaced;
    }
    if (rc != 0) {
      *error = "cannot write " + quoted(e.spec.path) + ": " + std::strerror(errno);
      for (std::size_t j = i; j-- > 0;) {
        Entry& d = entries_[j];
        if (done[j] == Done::kCreated) {
          ::unlinkat(d.dir_fd, d.base.c_str(), 0);
        } else if (done[j] == Done::kExchanged) {
          ::renameat2(d.dir_fd, d.tmp.c_str(), d.dir_fd, d.base.c_str(), RENAME_EXCHANGE);
        } else {
          *error += " (" + quoted(d.spec.path) + " was already replaced: this file system cannot swap files back)";
        }
      }
      discard();
      return false;
    }
    if (how != Done::kExchanged) e.tmp.clear();
    done.push_back(how);
  }
  bool synced = true;
  for (auto& e : entries_) {
    if (!e.tmp.empty()) ::unlinkat(e.dir_fd, e.tmp.c_str(), 0);  // the replaced file
    e.tmp.clear();
    if (::fsync(e.dir_fd) != 0) synced = false;
  }
  discard();
  if (!synced) {
    *error = "the outputs were replaced, but syncing their directory failed: " + std::string(std::strerror(errno));
    return false;
  }
  return true;
}

}  // namespace hqc::tools
