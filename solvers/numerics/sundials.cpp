// SUNDIALS behind cm::Integrator. Each class owns its SUNContext, vectors, matrices, solvers and
// integrator memory through unique_ptr with the matching SUNDIALS destructor, in the order that
// frees the integrator before the context.
#include "numerics/sundials.hpp"

#include <arkode/arkode_erkstep.h>
#include <cvode/cvode.h>
#include <ida/ida.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_config.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>

#include <cstdio>
#include <exception>

namespace cm {

std::string sundials_version() { return SUNDIALS_VERSION; }

std::map<std::string, double> IntegratorStatistics::as_map() const {
  return {{"steps", double(steps)},
          {"rhs_evaluations", double(rhs_evaluations)},
          {"jacobian_evaluations", double(jacobian_evaluations)},
          {"linear_setups", double(linear_setups)},
          {"error_test_failures", double(error_test_failures)},
          {"nonlinear_iterations", double(nonlinear_iterations)},
          {"nonlinear_failures", double(nonlinear_failures)},
          {"root_evaluations", double(root_evaluations)},
          {"last_step", last_step}};
}

const std::vector<std::string>& ode_methods() {
  static const std::vector<std::string> methods{"cvode_adams", "cvode_bdf", "arkode_dp5", "arkode_verner6",
                                                "arkode_fehlberg8"};
  return methods;
}

namespace {

// Every SUNDIALS getter is checked: a failing one (a null memory block, a missing linear solver)
// is a bug of ours, never a silent zero in the statistics.
void getter(int flag, const char* call) {
  if (flag < 0) throw std::logic_error(std::string(call) + " failed with flag " + std::to_string(flag));
}

// --- ownership ------------------------------------------------------------------------

struct ContextDeleter {
  void operator()(SUNContext c) const { SUNContext_Free(&c); }
};
struct VectorDeleter {
  void operator()(N_Vector v) const { N_VDestroy(v); }
};
struct MatrixDeleter {
  void operator()(SUNMatrix m) const { SUNMatDestroy(m); }
};
struct LinearSolverDeleter {
  void operator()(SUNLinearSolver s) const { SUNLinSolFree(s); }
};
struct NonlinearSolverDeleter {
  void operator()(SUNNonlinearSolver s) const { SUNNonlinSolFree(s); }
};
using ContextPtr = std::unique_ptr<std::remove_pointer_t<SUNContext>, ContextDeleter>;
using VectorPtr = std::unique_ptr<std::remove_pointer_t<N_Vector>, VectorDeleter>;
using MatrixPtr = std::unique_ptr<std::remove_pointer_t<SUNMatrix>, MatrixDeleter>;
using LinearSolverPtr = std::unique_ptr<std::remove_pointer_t<SUNLinearSolver>, LinearSolverDeleter>;
using NonlinearSolverPtr = std::unique_ptr<std::remove_pointer_t<SUNNonlinearSolver>, NonlinearSolverDeleter>;

ContextPtr make_context() {
  SUNContext c = nullptr;
  if (SUNContext_Create(nullptr, &c) != 0 || !c) throw NumericalError("SUNContext_Create failed");
  return ContextPtr(c);
}

VectorPtr make_vector(const Eigen::VectorXd& values, SUNContext ctx) {
  N_Vector v = N_VNew_Serial(static_cast<sunindextype>(values.size()), ctx);
  if (!v) throw NumericalError("N_VNew_Serial failed");
  Eigen::Map<Eigen::VectorXd>(N_VGetArrayPointer(v), values.size()) = values;
  return VectorPtr(v);
}

Eigen::Map<Eigen::VectorXd> view(N_Vector v) {
  return {N_VGetArrayPointer(v), static_cast<Eigen::Index>(N_VGetLength(v))};
}

// SUNDIALS 6.4 has no call to clear a stop time; reinit() moves it out of reach instead.
constexpr double no_stop = 1e300;

std::string format_time(double t) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.17g", t);
  return buffer;
}

// Shared by the three integrators: the callbacks, the exception carried across C, the last
// message of the library's error handler, and the return-code checks.
class Base : public Integrator {
 public:
  Base(std::string name, Eigen::Index n) : name_(std::move(name)), n_(n), context_(make_context()) {}

