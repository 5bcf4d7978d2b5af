// Hosted edge: the heap as the store of prepared transforms (pke/kept_transforms.hpp).
#include <new>

#include "pke/kept_transforms.hpp"

namespace hqc::pke {

namespace {

template <class P>
Transform<P>* heap_acquire(std::size_t count) {
  return static_cast<Transform<P>*>(
      ::operator new (count * sizeof(Transform<P>), std::align_val_t{alignof(Transform<P>)}, std::nothrow));
}

template <class P>
void heap_release(Transform<P>* p, std::size_t /*count*/) {
  ::operator delete (p, std::align_val_t{alignof(Transform<P>)});
}

}  // namespace

template <class P>
const TransformStore<P>& heap_transform_store() {
  static constexpr TransformStore<P> kStore{&heap_acquire<P>, &heap_release<P>};
  return kStore;
}

template const TransformStore<Hqc1>& heap_transform_store<Hqc1>();
template const TransformStore<Hqc3>& heap_transform_store<Hqc3>();
template const TransformStore<Hqc5>& heap_transform_store<Hqc5>();

}  // namespace hqc::pke
