#!/usr/bin/env bash
# The granular channel's timed state (md_channel_bench's state.tsv) run by LAMMPS' granular package,
# the soft-sphere tool researchers would pick instead, side by side with the hard-contact engine
# (issue: "the usual soft-sphere tool needs time steps about 5 times smaller even with 1000-times
# softened glass"). Same spheres, positions, velocities and spins, same walls (y = 0, y = Ly,
# z = 0, z = Lz), the same obstacle (half-cylinder and box along z), the inflow plate as a fixed
# wall at its position, gravity, friction mu (the obstacle as two walls, cylinder and box, which
# meet on two edges where a sphere may touch both); Hertz contacts (hertz/material) with Mindlin
# tangential springs and Tsuji damping, the glass softened by SOFTEN. No inflow layers and no
# deletion at the outlet: over a timing of a few hundred steps they change the count by a few
# percent (spheres that leave the box are dropped, and counted).
#
#   pipeline/maxdiss/lammps_channel.sh BENCH_RUN OUT_DIR [RANKS...]
#
# BENCH_RUN is a run directory of md_channel_bench (state.tsv, run.json); OUT_DIR must not exist
# (it is created); RANKS are the MPI rank counts to time (default: 1 2). Writes OUT_DIR/in.channel,
# OUT_DIR/data.channel, one log per rank count, and OUT_DIR/timings.tsv; prints the comparison.
# Exit status: 0, 1 when LAMMPS fails, 2 on bad input.
#
# Assumed (none of it is in the paper; each is a variable below, echoed into timings.tsv):
#   E = 63 GPa, nu = 0.24 (soda-lime glass), softened by SOFTEN = 1000;
#   restitution e = 0.1 (the hard contacts are purely inelastic, which a damped spring cannot be);
#   time step 0.2 of the Rayleigh time pi R sqrt(rho / G) / (0.1631 nu + 0.8766), the usual
#   stability margin of soft-sphere DEM codes; neighbour skin 0.2 R;
#   STEPS = 200 steps timed after 20 steps of start-up (neighbour lists, contact histories).
set -euo pipefail

