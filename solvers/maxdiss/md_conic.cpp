// md_conic: the exemplary contact problem of Figs. 2-4 (Sect. 3.2), with parameters of our own.
//
// The paper does not give A, b, mu of its Fig. 4 example; it only states that the conic section
// is a hyperbola and that f_obj has two local minima of which only the global one is dissipative.
// This study uses the example of spec 001 (S-F2), which has that property, and writes
//   - Fig. 2: the reduced objective 1/2 x_to^T Ahat x_to - x_to^T bhat on the plane, the hyperbola
//     gamma(alpha), the unconstrained minimum and the maximally dissipative solution;
//   - Fig. 3: f_obj(alpha) over a full turn with the infeasible region (f_r <= 0) and the poles;
//   - Fig. 4: the local minima of f_obj and which one is global.
//
// Sample runs (into a scratch folder of their own, never over the pipeline's results/):
//   md_conic --config configs/maxdiss/conic.ini --output try/conic
//   md_conic --config configs/maxdiss/conic.ini --grid.n=400 --output try/conic
#include <cmath>
#include <cstdio>
#include <optional>

#include "core/study.hpp"
#include "maxdiss/reference.hpp"
#include "maxdiss/single_contact.hpp"
#include "numerics/optimize.hpp"

namespace {

using namespace md;

class ConicStudy {
 public:
  static constexpr cm::StudyInfo info{"md_conic", "maxdiss", "conic",
                                      "Exemplary contact problem of Figs. 2-4 (our parameters)"};

  void declare(cm::Config& c) {
    c.add("A", &a_, "Delassus block A_nn, A_nt, A_no, A_tt, A_to, A_oo")
        .unit("1")
        .size(6)
        .assumption("ASSUMED: the example of Figs. 2-4 is not given; spec 001 S-F2 example (ours)");
    c.add("b", &b_, "b_n, b_t, b_o").unit("1").size(3).assumption("ASSUMED: spec 001 S-F2 example (ours)");
    c.add("mu", &mu_, "friction coefficient")
        .range(cm::Range::positive())
        .assumption("ASSUMED: spec 001 S-F2 example (ours)");
    c.add("alpha.samples", &samples_, "samples of f_obj over a full turn").range(cm::Range::closed(16, 1e8));
    c.add("minima.golden_steps", &golden_steps_,
          "golden-section steps refining each sampled local minimum of f_obj (0.618 per step)")
        .range(cm::Range::closed(1, 10000));
    c.add("minima.same_alpha", &same_alpha_,
          "angle distance below which a local minimum is the global one x_* (far above the refinement's accuracy)")
        .unit("rad")
        .range(cm::Range::positive());
    c.add("grid.n", &grid_n_, "grid points per axis of the contour data").range(cm::Range::closed(2, 1e5));
    c.add("grid.xt_range", &xt_, "x_t range of the contour data").unit("1").size(2).increasing();
    c.add("grid.xo_range", &xo_, "x_o range of the contour data").unit("1").size(2).increasing();
    c.check([&c, this] {
      A_ << a_[0], a_[1], a_[2], a_[1], a_[3], a_[4], a_[2], a_[4], a_[5];
      if (!(condition_number(A_) > 0.0)) c.fail("A", "must be symmetric positive definite");
      if (!(b_[0] > 0.0)) c.fail("b", "the figures need a colliding contact (b_n > 0)");
    });
  }

  void run(cm::Run& run) {
    setup();
    fig3_objective(run);
    fig4_minima(run);
    fig2_contour(run);
    fig2_conic(run);
  }

 private:
  // --- set up: the reduced problem on the plane of maximum compression and x_* (Fig. 5) -----------
  void setup() {
    b_vector_ = Vector3d(b_[0], b_[1], b_[2]);
    red_.emplace(A_, b_vector_, mu_, b_vector_(0));
    sol_ = md::solve(A_, b_vector_, mu_);
    if (!sol_.x.allFinite() || !std::isfinite(objective(A_, b_vector_, sol_.x)))
      throw cm::InputError(
          "A, b, mu: the data give a non-finite impulse or objective (over- or underflow of "
          "doubles); rescale A, b or mu");
    offset_ = -b_vector_(0) * b_vector_(0) / (2 * A_(0, 0));  // full objective = f_obj + offset
  }

  // Fig. 3: f_obj over a full turn.
  void fig3_objective(cm::Run& run) {
    const Reduced& red = *red_;
    auto fobj = run.table("fig3_fobj.tsv", "f_obj(alpha); feasible = f_r(alpha) > 0",
                          {{"alpha", "rad"}, {"f_obj", "1"}, {"objective", "1"}, {"feasible", "1"}, {"f_r", "1"}},
                          cm::Planned{static_cast<double>(samples_), "alpha.samples"});
    const long n = samples_;
    for (long i = 0; i < n; ++i) {
      const double x = -cm::pi + two_pi * (i + 0.5) / n;
      const double fr = red.fr(std::cos(x), std::sin(x));
      const double f = fr > 0 ? red.fobj(x) : std::numeric_limits<double>::quiet_NaN();
      fobj.row({x, f, f + offset_, fr > 0 ? 1.0 : 0.0, fr});
      alpha_.push_back(x);
      fobj_.push_back(f);
    }
  }

