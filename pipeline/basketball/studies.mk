# Paper 004 (basketball): a basketball rolling and slipping around the rim, a sphere on a torus.
PAPERS += basketball
basketball_TITLE := Nonlinear dynamics of a basketball rolling around the rim
basketball_FIG10 := $(foreach t,deadlock separatrix,$(foreach n,1 2 3,fig10_$(t)_$(n)))
basketball_STUDIES := steady floquet global fig11 fig12 fig13 sensitivity $(basketball_FIG10)
basketball_SOLVER.steady := bb_steady
basketball_SOLVER.floquet := bb_floquet
basketball_SOLVER.global := bb_global
basketball_SOLVER.fig11 := bb_outcome
basketball_SOLVER.fig12 := bb_outcome
basketball_SOLVER.fig13 := bb_outcome
basketball_SOLVER.sensitivity := bb_outcome
$(foreach s,$(basketball_FIG10),$(eval basketball_SOLVER.$(s) := bb_traj))
# The figure beside the paper's row of the index (reports/index.html).
basketball_INDEX_FIGURE := fig12
basketball_FIGURES := fig3 fig5 fig6 fig7 fig8 fig9 fig10 fig11 fig12 fig13 figX_connections figX_F2min
basketball_BENCH := bench-basketball-maps

# The cost of one outcome map (Fig. 11's four panels at 360 x 240) and of all twelve panels,
# each timed by cm_bench and written as a run in results/bench/basketball-maps.
.PHONY: bench-basketball-maps
bench-basketball-maps:
	@mkdir -p results/bench/scratch/basketball-maps
	@{ for f in 11 12 13; do printf '%s\t%s\n' "map_fig$$f" "$(BIN)/bb_outcome --config configs/basketball/fig$$f.ini --output results/bench/scratch/basketball-maps/fig$$f --quiet"; done; } > results/bench/scratch/basketball-maps.list
	$(BIN)/cm_bench --paper=basketball-maps --list=results/bench/scratch/basketball-maps.list --output=results/bench/basketball-maps

# The figure scripts load shared parts: a change there redraws the figures that use them.
$(foreach f,fig11 fig12 fig13,reports/basketball/figures/$(f).png): pipeline/basketball/map.gp
$(foreach f,fig3 fig5 fig6 fig7 fig8,reports/basketball/figures/$(f).png): pipeline/basketball/steady.gp
