// The bodies of the hard-contact engine (engine.hpp): the spheres, as a structure of arrays, and
// the boundaries of infinite mass (planes, the channel's obstacle), and the box the cell grid of
// detection covers.
#pragma once

#include <Eigen/Dense>
#include <cstdint>
#include <vector>

namespace md::granular {

using Eigen::Vector3d;

/// What a sweep reads of a sphere, in one cache line: its velocity v and angular velocity w
/// (inertial), which the relaxation of a contact changes, and the inverse mass and inertia that
/// scale the change. The relaxation of a contact reads and writes two lines, not four, and a
/// block of contacts in vector lanes takes the inverse mass and inertia from the lines it loads
/// anyway (block_kernels.hpp) instead of from a copy per contact. The spheres keep them so (the only
/// copy of 1/m and 1/I), and the sweeps work on the velocities in place.
struct alignas(64) Velocities {
  Vector3d v, w;
  double inv_m = 0.0, inv_I = 0.0;  ///< 1/m, 1/I
};

/// Monodisperse or not, every body is a solid sphere (I = 2/5 m R^2).
struct Spheres {
  std::vector<Vector3d> x;        ///< centre
  std::vector<Velocities> vw;     ///< velocity and angular velocity, 1/m and 1/I
  std::vector<double> R;          ///< radius
  std::vector<std::uint64_t> id;  ///< a stable identity (order of creation)

  std::size_t size() const { return x.size(); }
  /// A solid sphere of radius R and mass m, with the next identity.
  void add(const Vector3d& x, const Vector3d& v, const Vector3d& w, double R, double m);
  /// Passes over the next identity (a sphere another subdomain adds), so that every subdomain
  /// numbers the spheres as one domain would.
  void skip_id() { ++next_id_; }
  /// The identity the next sphere added will get.
  std::uint64_t next_id() const { return next_id_; }
  /// Sets it (a channel restarted from a saved state numbers on where the saved run stopped).
  void set_next_id(std::uint64_t next) { next_id_ = next; }
  /// A sphere with all its fields given (a ghost or a migrant from another subdomain).
  void push(const Vector3d& x, const Vector3d& v, const Vector3d& w, double R, double inv_m, double inv_I,
            std::uint64_t id);
  /// Keeps the first n spheres.
  void truncate(std::size_t n);
  /// Keeps the spheres for which keep(i) is true, in their order.
  template <class Keep>
  std::size_t keep_if(Keep keep);
  /// Reorders every array: new[i] = old[order[i]].
  void permute(const std::vector<std::uint32_t>& order);

 private:
  std::uint64_t next_id_ = 0;
};

/// A boundary of infinite mass bounding a half-space: the solid side is n^T y < offset, the
/// spheres live on the side n^T y > offset. It may translate with `velocity` (the inflow plate).
struct Plane {
  Vector3d n = Vector3d::UnitZ();
  double offset = 0.0;
  Vector3d velocity = Vector3d::Zero();
  double mu = 0.4;
};

/// A prism of infinite mass along z, cut from the plane x-y: a half-disc of radius `radius` about
/// (cx, cy) on the side x <= cx, joined to the box [cx, cx + box_length] x [cy - radius, cy + radius]
/// (the obstacle of Sect. 4.3: round side upstream). The signed distance is exact outside.
struct Obstacle {
  double cx = 0.04, cy = 0.04, radius = 0.01, box_length = 0.01;
  double mu = 0.4;
  /// Signed distance of p (in the x-y plane) to the surface, negative inside, and the outward
  /// unit normal at the nearest surface point (detector.cpp, beside its one caller).
  double distance(const Vector3d& p, Vector3d& n) const;
  /// Cross-section area (pi r^2 / 2 + 2 r L).
  double area() const;
};

/// The axis-aligned box the cell grid covers (spheres outside it are clamped into its edge cells).
struct Box {
  Vector3d lo = Vector3d::Zero(), hi = Vector3d::Ones();
};

template <class Keep>
std::size_t Spheres::keep_if(Keep keep) {
  std::size_t k = 0;
  const std::size_t n = size();
  for (std::size_t i = 0; i < n; ++i) {
    if (!keep(i)) continue;
    if (k != i) {
      x[k] = x[i];
      vw[k] = vw[i];
      R[k] = R[i];
      id[k] = id[i];
    }
    ++k;
  }
  const std::size_t removed = n - k;
  x.resize(k);
  vw.resize(k);
  R.resize(k);
  id.resize(k);
  return removed;
}

}  // namespace md::granular
