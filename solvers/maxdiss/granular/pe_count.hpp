// pe's count of contacts (issue of Table 2's contact count; solvers/maxdiss/channel/README.md): the
// number pe's getNumberOfContacts() gives on a grid of blocks, summed over the blocks, as the paper's
// code would print it for the same state.
//
// Each of pe's blocks holds its own spheres and a shadow copy of every sphere whose bounding box
// meets the block (a sphere's box: centre +- (R + threshold), pe's Sphere::calcBoundingBox). Its
// detection pairs every two bodies it holds, copies included, and every body with every boundary,
// and counts them all before the filter that leaves each contact to one block. So a contact is
// counted once for each block that holds both of its spheres (a boundary contact: each block that
// holds its sphere). For the unique contacts of a detection that is, per contact, the product over
// the axes of the number of blocks that both spheres' boxes meet.
//
// The blocks are the subdomains of a SubdomainGrid (subdomain_grid.hpp): pe's regular grid has even
// cuts, and the outer blocks reach beyond the box, as the subdomains of a run over ranks do.
#pragma once

#include <array>
#include <vector>

#include "maxdiss/granular/bodies.hpp"
#include "maxdiss/granular/contacts.hpp"
#include "maxdiss/granular/subdomain_grid.hpp"

namespace md::granular {

/// The contacts `ends` (b < 0: a boundary) of the spheres S counted as pe counts them on `grid`,
/// the spheres' boxes widened by `margin` (pe's contact threshold).
long pe_contact_count(const std::vector<ContactEnds>& ends, const Spheres& S, const SubdomainGrid& grid, double margin);

}  // namespace md::granular
