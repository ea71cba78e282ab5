# Paper 003 (dem): the rescaled Rodrigues vector for the finite rotations of the spheres of a
# discrete element model. No study is built yet: the report is the comparison of its
# published values (configs/dem/published.tsv), each NOT-REPRODUCED-YET, until a solver in
# solvers/dem writes the runs spin, three and container that published.tsv names.
PAPERS += dem
dem_TITLE := A description of rotations for DEM models of particle systems
dem_STUDIES :=
dem_FIGURES :=
