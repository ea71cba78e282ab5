PAPERS += maxdiss
maxdiss_TITLE := The maximum dissipation principle in rigid-body dynamics with purely inelastic impacts
maxdiss_STUDIES := academic rod conic contact stepper channel
maxdiss_SOLVER.academic := md_academic
maxdiss_SOLVER.rod := md_rod
maxdiss_SOLVER.conic := md_conic
maxdiss_SOLVER.contact := md_contact
maxdiss_SOLVER.stepper := md_stepper
# The granular channel, its presets, the steady pair and the run of record: solvers/maxdiss/channel/README.md.
# make bench makes its own frame of the channel's developed flow (channel_developed.ini).
maxdiss_SOLVER.channel := md_channel
# pipeline/mpirun-signals: mpirun, exiting 130 or 143 when interrupted or terminated (mpirun: 1).
MPIRUN := pipeline/mpirun-signals --oversubscribe $(if $(filter 0,$(shell id -u)),--allow-run-as-root)
# The steady pair (solvers/maxdiss/channel/README.md), never run by make all. Its second run is the
# run of record, written into a results tree that names it alone and archived from there into
# records/ by cm_archive (records/README.md).
CHANNEL_RECORD := results/record
# The parts of a run made in parts: runs of the study channel_settle or channel_steady under other
# names, so kept apart from results/maxdiss, where a folder is its study's run (cm_report and
# cm_compare refuse a run in the folder of another study).
CHANNEL_PARTS := results/parts/maxdiss
# The settle run's frame, which the steady window (steady.ini's restart.from) and the bench of the
# paper's channel go on from.
CHANNEL_SETTLED := results/maxdiss/channel_settle
.PHONY: channel-settle channel-steady
# make channel-steady goes on from a settle run already there rather than settling again; make
# channel-settle always runs it anew. Runs in parts (SETTLE_UNTIL, SETTLE_FROM, SETTLE_AVERAGE_FROM,
# STEADY_UNTIL, STEADY_FROM): solvers/maxdiss/channel/README.md.
define channel_settle_run
	$(BIN)/md_channel --config $(call study_config,maxdiss,steady_settle) --output $(CHANNEL_SETTLED) \
	  --output.store=$(STORE)
endef
channel-settle: programs
	$(channel_settle_run)
$(CHANNEL_SETTLED)/run.json: | programs
	$(channel_settle_run)
.PHONY: channel-settle-part channel-settle-rest
channel-settle-part: programs
	$(if $(SETTLE_UNTIL),,$(error channel-settle-part: give SETTLE_UNTIL, the time in s at which this part stops))
	$(BIN)/md_channel --config $(call study_config,maxdiss,steady_settle) \
	  --output $(call quote,$(CHANNEL_PARTS)/channel_settle_to_$(SETTLE_UNTIL)) --time.t_end=$(call quote,$(SETTLE_UNTIL)) \
	  --average.t_start=$(call quote,$(or $(SETTLE_AVERAGE_FROM),0)) \
	  $(if $(SETTLE_FROM),--restart.from=$(call quote,$(SETTLE_FROM))) --output.store=$(STORE)
channel-settle-rest: programs
	$(if $(SETTLE_FROM),,$(error channel-settle-rest: give SETTLE_FROM, the part (make channel-settle-part) to go on from))
	$(BIN)/md_channel --config $(call study_config,maxdiss,steady_settle) --output $(CHANNEL_SETTLED) \
	  --restart.from=$(call quote,$(SETTLE_FROM)) --output.store=$(STORE)
define channel_record_archive
	@mkdir -p $(RECORDS) $(CHANNEL_RECORD)/reports
	printf 'maxdiss\t%s\n' '$(maxdiss_TITLE)' >$(CHANNEL_RECORD)/papers.tsv
	$(BIN)/cm_archive --papers-file=$(CHANNEL_RECORD)/papers.tsv --results=$(CHANNEL_RECORD) \
	  --reports=$(CHANNEL_RECORD)/reports --configs=configs --archives=$(RECORDS)
	@echo "channel-steady: commit the new record and its line of $(RECORDS)/index.tsv (git add $(RECORDS)); an older" \
	  "record of maxdiss/channel_steady is no longer read (the last line of a study wins): git rm it and its line"
