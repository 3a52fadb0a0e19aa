//! The command-line names of the engine's and the SMT layer's options.
//!
//! The engine's configuration types (`engine::Por`, `engine::Interpolation`, …, `smt::SolverKind`) are
//! plain data and know nothing of clap; this module alone says how each value is spelled on the
//! command line and what its help text is, by implementing `clap::ValueEnum` for them.

use crate::engine::{
    BlockEncoding, Interpolation, Por, PorOrder, PredicateScope, TerminationTechnique,
};
use crate::smt::SolverKind;
use clap::builder::PossibleValue;

/// `impl clap::ValueEnum` for an enum of the crate: each variant with its command-line name and help.
macro_rules! value_enum {
    ($ty:ident { $($variant:ident => $name:literal, $help:literal;)* }) => {
        impl clap::ValueEnum for $ty {
            fn value_variants<'a>() -> &'a [Self] {
                &[$($ty::$variant),*]
            }

            fn to_possible_value(&self) -> Option<PossibleValue> {
                Some(match self {
                    $($ty::$variant => PossibleValue::new($name).help($help),)*
                })
            }
        }
    };
}

value_enum!(SolverKind {
    Z3 => "z3", "Z3";
    Yices => "yices", "Yices 2";
    Cvc5 => "cvc5", "cvc5";
});

value_enum!(BlockEncoding {
    None => "none", "One letter per statement";
    Seq => "seq", "Straight-line sequences as one letter";
    Large => "large", "Large blocks: loop-free code between loop heads and errors as one letter";
});

value_enum!(Interpolation {
    Sp => "sp", "Strongest post along the trace";
    SpLive => "sp-live", "Strongest post on live variables";
    SpLiveUc => "sp-live-uc", "Strongest post on live variables of the unsat-core-relaxed trace";
    Wp => "wp", "Weakest precondition along the trace";
    WpLive => "wp-live", "Weakest precondition on live variables";
    WpLiveUc => "wp-live-uc", "Weakest precondition on live variables of the unsat-core-relaxed trace";
    FpBp => "fp-bp", "Forward and backward, relaxed and full, until a perfect sequence";
});

value_enum!(Por {
    None => "none", "Every interleaving";
    Sleep => "sleep", "Sleep sets: one representative per class of equivalent interleavings";
    Persistent => "persistent", "Persistent sets: per configuration, the enabled letters of a set of threads closed under conflicts";
    SleepPersistent => "sleep+persistent", "Sleep sets over persistent sets compatible with the preference order";
});

value_enum!(PorOrder {
    Serial => "serial", "Threads in index order, each running as long as it can";
    Lockstep => "lockstep", "Threads take turns at loop heads";
});

value_enum!(PredicateScope {
    Global => "global", "Every predicate is a candidate at every configuration";
    Configuration => "configuration", "Candidates where every thread is where the predicate was found";
    Threads => "threads", "Candidates where the threads the predicate mentions are where it was found";
    ThreadsMoved => "threads-moved", "As threads, plus the thread whose step led there";
});

value_enum!(TerminationTechnique {
    Executor => "executor", "Explicit-state execution (symbolic, then with fixed inputs)";
    Ranking => "ranking", "Linear lexicographic ranking functions over the loops, and fixpoint lassos";
    Gnta => "gnta", "Geometric nontermination arguments for lassos";
    Buchi => "buchi", "Büchi trace abstraction: lassos ranked one at a time, refined by rank certificates";
});

#[cfg(test)]
mod tests {
    use super::*;
    use clap::ValueEnum;

    /// Every name parses back to its variant, and names are distinct.
    fn round_trip<T: ValueEnum + PartialEq + std::fmt::Debug>() {
        let mut names = std::collections::BTreeSet::new();
        for v in T::value_variants() {
            let name = v.to_possible_value().expect("named").get_name().to_string();
            assert!(names.insert(name.clone()), "duplicate name {name}");
            assert_eq!(&T::from_str(&name, false).expect("parses"), v);
        }
    }

    #[test]
    fn names_round_trip() {
        round_trip::<SolverKind>();
        round_trip::<BlockEncoding>();
        round_trip::<Interpolation>();
        round_trip::<Por>();
        round_trip::<PorOrder>();
        round_trip::<PredicateScope>();
        round_trip::<TerminationTechnique>();
    }

    #[test]
    fn names_are_the_documented_ones() {
        let names: Vec<String> = Interpolation::value_variants()
            .iter()
            .map(|v| v.to_possible_value().unwrap().get_name().to_string())
            .collect();
        assert_eq!(
            names,
            [
                "sp",
                "sp-live",
                "sp-live-uc",
                "wp",
                "wp-live",
                "wp-live-uc",
                "fp-bp"
            ]
        );
    }
}
