// probe: issue one shared-memory warp instruction per pattern row, so that
// Nsight Compute can count its wavefronts (see probe.sh and README.md).
//
//   probe PATTERNS.tsv   run every row of the table, one launch per row
//   probe --info         print the device that the launches run on
//
// Every row gets exactly one launch, in row order: the kernel of its op
// variant, or probe_skipped when this build or device cannot run that op.
// probe.sh pairs the profiler's launches with the rows by that order and
// checks each launch's kernel name against the row's op.
#include <cctype>
#include <cerrno>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <algorithm>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#define CHECK(call)                                                          \
    do {                                                                     \
        cudaError_t err_ = (call);                                           \
        if (err_ != cudaSuccess) {                                           \
            fprintf(stderr, "probe: %s:%d: %s: %s\n", __FILE__, __LINE__,    \
                    #call, cudaGetErrorString(err_));                        \
            exit(1);                                                         \
        }                                                                    \
    } while (0)

// The whole 48 KiB a block may hold statically. 128-byte alignment makes
// offset 0 the start of bank 0 (checked at run time from out[BASE_SLOT]).
constexpr unsigned SMEM_BYTES = 48 * 1024;
constexpr int BASE_SLOT = 32 * 4;
__shared__ __align__(128) unsigned char smem[SMEM_BYTES];

// __CUDA_ARCH__ for `if constexpr`, so instructions a target lacks are never
// handed to ptxas; 0 in the host pass.
#ifdef __CUDA_ARCH__
#define DEV_ARCH __CUDA_ARCH__
#else
#define DEV_ARCH 0
#endif

// Every kernel has the same signature, so the host can keep them in a table.
//   offs: 32 byte offsets of this row, mask: active lanes,
//   out:  32*4 result words + the shared window base, gsrc: cp.async source.
#define PROBE_ARGS                                                           \
    const unsigned *__restrict__ offs, unsigned mask,                        \
        unsigned *__restrict__ out, const uint4 *__restrict__ gsrc
typedef void (*kernel_t)(const unsigned *, unsigned, unsigned *,
                         const uint4 *);

// Offset and mask reach registers through global loads and parameters
// before the instruction; nothing else in a kernel touches shared memory.
#define PROBE_PROLOGUE                                                       \
    const unsigned lane = threadIdx.x;                                       \
    const unsigned base = (unsigned)__cvta_generic_to_shared(smem);          \
    const unsigned addr = base + offs[lane];                                 \
    const bool active = ((mask >> lane) & 1u) != 0;                          \
    unsigned r[4] = {lane * 4 + 1, lane * 4 + 2, lane * 4 + 3, lane * 4 + 4};\
    (void)active;                                                            \
    (void)gsrc

// Results go to global memory so no load is dead.
#define PROBE_EPILOGUE                                                       \
    for (int i_ = 0; i_ < 4; ++i_)                                           \
        out[lane * 4 + i_] = r[i_];                                          \
    if (lane == 0)                                                           \
        out[BASE_SLOT] = base

// ---- ld.shared / st.shared -------------------------------------------------

template <int W>
__device__ __forceinline__ void ld_shared(unsigned a, unsigned *r)
{
    if constexpr (W == 1)
        asm volatile("ld.shared.u8 %0, [%1];" : "=r"(r[0]) : "r"(a) : "memory");
    else if constexpr (W == 2)
        asm volatile("ld.shared.u16 %0, [%1];" : "=r"(r[0]) : "r"(a) : "memory");
    else if constexpr (W == 4)
        asm volatile("ld.shared.u32 %0, [%1];" : "=r"(r[0]) : "r"(a) : "memory");
    else if constexpr (W == 8)
        asm volatile("ld.shared.v2.u32 {%0, %1}, [%2];"
                     : "=r"(r[0]), "=r"(r[1]) : "r"(a) : "memory");
    else
        asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                     : "r"(a) : "memory");
}

// Narrow stores take the low bits of a 32-bit register, as PTX allows.
template <int W>
__device__ __forceinline__ void st_shared(unsigned a, const unsigned *r)
{
    if constexpr (W == 1)
        asm volatile("st.shared.u8 [%0], %1;" :: "r"(a), "r"(r[0]) : "memory");
    else if constexpr (W == 2)
        asm volatile("st.shared.u16 [%0], %1;" :: "r"(a), "r"(r[0]) : "memory");
    else if constexpr (W == 4)
        asm volatile("st.shared.u32 [%0], %1;" :: "r"(a), "r"(r[0]) : "memory");
    else if constexpr (W == 8)
        asm volatile("st.shared.v2.u32 [%0], {%1, %2};"
                     :: "r"(a), "r"(r[0]), "r"(r[1]) : "memory");
    else
        asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};"
                     :: "r"(a), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3])
                     : "memory");
}