endef
.PHONY: channel-steady-part channel-steady-rest
channel-steady: programs $(CHANNEL_SETTLED)/run.json
	$(BIN)/md_channel --config $(call study_config,maxdiss,steady) --output $(CHANNEL_RECORD)/maxdiss/channel_steady \
	  --output.store=$(STORE)
	$(channel_record_archive)
# The window in parts (solvers/maxdiss/channel/README.md): the last part is the run of record.
channel-steady-part: programs $(CHANNEL_SETTLED)/run.json
	$(if $(STEADY_UNTIL),,$(error channel-steady-part: give STEADY_UNTIL, the time in s at which this part stops))
	$(BIN)/md_channel --config $(call study_config,maxdiss,steady) \
	  --output $(call quote,$(CHANNEL_PARTS)/channel_steady_to_$(STEADY_UNTIL)) --time.t_end=$(call quote,$(STEADY_UNTIL)) \
	  --state.write $(if $(STEADY_FROM),--restart.from=$(call quote,$(STEADY_FROM)) --restart.law=same) \
	  --output.store=$(STORE)
channel-steady-rest: programs
	$(if $(STEADY_FROM),,$(error channel-steady-rest: give STEADY_FROM, the part (make channel-steady-part) to go on from))
	$(BIN)/md_channel --config $(call study_config,maxdiss,steady) --output $(CHANNEL_RECORD)/maxdiss/channel_steady \
	  --restart.from=$(call quote,$(STEADY_FROM)) --restart.law=same --output.store=$(STORE)
	$(channel_record_archive)

# The ablation of Table 2's contact count (solvers/maxdiss/channel/README.md): each variant a run
# of md_channel from the settle run's frame over ablation.ini's window with one choice changed,
# then md_channel_ablation sets them side by side, its run archived into records/ as the record is.
# A variant is a name and its keys; a key of the channel the frame's run had otherwise is named in
# restart.vary too. Choices the paper leaves unstated take another plausible value: friction at the
# walls 0.1 instead of 0.4, no box behind the obstacle, the paper's contact point instead of pe's.
CHANNEL_ABLATION := $(CHANNEL_PARTS)/ablation
ABLATION_VARIANTS := baseline pe_grid pe_grid_without_relaxation two_subdomains sweeps_20 erp_0 erp_095 \
  threshold_0 seed_2 layers_unperturbed mu_wall_01 contact_point_paper order_detection no_obstacle_box
ablation.pe_grid := --coupling=subdomains --mpi.grid=16,10,4 --mpi.treat=contact_point
ablation.pe_grid_without_relaxation := $(ablation.pe_grid) --mpi.relaxation=1
ablation.two_subdomains := --coupling=subdomains --mpi.grid=2,1,1
ablation.sweeps_20 := --nbgs.sweeps=20 --restart.vary=nbgs.sweeps
ablation.erp_0 := --nbgs.erp=0 --restart.vary=nbgs.erp
ablation.erp_095 := --nbgs.erp=0.95 --restart.vary=nbgs.erp
ablation.threshold_0 := --nbgs.threshold=0 --restart.vary=nbgs.threshold
ablation.seed_2 := --run.seed=2 --restart.vary=run.seed
ablation.layers_unperturbed := --inflow.perturb_layers=false --restart.vary=inflow.perturb_layers
ablation.mu_wall_01 := --friction.mu_wall=0.1 --restart.vary=friction.mu_wall
ablation.contact_point_paper := --contact.point=body2_surface --restart.vary=contact.point
ablation.order_detection := --nbgs.order=detection
ablation.no_obstacle_box := --obstacle.box_length=0 --restart.vary=obstacle.box_length
.PHONY: channel-ablation
$(CHANNEL_ABLATION)/%/run.json: | programs $(CHANNEL_SETTLED)/run.json
	$(BIN)/md_channel --config $(call study_config,maxdiss,ablation) --output $(CHANNEL_ABLATION)/$* \
	  $(ablation.$*) --output.store=$(STORE)
