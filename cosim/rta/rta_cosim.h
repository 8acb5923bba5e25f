// rta_cosim.h - helpers shared by the RTA co-simulation harnesses (cosim_rta_*.cpp), on top of
// cosim/common/cosim.h:
// - bitmap ports of any Verilator width to and from uint8_t arrays (cosim/common/wide_port.h);
// - PE port views: the L/R (and U/D) word arrays of a fabric as plain uint32_t pointers, so one
//   template drives and compares rta_ring, rta_torus2d and the rta_system tops alike;
// - fixed-order comparison of word arrays and bitmaps that builds a signal name only on the
//   first mismatch (per-cycle cost stays a load and a compare per element);
// - a route-table cache keyed by bitmap, and the random bitmap generators (SRTA, ARTA walks,
//   raw, one-bit flips);
// - the hidden --inject-fault CYCLE option (removed from argv before Options::parse, so it is
//   not listed by --help): the harness flips bit 0 of the first expected value it compares in
//   that cycle, which must produce a FAIL line (tested by cosim/rta/check_fault_injection.sh).
#ifndef PINET_COSIM_RTA_COSIM_H
#define PINET_COSIM_RTA_COSIM_H

#include <cstdint>
#include <cstring>
#include <list>
#include <string>
#include <unordered_map>
#include <vector>

#include "cosim.h"
#include "pinet/rng.h"
#include "pinet/rta.h"
#include "pinet/status.h"
#include "verilated.h"