  // Fig. 4: the local minima of f_obj (the samples' refined by golden section) and the global one.
  void fig4_minima(cm::Run& run) const {
    const Reduced& red = *red_;
    auto minima = run.table("fig4_minima.tsv", "local minima of f_obj",
                            {{"alpha", "rad"}, {"f_obj", "1"}, {"objective", "1"}, {"is_global", "1"}});
    const std::vector<double>&al = alpha_, &fv = fobj_;
    int count = 0;
    for (std::size_t i = 1; i + 1 < fv.size(); ++i) {
      if (!(fv[i] <= fv[i - 1] && fv[i] <= fv[i + 1])) continue;
      const double x =
          cm::golden_section_minimum([&](double t) { return red.fobj(t); }, al[i - 1], al[i + 1], 0.0, golden_steps_).x;
      const bool global = std::fabs(std::remainder(x - sol_.alpha, two_pi)) < same_alpha_;
      minima.row({x, red.fobj(x), red.fobj(x) + offset_, double(global)});
      run.scalar("local_min" + std::to_string(++count) + "_alpha", x, "rad");
      run.scalar("local_min" + std::to_string(count) + "_fobj", red.fobj(x));
      run.scalar("local_min" + std::to_string(count) + "_objective", red.fobj(x) + offset_);
      std::printf("local minimum of f_obj at alpha = %.5f: f_obj = %.5f, objective %.5f%s\n", x, red.fobj(x),
                  red.fobj(x) + offset_, global ? " (global)" : "");
    }
    run.scalar("n_local_minima", count);
  }

  // Fig. 2: the reduced objective on the plane.
  void fig2_contour(cm::Run& run) const {
    const Reduced& red = *red_;
    auto contour = run.table("fig2_contour.tsv", "reduced objective 1/2 x_to^T Ahat x_to - x_to^T bhat",
                             {{"x_t", "1"}, {"x_o", "1"}, {"q", "1"}},
                             cm::Planned{static_cast<double>(grid_n_) * static_cast<double>(grid_n_), "grid.n"});
    const auto &xt = xt_, &xo = xo_;
    const long g = grid_n_;
    for (long i = 0; i < g; ++i) {
      for (long j = 0; j < g; ++j) {
        const Vector2d y(xt[0] + (xt[1] - xt[0]) * i / (g - 1), xo[0] + (xo[1] - xo[0]) * j / (g - 1));
        contour.row({y(0), y(1), 0.5 * y.dot(red.Ahat * y) - y.dot(red.bhat)});
      }
      contour.gap();
    }
  }

  // Fig. 2: the conic section gamma(alpha) on the interval I of Eq. (6), x_* and the unconstrained
  // minimum x_0.
  void fig2_conic(cm::Run& run) const {
    const Reduced& red = *red_;
    auto conic = run.table("fig2_conic.tsv", "conic section boundary gamma(alpha), alpha in I",
                           {{"alpha", "rad"}, {"x_t", "1"}, {"x_o", "1"}},
                           cm::Planned{static_cast<double>(samples_), "alpha.samples"});
    const long n = samples_;
    const bool ellipse = red.ellipse();
    const double lo = ellipse ? 0.0 : red.alpha0() - red.dalpha(), hi = ellipse ? two_pi : red.alpha0() + red.dalpha();
    for (long i = 1; i < n; ++i) {
      const double x = lo + (hi - lo) * i / n;
      const double r = red.rbar(x);
      conic.row({x, r * std::cos(x), r * std::sin(x)});
    }
    auto points = run.table("fig2_points.tsv", "kind 0: x_* (max. dissipation), 2: unconstrained minimum x_0",
                            {{"kind", "1"}, {"x_t", "1"}, {"x_o", "1"}});
    points.row({0, sol_.x(1), sol_.x(2)});
    const Vector3d x0 = A_.ldlt().solve(b_vector_);
    points.row({2, x0(1), x0(2)});
    run.scalar("conic_is_ellipse", ellipse);
    run.scalar("interval_lo", lo, "rad");
    run.scalar("interval_hi", hi, "rad");
    run.scalar("x_n", sol_.x(0));
    run.scalar("x_t", sol_.x(1));
    run.scalar("x_o", sol_.x(2));
    run.scalar("objective", objective(A_, b_vector_, sol_.x));
    std::printf("%s, I = (%.5f, %.5f); x_* = (%.6f, %.6f, %.6f), objective %.5f\n", ellipse ? "ellipse" : "hyperbola",
                lo, hi, sol_.x(0), sol_.x(1), sol_.x(2), objective(A_, b_vector_, sol_.x));
  }

  std::vector<double> a_{1, -0.3, 1, 0.6, -0.5, 2.9}, b_{1, -1, -3};
  double mu_ = 1.2;
  long samples_ = 4000, golden_steps_ = 100, grid_n_ = 200;
  double same_alpha_ = 1e-6;
  std::vector<double> xt_{-6.0, 6.0}, xo_{-6.0, 6.0};
  Matrix3d A_;

  Vector3d b_vector_;
  std::optional<Reduced> red_;        ///< the problem on the plane of maximum compression (Sect. 3.2)
  Solution sol_;                      ///< x_*, the maximally dissipative impulse
  double offset_ = 0.0;               ///< objective = f_obj + offset
  std::vector<double> alpha_, fobj_;  ///< f_obj sampled over a full turn (Fig. 3)
};

}  // namespace

int main(int argc, char** argv) { return cm::study_main<ConicStudy>(argc, argv); }
