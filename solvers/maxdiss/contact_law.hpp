// The two contact laws paper 001 compares, named once for every study of it: the conventional
// Coulomb law of the time-stepping schemes and the maximum dissipation law of Eq. (5).
#pragma once

#include <array>
#include <cstddef>
#include <utility>

namespace md {

/// A contact law. Its value is the `law` column of the data files (0 Coulomb, 1 maximum
/// dissipation), and its name is the one of keys, file names and scalars (name()).
enum class ContactLaw : int { coulomb = 0, maxdiss = 1 };

/// Both, in the order of their values.
inline constexpr std::array<ContactLaw, 2> contact_laws{ContactLaw::coulomb, ContactLaw::maxdiss};

/// "coulomb" or "maxdiss".
constexpr const char* name(ContactLaw law) { return law == ContactLaw::coulomb ? "coulomb" : "maxdiss"; }

/// The other law.
constexpr ContactLaw other(ContactLaw law) {
  return law == ContactLaw::coulomb ? ContactLaw::maxdiss : ContactLaw::coulomb;
}

/// One T per law, indexed by the law.
template <class T>
struct PerLaw {
  std::array<T, 2> values{};
  T& operator[](ContactLaw law) { return values[static_cast<std::size_t>(law)]; }
  const T& operator[](ContactLaw law) const { return values[static_cast<std::size_t>(law)]; }
};

}  // namespace md