channel-ablation: $(foreach v,$(ABLATION_VARIANTS),$(CHANNEL_ABLATION)/$(v)/run.json)
	$(BIN)/md_channel_ablation \
	  --ablation.runs=$(subst $(space),$(comma),$(foreach v,$(ABLATION_VARIANTS),$(CHANNEL_ABLATION)/$(v))) \
	  --output $(CHANNEL_RECORD)/maxdiss/channel_ablation --output.store=$(STORE)
	$(channel_record_archive)

# A record's own figures, drawn only while records/index.tsv lists it (pipeline/README.md).
maxdiss_RECORD_FIGURES.channel_ablation := channel_ablation

# The figure beside the paper's row of the index (reports/index.html).
maxdiss_INDEX_FIGURE := fig9
maxdiss_FIGURES := fig2 fig3 fig4 fig5 fig7 rod_mustar rod_map stepper_convergence stepper_trajectories \
  fig9 fig10 fig11 fig12 channel_timeseries
maxdiss_BENCH := bench-maxdiss-kernel bench-maxdiss-channel bench-maxdiss-channel-paper bench-maxdiss-mpi

# The single-contact kernel on 2^20 random problems per family (Google Benchmark, one core):
# targets under 100 ns per sphere contact and under 2 us per general contact.
.PHONY: bench-maxdiss-kernel
bench-maxdiss-kernel:
	@mkdir -p results/bench
	$(BIN)/md_bench --benchmark_out=results/bench/maxdiss-kernel.json --benchmark_out_format=json

# The bench's frame: the default channel run on to t = 0.06 s (configs/maxdiss/channel_developed.ini),
# each law's last frame saved. Made when missing or older than its configs or md_channel; make all
# never runs it.
MAXDISS_FRAME := results/bench/maxdiss-frame
$(MAXDISS_FRAME)/run.json: $(call config_chain,configs/maxdiss/channel_developed.ini) $(BIN)/md_channel
	@mkdir -p results/bench
	$(BIN)/md_channel --config configs/maxdiss/channel_developed.ini --output $(MAXDISS_FRAME) --quiet

# The granular channel's engine (md_channel_bench) on the developed flow of the bench's frame
# (above): sphere-steps and contact solves per second
# on 1 and 2 threads, the contacts per sphere of the timed state, the parallel efficiency and the
# memory per sphere, written as a run. Then the
# same timed state in LAMMPS' granular package (soft spheres: Hertz-Mindlin, the glass softened
# 1000 times, the time step its stability needs) on 1 and 2 MPI ranks, side by side: sphere-steps
# per second and seconds of flow per second of each (pipeline/maxdiss/lammps_channel.sh).
.PHONY: bench-maxdiss-channel
# $(1) the bench's preset, $(2) its run, $(3) further keys: the engine timed, then LAMMPS on the
# state it timed ($(2)-lammps, replaced when it is lammps_channel.sh's)
define channel_bench
	@mkdir -p results/bench
	$(BIN)/md_channel_bench --config $(1) --output $(2) $(3)
	@if [ -f $(2)-lammps/in.channel ]; then rm -rf $(2)-lammps; fi
	CM_QUERY=$(BIN)/cm_query pipeline/maxdiss/lammps_channel.sh $(2) $(2)-lammps 1 2
endef
bench-maxdiss-channel: $(MAXDISS_FRAME)/run.json
	$(call channel_bench,configs/maxdiss/channel_bench.ini,results/bench/maxdiss-channel)