usage() { echo "usage: $0 BENCH_RUN OUT_DIR [RANKS...]" >&2; exit 2; }
[[ $# -ge 2 ]] || usage
run=$1 out=$2
shift 2
ranks=("$@")
[[ ${#ranks[@]} -gt 0 ]] || ranks=(1 2)
for p in "${ranks[@]}"; do
  [[ $p =~ ^[1-9][0-9]*$ ]] || { echo "$0: rank count '$p' is not a positive integer" >&2; exit 2; }
done
[[ -f $run/state.tsv && -f $run/run.json ]] || { echo "$0: $run is not a run of md_channel_bench (state.tsv, run.json)" >&2; exit 2; }
[[ ! -e $out ]] || { echo "$0: $out exists; it is not overwritten" >&2; exit 2; }
command -v lmp >/dev/null || { echo "$0: lmp (Debian package lammps) is not installed" >&2; exit 2; }
command -v mpirun >/dev/null || { echo "$0: mpirun (Debian package openmpi-bin) is not installed" >&2; exit 2; }

SOFTEN=${SOFTEN:-1000}
STEPS=${STEPS:-200}
E_GLASS=63e9
NU=0.24
RESTITUTION=0.1
RAYLEIGH_SHARE=0.2

# a key of the bench run's configuration and a scalar of its results, read by the run reader
# (cm_query; CM_QUERY names it, by default the build's)
query=${CM_QUERY:-$(dirname "$0")/../../build/bin/cm_query}
[[ -x $query ]] || { echo "$0: cm_query not found at $query (make build, or set CM_QUERY)" >&2; exit 2; }
key() {
  local v
  v=$("$query" --runs="$run" --key="$1") || { echo "$0: $run/run.json has no key $1" >&2; exit 2; }
  echo "$v"
}
scalar() { "$query" --runs="$run" --scalar="$1" 2>/dev/null; }
Lx=$(key channel.length) Ly=$(key channel.width) Lz=$(key channel.height)
IFS=, read -r cx cy <<<"$(key obstacle.centre)"
r_obst=$(key obstacle.radius) box=$(key obstacle.box_length)
rho=$(key particles.density) R=$(key particles.radius)
mu=$(key friction.mu) mu_wall=$(key friction.mu_wall) dt_hard=$(key time.dt)
IFS=, read -r gx gy gz <<<"$(key gravity)"
plate=$(scalar plate_position) || { echo "$0: $run/run.json has no scalar plate_position" >&2; exit 2; }

mkdir -p "$out"
# The time step and the damping of the softened glass.
read -r E G dt <<<"$(awk -v E="$E_GLASS" -v s="$SOFTEN" -v nu="$NU" -v R="$R" -v rho="$rho" -v f="$RAYLEIGH_SHARE" \
  'BEGIN { e = E / s; g = e / (2 * (1 + nu)); pi = atan2(0, -1);
           t = pi * R * sqrt(rho / g) / (0.1631 * nu + 0.8766); printf "%.9g %.9g %.9g\n", e, g, f * t }')"

# The data file: atom-ID type diameter density x y z, then the velocities and spins.
awk -v rho="$rho" -v Lx="$Lx" -v Ly="$Ly" -v Lz="$Lz" -v R="$R" '
  !/^#/ && NF == 10 { n++; line[n] = $0 }
  END {
    printf "LAMMPS data: the timed state of md_channel_bench\n\n%d atoms\n1 atom types\n\n", n
    printf "%.9g %.9g xlo xhi\n0 %.9g ylo yhi\n0 %.9g zlo zhi\n\nAtoms # sphere\n\n", -4 * R, Lx + 4 * R, Ly, Lz
    for (i = 1; i <= n; i++) { split(line[i], c, "\t"); printf "%d 1 %.17g %.17g %.17g %.17g %.17g\n", i, 2 * c[10], rho, c[1], c[2], c[3] }
    printf "\nVelocities\n\n"
    for (i = 1; i <= n; i++) { split(line[i], c, "\t"); printf "%d %.17g %.17g %.17g %.17g %.17g %.17g\n", i, c[4], c[5], c[6], c[7], c[8], c[9] }
  }' "$run/state.tsv" >"$out/data.channel"
spheres=$(grep -c -v '^#' "$run/state.tsv")

g=$(awk -v x="$gx" -v y="$gy" -v z="$gz" 'BEGIN { printf "%.9g", sqrt(x * x + y * y + z * z) }')
contact="hertz/material $E $RESTITUTION $NU tangential mindlin NULL 1.0"
cat >"$out/in.channel" <<EOF
# The granular channel's timed state in LAMMPS (written by pipeline/maxdiss/lammps_channel.sh)
units           si
atom_style      sphere
boundary        f f f
newton          off
comm_modify     vel yes
read_data       data.channel
neighbor        $(awk -v R="$R" 'BEGIN { printf "%.9g", 0.2 * R }') bin
neigh_modify    delay 0 every 1 check yes
pair_style      granular
pair_coeff      * * $contact $mu damping tsuji
fix             walls all wall/gran granular $contact $mu_wall damping tsuji yplane 0 $Ly
fix             floor all wall/gran granular $contact $mu_wall damping tsuji zplane 0 $Lz
fix             plate all wall/gran granular $contact $mu_wall damping tsuji xplane $plate NULL
# the obstacle as two walls (a union region made LAMMPS 20220106 unstable at once): the cylinder,
# whose downstream half lies inside the box, and the box
region          cylinder cylinder z $cx $cy $r_obst 0 $Lz side out
region          box block $cx $(awk -v a="$cx" -v b="$box" 'BEGIN { printf "%.9g", a + b }') $(awk -v a="$cy" -v b="$r_obst" 'BEGIN { printf "%.9g %.9g", a - b, a + b }') 0 $Lz side out
fix             cylinder all wall/gran/region granular $contact $mu_wall damping tsuji region cylinder
fix             box all wall/gran/region granular $contact $mu_wall damping tsuji region box
fix             gravity all gravity $g vector $gx $gy $gz
fix             integrate all nve/sphere
timestep        $dt
thermo          $STEPS
thermo_modify   lost ignore norm no
run             20
run             $STEPS
EOF

printf '# schema: cm-tsv 1\n# LAMMPS (granular package) on the timed state of %s: E %s Pa (glass %s / %s), nu %s, e %s, dt %s s (%s of the Rayleigh time), %s steps\n' \
  "$run" "$E" "$E_GLASS" "$SOFTEN" "$NU" "$RESTITUTION" "$dt" "$RAYLEIGH_SHARE" "$STEPS" >"$out/timings.tsv"
printf '# columns: ranks[1]\tspheres[1]\tdt[s]\tseconds[s]\tsphere_steps_per_second[1/s]\tsimulated_seconds_per_second[1]\n' >>"$out/timings.tsv"
for p in "${ranks[@]}"; do
  log="$out/log.$p"
  if ! (cd "$out" && mpirun --allow-run-as-root --oversubscribe -np "$p" lmp -in in.channel -log "log.$p" -screen none); then
    echo "$0: LAMMPS failed on $p ranks (see $log)" >&2
    exit 1
  fi
  # the last "Loop time of T on P procs for N steps with A atoms" is the timed run
  read -r seconds atoms <<<"$(sed -n 's/^Loop time of \([^ ]*\) on .* for .* steps with \([0-9]*\) atoms.*/\1 \2/p' "$log" | tail -1)"
  awk -v p="$p" -v a="$atoms" -v n="$spheres" -v dt="$dt" -v s="$seconds" -v k="$STEPS" 'BEGIN {
    rate = 0.5 * (n + a) * k / s; printf "%d\t%d\t%.6g\t%.6g\t%.6g\t%.6g\n", p, a, dt, s, rate, k * dt / s }' >>"$out/timings.tsv"
done

# Side by side with the hard-contact engine on the same state (its time step is time.dt).
echo "LAMMPS granular on the channel's timed state ($spheres spheres; time step $dt s, the hard-contact engine's $dt_hard s):"
awk -F'\t' '!/^#/ { printf "  %d rank(s): %.3g sphere-steps/s, %.3g s of flow per second\n", $1, $5, $6 }' "$out/timings.tsv"
for law in maxdiss coulomb; do
  for t in 1 2; do
    rate=$(scalar "sphere_steps_per_second_${law}_${t}_threads") || continue
    awk -v law="$law" -v t="$t" -v r="$rate" -v n="$spheres" -v dt="$dt_hard" 'BEGIN {
      printf "  hard contacts, %s, %d thread(s): %.3g sphere-steps/s, %.3g s of flow per second\n", law, t, r, r * dt / n }'
  done
done
