// The last frame of a law's simulation analysed (last_frame.hpp).
#include "maxdiss/channel/last_frame.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "maxdiss/channel/rdf_peaks.hpp"

namespace md::granular {

void LastFrame::declare(cm::Config& c) {
  c.add("cells.nx", &cells_nx, "cells of the velocity maps along x").range(cm::Range::closed(1, 1e5));
  c.add("cells.ny", &cells_ny, "cells of the velocity maps along y").range(cm::Range::closed(1, 1e5));
  c.add("cells.min_count", &cells_min, "spheres a cell needs for the peak speed").range(cm::Range::closed(1, 1e6));
  c.add("rdf.region", &rdf_region, "region of Fig. 12: x0, x1, y0, y1, z0, z1").unit("m").size(6);
  c.add("rdf.dr_over_d", &rdf_dr, "bin width of g(r) in diameters")
      .range(cm::Range::positive())
      .assumption("ASSUMED: the paper gives no bin width (spec 001, 6.5 item 18)");
  c.add("rdf.rmax_over_d", &rdf_rmax, "largest r of g(r) in diameters").range(cm::Range::positive());
  c.add("rdf.secondary_from", &rdf_secondary_from, "g(r) beyond this many diameters counts as secondary")
      .range(cm::Range::positive());
  c.add("rdf.peak_halfwidth", &rdf_peak_halfwidth,
        "g(r) at a distance of the initial grid is a peak when it exceeds g this many diameters either side")
      .range(cm::Range::positive());
  c.add("rdf.peak_sigmas", &rdf_peak_sigmas,
        "by more than this many standard errors of the pair counts (rdf_peaks.hpp)")
      .range(cm::Range::positive());
  c.add("regions.upstream", &upstream, "x range of the homogeneous flow before the obstacle")
      .unit("m")
      .size(2)
      .increasing();
  c.add("regions.downstream", &downstream, "x range of the flow after the obstacle").unit("m").size(2).increasing();
  c.add("regions.near_obstacle", &near_obstacle, "gap to the obstacle within which a sphere is next to it")
      .unit("m")
      .range(cm::Range::positive());
  c.add("snapshot.write", &snapshot, "write the spheres of the last frame (Fig. 9)");
}

void LastFrame::check(cm::Config& c, const ChannelOptions& channel) const {
  const auto& o = channel.obstacle;
  if (!(rdf_region[0] < rdf_region[1] && rdf_region[2] < rdf_region[3] && rdf_region[4] < rdf_region[5]))
    c.fail("rdf.region", "each range must increase (x0 < x1, y0 < y1, z0 < z1)");
  if (!(rdf_rmax > rdf_dr)) c.fail("rdf.rmax_over_d", "must exceed rdf.dr_over_d");
  if (rdf_rmax / rdf_dr > 1e6) c.fail("rdf.dr_over_d", "more than 1e6 bins");
  // the bins must hold g at the farthest distance of the initial grid and a half-width beyond
  if (!(2.0 * channel.spacing / (2.0 * channel.R) + rdf_peak_halfwidth + rdf_dr < rdf_rmax))
    c.fail("rdf.rmax_over_d", "must reach a bin beyond twice particles.spacing plus rdf.peak_halfwidth (in diameters)");
  if (!(rdf_peak_halfwidth < channel.spacing / (2.0 * channel.R)))
    c.fail("rdf.peak_halfwidth", "must be less than particles.spacing (in diameters)");
  if (cells_nx * cells_ny > 1e7) c.fail("cells.nx", "more than 1e7 cells");
  if (!(upstream[1] <= o.cx - o.radius)) c.fail("regions.upstream", "must end before the obstacle");
  if (!(downstream[0] >= o.cx + o.box_length)) c.fail("regions.downstream", "must start after the obstacle");
}

/// Figs. 9-12 and the claims of Sect. 4.3 from the last frame.
void LastFrame::analyse(cm::Run& run, const Spheres& S, const Obstacle& ob, const std::string& name, Outcome& r,
                        const ChannelOptions& channel) const {
  const std::size_t n = S.size();
  const double Lx = channel.Lx, Ly = channel.Ly;
  // --- Figs. 10, 11: cell averages over the x-y plane ---
  const long nx = cells_nx, ny = cells_ny;
  std::vector<double> count(static_cast<std::size_t>(nx * ny), 0.0);
  std::vector<Vector3d> sum_v(count.size(), Vector3d::Zero()), sum_w(count.size(), Vector3d::Zero());
  std::vector<double> sum_speed(count.size(), 0.0), sum_spin(count.size(), 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    const long ix = std::clamp(static_cast<long>(std::floor(S.x[i](0) / Lx * nx)), 0L, nx - 1);
    const long iy = std::clamp(static_cast<long>(std::floor(S.x[i](1) / Ly * ny)), 0L, ny - 1);
    const std::size_t c = static_cast<std::size_t>(iy * nx + ix);
    count[c] += 1;
    sum_v[c] += S.vw[i].v;
    sum_w[c] += S.vw[i].w;
    sum_speed[c] += S.vw[i].v.norm();
    sum_spin[c] += S.vw[i].w.norm();
  }
  cm::Table cells = run.table("cells_" + name + ".tsv", "cell averages of the last frame (" + name + ", Figs. 10-11)",
                              {{"x", "m"},
                               {"y", "m"},
                               {"spheres", "1"},
                               {"vx", "m/s"},
                               {"vy", "m/s"},
                               {"speed_of_mean", "m/s"},
                               {"mean_speed", "m/s"},
                               {"spin_of_mean", "1/s"},
                               {"mean_spin", "1/s"}},
                              {static_cast<double>(nx * ny + ny), "cells.nx"});
  for (long iy = 0; iy < ny; ++iy) {
    for (long ix = 0; ix < nx; ++ix) {
      const std::size_t c = static_cast<std::size_t>(iy * nx + ix);
      const double k = count[c];
      const Vector3d mv = k > 0 ? Vector3d(sum_v[c] / k) : Vector3d::Zero();
      const Vector3d mw = k > 0 ? Vector3d(sum_w[c] / k) : Vector3d::Zero();
      cells.row({(ix + 0.5) * Lx / nx, (iy + 0.5) * Ly / ny, k, mv(0), mv(1), mv.norm(), k > 0 ? sum_speed[c] / k : 0.0,
                 mw.norm(), k > 0 ? sum_spin[c] / k : 0.0});
      if (k >= cells_min) {
        r.peak_speed = std::max(r.peak_speed, mv.norm());
        r.peak_mean_speed = std::max(r.peak_mean_speed, sum_speed[c] / k);
      }
    }
    cells.gap();
  }
  // --- Sect. 4.3 claims: speeds upstream, beside and after the obstacle; spin at the obstacle ---
  double su = 0, nu = 0, sg = 0, ng = 0, sd = 0, nd = 0, so = 0, no = 0, sb = 0, nb = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const Vector3d& p = S.x[i];
    const double speed = S.vw[i].v.norm(), spin = S.vw[i].w.norm();
    Vector3d normal;
    const double gap = ob.distance(p, normal) - S.R[i];
    if (p(0) >= upstream[0] && p(0) <= upstream[1]) su += speed, nu += 1;
    if (p(0) >= ob.cx - ob.radius && p(0) <= ob.cx + ob.box_length && std::fabs(p(1) - ob.cy) > ob.radius)
      sg += speed, ng += 1;  // in the gaps beside the obstacle
    if (p(0) >= downstream[0] && p(0) <= downstream[1]) {
      sd += speed, nd += 1;
      sb += spin, nb += 1;  // the bulk after the obstacle
    }
    if (gap <= near_obstacle) so += spin, no += 1;
  }
  auto mean = [](double s, double k) { return k > 0 ? s / k : std::nan(""); };
  r.speed_upstream = mean(su, nu);
  r.speed_gap = mean(sg, ng);
  r.speed_downstream = mean(sd, nd);
  r.spin_obstacle = mean(so, no);
  r.spin_bulk = mean(sb, nb);

