# Paper 003 (dem): the rescaled Rodrigues vector for the finite rotations of the spheres of a
# discrete element model. Studies: spin (Example 5.1), three (Example 5.2).
PAPERS += dem
dem_TITLE := A description of rotations for DEM models of particle systems
dem_STUDIES := spin three
dem_SOLVER.spin := dem_spin
dem_SOLVER.three := dem_three
dem_FIGURES := fig5 spin_iterations fig7