namespace pinet {
namespace cosim {
namespace rta {

// The hidden --inject-fault option: cosim/common/cosim.h.
using pinet::cosim::kNoFault;
using pinet::cosim::take_fault_option;
// Bitmap ports of any Verilator width: cosim/common/wide_port.h.
using pinet::cosim::get_bitmap;
using pinet::cosim::put_bitmap;

// ---- PE port views -----------------------------------------------------------------------

// in[p] / out[p] point at the Verilated word array of PE port p (0 = L, 1 = R, 2 = U, 3 = D);
// word i of the array is PE i's word (Width = 32).
struct PortView {
  unsigned ports = 0;
  uint32_t *in[4] = {nullptr, nullptr, nullptr, nullptr};
  const uint32_t *out[4] = {nullptr, nullptr, nullptr, nullptr};
};
static const char *const kOutName[4] = {"l_o", "r_o", "u_o", "d_o"};

template <class M>
inline PortView view_1d(M &m) {
  PortView v;
  v.ports = 2;
  v.in[0] = m.l_i.data();
  v.in[1] = m.r_i.data();
  v.out[0] = m.l_o.data();
  v.out[1] = m.r_o.data();
  return v;
}
template <class M>
inline PortView view_2d(M &m) {
  PortView v;
  v.ports = 4;
  v.in[0] = m.l_i.data();
  v.in[1] = m.r_i.data();
  v.in[2] = m.u_i.data();
  v.in[3] = m.d_i.data();
  v.out[0] = m.l_o.data();
  v.out[1] = m.r_o.data();
  v.out[2] = m.u_o.data();
  v.out[3] = m.d_o.data();
  return v;
}

// The view of a 1D (rta_ring, rta_system1d) or 2D (rta_torus2d, rta_system2d) top.
template <unsigned Dim, class M>
inline PortView view_of(M &m) {
  if constexpr (Dim == 1)
    return view_1d(m);
  else
    return view_2d(m);
}

// Drive the C model's port-major-per-PE array in[pe * ports + port] onto the DUT.
inline void drive_ports(const PortView &v, uint32_t pes, const uint32_t *in) {
  for (unsigned p = 0; p < v.ports; p++) {
    uint32_t *dst = v.in[p];
    for (uint32_t i = 0; i < pes; i++) dst[i] = in[(size_t)i * v.ports + p];
  }
}

// Compare every DUT output against expected[pe * ports + port] in the fixed order l_o[0..],
// r_o[0..], u_o[0..], d_o[0..]; the first difference goes to the scoreboard as e.g. "r_o[5]".
inline bool check_ports(Scoreboard &sb, uint64_t cycle, const PortView &v, uint32_t pes,
                        const uint32_t *expected) {
  // PINET_MISMATCH_JSON (mismatch_window.h): every port's value to the window, in check order.
  if (sb.window().on())
    for (unsigned p = 0; p < v.ports; p++)
      for (uint32_t i = 0; i < pes; i++)
        sb.window().record_indexed(cycle, kOutName[p], i, v.out[p][i],
                                   expected[(size_t)i * v.ports + p]);
  // Fast path: one branch-free pass in memory order; the ordered search only on a mismatch.
  uint32_t diff = 0;
  for (unsigned p = 0; p < v.ports; p++) {
    const uint32_t *dut = v.out[p];
    const uint32_t *e = expected + p;
    for (uint32_t i = 0; i < pes; i++) diff |= dut[i] ^ e[(size_t)i * v.ports];
  }
  if (diff == 0) return true;
  for (unsigned p = 0; p < v.ports; p++) {
    const uint32_t *dut = v.out[p];
    for (uint32_t i = 0; i < pes; i++) {
      const uint32_t e = expected[(size_t)i * v.ports + p];
      if (dut[i] != e)
        return sb.check(cycle, std::string(kOutName[p]) + "[" + std::to_string(i) + "]", dut[i], e);
    }
  }
  return true;
}

// Compare two bitmaps; the first differing bit is reported as "<name>[bit]".
inline bool check_bitmap(Scoreboard &sb, uint64_t cycle, const char *name, const uint8_t *dut,
                         const uint8_t *expected, unsigned n) {
  if (sb.window().on())  // PINET_MISMATCH_JSON (mismatch_window.h): every bit, in check order
    for (unsigned i = 0; i < n; i++)
      sb.window().record(cycle, std::string(name) + "[" + std::to_string(i) + "]", dut[i],
                         expected[i], sb.failed());
  if (std::memcmp(dut, expected, n) == 0) return true;
  for (unsigned i = 0; i < n; i++)
    if (dut[i] != expected[i])
      return sb.check(cycle, std::string(name) + "[" + std::to_string(i) + "]", dut[i], expected[i]);
  return true;
}

// A C model call that must succeed: a failure is reported as signal "cmodel:<what>" with the
// status code as the DUT value (expected 0 = PINET_OK).
inline bool model_ok(Scoreboard &sb, uint64_t cycle, const char *what, pinet_status st) {
  if (st == PINET_OK) return true;
  return sb.check(cycle, std::string("cmodel:") + what, (uint64_t)st, 0);
}

// ---- route tables ------------------------------------------------------------------------

// pinet_rta_route tables by bitmap, least recently used dropped beyond `capacity` entries.
class RouteCache {
 public:
  RouteCache(const pinet_rta_geom &geom, size_t capacity) : geom_(geom), capacity_(capacity) {}

  // The table for `bits`; nullptr if pinet_rta_route failed (*st says why).
  const pinet_rta_port_ref *get(const uint8_t *bits, pinet_status *st) {
    std::string key(reinterpret_cast<const char *>(bits), geom_.switches);
    auto it = map_.find(key);
    *st = PINET_OK;
    if (it != map_.end()) {
      lru_.splice(lru_.begin(), lru_, it->second);
      hits_++;
      return it->second->table.data();
    }
    misses_++;
    Entry e;
    e.key = key;
    e.table.resize((size_t)geom_.pes * geom_.ports_per_pe);
    *st = pinet_rta_route(&geom_, bits, e.table.data());
    if (*st != PINET_OK) return nullptr;
    lru_.push_front(std::move(e));
    map_[key] = lru_.begin();
    if (map_.size() > capacity_) {
      map_.erase(lru_.back().key);
      lru_.pop_back();
    }
    return lru_.front().table.data();
  }
  uint64_t hits() const { return hits_; }
  uint64_t misses() const { return misses_; }

