#!/bin/sh
# Makes sure cmocka's header and library are present, installing libcmocka-dev where
# that is possible without asking (root, or sudo without a password, on Debian); on the
# BSDs and elsewhere it prints the command that installs it.
# The compiler is $CC, which may be several words (BSD make's "cc -pipe"); the arguments
# are extra flags (where the BSDs' packages put headers and libraries).
cc=${CC:-cc}
probe() {
	printf '%s\n' '#include <stdarg.h>' '#include <stddef.h>' '#include <stdint.h>' \
		'#include <setjmp.h>' '#include <cmocka.h>' \
		'static void t(void **s) { (void)s; }' \
		'int main(void) { const struct CMUnitTest ts[] = { cmocka_unit_test(t) };' \
		'return cmocka_run_group_tests(ts, NULL, NULL); }' |
		$cc "$@" -x c -o /dev/null - -lcmocka >/dev/null 2>&1
}
probe "$@" && exit 0
case $(uname -s) in
FreeBSD | DragonFly) install="pkg install -y cmocka" ;;
NetBSD) install="pkgin -y install cmocka   (or: cd /usr/pkgsrc/devel/cmocka && make install)" ;;
OpenBSD) install="pkg_add cmocka" ;;
Darwin) install="brew install cmocka" ;;
*) install="apt-get update && apt-get install -y --no-install-recommends libcmocka-dev" ;;
esac
if command -v apt-get >/dev/null 2>&1; then
	if [ "$(id -u)" = 0 ]; then
		echo "cmocka is missing: running '$install'" >&2
		(apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends libcmocka-dev) >&2
	elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
		echo "cmocka is missing: running 'sudo $install'" >&2
		(sudo apt-get update -q && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends libcmocka-dev) >&2
	fi
	probe "$@" && exit 0
fi
echo "vbench: the unit tests need cmocka. Install it with:" >&2
echo "    $install" >&2
exit 1
