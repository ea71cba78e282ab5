# The reproduction pipeline.
#
#   make all        install what is missing, build, run every study, draw every figure, compare with
#                   the published values, write every report (fails at the end if any value FAILs)
#   make test       build and run the test suite (ctest, all labels but `slow`), then the unit tests
#                   again under AddressSanitizer and UBSan
#   make bench      time every study, figure and report of each paper (written as runs in results/bench)
#   make archive    pack every run into archive/<run id>.tar.gz, citable by its id
#   make references rewrite the stored regression references from the quick presets (review the diff!)
#   make clean      remove build trees, results and reports
#
# Each paper plugs in through pipeline/<paper>/studies.mk (see pipeline/README.md): its studies, the
# executable of each, its figures. Incremental: a study re-runs when its config or its executable
# changes; figures and reports follow. Safe under make -j.

SHELL := /bin/bash
.DELETE_ON_ERROR:
.SUFFIXES:

BUILD ?= build
BUILD_ASAN ?= build-asan
BIN := $(BUILD)/bin
JOBS ?= 2
CMAKE_FLAGS ?=
CTEST_FLAGS ?=

PAPERS :=
include $(sort $(wildcard pipeline/*/studies.mk))

empty :=
space := $(empty) $(empty)
comma := ,

.PHONY: all deps build test test-unit test-sanitize bench archive references clean studies figures reports verify
.DEFAULT_GOAL := all

all: build
	$(MAKE) --no-print-directory reports
	$(MAKE) --no-print-directory verify

deps:
	@pipeline/install-deps

$(BUILD)/CMakeCache.txt: | deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

build: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) -LE slow $(CTEST_FLAGS)
	$(MAKE) --no-print-directory test-sanitize

# The unit tests again, built with AddressSanitizer and UndefinedBehaviorSanitizer (-O1, as
# the sanitizers advise; cm_unit_tests also builds the tools and solvers that unit tests run).
test-sanitize: deps
	cmake -S . -B $(BUILD_ASAN) -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-O1 -DCM_SANITIZE=ON \
	  $(CMAKE_FLAGS) >/dev/null
	cmake --build $(BUILD_ASAN) -j $(JOBS) --target cm_unit_tests
	cd $(BUILD_ASAN) && ctest --output-on-failure -j $(JOBS) -L unit -LE slow $(CTEST_FLAGS)

# --- studies, figures, comparison, reports (rules generated per paper) --------------------

# $(1) paper, $(2) study
define study_rule
results/$(1)/$(2)/run.json: configs/$(1)/$(2).ini $(BIN)/$($(1)_SOLVER.$(2))
	$(BIN)/$($(1)_SOLVER.$(2)) --config configs/$(1)/$(2).ini --output results/$(1)/$(2) --quiet
endef

# $(1) paper, $(2) figure
define figure_rule
reports/$(1)/figures/$(2).png: pipeline/$(1)/$(2).gp pipeline/gnuplot/common.gp $(foreach s,$($(1)_STUDIES),results/$(1)/$(s)/run.json)
	@mkdir -p reports/$(1)/figures
	gnuplot -e "results='results/$(1)'; out='reports/$(1)/figures/$(2)'; term='pdf'" pipeline/$(1)/$(2).gp
	gnuplot -e "results='results/$(1)'; out='reports/$(1)/figures/$(2)'; term='png'" pipeline/$(1)/$(2).gp
endef

# --figure-list=a,b of paper $(1); nothing for a paper without figures (an empty value is refused).
figure_list = $(if $(strip $($(1)_FIGURES)),--figure-list=$(subst $(space),$(comma),$(strip $($(1)_FIGURES))))

# $(1) paper
define paper_rules
$(1)_RUNS := $(foreach s,$($(1)_STUDIES),results/$(1)/$(s)/run.json)
$(1)_PNGS := $(foreach f,$($(1)_FIGURES),reports/$(1)/figures/$(f).png)

# cm_compare exits 1 when a value FAILs or its study did not run: the report is still written,
# `make verify` fails after it (any other status is an error that stops here). A paper whose
# studies are not built yet has an empty results/<paper>: its values are NOT-REPRODUCED-YET.
reports/$(1)/comparison.tsv: configs/$(1)/published.tsv $$($(1)_RUNS) $(BIN)/cm_compare
	@mkdir -p reports/$(1) results/$(1)
	$(BIN)/cm_compare --published=configs/$(1)/published.tsv --results=results/$(1) --out=$$@ || [ $$$$? -eq 1 ]

reports/$(1)/index.html: reports/$(1)/comparison.tsv $$($(1)_PNGS) pipeline/$(1)/intro.md $(BIN)/cm_report
	$(BIN)/cm_report --paper=$(1) --title="$($(1)_TITLE)" --results=results/$(1) \
	  --comparison=reports/$(1)/comparison.tsv --figures=reports/$(1)/figures --figure-sources=pipeline/$(1) \
	  $(call figure_list,$(1)) --intro=pipeline/$(1)/intro.md --out=reports/$(1)

$(foreach s,$($(1)_STUDIES),$(eval $(call study_rule,$(1),$(s))))
$(foreach f,$($(1)_FIGURES),$(eval $(call figure_rule,$(1),$(f))))
endef

$(foreach p,$(PAPERS),$(eval $(call paper_rules,$(p))))

studies: $(foreach p,$(PAPERS),$($(p)_RUNS))
figures: $(foreach p,$(PAPERS),$($(p)_PNGS))

reports/index.html: $(foreach p,$(PAPERS),reports/$(p)/index.html) $(BIN)/cm_report
	$(BIN)/cm_report --index=true --reports=reports --out=reports/index.html

reports: reports/index.html

# Every paper's comparison once more, now failing on any FAIL.
verify: $(foreach p,$(PAPERS),reports/$(p)/comparison.tsv)
	@status=0; for p in $(PAPERS); do \
	  $(BIN)/cm_compare --published=configs/$$p/published.tsv --results=results/$$p \
	    --out=$(BUILD)/verify-$$p.tsv || status=1; \
	done; exit $$status

# --- bench ---------------------------------------------------------------------------------

# For each paper: every study, every figure and the report, timed one by one (cm_bench writes
# the timings as a run in results/bench/<paper>); a paper's own benchmark, if it has one
# ($(paper)_BENCH, a make target), runs after.
bench: build
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

# --- archive, references, clean ----------------------------------------------------------

# Only committed runs: a directory whose name starts with a dot (.<study>.partial-<pid>,
# .<study>.old-<pid>) is the leftover of an interrupted solver run, never archived. A run is
# listed in archive/index.tsv only once its archive is complete; any failure stops the target.
archive:
	@mkdir -p archive
	@for run in results/*/*/run.json; do \
	  [ -f "$$run" ] || continue; dir=$$(dirname "$$run"); \
	  case "$$(basename "$$dir")/$$(basename "$$(dirname "$$dir")")" in .*|*/.*) continue;; esac; \
	  id=$$(sed -n 's/^  "run_id": "\([0-9a-f]*\)",$$/\1/p' "$$run"); \
	  [ -n "$$id" ] || { echo "no run id in $$run" >&2; exit 1; }; \
	  if [ ! -f archive/$$id.tar.gz ]; then \
	    tar -czf archive/$$id.tar.gz.partial -C "$$(dirname "$$dir")" "$$(basename "$$dir")" && \
	    mv archive/$$id.tar.gz.partial archive/$$id.tar.gz && \
	    printf '%s\t%s\n' "$$id" "$$dir" >> archive/index.tsv || \
	    { echo "cannot archive $$dir" >&2; rm -f archive/$$id.tar.gz.partial; exit 1; }; \
	    echo "archived $$dir as archive/$$id.tar.gz"; \
	  fi; \
	done

references: build
	cd $(BUILD) && CM_UPDATE_REFERENCES=1 ctest -L regression --output-on-failure
	@git status --short tests

clean:
	rm -rf $(BUILD) $(BUILD_ASAN) results
	find reports -mindepth 1 ! -name README.md -delete 2>/dev/null || true