 private:
  struct Entry {
    std::string key;
    std::vector<pinet_rta_port_ref> table;
  };
  pinet_rta_geom geom_;
  size_t capacity_;
  std::list<Entry> lru_;
  std::unordered_map<std::string, std::list<Entry>::iterator> map_;
  uint64_t hits_ = 0, misses_ = 0;
};

// ---- random bitmaps ----------------------------------------------------------------------

// Uniform random bits, or (one time in three) sparse or dense ones.
inline void random_raw_bitmap(pinet_rng *rng, unsigned n, uint8_t *bits) {
  const uint64_t shape = pinet_rng_below(rng, 6);
  for (unsigned i = 0; i < n; i++) {
    const uint64_t r = pinet_rng_below(rng, 8);
    if (shape == 0)
      bits[i] = r == 0;  // sparse: ~1/8 ON
    else if (shape == 1)
      bits[i] = r != 0;  // dense: ~7/8 ON
    else
      bits[i] = (uint8_t)(r & 1u);
  }
}

// Apply `edits` random ARTA edits (node 1..nodes, ON or OFF) to a legal ARTA state in place.
inline pinet_status random_arta_walk(const pinet_rta_geom &geom, pinet_rng *rng, unsigned edits,
                                     uint8_t *bits) {
  for (unsigned e = 0; e < edits; e++) {
    const uint32_t node = 1 + (uint32_t)pinet_rng_below(rng, geom.nodes);
    const int on = (int)pinet_rng_below(rng, 2);
    pinet_status st = pinet_rta_arta_apply(&geom, node, on, bits);
    if (st != PINET_OK) return st;
  }
  return PINET_OK;
}

// The ARTA node of every bitmap bit: 1D the switch's paper address [j] (one switch per node),
// 2D the switching class (whole classes switch together). Used to build class-uniform bitmaps,
// whose legality then hinges on the ancestor rule alone.
class NodeMap {
 public:
  pinet_status init(const pinet_rta_geom &geom) {
    node_.assign(geom.switches, 0);
    nodes_ = geom.nodes;
    for (uint32_t b = 0; b < geom.switches; b++) {
      pinet_status st = geom.dim == 1 ? pinet_rta_switch_address(&geom, b, &node_[b])
                                      : pinet_rta_class_of_bit(&geom, b, &node_[b]);
      if (st != PINET_OK) return st;
      if (node_[b] < 1 || node_[b] > nodes_) return PINET_ERR_RANGE;
    }
    return PINET_OK;
  }
  // Every node ON or OFF at random (ON with probability on_percent / 100).
  void random_uniform(pinet_rng *rng, unsigned on_percent, uint8_t *bits) const {
    std::vector<uint8_t> on(nodes_ + 1);
    for (uint32_t n = 1; n <= nodes_; n++) on[n] = pinet_rng_below(rng, 100) < on_percent;
    for (size_t b = 0; b < node_.size(); b++) bits[b] = on[node_[b]];
  }
  // Invert every bit of one random node (a whole class in 2D).
  void flip_node(pinet_rng *rng, uint8_t *bits) const {
    const uint32_t n = 1 + (uint32_t)pinet_rng_below(rng, nodes_);
    for (size_t b = 0; b < node_.size(); b++)
      if (node_[b] == n) bits[b] ^= 1u;
  }

 private:
  std::vector<uint32_t> node_;
  uint32_t nodes_ = 0;
};

// Random 32-bit words, two per PRNG draw.
inline void random_words(pinet_rng *rng, size_t n, uint32_t *w) {
  size_t i = 0;
  for (; i + 1 < n; i += 2) {
    const uint64_t r = pinet_rng_next(rng);
    w[i] = (uint32_t)r;
    w[i + 1] = (uint32_t)(r >> 32);
  }
  if (i < n) w[i] = (uint32_t)pinet_rng_next(rng);
}

}  // namespace rta
}  // namespace cosim
}  // namespace pinet

#endif  // PINET_COSIM_RTA_COSIM_H
