/* SPDX-License-Identifier: GPL-2.0-or-later */
/* output/sbuf.h - the string buffer's old name, kept only while output/verdict.h includes it:
 * the buffer is lib/sbuf.h's. */
#include "lib/sbuf.h"