  const std::string& name() const override { return name_; }

  void set_roots(int count, RootFunction g, const std::vector<int>& direction) override {
    if (count < 0 || (!direction.empty() && direction.size() != std::size_t(count)))
      throw std::logic_error("set_roots: direction needs one entry per root function");
    roots_ = std::move(g);
    root_count_ = count;
    root_init(count);
    if (!direction.empty()) {
      std::vector<int> d = direction;
      root_direction(d.data());
    }
  }

 protected:
  // Runs a user callback; an exception is stored and reported to SUNDIALS as unrecoverable.
  // Once one is pending every later call fails too, so that no method can retry its way past it
  // (CVODE's fixed-point iteration treats a failed evaluation as a convergence failure).
  template <class F>
  int guard(F&& f) {
    if (pending_) return -1;
    try {
      f();
      return 0;
    } catch (...) {
      pending_ = std::current_exception();
      return -1;
    }
  }
  void rethrow_pending() {
    if (pending_) {
      auto e = pending_;
      pending_ = nullptr;
      std::rethrow_exception(e);
    }
  }
  void check(int flag, const char* call, double t) {
    rethrow_pending();
    if (flag < 0)
      throw NumericalError(name_ + ": " + call + " failed with flag " + std::to_string(flag) +
                           " at t = " + format_time(t) + (last_message_.empty() ? "" : ": " + last_message_));
  }
  void check_setup(int flag, const char* call) {
    if (flag < 0) throw NumericalError(name_ + ": " + call + " failed with flag " + std::to_string(flag));
  }
  static void error_handler(int, const char* module, const char* function, char* message, void* self) {
    static_cast<Base*>(self)->last_message_ =
        std::string(module ? module : "") + "/" + (function ? function : "") + ": " + (message ? message : "");
  }
  int call_roots(double t, N_Vector y, double* gout) {
    return guard([&] {
      Eigen::Map<Eigen::VectorXd> g(gout, root_count_);
      roots_(t, view(y), g);
    });
  }
  std::vector<int> root_info(int (*get)(void*, int*), void* mem) {
    std::vector<int> info(static_cast<std::size_t>(root_count_));
    check_setup(get(mem, info.data()), "GetRootInfo");
    return info;
  }
  virtual void root_init(int count) = 0;
  virtual void root_direction(int* direction) = 0;

  std::string name_;
  Eigen::Index n_;
  ContextPtr context_;
  RootFunction roots_;
  int root_count_ = 0;
  std::exception_ptr pending_;
  std::string last_message_;
};

// --- CVODE ------------------------------------------------------------------------------

class Cvode final : public Base {
 public:
  Cvode(bool adams, Rhs f, const Eigen::VectorXd& y0, double t0, Tolerances tol)
      : Base(adams ? "cvode_adams" : "cvode_bdf", y0.size()), f_(std::move(f)) {
    y_ = make_vector(y0, context_.get());
    work_ = make_vector(y0, context_.get());
    mem_ = CVodeCreate(adams ? CV_ADAMS : CV_BDF, context_.get());
    if (!mem_) throw NumericalError("CVodeCreate failed");
    check_setup(CVodeSetErrHandlerFn(mem_, &Base::error_handler, static_cast<Base*>(this)), "CVodeSetErrHandlerFn");
    check_setup(CVodeInit(mem_, &Cvode::rhs, t0, y_.get()), "CVodeInit");
    check_setup(CVodeSStolerances(mem_, tol.rtol, tol.atol), "CVodeSStolerances");
    check_setup(CVodeSetUserData(mem_, this), "CVodeSetUserData");
    check_setup(CVodeSetMaxNumSteps(mem_, 1000000), "CVodeSetMaxNumSteps");
    if (adams) {
      // Non-stiff: Adams-Moulton with fixed-point iteration, no Jacobian (the ode113 analogue).
      nls_.reset(SUNNonlinSol_FixedPoint(y_.get(), 0, context_.get()));
      if (!nls_) throw NumericalError("SUNNonlinSol_FixedPoint failed");
      check_setup(CVodeSetNonlinearSolver(mem_, nls_.get()), "CVodeSetNonlinearSolver");
    } else {
      // Stiff: BDF with Newton iteration, dense direct solver, difference-quotient Jacobian.
      A_.reset(SUNDenseMatrix(n_, n_, context_.get()));
      LS_.reset(SUNLinSol_Dense(y_.get(), A_.get(), context_.get()));
      if (!A_ || !LS_) throw NumericalError("SUNDenseMatrix/SUNLinSol_Dense failed");
      check_setup(CVodeSetLinearSolver(mem_, LS_.get(), A_.get()), "CVodeSetLinearSolver");
    }
  }
  ~Cvode() override { CVodeFree(&mem_); }

