// emu.cc runs the CUDA kernels of kernels/*.cu on the CPU.
//
// Blocks run one after another. Within a block, a kernel that never calls
// __syncthreads (as the PTX says, see kernels_gen.h) runs its threads as
// plain calls, one after another; a kernel that does runs each thread as a
// coroutine (ucontext) on its own stack, and __syncthreads switches back to
// the scheduler, which resumes every thread in turn once all have reached
// the barrier or returned.

#include "emu.h"

#include <ucontext.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kernels_gen.h"

#include <cstddef>

// The Go side packs these structs byte by byte (cuda/layout.go,
// cuda/backend_optim.go); the host compiler lays them out as nvcc does
// (both follow the x86-64 / CUDA ABI), so checking here checks both.
static_assert(sizeof(Layout) == 144 && offsetof(Layout, offset) == 8 && offsetof(Layout, shape) == 16 &&
              offsetof(Layout, strides) == 80, "Layout differs from cuda.packLayout");
static_assert(sizeof(Conv) == 56, "Conv differs from cuda.packConv");
static_assert(sizeof(AdamArgs) == 64 && offsetof(AdamArgs, decoupled) == 56, "AdamArgs differs from cuda.AdamStep");
static_assert(sizeof(SGDArgs) == 48 && offsetof(SGDArgs, nesterov) == 32, "SGDArgs differs from cuda.SGDStep");

namespace {

using Call = void (*)(void** args);

struct Entry {
  const char* name;
  int sync;
  Call call;
  int nargs;
  const size_t* sizes;
};

template <typename F, F f> struct Thunk;
template <typename... A, void (*f)(A...)> struct Thunk<void (*)(A...), f> {
  static constexpr int nargs = sizeof...(A);
  static constexpr size_t sizes[sizeof...(A) + 1] = {sizeof(A)..., 0};
  template <size_t... I> static void invoke(void** args, std::index_sequence<I...>) {
    f(*static_cast<std::remove_cvref_t<A>*>(args[I])...);
  }
  static void call(void** args) { invoke(args, std::index_sequence_for<A...>{}); }
};

#define EMU_ENTRY(name, sync)                                                                    \
  {#name, sync, &Thunk<decltype(&name), &name>::call, Thunk<decltype(&name), &name>::nargs, \
   Thunk<decltype(&name), &name>::sizes},

const Entry table[] = {EMU_KERNELS(EMU_ENTRY)};
const int tableLen = sizeof(table) / sizeof(table[0]);

const size_t stackSize = 128 << 10;

// Sched is one host thread's scheduler state.
struct Sched {
  ucontext_t main;
  std::vector<ucontext_t> ctx;
  std::vector<char*> stacks;
  std::vector<unsigned char> done;
  std::vector<uint3> tids;
  int cur = -1;
  bool coroutines = false;
  bool badSync = false;
  Call call = nullptr;
  void** args = nullptr;
};

thread_local Sched sched;

void trampoline() {
  Sched& s = sched;
  s.call(s.args);
  s.done[s.cur] = 1;
  // Returning resumes uc_link, the scheduler.
}

const Entry* lookup(const char* name) {
  for (int i = 0; i < tableLen; i++) {
    if (std::strcmp(table[i].name, name) == 0) return &table[i];
  }
  return nullptr;
}

}  // namespace

extern "C" void emu_syncthreads(void) {
  Sched& s = sched;
  if (!s.coroutines) {
    s.badSync = true;
    return;
  }
  swapcontext(&s.ctx[s.cur], &s.main);
}

extern "C" int emu_kernel_count(void) { return tableLen; }
extern "C" const char* emu_kernel_name(int i) { return table[i].name; }
extern "C" int emu_kernel_sync(int i) { return table[i].sync; }

