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
# The figure beside the paper's row of the index (reports/index.html).
dem_INDEX_FIGURE := fig9
dem_FIGURES := fig5 spin_iterations fig7 fig9 fig10 fig11 fig12 reference_order top_order top_drift
dem_BENCH := bench-dem-container

# The container of Example 5.3 (the paper's seed, with and without rotations), then the same
# container scaled to 10^4 spheres (configs/dem/quick/bench_container_1e4.ini), run until the pour
# has reached the container: for each simulation the particle-steps per second of processor time
# over the whole run and from the first container contact on (the window with contacts), the
# iterations per step over both, and the contacts per sphere in that window. The measured times
# are among each run's statistics (cost_rot, cost_norot), the counts among its scalars. Within
# bench-dem the container run that cm_bench has just timed is read (its first seed is the paper's:
# the same simulations); alone, or when that run is older than the solver or the config, the
# paper's seed is run here.
# $(1) run directory, $(2) scalar, or statistics group, $(3) "value", or the statistic: one number
# of its run.json (cm_query)
dem_bench_value = $(BIN)/cm_query --runs="$(1)" $(if $(filter value,$(3)),--scalar="$(2)",--statistic="$(2).$(3)")

.PHONY: bench-dem-container
bench-dem-container:
	@mkdir -p results/bench
	@timed=results/bench/scratch/dem/container; \
	if [ -f $$timed/run.json ] && [ $$timed/run.json -nt $(BIN)/dem_container ] && \
	   [ $$timed/run.json -nt configs/dem/container.ini ]; then \
	  echo "the container of Example 5.3: the run timed by cm_bench, $$timed"; \
	else \
	  echo "$(BIN)/dem_container --config configs/dem/container.ini --seeds.extra= --output results/bench/dem-container --quiet"; \
	  $(BIN)/dem_container --config configs/dem/container.ini --seeds.extra= --output results/bench/dem-container --quiet; \
	fi
	$(BIN)/dem_container --config configs/dem/quick/bench_container_1e4.ini --output results/bench/dem-container-1e4 --quiet
	@timed=results/bench/scratch/dem/container; \
	if [ -f $$timed/run.json ] && [ $$timed/run.json -nt $(BIN)/dem_container ] && \
	   [ $$timed/run.json -nt configs/dem/container.ini ]; then first=$$timed; else first=results/bench/dem-container; fi; \
	for run in $$first results/bench/dem-container-1e4; do \
	  printf '%s: %s spheres, processor time with over without rotations %s, contact tests with over without %s\n' \
	    "$$run" "$$($(BIN)/cm_query --runs="$$run" --key=particles.n)" \
	    "$$($(call dem_bench_value,$$run,cost,cpu_seconds_ratio_rot_over_norot))" \
	    "$$($(call dem_bench_value,$$run,contact_tests_ratio_rot_over_norot,value))"; \
	  for sim in rot norot; do \
	    printf '  %-5s particle-steps/s %s, from the first contact on %s; processor s %s, from the first contact on %s; iterations/step %s, from the first contact on %s; contacts/sphere from the first contact on %s\n' "$$sim" \
	      "$$($(call dem_bench_value,$$run,cost_$$sim,particle_steps_per_second))" \
	      "$$($(call dem_bench_value,$$run,cost_$$sim,particle_steps_per_second_with_contacts))" \
	      "$$($(call dem_bench_value,$$run,cost_$$sim,cpu_seconds))" \
	      "$$($(call dem_bench_value,$$run,cost_$$sim,cpu_seconds_with_contacts))" \
	      "$$($(call dem_bench_value,$$run,iterations_mean_$$sim,value))" \
	      "$$($(call dem_bench_value,$$run,iterations_mean_with_contacts_$$sim,value))" \
	      "$$($(call dem_bench_value,$$run,contacts_per_particle_with_contacts_$$sim,value))"; \
	  done; \
	done