# The same on the flow Table 2 averages: the paper's channel at t = 1.1 s, the settle run's frame
# (configs/maxdiss/channel_bench_paper.ini), with LAMMPS on that state beside it. The frame takes
# hours (make channel-settle) and the bench never makes it: where it is missing, this target says
# so, NOT TIMED, and times nothing.
.PHONY: bench-maxdiss-channel-paper
bench-maxdiss-channel-paper:
	$(if $(wildcard $(CHANNEL_SETTLED)/run.json),\
	  $(call channel_bench,configs/maxdiss/channel_bench_paper.ini,results/bench/maxdiss-channel-paper,\
	    --bench.from=$(call quote,$(CHANNEL_SETTLED))),\
	  @echo "bench-maxdiss-channel-paper: NOT TIMED: no settled frame of the paper's channel at $(CHANNEL_SETTLED) (make channel-settle, hours)")

# The channel over MPI ranks (coupling = ranks in both presets; solvers/maxdiss/channel/README.md):
# strong scaling on the flow at t = 0.06 s (not shown to be steady), gone on from the bench's frame
# (configs/maxdiss/channel_mpi_bench.ini) on 1
# and 2 ranks split along x, and weak scaling on the
# developing flow from t = 0 (channel_mpi_bench_weak.ini: a channel half as high on 1 rank, the
# full height on 2, split along z); then md_mpi_scaling: sphere-steps per second per rank,
# parallel efficiency, bytes sent per step per rank, and the paper's run projected onto 640 ranks
# from the rates on that flow (results/bench/maxdiss-mpi/scaling). The strong scaling again with
# the two ranks' cut placed by the frame's load (mpi.cuts = balanced: strong_2_balanced, and
# md_mpi_scaling's table of it in scaling_balanced); the even cut is the paper's grid. Each run is
# a new folder: an earlier bench's runs are replaced by the solvers themselves (they replace only
# their own runs).
MPI_BENCH := results/bench/maxdiss-mpi
MPI_BENCH_RUN = OMP_WAIT_POLICY=PASSIVE $(MPIRUN) -np $(1) $(BIN)/md_channel \
  --config configs/maxdiss/$(2).ini --run.study=$(3) --output $(MPI_BENCH)/$(3) $(4)
.PHONY: bench-maxdiss-mpi
bench-maxdiss-mpi: $(MAXDISS_FRAME)/run.json
	@command -v mpirun >/dev/null || { echo "bench-maxdiss-mpi: mpirun (openmpi-bin) is not installed" >&2; exit 2; }
	@mkdir -p $(MPI_BENCH)
	$(call MPI_BENCH_RUN,1,channel_mpi_bench,strong_1,)
	$(call MPI_BENCH_RUN,2,channel_mpi_bench,strong_2,--mpi.grid=2$(comma)1$(comma)1)
	$(call MPI_BENCH_RUN,2,channel_mpi_bench,strong_2_balanced,--mpi.grid=2$(comma)1$(comma)1 --mpi.cuts=balanced)
	$(call MPI_BENCH_RUN,1,channel_mpi_bench_weak,weak_1,--channel.height=0.01)
	$(call MPI_BENCH_RUN,2,channel_mpi_bench_weak,weak_2,--mpi.grid=1$(comma)1$(comma)2)
	$(BIN)/md_mpi_scaling --scaling.strong=$(MPI_BENCH)/strong_1,$(MPI_BENCH)/strong_2 \
	  --scaling.weak=$(MPI_BENCH)/weak_1,$(MPI_BENCH)/weak_2 --output $(MPI_BENCH)/scaling
	$(BIN)/md_mpi_scaling --scaling.strong=$(MPI_BENCH)/strong_1,$(MPI_BENCH)/strong_2_balanced \
	  --scaling.weak=$(MPI_BENCH)/weak_1,$(MPI_BENCH)/weak_2 --output $(MPI_BENCH)/scaling_balanced
