//! Finite automata as traits with on-demand successors, lazy products and differences, one explorer.