  Step advance(double tout) override {
    double t = 0;
    const int flag = CVode(mem_, tout, y_.get(), &t, CV_NORMAL);
    check(flag, "CVode", t);
    Step s{t, view(y_.get()), flag == CV_ROOT_RETURN, {}};
    if (s.root) s.roots = root_info(&CVodeGetRootInfo, mem_);
    return s;
  }
  Eigen::VectorXd dense(double t, int k) const override {
    const int flag = CVodeGetDky(mem_, t, k, work_.get());
    if (flag < 0) throw NumericalError("cvode: CVodeGetDky outside the last step at t = " + format_time(t));
    return view(work_.get());
  }
  double current_time() const override {
    double t = 0;
    getter(CVodeGetCurrentTime(mem_, &t), "CVodeGetCurrentTime");
    return t;
  }
  void set_stop_time(double t) override { check_setup(CVodeSetStopTime(mem_, t), "CVodeSetStopTime"); }
  void reinit(double t0, const Eigen::VectorXd& y0) override {
    view(y_.get()) = y0;
    check_setup(CVodeReInit(mem_, t0, y_.get()), "CVodeReInit");
    check_setup(CVodeSetStopTime(mem_, no_stop), "CVodeSetStopTime");
  }
  void set_max_steps(long steps) override { check_setup(CVodeSetMaxNumSteps(mem_, steps), "CVodeSetMaxNumSteps"); }
  IntegratorStatistics statistics() const override {
    IntegratorStatistics s;
    getter(CVodeGetNumSteps(mem_, &s.steps), "CVodeGetNumSteps");
    getter(CVodeGetNumRhsEvals(mem_, &s.rhs_evaluations), "CVodeGetNumRhsEvals");
    getter(CVodeGetNumLinSolvSetups(mem_, &s.linear_setups), "CVodeGetNumLinSolvSetups");
    getter(CVodeGetNumErrTestFails(mem_, &s.error_test_failures), "CVodeGetNumErrTestFails");
    getter(CVodeGetNumNonlinSolvIters(mem_, &s.nonlinear_iterations), "CVodeGetNumNonlinSolvIters");
    getter(CVodeGetNumNonlinSolvConvFails(mem_, &s.nonlinear_failures), "CVodeGetNumNonlinSolvConvFails");
    if (root_count_ > 0)
      getter(CVodeGetNumGEvals(mem_, &s.root_evaluations), "CVodeGetNumGEvals");  // no root memory without roots
    getter(CVodeGetLastStep(mem_, &s.last_step), "CVodeGetLastStep");
    if (LS_) getter(CVodeGetNumJacEvals(mem_, &s.jacobian_evaluations), "CVodeGetNumJacEvals");
    return s;
  }

 private:
  static int rhs(double t, N_Vector y, N_Vector ydot, void* user) {
    auto* self = static_cast<Cvode*>(user);
    return self->guard([&] {
      auto out = view(ydot);
      self->f_(t, view(y), out);
    });
  }
  static int g(double t, N_Vector y, double* gout, void* user) {
    return static_cast<Cvode*>(user)->call_roots(t, y, gout);
  }
  void root_init(int count) override { check_setup(CVodeRootInit(mem_, count, &Cvode::g), "CVodeRootInit"); }
  void root_direction(int* d) override { check_setup(CVodeSetRootDirection(mem_, d), "CVodeSetRootDirection"); }

