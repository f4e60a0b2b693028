/* SPDX-License-Identifier: GPL-2.0-or-later */
/* core/render_work.h - Render's frame k needs 20 % to 80 % of the frame and back over 120
 * frames. */
#ifndef CORE_RENDER_WORK_H
#define CORE_RENDER_WORK_H

#include <stdint.h>

#define RENDER_SWEEP 120
uint64_t render_work_ns(uint64_t period_num, uint64_t period_den, uint64_t k);

#endif
