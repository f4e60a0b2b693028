// SPDX-License-Identifier: GPL-2.0-or-later
/* tests/unit_core_stop.c - unit tests of the core: a stop told from three clocks' samples. */
#include "core/defs.h"
#include "core/stop.h"
#include "tests/unit.h"

#define S NSEC_PER_SEC
#define MS NSEC_PER_MSEC

static const struct {
	const char *what;
	struct clock_sample now;	/* against start (100 s, 150 s, 1e9 s) */
	uint64_t late;
	enum stop_kind want;
	uint64_t len;
} cases[] = {
	{ "nothing: 3 s on every clock", { 103 * S, 153 * S, 1000000003 * S }, 0, STOP_NONE, 0 },
	{ "a wait 0.9 s late is scheduling", { 103 * S, 153 * S, 1000000003 * S }, 900 * MS,
	  STOP_NONE, 0 },
	{ "a suspend: the boot clock 5 s ahead, the wall clock with it",
	  { 103 * S, 158 * S, 1000000008 * S }, 0, STOP_SUSPEND, 5 * S },
	{ "a paused VM whose clocks ran on: a wait 4 s late", { 107 * S, 157 * S,
	  1000000007 * S }, 4 * S, STOP_GAP, 4 * S },
	{ "a VM paused with its clocks, then told the time: the wall clock 30 s on",
	  { 103 * S, 153 * S, 1000000033 * S }, 0, STOP_WALL, 30 * S },
	{ "the wall clock set back 2 s", { 103 * S, 153 * S, 1000000001 * S }, 0, STOP_WALL,
	  2 * S },
	{ "the wall clock 0.5 s off: NTP's business", { 103 * S, 153 * S,
	  1000000003 * S + 500 * MS }, 0, STOP_NONE, 0 },
	{ "a suspend and a late wait: the suspend is told", { 103 * S, 160 * S, 1000000010 * S },
	  2 * S, STOP_SUSPEND, 7 * S },
};

static bool test_stop_cases(void)
{
	const struct clock_sample start = { 100 * S, 150 * S, 1000000000 * S };

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		uint64_t len;
		enum stop_kind k = stop_judge(&start, &cases[i].now, cases[i].late, &len);

		EXPECT(k == cases[i].want && len == cases[i].len, "%s: kind %d, %llu ns", cases[i].what,
		       k, (unsigned long long)len);
	}
	return true;
}

void unit_core_stop(void)
{
	check("stops: a suspend, a paused VM, a wall clock set, told from three clocks",
	      test_stop_cases());
}