#define DEF_LD(name, W)                                                      \
    extern "C" __global__ void name(PROBE_ARGS)                              \
    {                                                                        \
        PROBE_PROLOGUE;                                                      \
        r[0] = r[1] = r[2] = r[3] = 0;                                       \
        if (active)                                                          \
            ld_shared<W>(addr, r);                                           \
        PROBE_EPILOGUE;                                                      \
    }
#define DEF_ST(name, W)                                                      \
    extern "C" __global__ void name(PROBE_ARGS)                              \
    {                                                                        \
        PROBE_PROLOGUE;                                                      \
        if (active)                                                          \
            st_shared<W>(addr, r);                                           \
        PROBE_EPILOGUE;                                                      \
    }

DEF_LD(probe_ld_u8, 1)
DEF_LD(probe_ld_u16, 2)
DEF_LD(probe_ld_u32, 4)
DEF_LD(probe_ld_v2, 8)
DEF_LD(probe_ld_v4, 16)
DEF_ST(probe_st_u8, 1)
DEF_ST(probe_st_u16, 2)
DEF_ST(probe_st_u32, 4)
DEF_ST(probe_st_v2, 8)
DEF_ST(probe_st_v4, 16)

// ---- ldmatrix / stmatrix (.sync.aligned: every lane issues) ----------------

#define LDSM(sfx, ...) "ldmatrix.sync.aligned.m8n8" sfx ".shared.b16 " __VA_ARGS__
#define STSM(sfx, ...) "stmatrix.sync.aligned.m8n8" sfx ".shared.b16 " __VA_ARGS__

#define DEF_LDSM(name, N, sfx)                                               \
    extern "C" __global__ void name(PROBE_ARGS)                              \
    {                                                                        \
        PROBE_PROLOGUE;                                                      \
        r[0] = r[1] = r[2] = r[3] = 0;                                       \
        if constexpr (DEV_ARCH >= 750) {                                     \
            if constexpr (N == 1)                                            \
                asm volatile(LDSM(".x1" sfx, "{%0}, [%1];")                  \
                             : "=r"(r[0]) : "r"(addr) : "memory");           \
            else if constexpr (N == 2)                                       \
                asm volatile(LDSM(".x2" sfx, "{%0, %1}, [%2];")              \
                             : "=r"(r[0]), "=r"(r[1]) : "r"(addr)            \
                             : "memory");                                    \
            else                                                             \
                asm volatile(LDSM(".x4" sfx, "{%0, %1, %2, %3}, [%4];")      \
                             : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]),           \
                               "=r"(r[3])                                    \
                             : "r"(addr) : "memory");                        \
        }                                                                    \
        PROBE_EPILOGUE;                                                      \
    }
#define DEF_STSM(name, N, sfx)                                               \
    extern "C" __global__ void name(PROBE_ARGS)                              \
    {                                                                        \
        PROBE_PROLOGUE;                                                      \
        if constexpr (DEV_ARCH >= 900) {                                     \
            if constexpr (N == 1)                                            \
                asm volatile(STSM(".x1" sfx, "[%0], {%1};")                  \
                             :: "r"(addr), "r"(r[0]) : "memory");            \
            else if constexpr (N == 2)                                       \
                asm volatile(STSM(".x2" sfx, "[%0], {%1, %2};")              \
                             :: "r"(addr), "r"(r[0]), "r"(r[1])              \
                             : "memory");                                    \
            else                                                             \
                asm volatile(STSM(".x4" sfx, "[%0], {%1, %2, %3, %4};")      \
                             :: "r"(addr), "r"(r[0]), "r"(r[1]), "r"(r[2]),  \
                                "r"(r[3])                                    \
                             : "memory");                                    \
        }                                                                    \
        PROBE_EPILOGUE;                                                      \
    }

// The 8-bit forms (sm_100a, sm_103a, sm_120a): built for an "a" or "f"
// target alone, which probe_b8_built tells the host (a launch of one
// built without them would measure nothing).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 1000 &&                        \
    (defined(__CUDA_ARCH_SPECIFIC__) || defined(__CUDA_ARCH_FAMILY_SPECIFIC__))
