# Colour code of the limit directions (Fig. 11 caption): 0 purple, 1 red, 2 green, 3 brown, 4 blue, 5 other.
ldcol(c) = (c==0) ? 0x9467bd : (c==1) ? 0xd62728 : (c==2) ? 0x2ca02c : (c==3) ? 0x8c564b : (c==4) ? 0x1f77b4 : 0x999999
