// emu.cc runs the CUDA kernels of kernels/*.cu on the CPU.
//
// Blocks run one after another. Within a block, a kernel that never
// synchronizes (no __syncthreads and no warp primitive, as the PTX says, see
// kernels_gen.h) runs its threads as plain calls, one after another; a
// kernel that does runs each thread as a coroutine on its own stack (see
// Sched). __syncthreads and the warp primitives (__syncwarp, the shuffles,
// the fragment gather under the tensor-core instructions) switch back to the scheduler, which runs every runnable thread until it
// waits or returns, then releases each warp whose lanes all wait at a warp
// primitive (exchanging their values), or, when none does, the whole block
// once every thread that has not returned waits at __syncthreads.

// _longjmp between coroutine stacks is what the scheduler does; glibc's
// fortified longjmp would take that for a corrupt stack.
#undef _FORTIFY_SOURCE

#include "emu.h"

#include <setjmp.h>
#include <ucontext.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kernels_gen.h"

#include <algorithm>
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

// The states of an emulated thread.
enum State : unsigned char { running, atBlock, atWarp, finished };

// The warp primitives a thread may wait at.
enum WarpOp : unsigned char { opSync, opShfl, opGather };

const int warpLanes = 32;

// Sched is one host thread's scheduler state.
// A coroutine starts on its own stack through makecontext and setcontext;
// after that, switches save and restore registers with _setjmp and
// _longjmp, which (unlike swapcontext) make no system call to save the
// signal mask.
struct Jmp {
  jmp_buf b;
};

struct Sched {
  jmp_buf main;
  std::vector<Jmp> jmp;
  std::vector<ucontext_t> ctx;
  std::vector<unsigned char> started;
  std::vector<char*> stacks;
  std::vector<unsigned char> state;  // State
  std::vector<unsigned char> wop;    // WarpOp of a thread atWarp
  std::vector<unsigned> wgen;        // warp primitives each thread has reached
  std::vector<unsigned long long> slot;  // shuffle values, two per thread (by wgen parity)
  std::vector<unsigned char> gbuf;      // gathered fragments, two of EMU_GATHER_MAX bytes per thread
  std::vector<uint3> tids;
  int nthreads = 0;
  int cur = -1;
  bool coroutines = false;
  bool badSync = false;
  std::string fault;  // the first emu_fault message of the launch
  Call call = nullptr;
  void** args = nullptr;
};

thread_local Sched sched;

void trampoline() {
  Sched& s = sched;
  s.call(s.args);
  s.state[s.cur] = finished;
  _longjmp(s.main, 1);
}

// yield suspends the running coroutine and resumes the scheduler.
void yield() {
  Sched& s = sched;
  if (_setjmp(s.jmp[s.cur].b) == 0) _longjmp(s.main, 1);
}

// resume runs coroutine t until it yields or returns.
void resume(int t) {
  Sched& s = sched;
  if (_setjmp(s.main) != 0) return;
  if (!s.started[t]) {
    s.started[t] = 1;
    setcontext(&s.ctx[t]);
  }
  _longjmp(s.jmp[t].b, 1);
}

const Entry* lookup(const char* name) {
  for (int i = 0; i < tableLen; i++) {
    if (std::strcmp(table[i].name, name) == 0) return &table[i];
  }
  return nullptr;
}

}  // namespace

extern "C" void emu_fault(const char* msg) {
  Sched& s = sched;
  if (s.fault.empty()) s.fault = msg;
}

extern "C" void emu_syncthreads(void) {
  Sched& s = sched;
  if (!s.coroutines) {
    s.badSync = true;
    return;
  }
  s.state[s.cur] = atBlock;
  yield();
}

