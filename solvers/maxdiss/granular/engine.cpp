// The hard-contact engine of engine.hpp: its construction and the phases of a step, each phase
// handed to the unit that owns its data: detection to the Detector (detector.cpp), the order to
// the ContactOrder (contact_order.cpp), the sweeps to the Sweep (sweep.cpp). What stays here is
// gravity, the integration, the residual and the coupling's calls.
#include "maxdiss/granular/engine.hpp"

#include <algorithm>
#include <string>

#include "core/errors.hpp"
#include "core/text.hpp"
#include "maxdiss/granular/pe_count.hpp"
#include "maxdiss/granular/sweep.hpp"

namespace md::granular {

EngineOptions Engine::checked(const EngineOptions& options) {
  EngineOptions o = options;
  o.kernel.want_alpha = false;  // the sweep needs the impulse only
  four_wide(o.vector_width);    // refuses AVX2 or AVX-512VL where there is none
  return o;
}

Engine::Engine(const EngineOptions& options, const Box& box, double max_radius)
    : opt_(checked(options)), detector_(opt_, box, max_radius) {}

void Engine::set_options(const EngineOptions& options) { opt_ = checked(options); }

Vector3d Engine::boundary_velocity(int k) const {
  if (k < static_cast<int>(planes.size())) return planes[static_cast<std::size_t>(k)].velocity;
  return Vector3d::Zero();
}

double Engine::bytes() const {
  auto cap = [](const auto& a) { return static_cast<double>(a.capacity() * sizeof(a[0])); };
  const double b = cap(spheres.x) + cap(spheres.vw) + cap(spheres.R) + cap(spheres.id);
  return b + detector_.bytes() + order_.bytes();
}

void Engine::sort_by_cell() {
  detector_.build_cells(spheres, opt_, false);
  spheres.permute(detector_.cell_order());
}

StepStats Engine::detect() {
  if (!coupling_) {
    const StepStats st = detect_contacts();
    order_.keep_detection_order(detector_, opt_.threads);
    return st;
  }
  coupling_->add_ghosts(*this);
  StepStats st = detect_contacts();
  order_.keep_detection_order(detector_, opt_.threads);
  coupling_->remove_ghosts_and_migrate(*this);
  coupling_->reduce(st);
  return st;
}

// One step, phase by phase (engine.hpp, "One step"); each phase's wall time is summed into
// phase_seconds() (a clock read per phase: some 10 ns against milliseconds).
StepStats Engine::step(double t) {
  PhaseClock clock(phase_seconds_);
  add_ghosts();
  clock.lap(Phase::ghosts);
  StepStats st = detect_contacts();
  clock.lap(Phase::detect);
  apply_gravity();
  st.colours = order_.arrange(detector_, spheres.size(), opt_);
  clock.lap(Phase::order);
  relax(st, clock);
  integrate(t);
  clock.lap(Phase::integrate);
  migrate(st);
  clock.lap(Phase::ghosts);
  ++steps_;
  return st;
}

void Engine::add_ghosts() {
  if (!coupling_) return;
  if (opt_.reorder_every > 0 && steps_ % opt_.reorder_every == 0) sort_by_cell();  // before the ghosts join
  coupling_->add_ghosts(*this);
}

StepStats Engine::detect_contacts() {
  // Every reorder_every steps the spheres themselves are put in cell order (memory locality);
  // coupled, they are sorted before the ghosts join them (add_ghosts), never here.
  const bool sort = coupling_ == nullptr && opt_.reorder_every > 0 && steps_ % opt_.reorder_every == 0;
  detector_.build_cells(spheres, opt_, sort);
  StepStats st =
      detector_.detect({spheres, planes, obstacles, owned(), coupling_ ? coupling_->ghost_rule() : nullptr}, opt_);
  if (opt_.pe_blocks && count_pe_)
    st.pe_contacts = pe_contact_count(detector_.ends(), spheres, *opt_.pe_blocks, opt_.threshold);
  return st;
}

void Engine::apply_gravity() {
  // the external impulse over mass; a ghost holds its owner's velocity bit for bit, so it gets the same
  const std::size_t n = spheres.size();
  const Vector3d dv_ext = opt_.dt * opt_.gravity;
#pragma omp parallel for schedule(static) num_threads(opt_.threads)
  for (std::size_t i = 0; i < n; ++i) spheres.vw[i].v += dv_ext;
}

void Engine::relax(StepStats& st, PhaseClock& clock) {
  const std::size_t n = spheres.size();
  if (coupling_) {
    // the spheres a sweep may change: the owned ones of the contacts (in index order), then every
    // ghost; the blend leaves any other as it is (v0 + omega 0 = v0), so it need not visit them
    const std::size_t owned = this->owned();
    in_contact_.assign(owned, 0);
    for (const ContactEnds& c : detector_.ends()) {
      if (static_cast<std::size_t>(c.a) < owned) in_contact_[static_cast<std::size_t>(c.a)] = 1;
      if (c.b >= 0 && static_cast<std::size_t>(c.b) < owned) in_contact_[static_cast<std::size_t>(c.b)] = 1;
    }
    moved_.clear();
    for (std::size_t i = 0; i < owned; ++i)
      if (in_contact_[i]) moved_.push_back(static_cast<std::uint32_t>(i));
    for (std::size_t i = owned; i < n; ++i) moved_.push_back(static_cast<std::uint32_t>(i));
    v0_.resize(moved_.size());
    w0_.resize(moved_.size());
  }
  Sweep sweep(spheres, planes, opt_, order_);
  double delta = 0.0;
  for (int s = 0; s < opt_.sweeps; ++s) {
    if (coupling_) {
      for (std::size_t k = 0; k < moved_.size(); ++k) {
        v0_[k] = spheres.vw[moved_[k]].v;
        w0_[k] = spheres.vw[moved_[k]].w;
      }
    }
    delta = sweep.run(sweep_barriers_);
    if (coupling_) coupling_->after_sweep(spheres, moved_, v0_, w0_);  // weighted block Jacobi across subdomains
  }
  clock.lap(Phase::sweeps);
  solves_ += static_cast<double>(order_.contacts().size()) * opt_.sweeps;
  // the largest impulse component (max: in any order)
  const double largest = order_.largest_impulse(opt_.threads);
  st.delta = delta;
  st.largest = largest;
  st.residual = largest > 0.0 ? delta / largest : 0.0;
  clock.lap(Phase::residual);
}

void Engine::integrate(double t) {
  const std::size_t n = spheres.size();
  bool finite = true;
#pragma omp parallel for schedule(static) num_threads(opt_.threads) reduction(&& : finite)
  for (std::size_t i = 0; i < n; ++i) {
    spheres.x[i] += opt_.dt * spheres.vw[i].v;  // x' = x + dt v'
    finite = finite && spheres.vw[i].v.allFinite() && spheres.vw[i].w.allFinite();
  }
  if (!finite) throw cm::NumericalError("non-finite velocity at t = " + cm::format_real(t));
}

void Engine::migrate(StepStats& st) {
  if (!coupling_) return;
  coupling_->remove_ghosts_and_migrate(*this);
  coupling_->reduce(st);
}

}  // namespace md::granular