  // --- Fig. 12: g(r) in the region near the outlet ---
  rdf(run, S, name, r, channel);

  // --- Fig. 9: the spheres of the last frame ---
  if (snapshot) {
    cm::Table snap = run.table("snapshot_" + name + ".tsv", "spheres of the last frame (" + name + ", Fig. 9)",
                               {{"x", "m"}, {"y", "m"}, {"z", "m"}, {"speed", "m/s"}, {"spin", "1/s"}},
                               {static_cast<double>(n), "snapshot.write"});
    for (std::size_t i = 0; i < n; ++i) snap.row({S.x[i](0), S.x[i](1), S.x[i](2), S.vw[i].v.norm(), S.vw[i].w.norm()});
  }
}

/// g(r) over ordered pairs i != j with both spheres in the region, normalised by the number of
/// spheres there and the expected count 4 pi rho r^2 dr of an ideal gas of the same density
/// (no boundary correction; spec 001, 6.5 item 18).
void LastFrame::rdf(cm::Run& run, const Spheres& S, const std::string& name, Outcome& r,
                    const ChannelOptions& channel) const {
  const double d = 2.0 * channel.R, dr = rdf_dr * d, rmax = rdf_rmax * d;
  std::vector<Vector3d> in;
  for (std::size_t i = 0; i < S.size(); ++i) {
    const Vector3d& p = S.x[i];
    if (p(0) >= rdf_region[0] && p(0) < rdf_region[1] && p(1) >= rdf_region[2] && p(1) < rdf_region[3] &&
        p(2) >= rdf_region[4] && p(2) < rdf_region[5])
      in.push_back(p);
  }
  const long bins = std::lround(std::floor(rmax / dr));
  std::vector<double> hist(static_cast<std::size_t>(bins), 0.0);
  // cells of size rmax over the region: pairs within rmax lie in neighbouring cells
  const Vector3d lo(rdf_region[0], rdf_region[2], rdf_region[4]);
  const Vector3d ext(rdf_region[1] - rdf_region[0], rdf_region[3] - rdf_region[2], rdf_region[5] - rdf_region[4]);
  Eigen::Vector3i nc;
  for (int a = 0; a < 3; ++a) nc(a) = std::max(1, std::min(1000, static_cast<int>(std::floor(ext(a) / rmax))));
  auto cell = [&](const Vector3d& p, int a) {
    return std::clamp(static_cast<int>(std::floor((p(a) - lo(a)) / ext(a) * nc(a))), 0, nc(a) - 1);
  };
  std::vector<std::vector<std::size_t>> grid(static_cast<std::size_t>(nc.prod()));
  for (std::size_t i = 0; i < in.size(); ++i)
    grid[static_cast<std::size_t>((cell(in[i], 2) * nc(1) + cell(in[i], 1)) * nc(0) + cell(in[i], 0))].push_back(i);
  for (std::size_t i = 0; i < in.size(); ++i) {
    const int cx = cell(in[i], 0), cy = cell(in[i], 1), cz = cell(in[i], 2);
    for (int z = std::max(0, cz - 1); z <= std::min(nc(2) - 1, cz + 1); ++z)
      for (int y = std::max(0, cy - 1); y <= std::min(nc(1) - 1, cy + 1); ++y)
        for (int x = std::max(0, cx - 1); x <= std::min(nc(0) - 1, cx + 1); ++x)
          for (std::size_t j : grid[static_cast<std::size_t>((z * nc(1) + y) * nc(0) + x)]) {
            if (j == i) continue;
            const double rij = (in[i] - in[j]).norm();
            const long b = static_cast<long>(rij / dr);
            if (b < bins) hist[static_cast<std::size_t>(b)] += 1;
          }
  }
  const double N = static_cast<double>(in.size()), rho = N / ext.prod();
  cm::Table t = run.table(
      "rdf_" + name + ".tsv", "radial distribution function near the outlet (" + name + ", Fig. 12)",
      {{"r_over_diameter", "1"}, {"r", "m"}, {"g", "1"}, {"pairs", "1"}}, {static_cast<double>(bins), "rdf.dr_over_d"});
  double gmax = -1;
  r.rdf_secondary = 0;
  std::vector<double> gs(static_cast<std::size_t>(bins), 0.0);
  for (long b = 0; b < bins; ++b) {
    const double r0 = b * dr, r1 = r0 + dr, rc = 0.5 * (r0 + r1);
    const double expected = N * rho * 4.0 / 3.0 * cm::pi * (r1 * r1 * r1 - r0 * r0 * r0);
    const double g = expected > 0 ? hist[static_cast<std::size_t>(b)] / expected : 0.0;
    t.row({rc / d, rc, g, hist[static_cast<std::size_t>(b)]});
    gs[static_cast<std::size_t>(b)] = g;
    if (g > gmax) {
      gmax = g;
      r.rdf_first_peak = rc / d;
    }
    if (rc / d > rdf_secondary_from) r.rdf_secondary = std::max(r.rdf_secondary, g);
  }
  if (in.size() < 2) throw cm::InputError("rdf.region: fewer than two spheres in the region at the last frame");
  // "No additional favored distances": no peak where the grid of the initial arrangement and of
  // the inflow layers (particles.spacing) puts neighbours.
  r.rdf_grid_peaks = 0;
  r.rdf_grid_significance = -std::numeric_limits<double>::infinity();
  for (const DistancePeak& p : distance_peaks(gs, hist, rdf_dr, initial_grid_distances(channel.spacing, d),
                                              rdf_peak_halfwidth, rdf_peak_sigmas)) {
    r.rdf_grid_peaks += p.peak ? 1 : 0;
    r.rdf_grid_significance = std::max(r.rdf_grid_significance, p.significance);
  }
}

}  // namespace md::granular
