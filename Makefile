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

LIB_OBJS = util.o options.o stats.o sim.o calibrate.o loads.o report.o sysinfo.o \
	compare.o plot.o results.o
OBJS = interbench.o $(LIB_OBJS)
TEST_OBJS = tests/unit.o

all: interbench

interbench: $(OBJS)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(OBJS) $(LDLIBS)

tests/unit: $(TEST_OBJS) $(LIB_OBJS)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(TEST_OBJS) $(LIB_OBJS) $(LDLIBS)

%.o: %.c
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) $(ALL_CFLAGS) -I. -c -o $@ $<

test: interbench tests/unit
	$(Q)tests/run.sh

install: interbench
	install -d $(DESTDIR)$(BINDIR)
	install -m 755 interbench $(DESTDIR)$(BINDIR)/interbench

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/interbench

clean:
	rm -f interbench tests/unit *.o *.d tests/*.o tests/*.d

.PHONY: all test install uninstall clean

-include $(OBJS:.o=.d) $(TEST_OBJS:.o=.d)
