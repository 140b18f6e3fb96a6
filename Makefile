# vbench: one binary, libc only. See README.md.
#
# GNU make (4.0 and later) and BSD make (bmake, the make of FreeBSD, DragonFly and
# NetBSD) both read this file: no pattern rules, no GNU functions, and the lists come
# from the shell with "!=". Every .c file under src/ is compiled on every system; the
# files of the platform layer (src/os/) are empty except on their own system.
VERSION   = 0.2.0
CC       ?= cc
CFLAGS   ?= -O2 -g
WARN      = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
STD       = -std=c11
VB_CPPFLAGS = -Iinclude -DVB_VERSION='"$(VERSION)"' \
	-D_FILE_OFFSET_BITS=64
LIBS      = -lm -lpthread
PREFIX   ?= /usr/local
BINDIR   ?= $(PREFIX)/bin
MANPREFIX ?= $(PREFIX)/share/man
BUILD    ?= build

LIB_SRCS  != find src -name '*.c' ! -name main.c | LC_ALL=C sort
SEAM_SRCS != grep -l VB_TEST_SEAMS $(LIB_SRCS)
HEADERS   != find include src -name '*.h' | LC_ALL=C sort
TEST_SRCS != ls tests/test_*.c
TESTS     != ls tests/test_*.c | sed 's|^tests/|$(BUILD)/|; s|\.c$$||'
VB_CFLAGS = $(VB_CPPFLAGS) $(CPPFLAGS) $(STD) $(WARN) $(CFLAGS)
# Where the BSDs' packages put cmocka (ports and dports: /usr/local; pkgsrc: /usr/pkg);
# harmless where those directories do not exist.
TEST_LIBDIRS = -I/usr/local/include -I/usr/pkg/include -L/usr/local/lib -L/usr/pkg/lib \
	-Wl,-rpath,/usr/local/lib -Wl,-rpath,/usr/pkg/lib

.PHONY: all test unit-test system-test asan valgrind install uninstall clean static \
	vmtest cross-macos cross-bsd windows windows-test fuzz check-cmocka man-check \
	check-layers mutate mutate-quick bench dist

all: vbench

vbench: $(BUILD)/vbench
	cp $(BUILD)/vbench vbench

$(BUILD)/vbench: $(BUILD)/libvbench.a $(BUILD)/main.o
	$(CC) $(VB_CFLAGS) $(LDFLAGS) -o $(BUILD)/vbench $(BUILD)/main.o $(BUILD)/libvbench.a \
		$(LIBS)

$(BUILD)/main.o: src/main.c $(HEADERS)
	@mkdir -p $(BUILD)
	$(CC) $(VB_CFLAGS) -c -o $(BUILD)/main.o src/main.c

# One rule per object, so that make -j compiles them side by side; an object is rebuilt
# when its source or any header is newer. Neither make can write such rules from a list
# (no pattern rules, no GNU functions), so the shell writes them, from the same list of
# sources, into $(BUILD)/objs.mk whenever the archive is out of date, and a second make
# reads them beside this file: a source added or removed needs no list kept by hand.
$(BUILD)/libvbench.a: $(LIB_SRCS) $(HEADERS)
	@mkdir -p $(BUILD)/obj
	@objs=""; \
	for f in $(LIB_SRCS); do \
		o=$(BUILD)/obj/`echo $$f | sed 's|^src/||; s|/|_|g; s|\.c$$|.o|'`; \
		objs="$$objs $$o"; \
		printf '%s: %s $$(HEADERS)\n\t@echo "$$(CC) -c %s"\n\t@$$(CC) $$(VB_CFLAGS) -c -o %s %s\n' \
			$$o $$f $$f $$o $$f; \
	done >$(BUILD)/objs.mk; \
	printf '.PHONY: vb-archive\nvb-archive:%s\n\t@echo "ar rcs %s"\n\t@rm -f %s\n\t@ar rcs %s%s\n' \
		"$$objs" $@ $@ $@ "$$objs" >>$(BUILD)/objs.mk
	@$(MAKE) -f Makefile -f $(BUILD)/objs.mk vb-archive

# The unit tests' copy of the library: the sources with hooks for tests (those that name
# VB_TEST_SEAMS) compiled again with it, their objects put in place of vbench's, so that
# vbench itself carries none of those hooks. VB_TEST_SEAMS changes no struct that other
# objects see.
$(BUILD)/libvbench-test.a: $(BUILD)/libvbench.a $(SEAM_SRCS) $(HEADERS)
	@mkdir -p $(BUILD)/seams
	@objs=""; \
	for f in $(SEAM_SRCS); do \
		o=$(BUILD)/seams/`echo $$f | sed 's|^src/||; s|/|_|g; s|\.c$$|.o|'`; \
		echo "$(CC) -DVB_TEST_SEAMS -c $$f"; \
		$(CC) $(VB_CFLAGS) -DVB_TEST_SEAMS -c -o $$o $$f || exit 1; \
		objs="$$objs $$o"; \
	done; \
	rm -f $@ && cp $(BUILD)/libvbench.a $@ && ar rcs $@ $$objs

