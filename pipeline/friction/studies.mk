# Paper 000 (friction): dry friction with combined slip and spin over a circular contact region.
PAPERS += friction
friction_TITLE := Nonlinear approximate models of dry friction with combined slip and spin at a circular contact region, and the slip-stick transitions of a disc and a ball
friction_STUDIES := exact linear harmonic legendre disc ball portraits stopping properties formulas
friction_SOLVER.exact := fr_exact
friction_SOLVER.linear := fr_linear
friction_SOLVER.harmonic := fr_harmonic
friction_SOLVER.legendre := fr_legendre
friction_SOLVER.disc := fr_disc
friction_SOLVER.ball := fr_ball
friction_SOLVER.portraits := fr_portraits
friction_SOLVER.stopping := fr_stopping
friction_SOLVER.properties := fr_properties
friction_SOLVER.formulas := fr_formulas
# The figure beside the paper's row of the index (reports/index.html).
friction_INDEX_FIGURE := fig3
friction_FIGURES := fig3 fig4 fig5 fig6 fig7 fig8 fig9 fig10 fig11 fig12 fig13 fig14 fig15 fig16 fig17 fig18 stopping
friction_BENCH := bench-friction-models

# One evaluation of the exact friction law and of each approximate model (Google Benchmark).
.PHONY: bench-friction-models
bench-friction-models: ; @mkdir -p results/bench && $(BIN)/fr_bench --benchmark_out=results/bench/friction-models.json --benchmark_out_format=json