#define PROBE_B8 1
#else
#define PROBE_B8 0
#endif
__device__ int probe_b8_built = PROBE_B8;

#define DEF_LDSM8(name, ASM)                                                 \
    extern "C" __global__ void name(PROBE_ARGS)                              \
    {                                                                        \
        PROBE_PROLOGUE;                                                      \
        r[0] = r[1] = r[2] = r[3] = 0;                                       \
        if constexpr (PROBE_B8)                                              \
            asm volatile(ASM " {%0, %1, %2, %3}, [%4];"                      \
                         : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])    \
                         : "r"(addr) : "memory");                            \
        PROBE_EPILOGUE;                                                      \
    }
#define DEF_LDSM8_1(name, ASM)                                               \
    extern "C" __global__ void name(PROBE_ARGS)                              \
    {                                                                        \
        PROBE_PROLOGUE;                                                      \
        r[0] = r[1] = r[2] = r[3] = 0;                                       \
        if constexpr (PROBE_B8)                                              \
            asm volatile(ASM " {%0}, [%1];" : "=r"(r[0]) : "r"(addr)         \
                         : "memory");                                        \
        PROBE_EPILOGUE;                                                      \
    }
#define DEF_LDSM8_2(name, ASM)                                               \
    extern "C" __global__ void name(PROBE_ARGS)                              \
    {                                                                        \
        PROBE_PROLOGUE;                                                      \
        r[0] = r[1] = r[2] = r[3] = 0;                                       \
        if constexpr (PROBE_B8)                                              \
            asm volatile(ASM " {%0, %1}, [%2];" : "=r"(r[0]), "=r"(r[1])     \
                         : "r"(addr) : "memory");                            \
        PROBE_EPILOGUE;                                                      \
    }
#define DEF_STSM8(name, ASM)                                                 \
    extern "C" __global__ void name(PROBE_ARGS)                              \
    {                                                                        \
        PROBE_PROLOGUE;                                                      \
        if constexpr (PROBE_B8)                                              \
            asm volatile(ASM " [%0], {%1, %2, %3, %4};"                      \
                         :: "r"(addr), "r"(r[0]), "r"(r[1]), "r"(r[2]),      \
                            "r"(r[3]) : "memory");                           \
        PROBE_EPILOGUE;                                                      \
    }

DEF_LDSM8_2(probe_ldsm8_m16x1, "ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8")
DEF_LDSM8(probe_ldsm8_m16x2, "ldmatrix.sync.aligned.m16n16.x2.trans.shared.b8")
DEF_LDSM8_1(probe_ldsm8_m8x1, "ldmatrix.sync.aligned.m8n16.x1.shared.b8x16.b6x16_p32")
DEF_LDSM8_2(probe_ldsm8_m8x2, "ldmatrix.sync.aligned.m8n16.x2.shared.b8x16.b6x16_p32")
DEF_LDSM8(probe_ldsm8_m8x4, "ldmatrix.sync.aligned.m8n16.x4.shared.b8x16.b6x16_p32")
extern "C" __global__ void probe_stsm8_x1(PROBE_ARGS)
{
    PROBE_PROLOGUE;
    if constexpr (PROBE_B8)
        asm volatile("stmatrix.sync.aligned.m16n8.x1.trans.shared.b8 [%0], {%1};"
                     :: "r"(addr), "r"(r[0]) : "memory");
    PROBE_EPILOGUE;
}
extern "C" __global__ void probe_stsm8_x2(PROBE_ARGS)
{
    PROBE_PROLOGUE;
    if constexpr (PROBE_B8)
        asm volatile("stmatrix.sync.aligned.m16n8.x2.trans.shared.b8 [%0], {%1, %2};"
                     :: "r"(addr), "r"(r[0]), "r"(r[1]) : "memory");
    PROBE_EPILOGUE;
}
DEF_STSM8(probe_stsm8_x4, "stmatrix.sync.aligned.m16n8.x4.trans.shared.b8")

DEF_LDSM(probe_ldsm_x1, 1, "")
DEF_LDSM(probe_ldsm_x2, 2, "")
DEF_LDSM(probe_ldsm_x4, 4, "")
DEF_LDSM(probe_ldsm_x1_trans, 1, ".trans")
DEF_LDSM(probe_ldsm_x2_trans, 2, ".trans")
DEF_LDSM(probe_ldsm_x4_trans, 4, ".trans")
DEF_STSM(probe_stsm_x1, 1, "")
DEF_STSM(probe_stsm_x2, 2, "")
DEF_STSM(probe_stsm_x4, 4, "")
DEF_STSM(probe_stsm_x1_trans, 1, ".trans")
DEF_STSM(probe_stsm_x2_trans, 2, ".trans")
DEF_STSM(probe_stsm_x4_trans, 4, ".trans")

