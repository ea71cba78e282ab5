#!/usr/bin/env bash
# A small report (the fixture paper with one real figure) and its index, written by cm_report,
# then rendered by render_reports.sh in headless Chromium: no console error, missing image or
# broken link; the screenshots stay in SCRATCH/artefacts/screenshots.
#   test_render.sh CM_REPORT FIXTURES SCRATCH
set -u
report=$1 fixtures=$2 scratch=$3
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$scratch" && mkdir -p "$scratch/reports/fixture/figures" || exit 1
cp "$fixtures/render/fig_a.png" "$fixtures/render/fig_a.pdf" "$scratch/reports/fixture/figures/"
cp "$fixtures/comparison_ok.tsv" "$scratch/reports/fixture/comparison.tsv"
cd "$fixtures" || exit 1
"$report" --paper=fixture --title=Fixture --results=results --comparison=comparison_ok.tsv \
  --figures="$scratch/reports/fixture/figures" --figure-sources=figure-sources --figure-list=fig_a \
  --intro=intro.md --out="$scratch/reports/fixture" || exit 1
"$report" --index=true --reports="$scratch/reports" --index-figures=fixture:fig_a \
  --out="$scratch/reports/index.html" || exit 1
exec "$here/render_reports.sh" "$scratch/reports" "$scratch/artefacts"
