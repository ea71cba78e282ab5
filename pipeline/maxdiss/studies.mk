PAPERS += maxdiss
maxdiss_TITLE := The maximum dissipation principle in rigid-body dynamics with purely inelastic impacts
maxdiss_STUDIES := academic rod conic contact stepper channel
maxdiss_SOLVER.academic := md_academic
maxdiss_SOLVER.rod := md_rod
maxdiss_SOLVER.conic := md_conic
maxdiss_SOLVER.contact := md_contact
maxdiss_SOLVER.stepper := md_stepper
maxdiss_SOLVER.channel := md_channel
maxdiss_FIGURES := fig2 fig3 fig4 fig5 fig7 rod_mustar rod_map stepper_convergence stepper_trajectories \
  fig9 fig10 fig11 fig12 channel_timeseries
maxdiss_BENCH := bench-maxdiss-kernel bench-maxdiss-channel

# The single-contact kernel on 2^20 random problems per family (Google Benchmark, one core):
# targets under 100 ns per sphere contact and under 2 us per general contact.
.PHONY: bench-maxdiss-kernel
bench-maxdiss-kernel:
	@mkdir -p results/bench
	$(BIN)/md_bench --benchmark_out=results/bench/maxdiss-kernel.json --benchmark_out_format=json

# The granular channel's engine (md_channel_bench): sphere-steps and contact solves per second on
# 1 and 2 threads, the parallel efficiency and the memory per sphere, written as a run. Then the
# same timed state in LAMMPS' granular package (soft spheres: Hertz-Mindlin, the glass softened
# 1000 times, the time step its stability needs) on 1 and 2 MPI ranks, side by side: sphere-steps
# per second and seconds of flow per second of each (pipeline/maxdiss/lammps_channel.sh).
.PHONY: bench-maxdiss-channel
bench-maxdiss-channel:
	@mkdir -p results/bench
	$(BIN)/md_channel_bench --config configs/maxdiss/channel_bench.ini --output results/bench/maxdiss-channel
	@if [ -f results/bench/maxdiss-channel-lammps/in.channel ]; then rm -rf results/bench/maxdiss-channel-lammps; fi
	pipeline/maxdiss/lammps_channel.sh results/bench/maxdiss-channel results/bench/maxdiss-channel-lammps 1 2
