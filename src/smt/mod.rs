//! Terms, SMT-LIB sessions over pipes, and the solver back ends (z3, yices, cvc5).
