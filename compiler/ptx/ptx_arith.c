/* The integer operations of PTX whose results take more than one C
 * operator: comparisons by type, high halves of products, bit fields,
 * byte permutes, three-input logic and conversions between integer
 * types (PTX ISA, "Integer Arithmetic" and "Logic and Shift"). */
#include "ptx/ptx.h"

static uint64_t mask_of(int bytes)
{
	return bytes >= 8 ? ~0ull : (1ull << (8 * bytes)) - 1;
}

static int64_t sext(uint64_t v, int bytes)
{
	if (bytes >= 8 || bytes <= 0)
		return (int64_t)v;
	int sh = 64 - 8 * bytes;
	return (int64_t)(v << sh) >> sh;
}

bool arith_cmp(int c, uint64_t a, uint64_t b, bool sgn, int bytes)
{
	int64_t sa = sext(a, bytes), sb = sext(b, bytes);
	switch (c) {
	case CMP_EQ: return a == b;
	case CMP_NE: return a != b;
	case CMP_LT: return sgn ? sa < sb : a < b;
	case CMP_LE: return sgn ? sa <= sb : a <= b;
	case CMP_GT: return sgn ? sa > sb : a > b;
	case CMP_GE: return sgn ? sa >= sb : a >= b;
	case CMP_LO: return a < b;
	case CMP_LS: return a <= b;
	case CMP_HI: return a > b;
	case CMP_HS: return a >= b;
	default: return false;
	}
}

uint64_t arith_mulhi(uint64_t a, uint64_t b, bool sgn, int bytes)
{
	if (bytes < 8) {
		if (sgn)
			return (uint64_t)((sext(a, bytes) * sext(b, bytes)) >> (8 * bytes));
		return (a * b) >> (8 * bytes);
	}
	if (sgn)
		return (uint64_t)(((__int128)(int64_t)a * (int64_t)b) >> 64);
	return (uint64_t)(((unsigned __int128)a * b) >> 64);
}

uint64_t arith_bfe(uint64_t a, uint64_t b, uint64_t c, bool sgn, int bytes)
{
	int msb = 8 * bytes - 1;
	int pos = (int)(b & 0xff), len = (int)(c & 0xff);
	int sbit = 0;
	if (sgn && len > 0) {
		int k = pos + len - 1 > msb ? msb : pos + len - 1;
		sbit = (int)(a >> k & 1);
	}
	uint64_t d = 0;
	for (int i = 0; i <= msb; i++) {
		int bit = i < len && pos + i <= msb ? (int)(a >> (pos + i) & 1) : sbit;
		d |= (uint64_t)bit << i;
	}
	return d;
}

uint64_t arith_bfi(uint64_t a, uint64_t b, uint64_t c, uint64_t d, int bytes)
{
	int msb = 8 * bytes - 1;
	int pos = (int)(c & 0xff), len = (int)(d & 0xff);
	uint64_t f = b;
	for (int i = 0; i < len && pos + i <= msb; i++)
		f = (f & ~(1ull << (pos + i))) | ((a >> i & 1) << (pos + i));
	return f;
}

/* prmt.b32: bytes of {b, a} chosen by the selector c. */
uint64_t arith_prmt(uint64_t a, uint64_t b, uint64_t c, int mode)
{
	uint8_t x[8];
	for (int i = 0; i < 4; i++) {
		x[i] = (uint8_t)(a >> (8 * i));
		x[i + 4] = (uint8_t)(b >> (8 * i));
	}
	uint8_t d[4];
	int n = (int)(c & 3);
	switch (mode) {
	case 0:
		for (int i = 0; i < 4; i++) {
			int s = (int)(c >> (4 * i) & 0xf);
			d[i] = x[s & 7];
			if (s & 8)
				d[i] = (d[i] & 0x80) ? 0xff : 0;
		}
		break;
	case 1: for (int i = 0; i < 4; i++) d[i] = x[(n + i) & 7]; break;
	case 2: for (int i = 0; i < 4; i++) d[i] = x[(n - i) & 7]; break;
	case 3: for (int i = 0; i < 4; i++) d[i] = x[n]; break;
	case 4:
		for (int i = 0; i < 4; i++) d[i] = x[i <= n ? i : n];
		break;
	case 5:
		for (int i = 0; i < 4; i++) d[i] = x[i >= n ? i : n];
		break;
	default:
		for (int i = 0; i < 4; i++) d[i] = x[2 * (n & 1) + (i & 1)];
		break;
	}
	return (uint64_t)d[0] | (uint64_t)d[1] << 8 | (uint64_t)d[2] << 16 |
	       (uint64_t)d[3] << 24;
}

uint64_t arith_lop3(uint64_t a, uint64_t b, uint64_t c, uint64_t lut)
{
	uint64_t d = 0;
	for (int i = 0; i < 8; i++)
		if (lut >> i & 1)
			d |= (i & 4 ? a : ~a) & (i & 2 ? b : ~b) & (i & 1 ? c : ~c);
	return d;
}

/* cvt between integer types: read as the source type, saturate if asked,
 * then keep the destination's width. */
uint64_t arith_convert(uint64_t a, Ty d, Ty s, bool sat)
{
	int64_t v = s.kind == TY_S ? sext(a, s.bytes) : (int64_t)(a & mask_of(s.bytes));
	bool big = s.kind != TY_S && s.bytes == 8 && (a >> 63);
	if (sat) {
		int db = d.bytes;
		if (d.kind == TY_S && db < 8) {
			int64_t hi = (int64_t)(mask_of(db) >> 1), lo = -hi - 1;
			if (big || v > hi) v = hi;
			if (v < lo) v = lo;
		} else if (d.kind == TY_U) {
			if (v < 0 && !big) v = 0;
			else if (db < 8 && (big || (uint64_t)v > mask_of(db))) v = (int64_t)mask_of(db);
		}
	}
	return (uint64_t)v & mask_of(d.bytes);
}

int arith_popcount64(uint64_t v)
{
	int n = 0;
	for (; v; v &= v - 1)
		n++;
	return n;
}
