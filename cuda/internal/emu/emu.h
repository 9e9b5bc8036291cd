// emu.h is the C interface of the kernel emulator (emu.cc) to Go.
#ifndef GOTENSOR_EMU_H
#define GOTENSOR_EMU_H

#ifdef __cplusplus
extern "C" {
#endif

// emu_launch runs kernel name on a grid of gx*gy*gz blocks of bx*by*bz
// threads. args holds nargs packed arguments at offsets with sizes. It
// returns 0, or -1 with a message in err (errlen bytes).
int emu_launch(const char* name, int gx, int gy, int gz, int bx, int by, int bz,
               const void* args, int argsLen, const long long* offsets, const long long* sizes,
               int nargs, char* err, int errlen);

// emu_kernel_count and emu_kernel_name list the kernels compiled in.
int emu_kernel_count(void);
const char* emu_kernel_name(int i);
int emu_kernel_sync(int i);

#ifdef __cplusplus
}
#endif

#endif
