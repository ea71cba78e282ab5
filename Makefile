# The reproduction pipeline.
#
#   make all        install what is missing, build, run every study, draw every figure, compare with
#                   the published values, write every report (fails at the end if any value FAILs)
#   make test       build and run the test suite (ctest, all labels but `slow`), the unit tests
#                   under AddressSanitizer and UBSan
#   make bench      time every study, figure and report of each paper (written as runs in results/bench)
#   make archive    pack the current runs of every paper (or PAPER=...), their configs and reports into
#                   one reproducible archive/<archive id>.tar.gz with a manifest and citation metadata
#   make verify ARCHIVE=archive/<id>.tar.gz
#                   check the archive's manifest (65: damaged), re-run its runs, compare (1: drift);
#                   a run an archived run read and the archive lacks is taken from results/runs; a run
#                   of record (ARCHIVE=records/...) whose data differ is held to its averages, each
#                   within 3 combined batch-means standard errors (WITHIN-ERROR, cm_verify --batch_means)
#   make channel-steady   make paper 001's run of record (hours) into records/, which make all
#                   imports (records/README.md) and never re-runs
#   make cite RUN=<run id>   how to cite a run (BibTeX and plain text)
#   make pin RUN=<run id>    keep a run from make prune;   make prune   remove the runs of the store
#                   (results/runs) that no study names, no pin keeps and no archive holds
#   make check-published     the comparison with the published values again, failing on a FAIL
#                   (the last step of make all)
#   make references rewrite the stored regression references from the quick presets (review the diff!)
#   make clean      remove build trees, reports and the results' pointers; the run store
#                   (results/runs, results/pinned) is kept: `make prune` empties it
#
# Each paper plugs in through pipeline/<paper>/studies.mk (see pipeline/README.md): its studies, the
# executable of each, its figures. Incremental: a study re-runs when its config or its executable
# changes; figures and reports follow. Safe under make -j. KEEP=<paper>/<study> ... keeps runs that
# exist as they are (make all KEEP=maxdiss/channel after pipeline/cluster/bring_back.sh).

SHELL := /bin/bash
.DELETE_ON_ERROR:
.SUFFIXES:

BUILD ?= build
BUILD_SANITIZE ?= build-sanitize
BIN := $(BUILD)/bin
JOBS ?= 2
# The run store: every run kept by its id (results/<paper>/<study> links to the current one).
STORE := results/runs
CMAKE_FLAGS ?=
CTEST_FLAGS ?=

# OpenMP threads wait for each other at every colour of a sweep: spinning while they wait (GNU
# OpenMP's default) turns into waiting for the scheduler when the cores are shared (make -j, a
# second job), which slowed the granular channel tenfold; sleeping costs microseconds. A user's
# own setting wins.
export OMP_WAIT_POLICY ?= PASSIVE

