/* bankc sim: the bank model on raw patterns, one (--op) or a whole table
 * of measured ones (--table), so anyone can check the model against their
 * GPU's counters. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "bankc.h"
#include "cmd/cmd.h"

/* Parse exactly 32 comma-separated non-negative integers. */
static const char *parse_offsets(const char *s, int64_t *off)
{
	int n = 0;
	while (*s) {
		if (n == WARP)
			return "more than 32 offsets";
		if (*s < '0' || *s > '9')
			return "offsets must be non-negative integers separated by ','";
		errno = 0;
		char *end;
		long long v = strtoll(s, &end, 10);
		if (errno || v > (1LL << 40))
			return "offset too large";
		off[n++] = v;
		s = end;
		if (*s == ',')
			s++;
		else if (*s)
			return "offsets must be non-negative integers separated by ','";
	}
	return n == WARP ? NULL : "need 32 offsets, one per lane";
}

static const char *parse_mask(const char *s, uint32_t *mask)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 16);
	if (!*s || *end || errno || v > 0xffffffffULL || *s == '-')
		return "mask must be up to 8 hex digits";
	*mask = (uint32_t)v;
	return NULL;
}

static const char *parse_width(const char *s, int *w)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (!*s || *end || v < 1 || v > 16)
		return "width must be 1, 2, 4, 8 or 16 bytes";
	*w = (int)v;
	return NULL;
}

/* The lane-to-bank map of one instruction, phase by phase. */
static void print_map(const Geom *g, Op op, int bytes, uint32_t mask,
                      const int64_t *addr, const SimResult *r)
{
	char opn[32];
	tab_op_name(op, opn, sizeof opn);
	printf("%s, %d byte%s per lane, mask %08x: %d wavefront%s (ideal %d)%s\n",
	       opn, bytes, text_plural(bytes), mask, r->wavefronts,
	       text_plural(r->wavefronts),
	       r->ideal, r->merged ? ", broadcast pairs merged" : "");
	if (op.kind == OP_CPASYNC) {
		printf("cp.async: %d 128-byte segment%s touched; the wavefront "
		       "counters show 0\n", r->wavefronts, r->wavefronts == 1 ? "" : "s");
		return;
	}
	for (int k = 0; k < r->nphase; k++) {
		const Phase *ph = &r->phase[k];
		printf("\nphase %d: %d wavefront%s (ideal %d)", k, ph->wavefronts,
		       ph->wavefronts == 1 ? "" : "s", ph->ideal);
		int count[64];
		sim_phase_banks(g, op, bytes, ph->lanes, addr, count);
		if (ph->wavefronts > 1) {
			char text[512];
			sim_conflict_text(count, g->banks, text, sizeof text);
			printf(": %s (distinct words)", text);
		}
		putchar('\n');
		for (int n = 0; n < WARP; n++) {
			if (!(ph->lanes >> n & 1))
				continue;
			int64_t w0 = addr[n] / g->bank_bytes;
			int64_t w1 = (addr[n] + bytes - 1) / g->bank_bytes;
			int b0 = (int)(w0 % g->banks), b1 = (int)(w1 % g->banks);
			bool hot = false;
			for (int64_t w = w0; w <= w1; w++)
				hot |= count[(int)(w % g->banks)] > 1;
			if (b0 == b1)
				printf("  lane %2d  byte %6lld  bank %2d%s\n", n,
				       (long long)addr[n], b0, hot ? "  <- conflict" : "");
			else
				printf("  lane %2d  byte %6lld  banks %2d-%-2d%s\n", n,
				       (long long)addr[n], b0, b1, hot ? "  <- conflict" : "");
		}
	}
}

static int sim_one(const Geom *g, const char *ops, const char *ws,
                   const char *offs, const char *masks)
{
	Op op;
	int w;
	uint32_t mask = 0xffffffffu;
	int64_t addr[WARP];
	const char *err;
	if (!tab_parse_op(ops, strlen(ops), &op))
		return cli_usage_error("unknown operation '%s'", ops);
	if ((err = parse_width(ws, &w)) || (err = parse_offsets(offs, addr)) ||
	    (masks && (err = parse_mask(masks, &mask))))
		return cli_usage_error("%s", err);
	SimResult r;
	if (!sim_inst(g, op, w, mask, addr, &r, &err))
		return cli_usage_error("%s", err);
	print_map(g, op, w, mask, addr, &r);
	return 0;
}

static void split_tabs(char *line, char **field, int *n)
{
	*n = 0;
	for (char *s = line;;) {
		if (*n < 7)
			field[*n] = s;
		++*n;
		char *t = strchr(s, '\t');
		if (!t)
			return;
		*t = 0;
		s = t + 1;
	}
}

int sim_parse_row(char *line, size_t len, SimRow *row, const char **err)
{
	while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		line[--len] = 0;
	if (len == 0 || line[0] == '#' || strncmp(line, "name\t", 5) == 0)
		return 1;
	if (len != strlen(line)) {
		*err = "null character in row";
		return -1;
	}
	char *field[7];
	int n;
	split_tabs(line, field, &n);
	memset(row, 0, sizeof *row);
	row->measured = -1;
	*err = NULL;
	if (n < 5 || n > 6)
		*err = "expected 5 or 6 tab-separated fields: name, op, width, "
		       "mask, offsets[, wavefronts]";
	else if (!*field[0])
		*err = "empty name";
	else if (!tab_parse_op(field[1], strlen(field[1]), &row->op))
		*err = "unknown operation";
	else if (!(*err = parse_width(field[2], &row->width)) &&
	         !(*err = parse_mask(field[3], &row->mask)) &&
	         !(*err = parse_offsets(field[4], row->addr)) && n == 6 &&
	         strcmp(field[5], "NA") != 0) {      /* NA: not measurable there */
		char *end;
		row->measured = strtol(field[5], &end, 10);
		if (!*field[5] || *end || row->measured < 0 ||
		    row->measured > 100000)
			*err = "measured wavefronts must be a non-negative integer";
	}
	row->name = field[0];
	return *err ? -1 : 0;
}

