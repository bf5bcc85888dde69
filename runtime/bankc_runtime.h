/* bankc runtime: the default BANKC_FN, valid as C11 and as CUDA.
 *
 * BANKC_FN marks the layout functions of generated headers (which carry
 * the same definition, so that they include nothing): inline host
 * functions in C, host and device functions in CUDA. */
#ifndef BANKC_RUNTIME_H
#define BANKC_RUNTIME_H

#ifndef BANKC_FN
#ifdef __CUDACC__
#define BANKC_FN static __host__ __device__ __forceinline__
#else
#define BANKC_FN static inline
#endif
#endif

#endif