PAPERS :=
include $(sort $(wildcard pipeline/*/studies.mk))

empty :=
space := $(empty) $(empty)
comma := ,
# A value given on the command line (ARCHIVE=, RUN=, PAPER=, JOBS=) reaches a recipe's shell only
# through this: one word in single quotes, whatever it holds ('RUN=x; touch y' is a run id that
# does not exist, never a command).
quote = '$(subst ','\'',$(1))'
# PAPER=, when given, must name papers of pipeline/*/studies.mk (it becomes target names).
ifneq ($(filter-out $(PAPERS),$(PAPER)),)
$(error PAPER: '$(PAPER)' is not a paper; the papers are $(PAPERS))
endif

.PHONY: all deps deps-test deps-bench build programs test test-sanitize bench archive references clean studies figures reports check-published \
  verify prune pin cite render-check
.DEFAULT_GOAL := all

# The studies JOBS at a time, then the figures, reports and PDFs. Most studies run on one thread;
# those with threads (the channel's two laws, the basketball maps) share the cores with another
# study, and OMP_WAIT_POLICY (above) keeps their threads from spinning. It builds only what it runs
# (programs); make test builds the rest.
all: programs
	$(MAKE) --no-print-directory -j $(call quote,$(JOBS)) studies
	$(MAKE) --no-print-directory -j $(call quote,$(JOBS)) reports
	$(MAKE) --no-print-directory check-published

# Each target installs what it uses (pipeline/install-deps: one list, grouped): make all its
# own packages, make test and make bench theirs besides.
deps:
	@pipeline/install-deps all
deps-test:
	@pipeline/install-deps test
deps-bench:
	@pipeline/install-deps bench

$(BUILD)/CMakeCache.txt: | deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

# Everything, the tests and the bench kernels included (CMake's CM_TESTS and CM_BENCH, which
# make all leaves off): what make test runs. The unit tests are left to the sanitizer tree
# (CM_UNIT_TESTS, test-sanitize), which runs them once.
build: deps-test $(BUILD)/CMakeCache.txt
	cmake -S . -B $(BUILD) -DCM_TESTS=ON -DCM_BENCH=ON -DCM_UNIT_TESTS=OFF >/dev/null
	cmake --build $(BUILD) -j $(call quote,$(JOBS))

# What make all runs: every program that is not a test (CMake's cm_programs: the solvers and the
# pipeline's tools); the test programs, about half of the build, are left to make test.
programs: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(call quote,$(JOBS)) --target cm_programs

test: build
	cd $(BUILD) && ctest --output-on-failure --no-tests=error -j $(call quote,$(JOBS)) -LE slow $(CTEST_FLAGS)
	$(MAKE) --no-print-directory test-sanitize

# The unit tests, built with AddressSanitizer and UndefinedBehaviorSanitizer (-O1, as
# the sanitizers advise): the test executables alone (cm_sanitized_tests, label sanitize).
# Clang builds them: a third faster than GCC on this code, and a second compiler's warnings. (Its
# own folder: a tree that changes compiler loses its -D options.) No test found is a failure.
test-sanitize: deps-test
	cmake -S . -B $(BUILD_SANITIZE) -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-O1 \
	  -DCM_SANITIZE=ON -DCM_TESTS=ON $(CMAKE_FLAGS) >/dev/null
	cmake --build $(BUILD_SANITIZE) -j $(call quote,$(JOBS)) --target cm_sanitized_tests
	cd $(BUILD_SANITIZE) && ctest --output-on-failure --no-tests=error -j $(call quote,$(JOBS)) -L sanitize -LE slow $(CTEST_FLAGS)

# --- studies, figures, comparison, reports (rules generated per paper) --------------------

# $(1) paper, $(2) study
# The run is kept in the run store as results/runs/<run id>; results/<paper>/<study> is a link to
# it (solvers/core/store.hpp). One progress line per study: paper, study, seconds.
# QUICK=1 runs a study from its quick preset configs/<paper>/quick/<study>.ini where it has one (for
# the end-to-end test of archive and verify; never for the reports of record).
study_config = $(if $(and $(QUICK),$(wildcard configs/$(1)/quick/$(2).ini)),configs/$(1)/quick/$(2).ini,configs/$(1)/$(2).ini)

# A config and the bases it names (`[config] base = FILE`, from the config's own folder), nearest
# first: a study's run depends on all of them, so it re-runs when a base changes. A base already in
# the chain ends it (the solver refuses the cycle).
config_base = $(shell awk -F= '{ sub(/\#.*/, "") } /^[ \t]*\[/ { s = $$0; gsub(/[][ \t]/, "", s); next } \
  s == "config" && $$1 ~ /^[ \t]*base[ \t]*$$/ { v = $$2; gsub(/^[ \t]+|[ \t]+$$/, "", v); print v }' $(1) 2>/dev/null)
config_chain = $(if $(filter $(abspath $(1)),$(2)),,$(1) $(foreach b,$(call config_base,$(1)),\
  $(call config_chain,$(if $(filter /%,$(b)),$(b),$(dir $(1))$(b)),$(2) $(abspath $(1)))))

# KEEP=<paper>/<study> ... keeps those studies' runs as they are while they exist (a run brought
# back from a cluster, pipeline/cluster/README.md): their rules then have no prerequisites, so a
# newer solver or config never re-runs them; a missing run is still made. Passed on to the makes
# that make all starts.
# A study may read the runs of other studies of its paper (<paper>_NEEDS.<study>: a channel that
# goes on from another run's saved state) and run under a launcher (<paper>_LAUNCH.<study>:
# mpirun over ranks); both are optional.
define study_rule
results/$(1)/$(2)/run.json: $(if $(filter $(1)/$(2),$(KEEP)),,$(call config_chain,$(call study_config,$(1),$(2))) $(BIN)/$($(1)_SOLVER.$(2)) \
  $(foreach n,$($(1)_NEEDS.$(2)),results/$(1)/$(n)/run.json))
	@t0=$$$$(date +%s%N); \
	$($(1)_LAUNCH.$(2)) $(BIN)/$($(1)_SOLVER.$(2)) --config $(call study_config,$(1),$(2)) --output results/$(1)/$(2) \
	  --output.store=$(STORE) --quiet && \
	printf 'study  %-12s %-28s %8.1f s\n' $(1) $(2) "$$$$(( ($$$$(date +%s%N) - t0) / 1000000 ))e-3"
endef

# $(1) paper, $(2) figure
define figure_rule
reports/$(1)/figures/$(2).png: pipeline/$(1)/$(2).gp pipeline/gnuplot/common.gp \
  $(foreach s,$($(1)_STUDIES) $($(1)_RECORD_STUDIES),results/$(1)/$(s)/run.json)
	@mkdir -p reports/$(1)/figures
	gnuplot -e "results='results/$(1)'; out='reports/$(1)/figures/$(2)'; term='pdf'" pipeline/$(1)/$(2).gp
	gnuplot -e "results='results/$(1)'; out='reports/$(1)/figures/$(2)'; term='png'" pipeline/$(1)/$(2).gp
endef

# The figure beside each paper's row of the index: <paper>_INDEX_FIGURE, or its first figure.
index_figure = $(or $($(1)_INDEX_FIGURE),$(firstword $($(1)_FIGURES)))
index_figures = $(if $(strip $(foreach p,$(PAPERS),$(call index_figure,$(p)))),--index-figures=$(subst $(space),$(comma),$(strip \
  $(foreach p,$(PAPERS),$(if $(call index_figure,$(p)),$(p):$(call index_figure,$(p)))))))

# --figure-list=a,b of paper $(1); nothing for a paper without figures (an empty value is refused).
figure_list = $(if $(strip $($(1)_FIGURES)),--figure-list=$(subst $(space),$(comma),$(strip $($(1)_FIGURES))))

# $(1) paper
define paper_rules
$(1)_RUNS := $(foreach s,$($(1)_STUDIES) $($(1)_RECORD_STUDIES),results/$(1)/$(s)/run.json)
$(1)_PNGS := $(foreach f,$($(1)_FIGURES),reports/$(1)/figures/$(f).png)

# cm_compare exits 1 when a row's status is not the one published.tsv expects: the report is still
# written, `make check-published` fails after it (any other exit status is an error that stops here). A paper whose
# studies are not built yet has an empty results/<paper>: its values are NOT-REPRODUCED-YET.
reports/$(1)/comparison.tsv: configs/$(1)/published.tsv $$($(1)_RUNS) $(BIN)/cm_compare
	@mkdir -p reports/$(1) results/$(1)
	$(BIN)/cm_compare --published=configs/$(1)/published.tsv --results=results/$(1) --out=$$@ || [ $$$$? -eq 1 ]

reports/$(1)/index.html: reports/$(1)/comparison.tsv $$($(1)_PNGS) pipeline/$(1)/intro.md $(BIN)/cm_report
	$(BIN)/cm_report --paper=$(1) --title="$($(1)_TITLE)" --results=results/$(1) \
	  --comparison=reports/$(1)/comparison.tsv --figures=reports/$(1)/figures --figure-sources=pipeline/$(1) \
	  $(call figure_list,$(1)) --intro=pipeline/$(1)/intro.md --out=reports/$(1) \
	  $(if $(wildcard $(RECORDS)/index.tsv),--records=$(RECORDS)/index.tsv $$(call same_solvers,$(1)))

# A PDF of the paper's report, to attach to a submission: the HTML printed by headless Chromium
# (pipeline/install-deps installs it; no LaTeX, no network), through a hidden temporary file.
reports/$(1)/$(1).pdf: reports/$(1)/index.html
	@profile=$$$$(mktemp -d) && trap 'rm -rf "$$$$profile"' EXIT && \
	chromium --headless=new --no-sandbox --disable-gpu --no-first-run --user-data-dir="$$$$profile" \
	  --no-pdf-header-footer --virtual-time-budget=5000 --print-to-pdf=reports/$(1)/.$(1).pdf.partial \
	  "file://$(CURDIR)/reports/$(1)/index.html" >/dev/null 2>&1; \
	[ -s reports/$(1)/.$(1).pdf.partial ] || { echo "no PDF of reports/$(1)/index.html (chromium failed)" >&2; exit 1; }; \
	mv reports/$(1)/.$(1).pdf.partial $$@

$(foreach s,$($(1)_STUDIES),$(eval $(call study_rule,$(1),$(s))))
$(foreach f,$($(1)_FIGURES),$(eval $(call figure_rule,$(1),$(f))))
endef

# --- runs of record (records/README.md) -------------------------------------------------------

# A run too long for make all (hours) is made once by its own target (make channel-steady),
# archived by cm_archive into $(RECORDS)/<archive id>.tar.gz and committed with
# $(RECORDS)/index.tsv, one line per run a record holds: <archive id> TAB <run id> TAB
# <paper>/<study>. make all imports each into the run store (cm_import: the record's manifest
# checked as make verify checks an archive, a damaged record refused with exit 65, nothing left
# behind) and links results/<paper>/<study> to it, as if the study had run; it never re-runs it.
# The study is one of the paper's runs for its comparison and report, and no study of make all
# (<paper>_STUDIES) may have its name. A study's last line wins: cm_archive appends, so a newer
# record of a study comes after the older. A line of another grammar stops make, naming it.
RECORDS ?= records
# --same-solvers=<revisions> of paper $(1) for cm_report: the revisions at which the sources its
# solvers are built from are this checkout's, the last commit that changed them and every commit
# since. Those sources are solvers/core, solvers/numerics, solvers/<paper> (a paper's model links
# those libraries alone) and the CMake files that hold the flags; another paper's solvers are not among
# them, so a change there leaves this paper's record current. A record made at one of the
# revisions is what a build at one of them writes, and the report says so instead of calling it
# older. Nothing outside a git checkout (an unpacked archive): then only the build's own revision
# counts as the record's.
same_solvers = $(addprefix --same-solvers=,$(shell last=$$(git log -1 --format=%H -- solvers/core solvers/numerics solvers/common solvers/$(1) \
  solvers/CMakeLists.txt CMakeLists.txt 2>/dev/null) && [ -n "$$last" ] && \
  { echo "$$last"; git rev-list --ancestry-path "$$last..HEAD"; } | paste -sd, -))
record_bad := $(shell [ ! -f $(RECORDS)/index.tsv ] || \
  grep -nvE $$'^([0-9a-f]{64}\t[0-9a-f]{64}\t[a-z0-9_]{1,64}/[a-z0-9_]{1,64})?$$' $(RECORDS)/index.tsv | head -n 1 | cut -d: -f1)
ifneq ($(record_bad),)
$(error $(RECORDS)/index.tsv:$(record_bad): not <archive id> TAB <run id> TAB <paper>/<study> (records/README.md))
endif
# <archive id>:<run id>:<paper>/<study>, one word per study.
RECORD_LINES := $(shell [ ! -f $(RECORDS)/index.tsv ] || grep -v '^$$' $(RECORDS)/index.tsv | tac | \
  awk -F'\t' '!seen[$$3]++ { print $$1 ":" $$2 ":" $$3 }')
record_field = $(word $(2),$(subst :, ,$(subst /, ,$(1))))
record_eval = $(eval $(call record_rule,$(call record_field,$(1),1),$(call record_field,$(1),2),$(call record_field,$(1),3),$(call record_field,$(1),4)))

# $(1) archive id, $(2) run id, $(3) paper, $(4) study
define record_rule
$(if $(filter $(3),$(PAPERS)),,$(error $(RECORDS)/index.tsv: '$(3)' of $(3)/$(4) is not a paper; the papers are $(PAPERS)))
$(if $(filter $(4),$($(3)_STUDIES)),$(error $(RECORDS)/index.tsv: $(3)/$(4) is a study of make all; a run of record has a study of its own))
$(3)_RECORD_STUDIES += $(4)
$(3)_FIGURES += $($(3)_RECORD_FIGURES.$(4))
results/$(3)/$(4)/run.json: $(RECORDS)/$(1).tar.gz | $(BIN)/cm_import
	@mkdir -p results
	$(BIN)/cm_import --archive=$(RECORDS)/$(1).tar.gz --study=$(3)/$(4) --run=$(2) --results=results
endef
$(foreach r,$(RECORD_LINES),$(call record_eval,$(r)))

# A record that the index lists and that is not there.
$(RECORDS)/%.tar.gz:
	@echo "$(RECORDS)/index.tsv lists the record $@, which is not there (git checkout it, or remove its line)" >&2; exit 2

$(foreach p,$(PAPERS),$(eval $(call paper_rules,$(p))))

studies: $(foreach p,$(PAPERS),$($(p)_RUNS))
figures: $(foreach p,$(PAPERS),$($(p)_PNGS))

reports/index.html: $(foreach p,$(PAPERS),reports/$(p)/index.html reports/$(p)/$(p).pdf) $(BIN)/cm_report
	$(BIN)/cm_report --index=true --reports=reports $(index_figures) --out=reports/index.html

reports: reports/index.html

# Every page of reports/ rendered in headless Chromium: fails on a console error, a missing image
# or a broken link; screenshots in $(BUILD)/render/screenshots (tests/pipeline/render_reports.sh).
render-check: reports
	tests/pipeline/render_reports.sh reports $(BUILD)/render

# The last step of `make all`: every paper's comparison once more, failing on any row whose status
# is not the one published.tsv expects (in either direction, each such row printed), with a closing
# summary per paper (its counts and the seconds its current runs took). STRICT=1 fails on every
# DISAGREES row too. Not to be confused with `make verify ARCHIVE=...`, which re-runs an archive.
check-published: $(foreach p,$(PAPERS),reports/$(p)/comparison.tsv)
	@status=0; for p in $(PAPERS); do \
	  rc=0; out=$$($(BIN)/cm_compare --published=configs/$$p/published.tsv --results=results/$$p \
	    --out=$(BUILD)/check-$$p.tsv $(if $(STRICT),--strict=true)) || rc=$$?; \
	  [ $$rc -eq 0 ] || { status=1; printf '%s\n' "$$out" | tail -n +2 >&2; }; \
	  line=$$(printf '%s\n' "$$out" | sed -n 1p); \
	  runs=$$(for r in results/$$p/*/run.json; do [ -f "$$r" ] && \
	    ! grep -qs "	$$p/$$(basename "$${r%/run.json}")$$" $(RECORDS)/index.tsv && printf '%s,' "$${r%/run.json}"; done); \
	  secs=$$( { [ -z "$$runs" ] || $(BIN)/cm_query --runs="$${runs%,}" --field=wall_time_s; } | \
	    awk '{ s += $$1 } END { printf "%.1f", s }'); \
	  printf 'paper  %-12s %s; runs took %s s\n' "$$p" "$$line" "$$secs"; \
	done; exit $$status

# --- bench ---------------------------------------------------------------------------------

# For each paper: every study, every figure and the report, timed one by one (cm_bench writes
# the timings as a run in results/bench/<paper>); a paper's own benchmark, if it has one
# ($(paper)_BENCH, a make target), runs after.
bench: bench-programs
	@set -e; for p in $(PAPERS); do \
	  $(MAKE) --no-print-directory bench-$$p; \
	done

define bench_rule
.PHONY: bench-$(1)
bench-$(1):
	@mkdir -p results/bench/scratch
	@rm -rf results/bench/scratch/$(1) && mkdir -p results/bench/scratch/$(1)/figures
	@{ $(foreach s,$($(1)_STUDIES),printf '%s\t%s\n' 'study_$(s)' '$(BIN)/$($(1)_SOLVER.$(s)) --config configs/$(1)/$(s).ini --output results/bench/scratch/$(1)/$(s) --quiet';) \
	   $(foreach f,$($(1)_FIGURES),printf '%s\t%s\n' 'figure_$(f)' "gnuplot -e \"results='results/bench/scratch/$(1)'; out='results/bench/scratch/$(1)/figures/$(f)'; term='png'\" pipeline/$(1)/$(f).gp && gnuplot -e \"results='results/bench/scratch/$(1)'; out='results/bench/scratch/$(1)/figures/$(f)'; term='pdf'\" pipeline/$(1)/$(f).gp";) \
	   printf '%s\t%s\n' 'compare' '$(BIN)/cm_compare --published=configs/$(1)/published.tsv --results=results/bench/scratch/$(1) --out=results/bench/scratch/$(1)/comparison.tsv || [ $$$$? -eq 1 ]'; \
	   printf '%s\t%s\n' 'report' '$(BIN)/cm_report --paper=$(1) --title="$($(1)_TITLE)" --results=results/bench/scratch/$(1) --comparison=results/bench/scratch/$(1)/comparison.tsv --figures=results/bench/scratch/$(1)/figures --figure-sources=pipeline/$(1) $(call figure_list,$(1)) --intro=pipeline/$(1)/intro.md --out=results/bench/scratch/$(1)'; \
	 } > results/bench/scratch/$(1).list
	$(BIN)/cm_bench --paper=$(1) --list=results/bench/scratch/$(1).list --output=results/bench/$(1)
	$(if $($(1)_BENCH),$(MAKE) --no-print-directory $($(1)_BENCH))
endef
$(foreach p,$(PAPERS),$(eval $(call bench_rule,$(p))))

# A paper's own benchmarks ($(paper)_BENCH) run timing harnesses that make all's programs leave
# out (cm_bench_program in CMake): they are built first, whichever benchmark is asked for alone.
.PHONY: bench-programs
# (Two builds: the first regenerates the build system where a CMake file changed, so that the
# second knows every harness target.)
bench-programs: deps-bench $(BUILD)/CMakeCache.txt
	cmake -S . -B $(BUILD) -DCM_BENCH=ON >/dev/null
	cmake --build $(BUILD) -j $(call quote,$(JOBS)) --target cm_programs
	cmake --build $(BUILD) -j $(call quote,$(JOBS)) --target cm_bench_programs
$(foreach p,$(PAPERS),$($(p)_BENCH)): | bench-programs

# --- the run store, archives, citations ------------------------------------------------------

# One archive of the current runs of every paper (or of PAPER=...), with their configs, reports,
# figures, a manifest of SHA-256 hashes, CITATION.cff and per-paper metadata, written as
# archive/<archive id>.tar.gz (the SHA-256 of its manifest, which lists every file's SHA-256: the
# same content gives the same id, and the id names the whole content).
# archive/index.tsv lists the runs each archive holds; `make prune` keeps them. The reports are
# brought up to date first (which runs what is out of date).
archive: programs
	$(MAKE) --no-print-directory $(if $(PAPER),reports/$(PAPER)/index.html reports/$(PAPER)/$(PAPER).pdf,reports)
	@mkdir -p archive
	@list=$$(mktemp) && trap 'rm -f "$$list"' EXIT && \
	{ $(foreach p,$(or $(PAPER),$(PAPERS)),printf '%s\t%s\n' '$(p)' '$($(p)_TITLE)';) } > "$$list" && \
	$(BIN)/cm_archive --papers-file="$$list" --results=results --reports=reports --configs=configs --archives=archive

# Checks an archive's manifest (exit 65 when it is damaged), re-runs its runs with this build and
# compares them column by column (exit 1 on drift). Not the comparison with the published values
# at the end of `make all`: that is `make check-published`.
verify: programs
	@[ -n $(call quote,$(ARCHIVE)) ] || { echo "make verify: ARCHIVE=archive/<archive id>.tar.gz is required" >&2; exit 2; }
	$(BIN)/cm_verify --archive=$(call quote,$(ARCHIVE)) --bin=$(BIN) --store=$(STORE) \
	  $(if $(filter $(RECORDS)/%,$(ARCHIVE)),--batch_means)

# How to cite a run (BibTeX and plain text): make cite RUN=<run id>.
cite:
	@[[ $(call quote,$(RUN)) =~ ^[0-9a-f]{8,64}$$ ]] || { echo "make cite: RUN=<run id, or 8 or more of its first hex digits> is required" >&2; exit 2; }
	@$(MAKE) --no-print-directory programs >/dev/null
	@$(BIN)/cm_cite --run=$(call quote,$(RUN)) --results=results --archives=archive,$(RECORDS)

# Removes the runs of results/runs that no study names, no pin keeps and no archive holds.
prune: programs
	$(BIN)/cm_prune --results=results --archives=archive

# Keeps a run from `make prune`: make pin RUN=<run id> (results/pinned/<run id>).
pin:
	@[[ $(call quote,$(RUN)) =~ ^[0-9a-f]{64}$$ ]] || { echo "make pin: RUN must be a run id (64 hex digits)" >&2; exit 2; }
	@[ -d results/runs/$(RUN) ] || { echo "make pin: no run $(RUN) in results/runs" >&2; exit 2; }
	@mkdir -p results/pinned && touch results/pinned/$(RUN) && echo "pinned $(RUN)"

# --- references, clean ---------------------------------------------------------------------

references: build
	cd $(BUILD) && CM_UPDATE_REFERENCES=1 ctest -L regression --output-on-failure
	@git status --short tests

clean:
	rm -rf $(BUILD) $(BUILD_SANITIZE)
	find results -mindepth 1 -maxdepth 1 ! -name runs ! -name pinned -exec rm -rf {} + 2>/dev/null || true
	find reports -mindepth 1 ! -name README.md -delete 2>/dev/null || true
