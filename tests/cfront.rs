//! The C front end: every `examples/c/*.c` translates, its Boogie text (`--emit-ir`) reads back and
//! type-checks, and printing is a fixpoint (print ∘ parse ∘ print = print).

use lapidary::cfront::{self, Arch, CError, Options};
use lapidary::syntax;
use std::path::Path;

fn options(arch: Arch) -> Options {
    let dir = std::env::temp_dir().join(format!("lapidary-cfront-test-inc-{}", std::process::id()));
    for (rel, text) in cfront::preprocess::ILP32_STUBS {
        let f = dir.join(rel);
        std::fs::create_dir_all(f.parent().expect("parent")).expect("mkdir");
        std::fs::write(&f, text).expect("stub");
    }
    Options {
        arch,
        ilp32_include: Some(dir),
    }
}

fn c_examples() -> Vec<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/c");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("examples/c")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    files.sort();
    files
}

#[test]
fn emitted_boogie_reads_back() {
    let files = c_examples();
    assert!(!files.is_empty());
    for f in files {
        let src = std::fs::read_to_string(&f).expect("read");
        for arch in [Arch::Ilp32, Arch::Lp64] {
            let ast = match cfront::translate_file(&f, &src, &options(arch)) {
                Ok(ast) => ast,
                Err(CError::Unsupported { .. }) => continue,
                Err(e) => panic!("{}: {e}", f.display()),
            };
            let text = syntax::print::program(&ast);
            let (back, diags) = syntax::parse(&text);
            let back = back.unwrap_or_else(|| panic!("{}: {diags:?}\n{text}", f.display()));
            assert_eq!(syntax::print::program(&back), text, "{}", f.display());
            let (program, diags) = lapidary::ir::check(&back);
            assert!(
                program.is_some() && !lapidary::diag::has_errors(&diags),
                "{}: {diags:?}",
                f.display()
            );
        }
    }
}

#[test]
fn unsupported_constructs_name_the_line() {
    let f = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/c/pointer_unknown.c");
    let src = std::fs::read_to_string(&f).expect("read");
    match cfront::translate_file(&f, &src, &options(Arch::Ilp32)) {
        Err(CError::Unsupported {
            construct, line, ..
        }) => {
            assert_eq!(construct, "variable of type pointer");
            assert_eq!(line, 8);
        }
        other => panic!("expected unsupported, got {other:?}"),
    }
}

#[test]
fn architecture_changes_long() {
    let dir = std::env::temp_dir().join(format!("lapidary-cfront-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp");
    let f = dir.join("long.c");
    let src = "int main() { unsigned long x = 4294967295UL; x = x + 1; return x == 0; }\n";
    std::fs::write(&f, src).expect("write");
    let text = |arch| {
        let ast = cfront::translate_file(&f, src, &options(arch)).expect("translates");
        syntax::print::program(&ast)
    };
    assert!(text(Arch::Ilp32).contains("% 4294967296"));
    assert!(text(Arch::Lp64).contains("% 18446744073709551616"));
    // the headers agree with the data model: LONG_MAX and int64_t
    let g = dir.join("limits.c");
    let src = "#include <limits.h>\n#include <stdint.h>\nint main() { long m = LONG_MAX; int64_t w = 0; return sizeof(w) == 8 && m > 0; }\n";
    std::fs::write(&g, src).expect("write");
    for (arch, max) in [
        (Arch::Ilp32, "2147483647"),
        (Arch::Lp64, "9223372036854775807"),
    ] {
        let ast = cfront::translate_file(&g, src, &options(arch)).expect("translates");
        let text = syntax::print::program(&ast);
        assert!(text.contains(&format!(":= {max};")), "{text}");
        assert!(
            !text.contains(":= 0;\n  #res := 0"),
            "sizeof(int64_t) is 8: {text}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Mangled versions of the examples (deleted ranges, inserted C tokens) never panic the front end:
/// each gives a program, an unsupported construct or an input error.
#[test]
fn mangled_programs_never_panic() {
    let tokens = [
        "*",
        "&",
        "(",
        ")",
        "{",
        "}",
        ";",
        "[",
        "]",
        "0",
        "-1",
        "x",
        "int",
        "unsigned",
        "struct S",
        "goto L;",
        "L:",
        "case 1:",
        "break;",
        "continue;",
        "//@ assert 1;",
        "/*@",
        "'a'",
        "\"s\"",
        ",",
        "?",
        ":",
        "<<",
        ">>=",
        "%",
        "/",
        "sizeof",
        "static",
        "_Static_assert(0);",
        "return",
        "while(1)",
        "switch(x)",
        "default:",
        "++",
        "--",
        "=",
    ];
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n.max(1) as u64) as usize
    };
    let opts = options(Arch::Ilp32);
    for f in c_examples() {
        let src = std::fs::read_to_string(&f).expect("read");
        for _ in 0..6 {
            let mut s = src.clone();
            for _ in 0..3 {
                let mut at = next(s.len());
                while !s.is_char_boundary(at) {
                    at -= 1;
                }
                if next(2) == 0 {
                    let mut end = (at + next(12)).min(s.len());
                    while !s.is_char_boundary(end) {
                        end -= 1;
                    }
                    s.replace_range(at..end, "");
                } else {
                    s.insert_str(at, &format!(" {} ", tokens[next(tokens.len())]));
                }
            }
            let r = std::panic::catch_unwind(|| cfront::translate_file(&f, &s, &opts));
            assert!(r.is_ok(), "panic on a mangled {}:\n{s}", f.display());
        }
    }
}
