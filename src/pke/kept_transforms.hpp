// The transforms a prepared key object keeps, and where their memory comes from. The core never
// allocates: the memory is the caller's (a buffer given to prepare, e.g. static RAM on a device)
// or comes from a TransformStore that the platform layer supplies (on hosted builds the heap,
// pke/transform_heap.cpp).
#pragma once

#include <cstddef>
#include <cstring>

#include "backend/ops.hpp"
#include "common/ct.hpp"
#include "pke/ring.hpp"

namespace hqc::pke {

// A source of transform memory: acquire(count) returns room for count transforms (64-byte
// aligned) or nullptr; release(p, count) takes back memory acquire gave (already wiped).
template <class P>
struct TransformStore {
  Transform<P>* (*acquire)(std::size_t count);
  void (*release)(Transform<P>* p, std::size_t count);
};

// `count` transforms for the kernel table `owner` (none until a key is prepared: a key that is
// never prepared, or prepared on a backend without transforms, costs nothing). The memory is
// wiped when released (y's transform is secret). A copy of transforms from a store is deep (from
// the same store); a copy of transforms in a caller's buffer keeps none, since that buffer
// belongs to one key (it then multiplies without transforms: the same bytes).
template <class P>
class KeptTransforms {
 public:
  KeptTransforms() = default;
  KeptTransforms(const KeptTransforms& o) { *this = o; }
  KeptTransforms& operator=(const KeptTransforms& o) {
    if (this == &o) return *this;
    release();
    if (o.p_ != nullptr && o.store_ != nullptr && acquire(*o.store_, o.owner_, o.count_))
      std::memcpy(p_, o.p_, bytes());
    return *this;
  }
  ~KeptTransforms() { release(); }
  // Room for `count` transforms of `owner` from store; false (and nothing kept) if owner's
  // multiplier has no transforms or the store has no memory.
  bool acquire(const TransformStore<P>& store, const backend::KernelTable<P>* owner, std::size_t count) {
    release();
    if (!capable(*owner)) return false;
    p_ = store.acquire(count);
    if (p_ == nullptr) return false;
    store_ = &store;
    count_ = count;
    owner_ = owner;
    return true;
  }
  // Keeps `count` transforms of `owner` in the caller's storage (it must outlive the key, or the
  // key's release()); false (and nothing kept) if owner's multiplier has no transforms.
  bool attach(Transform<P>* storage, const backend::KernelTable<P>* owner, std::size_t count) {
    release();
    if (!capable(*owner)) return false;
    p_ = storage;
    count_ = count;
    owner_ = owner;
    return true;
  }
  // The one place where the optional capability KernelTable::transforms is checked
  // (backend/ops.hpp): whoever holds kept transforms of a table may call that table's transforms.
  static bool capable(const backend::KernelTable<P>& k) { return k.transforms != nullptr; }
  // Whether table k's one-shot products compute the transforms anyway (TransformMultiplier::
  // mul_is_transform_product), so that key generation can keep them almost for free.
  static bool by_product_of_mul(const backend::KernelTable<P>& k) {
    return capable(k) && k.transforms->mul_is_transform_product;
  }
  void release() {
    if (p_ != nullptr) {
      ct::wipe(p_, bytes());
      if (store_ != nullptr) store_->release(p_, count_);
    }
    p_ = nullptr;
    store_ = nullptr;
    count_ = 0;
    owner_ = nullptr;
  }
  // The kept transforms if they belong to table k, else nullptr.
  const Transform<P>* for_table(const backend::KernelTable<P>& k) const { return owner_ == &k ? p_ : nullptr; }
  Transform<P>* data() { return p_; }
  const backend::KernelTable<P>* owner() const { return owner_; }

 private:
  std::size_t bytes() const { return count_ * sizeof(Transform<P>); }
  Transform<P>* p_ = nullptr;
  const TransformStore<P>* store_ = nullptr;
  std::size_t count_ = 0;
  const backend::KernelTable<P>* owner_ = nullptr;
};

// The heap store of hosted builds (pke/transform_heap.cpp; not part of the freestanding core).
template <class P>
const TransformStore<P>& heap_transform_store();

}  // namespace hqc::pke