// ---- cp.async (global -> shared); each lane copies its own 16-byte slot ----

#define DEF_CPASYNC(name, CACHE, W)                                          \
    extern "C" __global__ void name(PROBE_ARGS)                              \
    {                                                                        \
        PROBE_PROLOGUE;                                                      \
        if constexpr (DEV_ARCH >= 800) {                                     \
            const size_t src = __cvta_generic_to_global(gsrc + lane);        \
            if (active)                                                      \
                asm volatile("cp.async." CACHE ".shared.global [%0], [%1], " \
                             #W ";" :: "r"(addr), "l"(src) : "memory");      \
            asm volatile("cp.async.wait_all;" ::: "memory");                 \
        }                                                                    \
        PROBE_EPILOGUE;                                                      \
    }

DEF_CPASYNC(probe_cpasync_ca4, "ca", 4)
DEF_CPASYNC(probe_cpasync_ca8, "ca", 8)
DEF_CPASYNC(probe_cpasync_ca16, "ca", 16)
DEF_CPASYNC(probe_cpasync_cg16, "cg", 16)


// ---- shared-memory atomics: atom (returns the old value) and red --------

// K picks the operation; W is the operand's bytes (4 or 8).
enum { A_ADD, A_RED, A_CAS, A_EXCH, A_MAX, A_ADDF };

template <int K, int W>
__device__ __forceinline__ void atom_shared(unsigned a, unsigned *r)
{
    if constexpr (W == 4) {
        if constexpr (K == A_ADD)
            asm volatile("atom.shared.add.u32 %0, [%1], %2;"
                         : "=r"(r[0]) : "r"(a), "r"(r[1]) : "memory");
        else if constexpr (K == A_RED)
            asm volatile("red.shared.add.u32 [%0], %1;"
                         :: "r"(a), "r"(r[1]) : "memory");
        else if constexpr (K == A_CAS)
            asm volatile("atom.shared.cas.b32 %0, [%1], %2, %3;"
                         : "=r"(r[0]) : "r"(a), "r"(r[1]), "r"(r[2])
                         : "memory");
        else if constexpr (K == A_EXCH)
            asm volatile("atom.shared.exch.b32 %0, [%1], %2;"
                         : "=r"(r[0]) : "r"(a), "r"(r[1]) : "memory");
        else if constexpr (K == A_MAX)
            asm volatile("atom.shared.max.s32 %0, [%1], %2;"
                         : "=r"(r[0]) : "r"(a), "r"(r[1]) : "memory");
        else
            asm volatile("atom.shared.add.f32 %0, [%1], %2;"
                         : "=r"(r[0]) : "r"(a), "f"(__uint_as_float(r[1]))
                         : "memory");
    } else {
        unsigned long long v = ((unsigned long long)r[2] << 32) | r[1], o;
        if constexpr (K == A_ADD)
            asm volatile("atom.shared.add.u64 %0, [%1], %2;"
                         : "=l"(o) : "r"(a), "l"(v) : "memory");
        else if constexpr (K == A_RED) {
            asm volatile("red.shared.add.u64 [%0], %1;"
                         :: "r"(a), "l"(v) : "memory");
            o = 0;
        }
        else if constexpr (K == A_CAS)
            asm volatile("atom.shared.cas.b64 %0, [%1], %2, %3;"
                         : "=l"(o) : "r"(a), "l"(v), "l"(v + 1) : "memory");
        else
            asm volatile("atom.shared.exch.b64 %0, [%1], %2;"
                         : "=l"(o) : "r"(a), "l"(v) : "memory");
        r[0] = (unsigned)o;
        r[3] = (unsigned)(o >> 32);
    }
}

#define DEF_ATOM(name, K, W)                                                 \
    extern "C" __global__ void name(PROBE_ARGS)                              \
    {                                                                        \
        PROBE_PROLOGUE;                                                      \
        if (active)                                                          \
            atom_shared<K, W>(addr, r);                                      \
        PROBE_EPILOGUE;                                                      \
    }

DEF_ATOM(probe_atom_add32, A_ADD, 4)
DEF_ATOM(probe_atom_add64, A_ADD, 8)
DEF_ATOM(probe_red_add32, A_RED, 4)
DEF_ATOM(probe_red_add64, A_RED, 8)
DEF_ATOM(probe_atom_cas32, A_CAS, 4)
DEF_ATOM(probe_atom_cas64, A_CAS, 8)
DEF_ATOM(probe_atom_exch32, A_EXCH, 4)
DEF_ATOM(probe_atom_exch64, A_EXCH, 8)
DEF_ATOM(probe_atom_max32, A_MAX, 4)
DEF_ATOM(probe_atom_addf32, A_ADDF, 4)

// ---- timing: 32 warps issue the row's instruction in a loop ---------------

// Each warp of a 1024-thread block issues its lanes' instruction TIME_ITERS
// times at the row's offsets; out[warp] gets its cycles.  All warps use the
// same offsets, as the instruction of a real kernel's warps would.
constexpr int TIME_ITERS = 64;

template <int K, int W>
__global__ void probe_time_atom(const unsigned *__restrict__ offs,
                                unsigned mask, unsigned long long *cycles,
                                unsigned *sink)
{
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const unsigned base = (unsigned)__cvta_generic_to_shared(smem);
    const unsigned addr = base + offs[lane];
    const bool active = ((mask >> lane) & 1u) != 0;
    unsigned r[4] = {lane, lane + 1, lane + 2, lane + 3};
    for (int i = threadIdx.x; i < (int)(SMEM_BYTES / 4); i += blockDim.x)
        ((unsigned *)smem)[i] = 0;
    __syncthreads();
    unsigned long long t0 = clock64();
    if (active)
        for (int i = 0; i < TIME_ITERS; ++i) {
            atom_shared<K, W>(addr, r);
            r[1] += r[0];
        }
    __syncwarp();
    unsigned long long t1 = clock64();
    if (lane == 0)
        cycles[warp] = t1 - t0;
    sink[threadIdx.x] = r[0] + r[1] + r[3];
}

typedef void (*time_kernel_t)(const unsigned *, unsigned, unsigned long long *,
                              unsigned *);

// Stands in for a row this build or device cannot run, keeping one launch
// per row.
extern "C" __global__ void probe_skipped(PROBE_ARGS)
{
    (void)offs, (void)mask, (void)gsrc;
    out[threadIdx.x] = 0;
}

// ---- host ------------------------------------------------------------------

struct Variant {
    const char *op;
    int width;
    const char *kernel; // must match the kernel's symbol; probe.sh checks it
    kernel_t fn;
    int min_arch;  // lowest compute capability (major*10+minor)
    bool all_lanes; // .sync.aligned: mask must be ffffffff
    bool b8;        // an 8-bit matrix form: an "a" or "f" build only
};

#define V(op, w, k, arch, all) {op, w, #k, k, arch, all, false}
#define V8(op, k) {op, 16, #k, k, 100, true, true}
static const Variant variants[] = {
    V("load", 1, probe_ld_u8, 0, false),
    V("load", 2, probe_ld_u16, 0, false),
    V("load", 4, probe_ld_u32, 0, false),
    V("load", 8, probe_ld_v2, 0, false),
    V("load", 16, probe_ld_v4, 0, false),
    V("store", 1, probe_st_u8, 0, false),
    V("store", 2, probe_st_u16, 0, false),
    V("store", 4, probe_st_u32, 0, false),
    V("store", 8, probe_st_v2, 0, false),
    V("store", 16, probe_st_v4, 0, false),
    V("ldmatrix.x1", 16, probe_ldsm_x1, 75, true),
    V("ldmatrix.x2", 16, probe_ldsm_x2, 75, true),
    V("ldmatrix.x4", 16, probe_ldsm_x4, 75, true),
    V("ldmatrix.x1.trans", 16, probe_ldsm_x1_trans, 75, true),
    V("ldmatrix.x2.trans", 16, probe_ldsm_x2_trans, 75, true),
    V("ldmatrix.x4.trans", 16, probe_ldsm_x4_trans, 75, true),
    V("stmatrix.x1", 16, probe_stsm_x1, 90, true),
    V("stmatrix.x2", 16, probe_stsm_x2, 90, true),
    V("stmatrix.x4", 16, probe_stsm_x4, 90, true),
    V("stmatrix.x1.trans", 16, probe_stsm_x1_trans, 90, true),
    V("stmatrix.x2.trans", 16, probe_stsm_x2_trans, 90, true),
    V("stmatrix.x4.trans", 16, probe_stsm_x4_trans, 90, true),
    V8("ldmatrix.m16n16.x1.trans", probe_ldsm8_m16x1),
    V8("ldmatrix.m16n16.x2.trans", probe_ldsm8_m16x2),
    V8("ldmatrix.m8n16.x1", probe_ldsm8_m8x1),
    V8("ldmatrix.m8n16.x2", probe_ldsm8_m8x2),
    V8("ldmatrix.m8n16.x4", probe_ldsm8_m8x4),
    V8("stmatrix.m16n8.x1.trans", probe_stsm8_x1),
    V8("stmatrix.m16n8.x2.trans", probe_stsm8_x2),
    V8("stmatrix.m16n8.x4.trans", probe_stsm8_x4),
    // cp.async defaults to .ca; .cg exists for 16 bytes only.
    V("cp.async", 4, probe_cpasync_ca4, 80, false),
    V("cp.async", 8, probe_cpasync_ca8, 80, false),
    V("cp.async", 16, probe_cpasync_ca16, 80, false),
    V("cp.async.ca", 4, probe_cpasync_ca4, 80, false),
    V("cp.async.ca", 8, probe_cpasync_ca8, 80, false),
    V("cp.async.ca", 16, probe_cpasync_ca16, 80, false),
    V("cp.async.cg", 16, probe_cpasync_cg16, 80, false),
    V("atom.add", 4, probe_atom_add32, 0, false),
    V("atom.add", 8, probe_atom_add64, 0, false),
    V("red.add", 4, probe_red_add32, 0, false),
    V("red.add", 8, probe_red_add64, 0, false),
    V("atom.cas", 4, probe_atom_cas32, 0, false),
    V("atom.cas", 8, probe_atom_cas64, 0, false),
    V("atom.exch", 4, probe_atom_exch32, 0, false),
    V("atom.exch", 8, probe_atom_exch64, 0, false),
    V("atom.max", 4, probe_atom_max32, 0, false),
    V("atom.add.f32", 4, probe_atom_addf32, 0, false),
};
#undef V
#undef V8
static const int n_variants = (int)(sizeof variants / sizeof variants[0]);

// The timed form of each atomic variant (probe --time).
struct TimedVariant {
    const char *op;
    int width;
    time_kernel_t fn;
};
static const TimedVariant timed[] = {
    {"atom.add", 4, probe_time_atom<A_ADD, 4>},
    {"atom.add", 8, probe_time_atom<A_ADD, 8>},
    {"red.add", 4, probe_time_atom<A_RED, 4>},
    {"red.add", 8, probe_time_atom<A_RED, 8>},
    {"atom.cas", 4, probe_time_atom<A_CAS, 4>},
    {"atom.cas", 8, probe_time_atom<A_CAS, 8>},
    {"atom.exch", 4, probe_time_atom<A_EXCH, 4>},
    {"atom.exch", 8, probe_time_atom<A_EXCH, 8>},
    {"atom.max", 4, probe_time_atom<A_MAX, 4>},
    {"atom.add.f32", 4, probe_time_atom<A_ADDF, 4>},
};

struct Row {
    std::string name;
    int line;
    const Variant *v;
    unsigned mask;
    unsigned offs[32];
};

static const char *path;

[[noreturn]] __attribute__((format(printf, 2, 3))) static void
bad_row(int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s:%d: ", path, line);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

static std::vector<std::string> split(const std::string &s, char sep)
{
    std::vector<std::string> out;
    size_t start = 0;
    for (;;) {
        size_t end = s.find(sep, start);
        out.push_back(s.substr(start, end - start));
        if (end == std::string::npos)
            return out;
        start = end + 1;
    }
}

// Whole-field unsigned number in the given base, at most `max`.
static bool parse_uint(const std::string &s, int base, unsigned long max,
                       unsigned long *val)
{
    if (s.empty() || s.size() > 16)
        return false;
    for (char c : s)
        if (base == 16 ? !isxdigit((unsigned char)c) : !isdigit((unsigned char)c))
            return false;
    errno = 0;
    char *end;
    unsigned long v = strtoul(s.c_str(), &end, base);
    if (errno || *end || v > max)
        return false;
    *val = v;
    return true;
}

// Rows are lines that are neither blank, '#' comments nor the header;
// probe.sh applies the same rule when it pairs rows with launches.
static std::vector<Row> read_table(const char *file)
{
    std::ifstream in(file);
    if (!in) {
        fprintf(stderr, "probe: cannot open %s: %s\n", file, strerror(errno));
        exit(1);
    }
    std::vector<Row> rows;
    std::string s;
    for (int line = 1; std::getline(in, s); ++line) {
        if (!s.empty() && s.back() == '\r')
            s.pop_back();
        if (s.find_first_not_of(" \t") == std::string::npos || s[0] == '#' ||
            s.compare(0, 5, "name\t") == 0)
            continue;
        std::vector<std::string> f = split(s, '\t');
        if (f.size() != 5 && f.size() != 6)
            bad_row(line, "expected 5 or 6 tab-separated fields, got %zu",
                    f.size());
        Row row;
        row.line = line;
        row.name = f[0];
        if (row.name.empty() ||
            row.name.find_first_not_of("abcdefghijklmnopqrstuvwxyz"
                                       "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                       "0123456789_") != std::string::npos)
            bad_row(line, "name '%s' is not [A-Za-z0-9_]+", f[0].c_str());
        for (const Row &o : rows)
            if (o.name == row.name)
                bad_row(line, "duplicate name '%s'", f[0].c_str());

        unsigned long width;
        if (!parse_uint(f[2], 10, 16, &width))
            bad_row(line, "bad width '%s'", f[2].c_str());
        row.v = nullptr;
        bool op_known = false;
        for (int i = 0; i < n_variants; ++i) {
            if (f[1] != variants[i].op)
                continue;
            op_known = true;
            if (variants[i].width == (int)width)
                row.v = &variants[i];
        }
        if (!op_known)
            bad_row(line, "unknown op '%s'", f[1].c_str());
        if (!row.v)
            bad_row(line, "op %s takes no width %lu", f[1].c_str(), width);

        unsigned long mask;
        if (!parse_uint(f[3], 16, 0xffffffffUL, &mask))
            bad_row(line, "bad hex mask '%s'", f[3].c_str());
        if (row.v->all_lanes && mask != 0xffffffffUL)
            bad_row(line, "%s is .sync.aligned: mask must be ffffffff",
                    row.v->op);
        row.mask = (unsigned)mask;

        std::vector<std::string> o = split(f[4], ',');
        if (o.size() != 32)
            bad_row(line, "expected 32 offsets, got %zu", o.size());
        for (int i = 0; i < 32; ++i) {
            unsigned long off;
            if (!parse_uint(o[i], 10, SMEM_BYTES - 1, &off))
                bad_row(line, "bad offset '%s' (decimal, below 49152)",
                        o[i].c_str());
            if (off % width)
                bad_row(line, "offset %s is not a multiple of the width",
                        o[i].c_str());
            row.offs[i] = (unsigned)off;
        }
        // A sixth field (an earlier measurement) is ignored.
        rows.push_back(row);
    }
    if (in.bad()) {
        fprintf(stderr, "probe: error reading %s\n", file);
        exit(1);
    }
    return rows;
}

// probe --time: for every atomic row, 32 warps issue its instruction
// TIME_ITERS times; prints the median over warps of cycles per instruction.
static int time_rows(const char *file)
{
    path = file;
    std::vector<Row> rows = read_table(file);
    unsigned *d_offs, *d_sink;
    unsigned long long *d_cyc;
    CHECK(cudaMalloc(&d_offs, 32 * sizeof(unsigned)));
    CHECK(cudaMalloc(&d_sink, 1024 * sizeof(unsigned)));
    CHECK(cudaMalloc(&d_cyc, 32 * sizeof(unsigned long long)));
    printf("name\top\twidth\tcycles_per_inst\n");
    for (const Row &row : rows) {
        time_kernel_t fn = nullptr;
        for (const TimedVariant &t : timed)
            if (strcmp(t.op, row.v->op) == 0 && t.width == row.v->width)
                fn = t.fn;
        if (!fn)
            continue;
        CHECK(cudaMemcpy(d_offs, row.offs, sizeof row.offs,
                         cudaMemcpyHostToDevice));
        double med = 0;
        for (int rep = 0; rep < 3; ++rep) {      // the first run warms up
            fn<<<1, 1024>>>(d_offs, row.mask, d_cyc, d_sink);
            CHECK(cudaGetLastError());
            CHECK(cudaDeviceSynchronize());
            unsigned long long c[32];
            CHECK(cudaMemcpy(c, d_cyc, sizeof c, cudaMemcpyDeviceToHost));
            std::vector<unsigned long long> v(c, c + 32);
            std::sort(v.begin(), v.end());
            med = (double)v[16] / TIME_ITERS;
        }
        printf("%s\t%s\t%d\t%.2f\n", row.name.c_str(), row.v->op,
               row.v->width, med);
    }
    CHECK(cudaFree(d_offs));
    CHECK(cudaFree(d_sink));
    CHECK(cudaFree(d_cyc));
    return 0;
}

int main(int argc, char **argv)
{
    int dev;
    cudaDeviceProp prop;
    if (argc == 2 && strcmp(argv[1], "--info") == 0) {
        CHECK(cudaGetDevice(&dev));
        CHECK(cudaGetDeviceProperties(&prop, dev));
        printf("%s, sm_%d%d, %d SMs\n", prop.name, prop.major, prop.minor,
               prop.multiProcessorCount);
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "--time") == 0)
        return time_rows(argv[2]);
    if (argc != 2 || argv[1][0] == '-') {
        fprintf(stderr, "usage: probe PATTERNS.tsv | probe --time PATTERNS.tsv "
                        "| probe --info\n");
        return 2;
    }
    path = argv[1];
    std::vector<Row> rows = read_table(path);
    if (rows.empty()) {
        fprintf(stderr, "probe: %s has no pattern rows\n", path);
        return 1;
    }

    CHECK(cudaGetDevice(&dev));
    CHECK(cudaGetDeviceProperties(&prop, dev));
    const int dev_cc = prop.major * 10 + prop.minor;

    // All offsets go up in one copy, so a launch reads its row from global
    // memory and no host work sits between launches.
    unsigned *d_offs, *d_out;
    uint4 *d_src;
    CHECK(cudaMalloc(&d_offs, rows.size() * 32 * sizeof(unsigned)));
    CHECK(cudaMalloc(&d_out, (BASE_SLOT + 1) * sizeof(unsigned)));
    CHECK(cudaMalloc(&d_src, 32 * sizeof(uint4)));
    CHECK(cudaMemset(d_src, 0x5a, 32 * sizeof(uint4)));
    std::vector<unsigned> h_offs(rows.size() * 32);
    for (size_t i = 0; i < rows.size(); ++i)
        memcpy(&h_offs[i * 32], rows[i].offs, sizeof rows[i].offs);
    CHECK(cudaMemcpy(d_offs, h_offs.data(), h_offs.size() * sizeof(unsigned),
                     cudaMemcpyHostToDevice));

    int b8_built = 0;
    CHECK(cudaMemcpyFromSymbol(&b8_built, probe_b8_built, sizeof b8_built));
    int skipped = 0;
    for (size_t i = 0; i < rows.size(); ++i) {
        const Row &row = rows[i];
        // ptxVersion is the __CUDA_ARCH__ the kernel was compiled for, also
        // when the driver JIT-compiles embedded PTX for a newer device.
        cudaFuncAttributes attr;
        CHECK(cudaFuncGetAttributes(&attr, (const void *)row.v->fn));
        kernel_t fn = row.v->fn;
        if (row.v->b8 && !b8_built && dev_cc >= row.v->min_arch) {
            fprintf(stderr,
                    "probe: %s:%d: %s: skipped, %s is built for an \"a\" "
                    "target only (PROBE_ARCH=sm_%da)\n", path, row.line,
                    row.name.c_str(), row.v->op, dev_cc);
            fn = probe_skipped;
            ++skipped;
        } else if (attr.ptxVersion < row.v->min_arch || dev_cc < row.v->min_arch) {
            fprintf(stderr,
                    "probe: %s:%d: %s: skipped, %s needs sm_%d "
                    "(built for sm_%d, device is sm_%d)\n",
                    path, row.line, row.name.c_str(), row.v->op,
                    row.v->min_arch, attr.ptxVersion, dev_cc);
            fn = probe_skipped;
            ++skipped;
        }
        fn<<<1, 32>>>(d_offs + i * 32, row.mask, d_out, d_src);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        if (fn != probe_skipped) {
            unsigned base;
            CHECK(cudaMemcpy(&base, d_out + BASE_SLOT, sizeof base,
                             cudaMemcpyDeviceToHost));
            if (base % 128) {
                fprintf(stderr,
                        "probe: shared window base 0x%x is not 128-byte "
                        "aligned; offsets would not map to banks as given\n",
                        base);
                return 1;
            }
        }
    }
    if (skipped)
        fprintf(stderr, "probe: %d of %zu rows skipped\n", skipped,
                rows.size());
    CHECK(cudaFree(d_offs));
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_src));
    return 0;
}
