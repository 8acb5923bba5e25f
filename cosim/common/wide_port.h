// wide_port.h - bit and 32-bit-word access to the ports of a Verilated model, whatever type
// Verilator gives a port of that width, for every harness (cosim/common/cosim.h includes it):
//   - integers: CData, SData, IData, QData of the C++ models (up to 64 bits), and bool, uint32_t,
//     uint64_t of the SystemC models;
//   - VlWide<W>: a C++ model's port above 64 bits, W 32-bit words, word 0 the least significant;
//   - sc_bv<W>: a SystemC model's port above 64 bits (any type with get_word/set_word members
//     and a bit reference with to_bool(): this header does not include SystemC).
// Bit i is bit i of the packed port; word i is bits [32 i +: 32] (a packed [N-1:0][31:0] array's
// element i). A word or bit beyond an integer's width reads 0 and is not written.
//
//   get_bit(port, i), set_bit(port, i, v)      one bit
//   get_word(port, i), set_word(port, i, w)    one 32-bit word
//   clear_bits(port)                           every bit 0 (integers, VlWide)
//   put_bitmap(port, bits, n), get_bitmap(port, bits, n)
//                                              bits 0 .. n-1 to and from a uint8_t array (one
//                                              0/1 per element); put_bitmap clears the bits above
//                                              n (Verilator requires a wide port's unused bits 0)
#ifndef PINET_COSIM_WIDE_PORT_H
#define PINET_COSIM_WIDE_PORT_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "verilated.h"

namespace pinet {
namespace cosim {

// ---- integers (up to 64 bits) --------------------------------------------------------------

template <class T>
using if_integral = typename std::enable_if<std::is_integral<T>::value, int>::type;

template <class T, if_integral<T> = 0>
inline bool get_bit(T port, unsigned i) {
  return i < 64 && (((uint64_t)port >> i) & 1u);
}
template <class T, if_integral<T> = 0>
inline void set_bit(T &port, unsigned i, bool v) {
  if (i >= 64) return;
  const uint64_t m = (uint64_t)1 << i;
  port = (T)(v ? ((uint64_t)port | m) : ((uint64_t)port & ~m));
}
template <class T, if_integral<T> = 0>
inline uint32_t get_word(T port, unsigned i) {
  return i < 2 ? (uint32_t)((uint64_t)port >> (32 * i)) : 0u;
}
template <class T, if_integral<T> = 0>
inline void set_word(T &port, unsigned i, uint32_t v) {
  if (i >= 2) return;
  const uint64_t m = (uint64_t)0xffffffffu << (32 * i);
  port = (T)(((uint64_t)port & ~m) | ((uint64_t)v << (32 * i)));
}
template <class T, if_integral<T> = 0>
inline void clear_bits(T &port) {
  port = 0;
}

// ---- VlWide<W> -----------------------------------------------------------------------------

template <std::size_t W>
inline bool get_bit(const VlWide<W> &port, unsigned i) {
  return (port.data()[i / 32] >> (i % 32)) & 1u;
}
template <std::size_t W>
inline void set_bit(VlWide<W> &port, unsigned i, bool v) {
  const uint32_t m = 1u << (i % 32);
  if (v)
    port.data()[i / 32] |= m;
  else
    port.data()[i / 32] &= ~m;
}
template <std::size_t W>
inline uint32_t get_word(const VlWide<W> &port, unsigned i) {
  return port.data()[i];
}
template <std::size_t W>
inline void set_word(VlWide<W> &port, unsigned i, uint32_t v) {
  port.data()[i] = v;
}
template <std::size_t W>
inline void clear_bits(VlWide<W> &port) {
  std::fill(port.data(), port.data() + W, 0u);
}

// ---- sc_bv<W> and the like (get_word/set_word members, port[i].to_bool()) ----------------------

template <class T>
inline auto get_bit(const T &port, unsigned i) -> decltype(port[i].to_bool()) {
  return port[i].to_bool();
}
template <class T>
inline auto set_bit(T &port, unsigned i, bool v) -> decltype(port[i] = v, void()) {
  port[i] = v;
}
template <class T>
inline auto get_word(const T &port, unsigned i) -> decltype((uint32_t)port.get_word(i)) {
  return (uint32_t)port.get_word(i);
}
template <class T>
inline auto set_word(T &port, unsigned i, uint32_t v) -> decltype(port.set_word(i, v), void()) {
  port.set_word(i, v);
}

// ---- bitmaps -------------------------------------------------------------------------------

template <class T>
inline void put_bitmap(T &port, const uint8_t *bits, unsigned n) {
  clear_bits(port);
  for (unsigned i = 0; i < n; i++)
    if (bits[i] & 1u) set_bit(port, i, true);
}
template <class T>
inline void get_bitmap(const T &port, uint8_t *bits, unsigned n) {
  for (unsigned i = 0; i < n; i++) bits[i] = (uint8_t)get_bit(port, i);
}

}  // namespace cosim
}  // namespace pinet

#endif  // PINET_COSIM_WIDE_PORT_H