/* Bounded input: a table row is 32 offsets and a few fields, so a line
 * past SIM_MAX_LINE bytes, or a table past SIM_MAX_ROWS rows, is not one. */
enum { SIM_MAX_LINE = 1 << 16, SIM_MAX_ROWS = 1 << 20 };

/* One line of at most max bytes (its newline included) into buf, NULs
 * kept; 1 if the line is longer, -1 at the end of the input. */
static int read_line(FILE *f, char *buf, size_t max, size_t *len)
{
	size_t n = 0;
	int c;
	while ((c = getc(f)) != EOF) {
		if (n == max)
			return 1;
		buf[n++] = (char)c;
		if (c == '\n')
			break;
	}
	buf[n] = 0;
	*len = n;
	return n == 0 && c == EOF ? -1 : 0;
}

static int sim_table(const Geom *g, const char *path)
{
	bool is_stdin = strcmp(path, "-") == 0;
	const char *name = is_stdin ? "<stdin>" : path;
	FILE *f = is_stdin ? stdin : fopen(path, "r");
	if (f && !is_stdin)
		files_used_fd(fileno(f));
	if (!f) {
		fprintf(stderr, "bankc: error: cannot open '%s': %s\n", esc_shown(path),
		        strerror(errno));
		return 1;
	}
	char *line = xmalloc(SIM_MAX_LINE + 2);
	int lineno = 0, rows = 0, match = 0, differ = 0, unmeasured = 0;
	int malformed = 0;
	bool too_long = false, too_many = false;
	size_t len;
	int got;
	while ((got = read_line(f, line, SIM_MAX_LINE, &len)) != -1) {
		lineno++;
		if (got == 1) {
			fprintf(stderr, "%s:%d: error: line longer than %d bytes\n", esc_shown(name),
			        lineno, SIM_MAX_LINE);
			too_long = true;
			break;
		}
		if (lineno > SIM_MAX_ROWS) {
			fprintf(stderr, "%s: error: more than %d lines\n", name,
			        SIM_MAX_ROWS);
			too_many = true;
			break;
		}
		SimRow row;
		const char *err;
		int k = sim_parse_row(line, len, &row, &err);
		if (k == 1)
			continue;
		SimResult r;
		if (k == 0)
			sim_inst(g, row.op, row.width, row.mask, row.addr, &r, &err);
		if (err) {
			fprintf(stderr, "%s:%d: error: %s\n", esc_shown(name), lineno, err);
			malformed++;
			continue;
		}
		rows++;
		const char *verdict;
		long measured = row.measured;
		if (measured < 0)
			unmeasured++, verdict = "";
		else if (measured == r.counted)
			match++, verdict = "ok";
		else
			differ++, verdict = "DIFFERS";
		char ms[24] = "-";
		if (measured >= 0)
			snprintf(ms, sizeof ms, "%ld", measured);
		printf("%-32s predicted %3d  ideal %3d  measured %3s  %s\n",
		       row.name, r.counted, r.ideal, ms, verdict);
	}
	free(line);
	bool rerr = ferror(f);
	if (!is_stdin)
		fclose(f);
	if (rerr) {
		fprintf(stderr, "bankc: error: cannot read '%s'\n", esc_shown(path));
		return 1;
	}
	if (too_long || too_many)
		return 1;
	printf("%d rows, %d match, %d differ", rows, match, differ);
	if (unmeasured)
		printf(", %d unmeasured", unmeasured);
	putchar('\n');
	if (malformed)
		fprintf(stderr, "bankc: %d malformed row%s in '%s'\n", malformed,
		        malformed == 1 ? "" : "s", name);
	return differ || malformed ? 1 : 0;
}

int cmd_sim(int argc, char **argv)
{
	enum { O_TABLE = OPT_CMD, O_OP, O_WIDTH, O_OFFSETS, O_MASK };
	static const struct option lo[] = {
		{"table", required_argument, NULL, O_TABLE},
		{"op", required_argument, NULL, O_OP},
		{"width", required_argument, NULL, O_WIDTH},
		{"offsets", required_argument, NULL, O_OFFSETS},
		{"mask", required_argument, NULL, O_MASK},
		CLI_GEOM_OPTIONS, CLI_HELP_OPTION, {0}};
	Geom g = sim_geom_default;
	Cli cl = {"sim", argc, argv, ":h", lo, .geom = &g};
	const char *table = NULL, *op = NULL, *width = NULL, *offs = NULL,
	           *mask = NULL;
	char *arg;
	int ch, rc;
	while ((ch = cli_next(&cl, &arg, &rc)) != -1) {
		if (ch == CLI_STOP)
			return rc;
		const char **slot = ch == O_TABLE ? &table : ch == O_OP ? &op
		                  : ch == O_WIDTH ? &width : ch == O_OFFSETS ? &offs
		                  : ch == O_MASK ? &mask : NULL;
		if (slot)
			*slot = arg;
	}
	if (optind < argc)
		return cli_usage_error("unexpected argument '%s' for sim", argv[optind]);
	if (table && (op || width || offs || mask))
		return cli_usage_error("%s", "sim takes --table or --op, not both");
	if (table)
		return sim_table(&g, table);
	if (!op || !width || !offs)
		return cli_usage_error("%s", "sim needs --table FILE, or --op, --width "
		                       "and --offsets");
	return sim_one(&g, op, width, offs, mask);
}