namespace {

// lanesOf returns the mask of the lanes that exist in warp w.
unsigned lanesOf(const Sched& s, int w) {
  int n = s.nthreads - w * warpLanes;
  return n >= warpLanes ? 0xffffffffu : (1u << n) - 1;
}

// warpWait suspends the running thread at a warp primitive until every
// lane of its warp has reached one.
void warpWait(WarpOp op, unsigned mask) {
  Sched& s = sched;
  unsigned lanes = lanesOf(s, s.cur / warpLanes);
  if ((mask & lanes) != lanes) {
    char msg[160];
    std::snprintf(msg, sizeof msg,
                  "a warp primitive with mask %#x in a warp of lanes %#x (the emulator runs full-warp masks only)",
                  mask, lanes);
    emu_fault(msg);
  }
  s.state[s.cur] = atWarp;
  s.wop[s.cur] = op;
  s.wgen[s.cur]++;
  yield();
}

}  // namespace

extern "C" void emu_syncwarp(unsigned mask) {
  Sched& s = sched;
  if (!s.coroutines) {
    s.badSync = true;
    return;
  }
  warpWait(opSync, mask);
}

extern "C" unsigned long long emu_shfl(unsigned mask, unsigned long long bits, int kind, int arg, int width) {
  Sched& s = sched;
  if (!s.coroutines) {
    s.badSync = true;
    return bits;
  }
  if (width <= 0 || width > warpLanes || (width & (width - 1)) != 0) {
    emu_fault("a shuffle width that is not a power of two from 1 to 32");
    width = warpLanes;
  }
  int t = s.cur;
  s.slot[2 * t + (s.wgen[t] & 1)] = bits;
  warpWait(opShfl, mask);
  // Every lane has offered its value for this generation; the next
  // generation writes the other slot, so this one stays until all have
  // read it.
  int lane = t % warpLanes, seg = lane & ~(width - 1);
  int src;
  switch (kind) {
    case 0: src = seg + (arg & (width - 1)); break;
    case 1: src = lane - arg; break;
    case 2: src = lane + arg; break;
    default: src = lane ^ arg; break;
  }
  int st = t - lane + src;
  if (src < seg || src >= seg + width || st >= s.nthreads) return bits;
  return s.slot[2 * st + ((s.wgen[t] - 1) & 1)];
}

extern "C" int emu_warp_gather(unsigned mask, const void* mine, int bytes, void* all) {
  Sched& s = sched;
  int t = s.cur, lane = t % warpLanes;
  if (!s.coroutines) {
    s.badSync = true;
    return lane;
  }
  if (bytes < 0 || bytes > EMU_GATHER_MAX) {
    emu_fault("a warp gather of more than EMU_GATHER_MAX bytes");
    bytes = 0;
  }
  std::memcpy(&s.gbuf[(2 * t + (s.wgen[t] & 1)) * EMU_GATHER_MAX], mine, bytes);
  warpWait(opGather, mask);
  // As for shuffles: the next gather writes the other half of gbuf, so
  // this one stays until every lane has read it.
  for (int l = 0; l < warpLanes; l++) {
    int st = t - lane + l;
    char* dst = static_cast<char*>(all) + l * bytes;
    if (st < s.nthreads)
      std::memcpy(dst, &s.gbuf[(2 * st + ((s.wgen[t] - 1) & 1)) * EMU_GATHER_MAX], bytes);
    else
      std::memset(dst, 0, bytes);
  }
  return lane;
}

extern "C" int emu_kernel_count(void) { return tableLen; }
extern "C" const char* emu_kernel_name(int i) { return table[i].name; }
extern "C" int emu_kernel_sync(int i) { return table[i].sync; }