  Rhs f_;
  VectorPtr y_, work_;
  MatrixPtr A_;
  LinearSolverPtr LS_;
  NonlinearSolverPtr nls_;
  void* mem_ = nullptr;
};

// --- ARKODE ERKStep ---------------------------------------------------------------------

class ArkErk final : public Base {
 public:
  ArkErk(std::string name, ARKODE_ERKTableID table, Rhs f, const Eigen::VectorXd& y0, double t0, Tolerances tol)
      : Base(std::move(name), y0.size()), f_(std::move(f)) {
    y_ = make_vector(y0, context_.get());
    work_ = make_vector(y0, context_.get());
    mem_ = ERKStepCreate(&ArkErk::rhs, t0, y_.get(), context_.get());
    if (!mem_) throw NumericalError("ERKStepCreate failed");
    check_setup(ERKStepSetErrHandlerFn(mem_, &Base::error_handler, static_cast<Base*>(this)), "ERKStepSetErrHandlerFn");
    check_setup(ERKStepSetTableNum(mem_, table), "ERKStepSetTableNum");
    check_setup(ERKStepSStolerances(mem_, tol.rtol, tol.atol), "ERKStepSStolerances");
    check_setup(ERKStepSetUserData(mem_, this), "ERKStepSetUserData");
    check_setup(ERKStepSetMaxNumSteps(mem_, 1000000), "ERKStepSetMaxNumSteps");
  }
  ~ArkErk() override { ERKStepFree(&mem_); }

  Step advance(double tout) override {
    double t = 0;
    const int flag = ERKStepEvolve(mem_, tout, y_.get(), &t, ARK_NORMAL);
    check(flag, "ERKStepEvolve", t);
    Step s{t, view(y_.get()), flag == ARK_ROOT_RETURN, {}};
    if (s.root) s.roots = root_info(&ERKStepGetRootInfo, mem_);
    return s;
  }
  Eigen::VectorXd dense(double t, int k) const override {
    const int flag = ERKStepGetDky(mem_, t, k, work_.get());
    if (flag < 0) throw NumericalError(name_ + ": ERKStepGetDky outside the last step at t = " + format_time(t));
    return view(work_.get());
  }
  double current_time() const override {
    double t = 0;
    getter(ERKStepGetCurrentTime(mem_, &t), "ERKStepGetCurrentTime");
    return t;
  }
  void set_stop_time(double t) override { check_setup(ERKStepSetStopTime(mem_, t), "ERKStepSetStopTime"); }
  void reinit(double t0, const Eigen::VectorXd& y0) override {
    view(y_.get()) = y0;
    check_setup(ERKStepReInit(mem_, &ArkErk::rhs, t0, y_.get()), "ERKStepReInit");
    check_setup(ERKStepSetStopTime(mem_, no_stop), "ERKStepSetStopTime");
  }
  void set_max_steps(long steps) override { check_setup(ERKStepSetMaxNumSteps(mem_, steps), "ERKStepSetMaxNumSteps"); }
  IntegratorStatistics statistics() const override {
    IntegratorStatistics s;
    getter(ERKStepGetNumSteps(mem_, &s.steps), "ERKStepGetNumSteps");
    getter(ERKStepGetNumRhsEvals(mem_, &s.rhs_evaluations), "ERKStepGetNumRhsEvals");
    getter(ERKStepGetNumErrTestFails(mem_, &s.error_test_failures), "ERKStepGetNumErrTestFails");
    if (root_count_ > 0)
      getter(ERKStepGetNumGEvals(mem_, &s.root_evaluations), "ERKStepGetNumGEvals");  // no root memory without roots
    getter(ERKStepGetLastStep(mem_, &s.last_step), "ERKStepGetLastStep");
    return s;
  }

 private:
  static int rhs(double t, N_Vector y, N_Vector ydot, void* user) {
    auto* self = static_cast<ArkErk*>(user);
    return self->guard([&] {
      auto out = view(ydot);
      self->f_(t, view(y), out);
    });
  }
  static int g(double t, N_Vector y, double* gout, void* user) {
    return static_cast<ArkErk*>(user)->call_roots(t, y, gout);
  }
  void root_init(int count) override { check_setup(ERKStepRootInit(mem_, count, &ArkErk::g), "ERKStepRootInit"); }
  void root_direction(int* d) override { check_setup(ERKStepSetRootDirection(mem_, d), "ERKStepSetRootDirection"); }