extern "C" int emu_launch(const char* name, int gx, int gy, int gz, int bx, int by, int bz,
                          const void* argBuf, int argsLen, const long long* offsets,
                          const long long* sizes, int nargs, char* err, int errlen) {
  const Entry* e = lookup(name);
  if (!e) {
    std::snprintf(err, errlen, "no kernel %s in the emulator (regenerate with go generate ./kernels)", name);
    return -1;
  }
  if (nargs != e->nargs) {
    std::snprintf(err, errlen, "kernel %s takes %d arguments, got %d", name, e->nargs, nargs);
    return -1;
  }
  for (int i = 0; i < nargs; i++) {
    if ((size_t)sizes[i] != e->sizes[i]) {
      std::snprintf(err, errlen, "kernel %s: argument %d is %zu bytes, got %lld", name, i, e->sizes[i],
                    sizes[i]);
      return -1;
    }
  }
  if (gx <= 0 || gy <= 0 || gz <= 0 || bx <= 0 || by <= 0 || bz <= 0) {
    std::snprintf(err, errlen, "kernel %s: invalid grid %dx%dx%d or block %dx%dx%d", name, gx, gy, gz, bx,
                  by, bz);
    return -1;
  }
  int nthreads = bx * by * bz;
  if (nthreads > 1024) {
    std::snprintf(err, errlen, "kernel %s: block of %d threads (at most 1024)", name, nthreads);
    return -1;
  }
  // An aligned private copy of the arguments.
  std::vector<unsigned long long> buf((argsLen + 7) / 8 + 1);
  std::memcpy(buf.data(), argBuf, argsLen);
  std::vector<void*> args(nargs + 1);
  for (int i = 0; i < nargs; i++) args[i] = reinterpret_cast<char*>(buf.data()) + offsets[i];

  Sched& s = sched;
  s.call = e->call;
  s.args = args.data();
  s.coroutines = e->sync != 0;
  s.badSync = false;
  s.tids.resize(nthreads);
  for (int t = 0, z = 0; z < bz; z++)
    for (int y = 0; y < by; y++)
      for (int x = 0; x < bx; x++, t++) s.tids[t] = uint3{(unsigned)x, (unsigned)y, (unsigned)z};
  if (s.coroutines) {
    s.ctx.resize(nthreads);
    s.done.resize(nthreads);
    while ((int)s.stacks.size() < nthreads) {
      char* st = static_cast<char*>(std::malloc(stackSize));
      if (!st) {
        std::snprintf(err, errlen, "kernel %s: cannot allocate thread stacks", name);
        return -1;
      }
      s.stacks.push_back(st);
    }
  }
  gridDim = dim3{(unsigned)gx, (unsigned)gy, (unsigned)gz};
  blockDim = dim3{(unsigned)bx, (unsigned)by, (unsigned)bz};
  for (int z = 0; z < gz; z++) {
    for (int y = 0; y < gy; y++) {
      for (int x = 0; x < gx; x++) {
        blockIdx = uint3{(unsigned)x, (unsigned)y, (unsigned)z};
        if (!s.coroutines) {
          for (int t = 0; t < nthreads; t++) {
            s.cur = t;
            threadIdx = s.tids[t];
            e->call(s.args);
          }
          if (s.badSync) {
            std::snprintf(err, errlen,
                          "kernel %s called __syncthreads but its PTX has no barrier "
                          "(stale kernels_gen.h? run go generate ./kernels)",
                          name);
            return -1;
          }
          continue;
        }
        for (int t = 0; t < nthreads; t++) {
          getcontext(&s.ctx[t]);
          s.ctx[t].uc_stack.ss_sp = s.stacks[t];
          s.ctx[t].uc_stack.ss_size = stackSize;
          s.ctx[t].uc_link = &s.main;
          makecontext(&s.ctx[t], trampoline, 0);
          s.done[t] = 0;
        }
        int left = nthreads;
        while (left > 0) {
          for (int t = 0; t < nthreads; t++) {
            if (s.done[t]) continue;
            s.cur = t;
            threadIdx = s.tids[t];
            swapcontext(&s.main, &s.ctx[t]);
            if (s.done[t]) left--;
          }
        }
      }
    }
  }
  s.cur = -1;
  return 0;
}