# Unit tests link that library (everything but main.c) with cmocka.
$(TESTS): $(BUILD)/libvbench-test.a $(TEST_SRCS) tests/vb_test.h
	$(CC) $(VB_CFLAGS) -DVB_TEST_SEAMS -Itests $(TEST_LIBDIRS) $(LDFLAGS) -o $@ \
		tests/`basename $@`.c $(BUILD)/libvbench-test.a -lcmocka $(LIBS)

check-cmocka:
	@CC="$(CC)" sh tests/ensure-cmocka.sh $(TEST_LIBDIRS)

test: check-cmocka
	@$(MAKE) BUILD=$(BUILD) unit-test system-test check-layers

unit-test: $(TESTS) $(BUILD)/vbench
	@sh tests/run-unit.sh $(TESTS)

system-test: $(BUILD)/vbench
	@VBENCH=`pwd`/$(BUILD)/vbench sh tests/system/run.sh

# Calls and includes go down the layers, no cycle, no operating system named outside the
# platform layer, whose symbols are all vb_os_*, no hook for tests in vbench; and the
# check fails on planted violations.
check-layers: $(BUILD)/libvbench.a $(BUILD)/main.o $(BUILD)/libvbench-test.a
	@sh tests/tools/check-layers.sh $(BUILD)/libvbench.a $(BUILD)/main.o
	@CC="$(CC)" sh tests/tools/test-check-layers.sh $(BUILD)/libvbench.a $(BUILD)/main.o \
		"$(VB_CFLAGS)" $(BUILD)/libvbench-test.a

# The whole suite under AddressSanitizer and UndefinedBehaviorSanitizer.
asan: check-cmocka
	@VB_UNDER_TOOL=asan $(MAKE) BUILD=build/asan \
		CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
		LDFLAGS="-fsanitize=address,undefined" unit-test system-test

# The unit tests and the system tests under valgrind memcheck.
valgrind: check-cmocka
	@$(MAKE) BUILD=build/vg CFLAGS="-O0 -g" build/vg/vbench
	@$(MAKE) BUILD=build/vg CFLAGS="-O0 -g" `echo $(TESTS) | sed 's|$(BUILD)/|build/vg/|g'`
	@VALGRIND=1 sh tests/run-unit.sh `echo $(TESTS) | sed 's|$(BUILD)/|build/vg/|g'`
	@VALGRIND=1 VBENCH=`pwd`/build/vg/vbench sh tests/system/run.sh

static:
	@sh tests/vm/build-static.sh

vmtest: static
	@sh tests/vm/run.sh

cross-macos:
	@sh tests/cross/macos.sh

# Every source compiled for FreeBSD, DragonFly and NetBSD against their headers.
cross-bsd:
	@sh tests/cross/bsd.sh

# vbench.exe (x86-64) and vbench32.exe (i686) for Windows XP to 11 (MinGW-w64), and
# their tests under Wine.
windows:
	@sh tests/windows/build.sh

windows-test: windows
	@sh tests/windows/run.sh

fuzz:
	@sh tests/fuzz/run.sh

# One-line mutations of the code, each of which the tests must catch.
mutate:
	@sh tests/mutate/run.sh

mutate-quick:
	@MUTATE_QUICK=1 sh tests/mutate/run.sh

bench:
	@sh bench/compare.sh

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

# The source tarball, for machines without git: the tracked tree when this is a git
# checkout, else the source directories as they are.
dist:
	@rm -rf $(BUILD)/dist && mkdir -p $(BUILD)/dist/vbench-$(VERSION)
	@if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then \
		git ls-files | tar cf - -T - | (cd $(BUILD)/dist/vbench-$(VERSION) && tar xf -); \
	else \
		tar cf - Makefile README.md LICENSE src include tests man bench docs .ci | \
			(cd $(BUILD)/dist/vbench-$(VERSION) && tar xf -); \
	fi
	@(cd $(BUILD)/dist && tar cf - vbench-$(VERSION)) | gzip -9 >vbench-$(VERSION).tar.gz
	@echo "dist: vbench-$(VERSION).tar.gz"

clean:
	rm -rf build vbench vbench-static vbench.exe vbench32.exe vbench-*.tar.gz