  Rhs f_;
  VectorPtr y_, work_;
  void* mem_ = nullptr;
};

// --- IDA --------------------------------------------------------------------------------

class Ida final : public Base {
 public:
  Ida(Residual F, const Eigen::VectorXd& y0, const Eigen::VectorXd& yp0, const Eigen::VectorXd& differential, double t0,
      Tolerances tol, bool suppress_algebraic_error)
      : Base("ida", y0.size()), F_(std::move(F)) {
    if (yp0.size() != y0.size() || differential.size() != y0.size())
      throw std::logic_error("make_dae_integrator: y0, yp0 and differential differ in size");
    y_ = make_vector(y0, context_.get());
    yp_ = make_vector(yp0, context_.get());
    id_ = make_vector(differential, context_.get());
    work_ = make_vector(y0, context_.get());
    mem_ = IDACreate(context_.get());
    if (!mem_) throw NumericalError("IDACreate failed");
    check_setup(IDASetErrHandlerFn(mem_, &Base::error_handler, static_cast<Base*>(this)), "IDASetErrHandlerFn");
    check_setup(IDAInit(mem_, &Ida::residual, t0, y_.get(), yp_.get()), "IDAInit");
    check_setup(IDASStolerances(mem_, tol.rtol, tol.atol), "IDASStolerances");
    check_setup(IDASetUserData(mem_, this), "IDASetUserData");
    check_setup(IDASetId(mem_, id_.get()), "IDASetId");
    check_setup(IDASetSuppressAlg(mem_, suppress_algebraic_error ? SUNTRUE : SUNFALSE), "IDASetSuppressAlg");
    check_setup(IDASetMaxNumSteps(mem_, 1000000), "IDASetMaxNumSteps");
    A_.reset(SUNDenseMatrix(n_, n_, context_.get()));
    LS_.reset(SUNLinSol_Dense(y_.get(), A_.get(), context_.get()));
    if (!A_ || !LS_) throw NumericalError("SUNDenseMatrix/SUNLinSol_Dense failed");
    check_setup(IDASetLinearSolver(mem_, LS_.get(), A_.get()), "IDASetLinearSolver");
  }
  ~Ida() override { IDAFree(&mem_); }

  Step advance(double tout) override {
    double t = 0;
    const int flag = IDASolve(mem_, tout, &t, y_.get(), yp_.get(), IDA_NORMAL);
    check(flag, "IDASolve", t);
    Step s{t, view(y_.get()), flag == IDA_ROOT_RETURN, {}};
    if (s.root) s.roots = root_info(&IDAGetRootInfo, mem_);
    return s;
  }
  Eigen::VectorXd dense(double t, int k) const override {
    const int flag = IDAGetDky(mem_, t, k, work_.get());
    if (flag < 0) throw NumericalError("ida: IDAGetDky outside the last step at t = " + format_time(t));
    return view(work_.get());
  }
  double current_time() const override {
    double t = 0;
    getter(IDAGetCurrentTime(mem_, &t), "IDAGetCurrentTime");
    return t;
  }
  void set_stop_time(double t) override { check_setup(IDASetStopTime(mem_, t), "IDASetStopTime"); }
  // y' at t0 is taken from the interpolant of the last step (continuous where the forcing has a kink).
  void reinit(double t0, const Eigen::VectorXd& y0) override {
    view(yp_.get()) = dense(t0, 1);
    view(y_.get()) = y0;
    check_setup(IDAReInit(mem_, t0, y_.get(), yp_.get()), "IDAReInit");
    check_setup(IDASetStopTime(mem_, no_stop), "IDASetStopTime");
  }
  void set_max_steps(long steps) override { check_setup(IDASetMaxNumSteps(mem_, steps), "IDASetMaxNumSteps"); }
  IntegratorStatistics statistics() const override {
    IntegratorStatistics s;
    getter(IDAGetNumSteps(mem_, &s.steps), "IDAGetNumSteps");
    getter(IDAGetNumResEvals(mem_, &s.rhs_evaluations), "IDAGetNumResEvals");
    getter(IDAGetNumJacEvals(mem_, &s.jacobian_evaluations), "IDAGetNumJacEvals");
    getter(IDAGetNumLinSolvSetups(mem_, &s.linear_setups), "IDAGetNumLinSolvSetups");
    getter(IDAGetNumErrTestFails(mem_, &s.error_test_failures), "IDAGetNumErrTestFails");
    getter(IDAGetNumNonlinSolvIters(mem_, &s.nonlinear_iterations), "IDAGetNumNonlinSolvIters");
    getter(IDAGetNumNonlinSolvConvFails(mem_, &s.nonlinear_failures), "IDAGetNumNonlinSolvConvFails");
    if (root_count_ > 0)
      getter(IDAGetNumGEvals(mem_, &s.root_evaluations), "IDAGetNumGEvals");  // no root memory without roots
    getter(IDAGetLastStep(mem_, &s.last_step), "IDAGetLastStep");
    return s;
  }

