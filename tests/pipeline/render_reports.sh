#!/usr/bin/env bash
# Renders every report page (*.html below REPORTS) in headless Chromium (Debian's `chromium`,
# installed by pipeline/install-deps) and fails on a console error, a script error, a resource
# that does not load, an image that is not shown, or a link to a local file that does not exist.
# A screenshot of every page is kept in ARTEFACTS/screenshots (the test's artefacts).
#   render_reports.sh REPORTS ARTEFACTS
# Each page is checked on a copy (ARTEFACTS/pages) with render/check.html injected at its top;
# the reports themselves are never changed. Exit status: 0 every page clean, 1 a page has a
# problem, 2 bad input (no pages), 77 Chromium is not installed (SKIPPED, said loudly).
set -u
reports=$1 artefacts=$2
here=$(cd "$(dirname "$0")" && pwd)
chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ]; then
  echo "SKIPPED: chromium is not installed (pipeline/install-deps installs it): NO REPORT PAGE WAS RENDERED" >&2
  exit 77
fi
[ -d "$reports" ] || { echo "render_reports.sh: '$reports' is not a directory" >&2; exit 2; }
rm -rf "$artefacts" && mkdir -p "$artefacts/screenshots" && cp -r "$reports" "$artefacts/pages" || exit 1
mapfile -t pages < <(cd "$artefacts/pages" && find . -name '*.html' ! -name '.*' | sort)
[ ${#pages[@]} -gt 0 ] || { echo "render_reports.sh: no *.html below '$reports'" >&2; exit 2; }
# A private profile, so that parallel tests and the user's own browser never share one.
profile="$artefacts/profile"
flags=(--headless=new --no-sandbox --disable-gpu --no-first-run --user-data-dir="$profile"
       --allow-file-access-from-files --virtual-time-budget=5000 --window-size=1280,2000)
failures=0
for page in "${pages[@]}"; do
  page=${page#./}
  file="$artefacts/pages/$page"
  url="file://$(cd "$(dirname "$file")" && pwd)/$(basename "$file")"
  shot="$artefacts/screenshots/$(tr '/' '_' <<<"${page%.html}").png"
  timeout 120 "$chromium" "${flags[@]}" --screenshot="$shot" "$url" >/dev/null 2>&1
  # The check goes right after <head>, before anything of the page runs.
  sed -i -e '0,/<head>/{s#<head>#<head>\n@RENDER-CHECK@\n#}' "$file"
  sed -i -e "/^@RENDER-CHECK@\$/{r $here/render/check.html" -e 'd}' "$file"
  dom=$(timeout 120 "$chromium" "${flags[@]}" --dump-dom "$url" 2>/dev/null)
  problems=()
  report=$(sed -n '/<pre id="render-check">RENDER-CHECK/,/<\/pre>/p' <<<"$dom" | sed 's/<[^>]*>//g')
  if [ -z "$report" ]; then
    problems+=("the page did not finish loading (no render check)")
  elif ! grep -q '^RENDER-CHECK 0$' <<<"$(head -1 <<<"$report")"; then
    while IFS= read -r line; do problems+=("$line"); done < <(tail -n +2 <<<"$report")
  fi
  # Local links (not http(s), mailto or a fragment of the page) must name an existing file.
  while IFS= read -r href; do
    target=${href%%#*}
    target=${target%%\?*}
    [ -z "$target" ] && continue
    case "$target" in http:* | https:* | mailto:* | data:*) continue ;; esac
    [ -e "$(dirname "$file")/$target" ] || problems+=("broken link: $href")
  done < <(grep -o 'href="[^"]*"' <<<"$dom" | sed 's/^href="//; s/"$//' | sed 's/&amp;/\&/g')
  [ -s "$shot" ] || problems+=("no screenshot")
  if [ ${#problems[@]} -eq 0 ]; then
    echo "ok   $page"
  else
    failures=$((failures + 1))
    echo "FAIL $page"
    printf '       %s\n' "${problems[@]}"
  fi
done
rm -rf "$profile"
echo "${#pages[@]} pages rendered, $failures with problems; screenshots in $artefacts/screenshots"
[ "$failures" -eq 0 ]
