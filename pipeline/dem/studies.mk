# Paper 003 (dem): the rescaled Rodrigues vector for the finite rotations of the spheres of a
# discrete element model. Studies: spin (Example 5.1), three (Example 5.2), container (Example 5.3,
# both simulations and the extra seeds in one run), reference (the time integration against CVODE).
PAPERS += dem
dem_TITLE := A description of rotations for DEM models of particle systems
dem_STUDIES := spin three container reference
dem_SOLVER.spin := dem_spin
dem_SOLVER.three := dem_three
dem_SOLVER.container := dem_container
dem_SOLVER.reference := dem_reference
dem_FIGURES := fig5 spin_iterations fig7 fig9 fig10 fig11 fig12 reference_order top_order
dem_BENCH := bench-dem-container

# The container of Example 5.3 (the paper's seed only, with and without rotations), then the same
# container scaled to 10^4 spheres for 0.1 s: particle-steps per second (processor time) and
# iterations per step, from the scalars of each run.
.PHONY: bench-dem-container
bench-dem-container:
	@mkdir -p results/bench
	$(BIN)/dem_container --config configs/dem/container.ini --seeds.extra= --output results/bench/dem-container --quiet
	$(BIN)/dem_container --config configs/dem/quick/bench_container_1e4.ini --output results/bench/dem-container-1e4 --quiet
	@for run in results/bench/dem-container results/bench/dem-container-1e4; do \
	  printf '%s:' "$$run"; \
	  for s in particle_steps_per_second_rot particle_steps_per_second_norot iterations_mean_rot iterations_mean_norot; do \
	    printf ' %s=%s' "$$s" "$$(sed -n '/"'"$$s"'"/,/value/s/.*"value": \([^,}]*\).*/\1/p' $$run/run.json | head -1)"; \
	  done; echo; \
	done
