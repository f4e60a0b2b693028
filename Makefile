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

# every .c file at the top is part of the program; main() is in interbench.c
LIB_OBJS = $(filter-out interbench.o,$(patsubst %.c,%.o,$(sort $(wildcard *.c))))
OBJS = interbench.o $(LIB_OBJS)
UNIT_OBJS = $(patsubst %.c,%.o,$(sort $(wildcard tests/unit*.c)))
TEST_OBJS = $(UNIT_OBJS) tests/loadrun.o

all: interbench

interbench: $(OBJS)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(OBJS) $(LDLIBS)

tests/unit: $(UNIT_OBJS) $(LIB_OBJS)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(UNIT_OBJS) $(LIB_OBJS) $(LDLIBS)

tests/loadrun: tests/loadrun.o $(LIB_OBJS)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ tests/loadrun.o $(LIB_OBJS) $(LDLIBS)

%.o: %.c
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) $(ALL_CFLAGS) -I. -c -o $@ $<

test: interbench tests/unit tests/loadrun
	$(Q)tests/run.sh

# accuracy and overhead against cyclictest: about 7 minutes, not part of test
bench/steady: bench/steady.c
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< -lm

# the task CPU the wake-up split costs per period, its reads timed alone
bench/splitcost: bench/splitcost.c $(LIB_OBJS)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) -I. $(LDFLAGS) -o $@ $< $(LIB_OBJS) $(LDLIBS)

bench: interbench bench/steady bench/splitcost
	$(Q)bench/run.sh $(if $(PEER),--peer "$(PEER)")

install: interbench
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(COMPLETIONDIR)
	install -m 755 interbench $(DESTDIR)$(BINDIR)/interbench
	install -m 644 interbench.8 $(DESTDIR)$(MANDIR)/man8/interbench.8
	install -m 644 completion/interbench.bash $(DESTDIR)$(COMPLETIONDIR)/interbench

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/interbench $(DESTDIR)$(MANDIR)/man8/interbench.8 \
		$(DESTDIR)$(COMPLETIONDIR)/interbench

clean:
	rm -f interbench tests/unit tests/loadrun *.o *.d tests/*.o tests/*.d bench/steady bench/splitcost bench/*.d

.PHONY: all test bench install uninstall clean

-include $(OBJS:.o=.d) $(TEST_OBJS:.o=.d)