 private:
  static int residual(double t, N_Vector y, N_Vector yp, N_Vector r, void* user) {
    auto* self = static_cast<Ida*>(user);
    return self->guard([&] {
      auto out = view(r);
      self->F_(t, view(y), view(yp), out);
    });
  }
  static int g(double t, N_Vector y, N_Vector, double* gout, void* user) {
    return static_cast<Ida*>(user)->call_roots(t, y, gout);
  }
  void root_init(int count) override { check_setup(IDARootInit(mem_, count, &Ida::g), "IDARootInit"); }
  void root_direction(int* d) override { check_setup(IDASetRootDirection(mem_, d), "IDASetRootDirection"); }

  Residual F_;
  VectorPtr y_, yp_, id_, work_;
  MatrixPtr A_;
  LinearSolverPtr LS_;
  void* mem_ = nullptr;
};

}  // namespace

std::unique_ptr<Integrator> make_integrator(const std::string& method, Rhs f, const Eigen::VectorXd& y0, double t0,
                                            Tolerances tol) {
  if (!(tol.rtol > 0) || !(tol.atol > 0))
    throw InputError(method + ": tolerances must be positive (rtol " + format_time(tol.rtol) + ", atol " +
                     format_time(tol.atol) + ")");
  if (method == "cvode_adams") return std::make_unique<Cvode>(true, std::move(f), y0, t0, tol);
  if (method == "cvode_bdf") return std::make_unique<Cvode>(false, std::move(f), y0, t0, tol);
  if (method == "arkode_dp5")
    return std::make_unique<ArkErk>(method, ARKODE_DORMAND_PRINCE_7_4_5, std::move(f), y0, t0, tol);
  if (method == "arkode_verner6")
    return std::make_unique<ArkErk>(method, ARKODE_VERNER_8_5_6, std::move(f), y0, t0, tol);
  if (method == "arkode_fehlberg8")
    return std::make_unique<ArkErk>(method, ARKODE_FEHLBERG_13_7_8, std::move(f), y0, t0, tol);
  throw InputError("unknown integration method '" + method +
                   "'; allowed: cvode_adams, cvode_bdf, arkode_dp5, "
                   "arkode_verner6, arkode_fehlberg8");
}

std::unique_ptr<Integrator> make_dae_integrator(Residual F, const Eigen::VectorXd& y0, const Eigen::VectorXd& yp0,
                                                const Eigen::VectorXd& differential, double t0, Tolerances tol,
                                                bool suppress_algebraic_error) {
  if (!(tol.rtol > 0) || !(tol.atol > 0)) throw InputError("ida: tolerances must be positive");
  return std::make_unique<Ida>(std::move(F), y0, yp0, differential, t0, tol, suppress_algebraic_error);
}

void declare_integrator_keys(Config& config, IntegratorOptions& o, const std::string& prefix) {
  config.add(prefix + ".method", &o.method, "ODE integrator (SUNDIALS)").choices(ode_methods());
  config.add(prefix + ".rtol", &o.rtol, "relative tolerance of the integrator").range(Range::positive());
  config.add(prefix + ".atol", &o.atol, "absolute tolerance of the integrator").range(Range::positive());
  config.add(prefix + ".max_steps", &o.max_steps, "most internal steps between two outputs")
      .range(Range::closed(1, 1e12));
}

}  // namespace cm
