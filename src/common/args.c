#include "vb_args.h"

bool vb_arg_is_option(const char *a)
{
	return a[0] == '-' && (a[1] == '-' || (a[1] >= 'a' && a[1] <= 'z') ||
			       (a[1] >= 'A' && a[1] <= 'Z'));
}
