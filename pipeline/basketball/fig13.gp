# caption: Fig. 13: outcome of rolling from beta(0), omega1(0) with omega2(0) = 105 1/s, omega3(0) = 10 1/s; top-left falling only, top-right with slipping (mu = 1), bottom-left drilling k_d = 0.02 1/s, bottom-right rolling resistance k_r = 0.02 1/s (both with slipping). Black dots: separatrix-type boundary; yellow circles: deadlock-type; white crosses: slipping boundary; small dots in the bottom panels: the former periodic region.
fig = 'fig13'
load 'pipeline/basketball/map.gp'
