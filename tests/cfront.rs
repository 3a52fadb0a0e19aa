//! The C front end: every `examples/c/*.c` translates, its Boogie text (`--emit-ir`) reads back and
//! type-checks, and printing is a fixpoint (print ∘ parse ∘ print = print).

use lapidary::cfront::{self, Arch, CError};
use lapidary::syntax;
use std::path::Path;

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
            let ast = match cfront::translate_file(&f, &src, arch) {
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
    match cfront::translate_file(&f, &src, Arch::Ilp32) {
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
        let ast = cfront::translate_file(&f, src, arch).expect("translates");
        syntax::print::program(&ast)
    };
    assert!(text(Arch::Ilp32).contains("% 4294967296"));
    assert!(text(Arch::Lp64).contains("% 18446744073709551616"));
    let _ = std::fs::remove_dir_all(&dir);
}
