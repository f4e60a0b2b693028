# SPDX-License-Identifier: GPL-2.0-or-later
# interbench - build, test, install.

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
COMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions
DESTDIR ?=

CFLAGS ?= -O2 -g
LDFLAGS ?=
WARNINGS = -Wall -Wextra -Wshadow -Wformat=2 -Wmissing-prototypes -Wstrict-prototypes
override ALL_CFLAGS = -std=gnu11 -pthread -MMD -MP $(WARNINGS) $(CFLAGS)
LDLIBS = -pthread -lrt -lm

ifeq ($(V),1)
Q =
else
Q = @
endif

# The sources are under src/, a folder per part (doc/hacking.md: the layout).
# Every object and test program is built under build/, never beside its
# source; `make` still leaves ./interbench at the top, where users run it.
# Each file includes its headers by folder ("core/stats.h"): -Isrc only.
B = build
SRCS = $(sort $(wildcard src/*/*.c))
CORE_SRCS = $(sort $(wildcard src/core/*.c))
MAIN_OBJ = $(B)/run/main.o
OBJS = $(patsubst src/%.c,$(B)/%.o,$(SRCS))
LIB_OBJS = $(filter-out $(MAIN_OBJ),$(OBJS))
CORE_OBJS = $(patsubst src/%.c,$(B)/%.o,$(CORE_SRCS))
# the unit tests of the core link the core alone; the rest link the program
CORE_TEST_SRCS = $(sort $(wildcard tests/unit_core*.c))
UNIT_SRCS = $(filter-out $(CORE_TEST_SRCS),$(sort $(wildcard tests/unit*.c)))
UNIT_OBJS = $(patsubst %.c,$(B)/%.o,$(UNIT_SRCS))
CORE_TEST_OBJS = $(patsubst %.c,$(B)/%.o,$(CORE_TEST_SRCS)) $(B)/tests/unit.o
TEST_OBJS = $(UNIT_OBJS) $(CORE_TEST_OBJS) $(B)/tests/loadrun.o $(B)/tests/rtapprun.o
TEST_PROGS = $(B)/tests/unit $(B)/tests/unit-core $(B)/tests/loadrun $(B)/tests/rtapprun

all: interbench

interbench: $(OBJS)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(OBJS) $(LDLIBS)

$(B)/tests/unit: $(UNIT_OBJS) $(LIB_OBJS)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(UNIT_OBJS) $(LIB_OBJS) $(LDLIBS)

# libc and libm alone: a core that reached outside src/core/ does not link
$(B)/tests/unit-core: $(CORE_TEST_OBJS) $(CORE_OBJS)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(CORE_TEST_OBJS) $(CORE_OBJS) -lm

$(B)/tests/loadrun: $(B)/tests/loadrun.o $(LIB_OBJS)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(B)/tests/loadrun.o $(LIB_OBJS) $(LDLIBS)

$(B)/tests/rtapprun: $(B)/tests/rtapprun.o $(LIB_OBJS)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(B)/tests/rtapprun.o $(LIB_OBJS) $(LDLIBS)

$(B)/%.o: src/%.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) $(ALL_CFLAGS) -Isrc -c -o $@ $<

$(B)/tests/%.o: tests/%.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) $(ALL_CFLAGS) -Isrc -I. -c -o $@ $<

$(B)/bench/%.o: bench/%.c
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) $(ALL_CFLAGS) -Isrc -I. -c -o $@ $<

unit: $(B)/tests/unit $(B)/tests/unit-core

# The programs the tests run, built on every CPU even by a plain `make test`
# (a -j given to make is kept), then the suite.
BUILD_JOBS = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(shell nproc 2>/dev/null || echo 1))
test:
	$(Q)$(MAKE) --no-print-directory $(BUILD_JOBS) interbench $(TEST_PROGS) $(B)/bench/steady
	$(Q)tests/run.sh

# make bench: accuracy, overhead, phase, verdicts and rt-app (about an hour), not part of test
$(B)/bench/steady: $(B)/bench/steady.o
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< -lm

# the reference the tasks' latency is held against: a plain thread on its own timer
$(B)/bench/timerref: $(B)/bench/timerref.o
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $<

# the task CPU the wake-up split costs per period, its reads timed alone
$(B)/bench/splitcost: $(B)/bench/splitcost.o $(LIB_OBJS)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(LIB_OBJS) $(LDLIBS)

# n10%, the interval and the exact p, held to runs simulated from known laws: the core alone
$(B)/bench/verdictsim: $(B)/bench/verdictsim.o $(CORE_OBJS)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(CORE_OBJS) -lm

bench: interbench $(B)/bench/steady $(B)/bench/splitcost $(B)/bench/timerref $(B)/tests/loadrun \
		$(B)/bench/verdictsim
	$(Q)bench/run.sh $(if $(PEER),--peer "$(PEER)")
	$(Q)bench/wake.sh
	$(Q)bench/phase.sh
	$(Q)bench/rtapp.sh
	$(Q)bench/verdicts.sh

install: interbench
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(COMPLETIONDIR)
	install -m 755 interbench $(DESTDIR)$(BINDIR)/interbench
	install -m 644 interbench.8 $(DESTDIR)$(MANDIR)/man8/interbench.8
	install -m 644 completion/interbench.bash $(DESTDIR)$(COMPLETIONDIR)/interbench

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/interbench $(DESTDIR)$(MANDIR)/man8/interbench.8 \
		$(DESTDIR)$(COMPLETIONDIR)/interbench

clean:
	rm -rf interbench $(B)

.PHONY: all unit test bench install uninstall clean

-include $(OBJS:.o=.d) $(TEST_OBJS:.o=.d) $(B)/bench/steady.d $(B)/bench/splitcost.d \
	$(B)/bench/timerref.d $(B)/bench/verdictsim.d
