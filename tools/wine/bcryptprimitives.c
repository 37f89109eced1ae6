/* Wine 8 (Debian 12) lacks bcryptprimitives.dll, whose ProcessPrng the Rust standard library uses for
 * random numbers on Windows since Rust 1.78. `./build.sh windows` builds this stand-in into its Wine
 * prefix only, so the host's Windows tests can run on Linux; nothing ships it. It fills the buffer
 * from RtlGenRandom (advapi32's SystemFunction036), which Wine has. */
#include <windows.h>

BOOLEAN NTAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
  while (length > 0) {
    ULONG chunk = length > 0x10000000 ? 0x10000000 : (ULONG)length;
    if (!SystemFunction036(data, chunk)) return FALSE;
    data += chunk;
    length -= chunk;
  }
  return TRUE;
}
