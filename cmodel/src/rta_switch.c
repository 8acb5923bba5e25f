/* rta_switch.c - cycle-level model of rtl/rta_switch.sv (combinational). */
#include "pinet/rta.h"

void pinet_rta_switch_eval(int on, const uint32_t in[4], uint32_t out[4]) {
  /* Terminal indices 0..3 are the paper's terminals 1..4. */
  if (on) {
    out[0] = in[1]; /* 1 <-> 2 */
    out[1] = in[0];
    out[2] = in[3]; /* 3 <-> 4 */
    out[3] = in[2];
  } else {
    out[0] = in[2]; /* 1 <-> 3 */
    out[2] = in[0];
    out[1] = in[3]; /* 2 <-> 4 */
    out[3] = in[1];
  }
}