// launchMu serializes launches (see emu_launch).
static std::mutex launchMu;

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
  // One launch at a time: the kernels' __shared__ variables are statics
  // of the process (see cuda_emu.h).
  std::lock_guard<std::mutex> hold(launchMu);
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
  s.fault.clear();
  s.nthreads = nthreads;
  s.tids.resize(nthreads);
  for (int t = 0, z = 0; z < bz; z++)
    for (int y = 0; y < by; y++)
      for (int x = 0; x < bx; x++, t++) s.tids[t] = uint3{(unsigned)x, (unsigned)y, (unsigned)z};
  if (s.coroutines) {
    s.ctx.resize(nthreads);
    s.jmp.resize(nthreads);
    s.started.resize(nthreads);
    s.state.resize(nthreads);
    s.wop.resize(nthreads);
    s.wgen.resize(nthreads);
    s.slot.resize(2 * nthreads);
    s.gbuf.resize(2 * nthreads * EMU_GATHER_MAX);
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
  int nwarps = (nthreads + warpLanes - 1) / warpLanes;
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
                          "kernel %s called __syncthreads or a warp primitive but its PTX has neither "
                          "(stale kernels_gen.h? run go generate ./kernels)",
                          name);
            return -1;
          }
          if (!s.fault.empty()) {
            std::snprintf(err, errlen, "kernel %s, block (%d,%d,%d): %s", name, x, y, z, s.fault.c_str());
            return -1;
          }
          continue;
        }
        for (int t = 0; t < nthreads; t++) {
          getcontext(&s.ctx[t]);
          s.ctx[t].uc_stack.ss_sp = s.stacks[t];
          s.ctx[t].uc_stack.ss_size = stackSize;
          s.ctx[t].uc_link = nullptr;
          makecontext(&s.ctx[t], trampoline, 0);
          s.started[t] = 0;
          s.state[t] = running;
          s.wgen[t] = 0;
        }
        for (;;) {
          for (int t = 0; t < nthreads; t++) {
            if (s.state[t] != running) continue;
            s.cur = t;
            threadIdx = s.tids[t];
            resume(t);
          }
          if (!s.fault.empty()) {
            std::snprintf(err, errlen, "kernel %s, block (%d,%d,%d): %s", name, x, y, z, s.fault.c_str());
            return -1;
          }
          // Release the warps whose lanes all wait at a warp primitive.
          bool released = false, blockWait = false, live = false;
          for (int w = 0; w < nwarps; w++) {
            int lo = w * warpLanes, hi = std::min(nthreads, lo + warpLanes);
            int atWarpN = 0, doneN = 0;
            for (int t = lo; t < hi; t++) {
              atWarpN += s.state[t] == atWarp;
              doneN += s.state[t] == finished;
              blockWait = blockWait || s.state[t] == atBlock;
            }
            live = live || doneN < hi - lo;
            if (atWarpN == 0) continue;
            const char* why = nullptr;
            if (atWarpN + doneN < hi - lo) continue;  // others are at __syncthreads: checked below
            if (doneN > 0) why = "lanes of the warp returned while others wait at a warp primitive";
            for (int t = lo; t < hi && !why; t++) {
              if (s.wgen[t] != s.wgen[lo] || s.wop[t] != s.wop[lo])
                why = "lanes of the warp reached different warp primitives (divergent shuffles or __syncwarp)";
            }
            if (why) {
              std::snprintf(err, errlen, "kernel %s, block (%d,%d,%d), warp %d: %s", name, x, y, z, w, why);
              return -1;
            }
            for (int t = lo; t < hi; t++) s.state[t] = running;
            released = true;
          }
          if (released) continue;
          if (!live) break;
          // No warp can go on: every thread left waits at __syncthreads,
          // or some wait at a warp primitive that others of their warp
          // will never reach.
          for (int t = 0; t < nthreads; t++) {
            if (s.state[t] == atWarp) {
              std::snprintf(err, errlen,
                            "kernel %s, block (%d,%d,%d): thread %d waits at a warp primitive while lanes of "
                            "its warp wait at __syncthreads",
                            name, x, y, z, t);
              return -1;
            }
          }
          if (blockWait) {
            for (int t = 0; t < nthreads; t++)
              if (s.state[t] == atBlock) s.state[t] = running;
          }
        }
      }
    }
  }
  s.cur = -1;
  return 0;
}
