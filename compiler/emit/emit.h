/* The emitters' own declarations: the parts of a tile's outputs that
 * one emitter writes for another. */
#ifndef BANKC_EMIT_H
#define BANKC_EMIT_H

#include "bankc.h"

/* NAME.cuh's C++ part: NAME_cute_layout(), behind BANKC_CUTE. */
void emit_cute(FILE *f, const Tile *t, const Layout *l);

/* NAME.cuh's wgmma part: NAME_WGMMA_* and name_wgmma_desc() (up: NAME in
 * upper case, lo: as given). */
void wgmma_emit(FILE *f, const char *up, const char *lo, const WgmmaDesc *d);
/* NAME_check.cu's wgmma part: the include of runtime/bankc_wgmma.cuh and
 * the tile's description for it; main then returns, besides the rest,
 * bankc_wgmma_main<name_wgmma>(argc, argv). */
void wgmma_emit_check(FILE *f, const char *up, const char *lo, Dtype dt);
const char *wgmma_check_type(Dtype dt);     /* "BANKC_WG_BF16", ...; NULL */

/* The same for tcgen05.mma: NAME_UMMA_*, name_umma_desc(), and the
 * include of runtime/bankc_umma.cuh with the tile's description, main
 * returning bankc_umma_main<name_umma>(argc, argv) too. */
void umma_emit(FILE *f, const char *up, const char *lo, const UmmaDesc *d);
void umma_emit_check(FILE *f, const char *up, const char *lo, Dtype dt);
const char *umma_check_type(Dtype dt);      /* "BANKC_WG_BF16", ...; NULL */

#endif
