PAPERS += maxdiss
maxdiss_TITLE := The maximum dissipation principle in rigid-body dynamics with purely inelastic impacts
maxdiss_STUDIES := academic rod conic contact
maxdiss_SOLVER.academic := md_academic
maxdiss_SOLVER.rod := md_rod
maxdiss_SOLVER.conic := md_conic
maxdiss_SOLVER.contact := md_contact
maxdiss_FIGURES := fig2 fig3 fig4 fig5 fig7 rod_mustar rod_map
