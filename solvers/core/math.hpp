// The project's one pi, and small numerical constants shared by every paper.
#pragma once

#include <numbers>

namespace cm {

inline constexpr double pi = std::numbers::pi;

}  // namespace cm
