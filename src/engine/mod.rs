//! The verification engine: trace abstraction (CEGAR with Floyd–Hoare automata).
