# vbench: one binary, libc only. See README.md.
VERSION   = 0.1.0
CC       ?= cc
CFLAGS   ?= -O2 -g
WARN      = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
STD       = -std=c11
CPPFLAGS += -Iinclude -DVB_VERSION='"$(VERSION)"' -D_FILE_OFFSET_BITS=64
LDLIBS   += -lm -lpthread
PREFIX   ?= /usr/local
BINDIR   ?= $(PREFIX)/bin
MANPREFIX ?= $(PREFIX)/share/man
BUILD    ?= build

SRCS      = $(wildcard src/*.c)
LIB_OBJS  = $(patsubst src/%.c,$(BUILD)/%.o,$(filter-out src/main.c,$(SRCS)))
TEST_SRCS = $(wildcard tests/test_*.c)
TESTS     = $(patsubst tests/%.c,$(BUILD)/%,$(TEST_SRCS))
HEADERS   = $(wildcard include/*.h src/*.h)

ALL_CFLAGS = $(STD) $(WARN) $(CFLAGS)

.PHONY: all test unit-test system-test asan valgrind install uninstall clean static \
	vmtest cross-macos fuzz check-cmocka man-check

all: vbench

vbench: $(BUILD)/vbench
	cp $(BUILD)/vbench $@

$(BUILD)/vbench: $(BUILD)/main.o $(LIB_OBJS)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/%.o: src/%.c $(HEADERS) | $(BUILD)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD):
	mkdir -p $(BUILD)

# Unit tests link the library objects (everything but main.c) with cmocka.
$(BUILD)/test_%: tests/test_%.c tests/vb_test.h $(LIB_OBJS) $(HEADERS)
	$(CC) $(CPPFLAGS) -Itests $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(LIB_OBJS) -lcmocka $(LDLIBS)

check-cmocka:
	@sh tests/ensure-cmocka.sh "$(CC)"

test: check-cmocka
	@$(MAKE) --no-print-directory unit-test system-test

unit-test: $(TESTS) $(BUILD)/vbench
	@sh tests/run-unit.sh $(TESTS)

system-test: $(BUILD)/vbench
	@VBENCH=$(abspath $(BUILD)/vbench) sh tests/system/run.sh

# The whole suite under AddressSanitizer and UndefinedBehaviorSanitizer.
asan: check-cmocka
	@$(MAKE) --no-print-directory BUILD=build/asan \
		CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
		LDFLAGS="-fsanitize=address,undefined" unit-test system-test

# The unit tests and the system tests under valgrind memcheck.
valgrind: check-cmocka
	@$(MAKE) --no-print-directory BUILD=build/vg CFLAGS="-O0 -g" $(patsubst $(BUILD)/%,build/vg/%,$(TESTS)) build/vg/vbench
	@VALGRIND=1 sh tests/run-unit.sh $(patsubst $(BUILD)/%,build/vg/%,$(TESTS))
	@VALGRIND=1 VBENCH=$(abspath build/vg/vbench) sh tests/system/run.sh

static:
	@sh tests/vm/build-static.sh

vmtest: static
	@sh tests/vm/run.sh

cross-macos:
	@sh tests/cross/macos.sh

fuzz:
	@sh tests/fuzz/run.sh

man-check:
	@groff -mdoc -ww -z man/vbench.1

install: vbench
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANPREFIX)/man1
	cp vbench $(DESTDIR)$(BINDIR)/vbench
	chmod 755 $(DESTDIR)$(BINDIR)/vbench
	cp man/vbench.1 $(DESTDIR)$(MANPREFIX)/man1/vbench.1
	chmod 644 $(DESTDIR)$(MANPREFIX)/man1/vbench.1

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/vbench $(DESTDIR)$(MANPREFIX)/man1/vbench.1

clean:
	rm -rf build vbench vbench-static
