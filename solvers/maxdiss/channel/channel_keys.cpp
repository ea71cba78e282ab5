// The keys of the granular channel (channel_keys.hpp).
#include "maxdiss/channel/channel_keys.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "core/run.hpp"
#include "core/text.hpp"

namespace md::granular {

void ChannelSetup::declare(cm::Config& c) {
  declare_channel(c);
  declare_solver(c);
  declare_ranks(c);
  c.check([&c, this] { check(c); });
}

void ChannelSetup::declare_channel(cm::Config& c) {
  // --- the channel (Sect. 4.3; spec 001, 3.4) ---
  c.add("channel.length", &channel.Lx, "channel length Lx (open end at x = Lx)")
      .unit("m")
      .range(cm::Range::positive())
      .physics();
  c.add("channel.width", &channel.Ly, "channel width Ly (walls at y = 0 and y = Ly)")
      .unit("m")
      .range(cm::Range::positive())
      .physics();
  c.add("channel.height", &channel.Lz, "channel height Lz (walls at z = 0 and z = Lz)")
      .unit("m")
      .range(cm::Range::positive())
      .physics();
  c.add("obstacle.centre", &obstacle_centre_, "axis of the half-cylinder (x, y)").unit("m").size(2).physics();
  c.add("obstacle.radius", &channel.obstacle.radius, "radius of the half-cylinder (and half-width of the box)")
      .unit("m")
      .range(cm::Range::positive())
      .physics();
  c.add("obstacle.box_length", &channel.obstacle.box_length, "length of the box behind the axis (x)")
      .unit("m")
      .range(cm::Range::nonnegative())
      .physics();
  c.add("particles.radius", &channel.R, "sphere radius R")
      .unit("m")
      .range(cm::Range::positive())
      .assumption(
          "TYPO: the paper prints 0.47 mm as a diameter, but its volume fraction (57.2 %), its penetration as a "
          "share of the radius (8.31 %) and its inflow rate (1.4e6/s) all need R = 0.47 mm (spec 001, 6.5 item 1)")
      .physics();
  c.add("particles.density", &channel.density, "density of the spheres (glass)")
      .unit("kg/m^3")
      .range(cm::Range::positive())
      .physics();
  c.add("particles.spacing", &channel.spacing, "grid of the initial arrangement and of the inflow layers")
      .unit("m")
      .range(cm::Range::positive())
      .physics();
  c.add("inflow.velocity", &channel.inflow_velocity, "plate velocity and initial v_x")
      .unit("m/s")
      .range(cm::Range::positive())
      .physics();
  c.add("inflow.perturbation", &channel.perturbation, "a of the initial v_y, v_z ~ U(-a, a)")
      .unit("m/s")
      .range(cm::Range::nonnegative())
      .physics();
  c.add("inflow.perturb_layers", &channel.perturb_layers, "the inflow layers get the same random v_y, v_z")
      .assumption("ASSUMED: the paper states the perturbation for the initial spheres only (spec 001, 6.5 item 12)")
      .physics();
  c.add_choice("initial.fill", &channel.initial_fill, {{"full", true}, {"empty", false}},
               "spheres on the grid through the whole channel at t = 0, or none")
      .assumption(
          "ASSUMED: the initial arrangement fills the whole channel (spec 001, 3.4), spheres overlapping "
          "the obstacle left out")
      .physics();
  c.add("friction.mu", &engine.mu, "friction coefficient between spheres").range(cm::Range::nonnegative()).physics();
  c.add("friction.mu_wall", &channel.mu_wall, "friction coefficient at walls, obstacle and plate")
      .range(cm::Range::nonnegative())
      .assumption("ASSUMED: the paper gives one coefficient, 0.4 (spec 001, 6.5 item 19)")
      .physics();
  c.add("gravity", &gravity_, "gravitational acceleration (x, y, z)").unit("m/s^2").size(3).physics();
  c.add("run.seed", &seed_, "seed of the random velocities")
      .range(cm::Range::closed(0, 9.007199254740992e15))
      .assumption("ASSUMED: the paper gives no seed")
      .physics();
}

void ChannelSetup::declare_solver(cm::Config& c) {
  c.add("time.dt", &engine.dt, "time step").unit("s").range(cm::Range::positive()).physics();
  // --- the multi-contact solver (none of it is in the paper) ---
  c.add("nbgs.sweeps", &engine.sweeps, "NBGS sweeps per time step")
      .range(cm::Range::closed(1, 10000))
      .assumption("ASSUMED: not in the paper; pe's default maxIterations = 10 (spec 001, 6.6)")
      .physics();
  c.add("nbgs.erp", &engine.erp, "error reduction eps of penetrating gaps, in [0, 1)")
      .range({0.0, 1.0, false, true})
      .assumption("ASSUMED: not in the paper; pe's default erp = 0.8 (spec 001, 6.6)")
      .physics();
  c.add("nbgs.threshold", &engine.threshold, "contact detection threshold: contact when the gap is below it")
      .unit("m")
      .range(cm::Range::nonnegative())
      .assumption("ASSUMED: not in the paper; pe's 1e-8 (spec 001, 6.6)")
      .physics();
  c.add("nbgs.relaxation", &engine.relaxation, "relaxation w of each block update, in (0, 1]")
      .range(cm::Range::open_closed(0.0, 1.0))
      .assumption("ASSUMED: not in the paper; 1 (plain Gauss-Seidel); pe's 0.75 applies across processes only")
      .physics();
  c.add_choice("nbgs.order", &engine.order,
               {{"colour", SweepOrder::colour}, {"slabs", SweepOrder::slabs}, {"detection", SweepOrder::detection}},
               "sweep order: colour by colour of a greedy colouring (threads share a colour), slabs of cells "
               "along the channel, even then odd, each colour by colour (threads share slabs), or detection "
               "order (one thread)")
      .assumption("ASSUMED: the paper's order is pe's process-local order; here a greedy colouring");
  c.add("nbgs.slab_columns", &engine.slab_columns, "columns of cells along the channel per slab (nbgs.order = slabs)")
      .range(cm::Range::closed(1, 1e6));
  c.add_choice("nbgs.lanes", &engine.vector_width,
               {{"widest", VectorWidth::widest},
                {"avx512", VectorWidth::avx512},
                {"avx2", VectorWidth::avx2},
                {"sse2", VectorWidth::sse2},
                {"one", VectorWidth::one}},
               "contacts of a colour relaxed (and candidates detected) at once in vector registers: the widest "
               "the processor has (widest), four with AVX-512VL's 32 registers, four with AVX2's 16, two, or one "
               "at a time (the reference the others reproduce bit for bit)")
      .no_data();
  c.add_choice("contact.point", &engine.contact_point,
               {{"midpoint", ContactPoint::midpoint}, {"body2_surface", ContactPoint::body2_surface}},
               "sphere-sphere contact point: middle of the overlap (pe) or surface of body 2 (the paper)")
      .assumption("ASSUMED: pe's midpoint; the paper's definition differs at O(xi) (spec 001, 2.4)")
      .physics();
  c.add_choice("coulomb.solver", &coulomb, {{"decoupling", CoulombSolver::decoupling}, {"exact", CoulombSolver::exact}},
               "the Coulomb law's block solver: exact (closed form) or normal/tangential decoupling with golden "
               "section (pe)")
      .assumption(
          "ASSUMED: the closed form; on a sphere contact the tangential block is isotropic, so the "
          "Coulomb impulse is the unconstrained one projected onto the friction disc, the unique solution "
          "that pe's InelasticCoulombContactByDecoupling approaches to its golden section's tolerance "
          "(spec 001, 2.6 and 6.6; decoupling reproduces pe's algorithm)")
      .physics();
  c.add("coulomb.golden_iterations", &engine.golden_iterations, "golden-section steps on the friction circle")
      .range(cm::Range::closed(1, 200))
      .assumption("ASSUMED: pe's maxSubIterations = 20 (spec 001, 6.6)")
      .physics();
  c.add("coulomb.decoupling_sweeps", &engine.decoupling_sweeps, "normal/tangential fixed-point sweeps at most")
      .range(cm::Range::closed(1, 1000))
      .physics();
  c.add("broadphase.reorder_every", &engine.reorder_every, "steps between two sorts of the spheres by cell")
      .range(cm::Range::closed(0, 1e9))
      .physics();
}

void ChannelSetup::declare_ranks(cm::Config& c) {
  // --- the split into subdomains (coupling = ranks or subdomains; decomposition.hpp) ---
  c.add_choice("coupling", &coupling_choice,
               {{"serial", CouplingChoice::serial},
                {"ranks", CouplingChoice::ranks},
                {"subdomains", CouplingChoice::subdomains}},
               "serial: the whole channel in one process; ranks: one subdomain of mpi.grid per MPI rank, under "
               "mpirun (a build with MPI); subdomains: every subdomain of mpi.grid in this process, on "
               "solver.threads threads, the bits of ranks on the same grid")
      .no_data();
  c.add("mpi.grid", &subdomains,
        "subdomains along x, y and z (the paper: 16, 10, 4 on 640 processes); coupling = ranks: one per MPI rank, "
        "the product the ranks of mpirun; serial: 1, 1, 1")
      .size(3)
      .range(cm::Range::closed(1, 1e6));
  c.add_choice("mpi.treat", &ghost_contacts,
               {{"smaller_id", GhostContacts::smaller_id}, {"contact_point", GhostContacts::contact_point}},
               "which subdomain relaxes a contact with a ghost: the one owning the sphere of smaller id, or pe's, the "
               "one whose box holds the contact point (two spheres of one subdomain always there)")
      .assumption(
          "ASSUMED: smaller_id; pe (the paper's solver) relaxes a contact with a shadow copy where its contact point "
          "lies (HCSITS), contact_point here");
  c.add("mpi.relaxation", &jacobi_relaxation,
        "omega of pe's weighted block Jacobi across subdomains: v = v0 + omega (sum of the subdomains' changes)")
      .range(cm::Range::open_closed(0.0, 1.0))
      .assumption(
          "ASSUMED: not in the paper; pe's default relaxationParameter = 0.75 (spec 001, 6.6), applied as pe does to "
          "every owned sphere after each sweep, with or without contacts across subdomains");
  c.add_choice("mpi.cuts", &cuts, {{"even", Cuts::even}, {"balanced", Cuts::balanced}},
               "where the cuts between subdomains lie: evenly along each axis (the paper's grid), or at the "
               "quantiles of the load of restart.from's frame along each split axis (each sphere one, each contact "
               "between two spheres mpi.contact_weight), so that every rank starts with as much work (a grid of "
               "another shape: its data differ from the even grid's as any two decompositions' do)")
      .assumption(
          "ASSUMED: the paper names its grid (16 x 10 x 4 subdomains on 640 processes) but not where the cuts lie; "
          "even cuts, pe's regular decomposition");
  c.add("mpi.contact_weight", &contact_weight,
        "the load of a contact between two spheres, in spheres, by which balanced cuts are placed (mpi.cuts): on the "
        "developed flow a step's sweeps take some 1.5 times as long per contact as the rest of it per sphere "
        "(md_channel_bench's phases)")
      .range(cm::Range::closed(0.0, 1e3));
  c.add("count.pe_grid", &pe_grid,
        "pe's blocks along x, y and z on which the contacts are also counted as pe counted them (the series' "
        "pe_contacts): each block its spheres' and its shadow copies' contacts before its filter, summed (the paper's "
        "grid: 16, 10, 4); the data of the simulation do not depend on it")
      .size(3)
      .range(cm::Range::closed(1, 1e4))
      .assumption(
          "ASSUMED: pe's count is taken as pe's getNumberOfContacts() summed over the blocks, a block holding a shadow "
          "copy of every sphere whose box, R + threshold about its centre, meets the block (pe's SyncNextNeighbors, dx "
          "= 0)");
  c.add("solver.threads", &engine.threads,
        "OpenMP threads (the data do not depend on it; on shared cores set OMP_WAIT_POLICY=PASSIVE, as make does)")
      .range(cm::Range::closed(1, cm::max_threads))
      .no_data();
}

void ChannelSetup::check(cm::Config& c) {
  channel.obstacle.cx = obstacle_centre_[0];
  channel.obstacle.cy = obstacle_centre_[1];
  channel.seed = static_cast<std::uint64_t>(seed_);
  engine.gravity = Vector3d(gravity_[0], gravity_[1], gravity_[2]);
  const auto& o = channel.obstacle;
  if (o.cx - o.radius < 0.0 || o.cx + o.box_length > channel.Lx || o.cy - o.radius < 0.0 ||
      o.cy + o.radius > channel.Ly)
    c.fail("obstacle.centre",
           "the obstacle must lie inside the channel (with obstacle.radius and obstacle.box_length)");
  if (2.0 * channel.R > channel.spacing)
    c.fail("particles.radius", "spheres of diameter " + cm::format_real(2 * channel.R) +
                                   " overlap on the grid of particles.spacing = " + cm::format_real(channel.spacing));
  if (2.0 * channel.R > std::min(channel.Ly, channel.Lz))
    c.fail("particles.radius", "a sphere does not fit between the walls of the channel");
  if (!(engine.threshold < channel.R)) c.fail("nbgs.threshold", "must be smaller than the sphere radius");
  if (engine.vector_width == VectorWidth::avx2 && !avx2_available())
    c.fail("nbgs.lanes", "avx2: this processor has no AVX2 (widest takes the widest it has)");
  if (engine.vector_width == VectorWidth::avx512 && !avx512_available())
    c.fail("nbgs.lanes", "avx512: this processor has no AVX-512VL (widest takes the widest it has)");
  // The spheres the channel holds on the grid of particles.spacing (the initial fill and the
  // inflow's layers lie on it), counted before any grid is built: each extent over the spacing.
  double spheres = 1.0;
  for (const double extent : {channel.Lx, channel.Ly, channel.Lz}) spheres *= std::max(1.0, extent / channel.spacing);
  cm::planned_bodies(c, spheres, "particles.spacing",
                     "spheres on the grid of particles.spacing through the channel (channel.length, channel.width, "
                     "channel.height)");
  // The memory of those spheres, counted before any is made: each sphere's arrays (centre,
  // velocities, radius, identity) and its share of the contacts of a packing at rest. There each
  // sphere touches about six others (each contact shared by two, so three per sphere), each
  // contact held as detected, in its colour's block of four and with its two sphere indices. A
  // lower bound (it leaves out the cells and the saved frames); over MPI each rank holds its share.
  constexpr double contacts_per_sphere = 3.0;
  const double per_sphere =
      sizeof(Vector3d) + sizeof(Velocities) + sizeof(double) + sizeof(std::uint64_t) +
      contacts_per_sphere * (sizeof(Contact) + sizeof(ContactBlock) / 4.0 + 2 * sizeof(std::int32_t));
  cm::planned_memory(c, spheres * per_sphere / static_cast<double>(ranks), "particles.spacing",
                     "spheres (" + cm::format_real(std::round(per_sphere)) + " bytes each with their contacts)");
  const long P = subdomains[0] * subdomains[1] * subdomains[2];
  if (coupling_choice != CouplingChoice::subdomains && P != ranks)
    c.fail("mpi.grid",
           std::to_string(P) + " subdomains for " + std::to_string(ranks) +
               (ranks == 1 ? " process: coupling = serial runs one subdomain; coupling = ranks runs one per "
                             "rank under mpirun -np P, coupling = subdomains all in one process"
                           : " ranks: one subdomain per rank of mpirun, e.g. " + std::to_string(ranks) + ", 1, 1"));
  const double extent[3] = {channel.Lx, channel.Ly, channel.Lz};
  for (std::size_t a = 0; a < 3; ++a)
    if (extent[a] / static_cast<double>(subdomains[a]) < reach())
      c.fail("mpi.grid", "a subdomain would be " + cm::format_real(extent[a] / static_cast<double>(subdomains[a])) +
                             " m thin along " + "xyz"[a] + ", less than the contact reach " + cm::format_real(reach()) +
                             " m: its ghosts would come from beyond its neighbours");
}

std::vector<std::string> channel_physics_keys() {
  cm::Config c("channel", "the keys of the granular channel");
  ChannelSetup setup;
  setup.declare(c);
  return c.physics_keys();
}

EngineOptions ChannelSetup::engine_for(ContactLaw law) const {
  EngineOptions eo = engine;
  if (coupling_choice == CouplingChoice::subdomains) eo.threads = 1;  // the threads take whole subdomains
  SubdomainGrid blocks;                                               // pe's regular grid over the channel: even cuts
  for (std::size_t a = 0; a < 3; ++a) blocks.p[a] = static_cast<int>(pe_grid[a]);
  blocks.box.lo = Vector3d::Zero();
  blocks.box.hi = Vector3d(channel.Lx, channel.Ly, channel.Lz);
  eo.pe_blocks = blocks;
  eo.solver = law == ContactLaw::maxdiss
                  ? BlockSolver::maxdiss
                  : (coulomb == CoulombSolver::exact ? BlockSolver::coulomb_exact : BlockSolver::coulomb_decoupling);
  return eo;
}

}  // namespace md::granular
