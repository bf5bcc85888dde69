/* libFuzzer harness over bankc scan's PTX path: the lexer and reader on
 * any bytes, then, for every kernel that reads, one warp interpreted and
 * costed (bounded steps) and its warnings, totals and JSON printed into
 * memory.  Any crash, sanitizer report, leak or hang is a bug. */
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scan/scan.h"
#include "scan/scan_source.h"

static FILE *sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!sink)
		sink = fopen("/dev/null", "w");
	if (size > 1 << 16)
		return 0;
	char *text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = 0;
	Src src = {"fuzz.ptx", text, size};
	Pool *p = pool_new();
	Diag d = {.src = &src, .out = sink};
	PtxModule m;
	if (!setjmp(d.jb)) {
		ptx_read(p, &d, &m);
		for (int i = 0; i < m.nfunc; i++) {
			if (!m.func[i].entry || !m.func[i].defined)
				continue;
			InterpOpts o = {.block = {32, 1, 1}, .max_steps = 32 * 2000};
			o.nparams = 1;
			o.param[0].index = 0;
			o.param[0].value = 64;
			ScanOpts so = {true, sim_geom_default, true, NULL};
			ScanKernel k;
			scan_kernel(&m, i, &o, &so, &k);
			ScanCtx c = {"fuzz.ptx", NULL, &o, sim_geom_default};
			scan_print_text(sink, sink, &m, &k, &c);
			json_t *j = scan_kernel_json(&m, &k, &c);
			json_dumpf(j, sink, JSON_INDENT(2) | JSON_SORT_KEYS);
			json_decref(j);
			scan_kernel_free(&m, &k);
		}
	}
	scan_source_free();    /* the PTX's line index */
	pool_free(p);
	free(text);
	return 0;
}
