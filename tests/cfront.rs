//! The C front end: every `examples/c/*.c` translates, its Boogie text (`--emit-ir`) reads back and
//! type-checks, and printing is a fixpoint (print ∘ parse ∘ print = print).

use lapidary::cfront::{self, Arch, CError, Options};
use lapidary::syntax;
use std::path::Path;

fn options(arch: Arch) -> Options {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("lapidary-cfront-test-inc-{}", std::process::id()));
    for (rel, text) in cfront::preprocess::ILP32_STUBS {
        let f = dir.join(rel);
        std::fs::create_dir_all(f.parent().expect("parent")).expect("mkdir");
        std::fs::write(&f, text).expect("stub");
    }
    Options {
        arch,
        ilp32_include: Some(dir),
        reach_only: false,
        data_race: false,
        overflow: false,
        memsafety: false,
        memcleanup: false,
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
        for (arch, data_race) in [
            (Arch::Ilp32, false),
            (Arch::Lp64, false),
            (Arch::Lp64, true),
        ] {
            let mut opts = options(arch);
            opts.data_race = data_race;
            let ast = match cfront::translate_file(&f, &src, &opts) {
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
    let f = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/c/pointer_cast_unknown.c");
    let src = std::fs::read_to_string(&f).expect("read");
    match cfront::translate_file(&f, &src, &options(Arch::Ilp32)) {
        Err(CError::Unsupported {
            construct, line, ..
        }) => {
            assert_eq!(construct, "conversion between pointers to different types");
            assert_eq!(line, 9);
        }
        other => panic!("expected unsupported, got {other:?}"),
    }
}

#[test]
fn architecture_changes_long() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("lapidary-cfront-{}", std::process::id()));
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

fn translate_text(name: &str, src: &str) -> Result<String, CError> {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("lapidary-cfront-pt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp");
    let f = dir.join(name);
    std::fs::write(&f, src).expect("write");
    let r = cfront::translate_file(&f, src, &options(Arch::Lp64))
        .map(|ast| syntax::print::program(&ast));
    let _ = std::fs::remove_file(&f);
    r
}

/// `size_t` without a header (a `malloc` declaration copied from glibc) is read with `<stddef.h>`,
/// as Ultimate's C front end reads it; any other unknown type name stays an input error.
#[test]
fn undeclared_size_t_is_read_with_stddef() {
    let src = "extern void *malloc (size_t __size);\nint main() { int *p = malloc(sizeof(int)); *p = 1; return *p; }\n";
    let text = translate_text("size_t.c", src).expect("translates");
    assert!(text.contains("procedure main"), "{text}");
    // a program's own `size_t` does not clash with the header's
    let own = "typedef unsigned int size_t;\nsize_t n = 3;\nint main() { return n; }\n";
    assert!(translate_text("own_size_t.c", own).is_ok());
    match translate_text("other.c", "my_t x;\nint main() { return 0; }\n") {
        Err(CError::Invalid(m)) => assert!(m.contains("my_t"), "{m}"),
        other => panic!("expected an input error, got {other:?}"),
    }
}

/// pthreads onto fork/join/atomic: thread ids from the fork counter, joins by id, a mutex as an
/// atomic test-and-set, `__VERIFIER_atomic_*` calls in atomic blocks.
#[test]
fn pthreads_become_fork_join_atomic() {
    let src = "#include <pthread.h>\n\
        int g;\n\
        pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n\
        void __VERIFIER_atomic_inc(void) { g = g + 1; }\n\
        void *worker(void *arg) { pthread_mutex_lock(&m); g = 1; pthread_mutex_unlock(&m); return NULL; }\n\
        int main(void) { pthread_t t[2]; pthread_create(&t[1], NULL, worker, NULL);\n\
        __VERIFIER_atomic_inc(); pthread_join(t[1], NULL); return g; }\n";
    let text = translate_text("pt.c", src).expect("translates");
    assert!(text.contains("#pthreadsForks := 1;"), "{text}");
    assert!(text.contains("fork #t~"), "{text}");
    assert!(text.contains(" worker(0, 0);"), "{text}");
    assert!(text.contains("join t~1[1];"), "{text}");
    assert!(text.contains("assume (~m == 0);"), "{text}");
    assert!(text.contains("~m := 1;"), "{text}");
    assert!(text.contains("~m := 0;"), "{text}");
    assert!(text.contains("call __VERIFIER_atomic_inc();"), "{text}");
    assert!(
        text.contains("procedure worker(#in~arg.base: int, #in~arg.offset: int)"),
        "{text}"
    );
    // the translation reads back and type-checks
    assert_reads_back(&text);
}

/// What is not translated stays unsupported, with its line.
#[test]
fn pthread_constructs_not_translated_are_unsupported() {
    let head = "#include <pthread.h>\nint g;\n";
    let cases = [
        // a start routine whose parameter is not a pointer
        (
            "void *w(int a) { g = a; return NULL; }\nint main(void) { pthread_t t; pthread_create(&t, NULL, w, 0); return 0; }\n",
            "thread start routine `w` with other parameters than one pointer",
            3,
        ),
        // the result of a start routine that returns no pointer
        (
            "void w(void *a) { }\nint main(void) { void *r; pthread_t t; pthread_create(&t, NULL, w, NULL); pthread_join(t, &r); return 0; }\n",
            "result of thread start routine `w`, which is not a pointer",
            4,
        ),
        // a thread routine called directly
        (
            "void *w(void) { return NULL; }\nint main(void) { pthread_t t; pthread_create(&t, NULL, w, NULL); w(); return 0; }\n",
            "call of thread start routine `w`",
            4,
        ),
        // thread attributes
        (
            "void *w(void *a) { return NULL; }\npthread_attr_t at;\nint main(void) { pthread_t t; pthread_create(&t, &at, w, NULL); return 0; }\n",
            "thread attributes",
            5,
        ),
        // a mutex that is not a global `pthread_mutex_t`
        (
            "int main(void) { pthread_mutex_t *p; pthread_mutex_lock(p); return 0; }\n",
            "",
            3,
        ),
    ];
    for (body, what, line) in cases {
        let src = format!("{head}{body}");
        expect_unsupported_in(translate_text("bad.c", &src), &src, what, line);
    }
}

/// The Boogie text parses back and type-checks.
fn assert_reads_back(text: &str) {
    let (back, diags) = syntax::parse(text);
    let back = back.unwrap_or_else(|| panic!("{diags:?}"));
    let (program, diags) = lapidary::ir::check(&back);
    assert!(
        program.is_some() && !lapidary::diag::has_errors(&diags),
        "{diags:?}"
    );
}

/// Each source (saved as `name`, ILP32) is not translated: the construct names `what` at `line`.
fn expect_unsupported(name: &str, cases: &[(&str, &str, usize)]) {
    for &(src, what, line) in cases {
        expect_unsupported_in(translate_with(name, src, false), src, what, line);
    }
}

/// The translation of `src` is unsupported: the construct names `what` at `line`.
fn expect_unsupported_in(r: Result<String, CError>, src: &str, what: &str, line: usize) {
    match r {
        Err(CError::Unsupported {
            construct, line: l, ..
        }) => {
            assert!(construct.contains(what), "{construct}\n{src}");
            assert_eq!(l, line, "{construct}\n{src}");
        }
        other => panic!("expected unsupported, got {other:?}\n{src}"),
    }
}

fn translate_with(name: &str, src: &str, reach_only: bool) -> Result<String, CError> {
    let mut opts = options(Arch::Ilp32);
    opts.reach_only = reach_only;
    translate_opts(name, src, &opts)
}

fn translate_opts(name: &str, src: &str, opts: &Options) -> Result<String, CError> {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("lapidary-cfront-mem-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp");
    let f = dir.join(name);
    std::fs::write(&f, src).expect("write");
    let r = cfront::translate_file(&f, src, opts).map(|ast| syntax::print::program(&ast));
    let _ = std::fs::remove_file(&f);
    r
}

/// The memory model: a variable whose address is taken lives in memory at every use (also the uses
/// before the `&`), pointers are `{base, offset}` pairs, accesses through pointers are checked
/// (assumed under `unreach-call`), and the program reads back and type-checks.
#[test]
fn memory_model_translation() {
    let src = "#include <stdlib.h>\n\
        int g;\n\
        int main(void) { int x = 1; x = x + 1; int *p = &x; *p = 3;\n\
        int *h = malloc(2 * sizeof(int)); h[1] = *p; free(h); return x + g; }\n";
    let text = translate_with("mem.c", src, false).expect("translates");
    // x lives in memory from its declaration on: no Boogie variable for it
    assert!(text.contains("var #addr~x~1: int;"), "{text}");
    assert!(!text.contains("var x~"), "{text}");
    assert!(text.contains("#memory_int[#addr~x~1][0] := 1;"), "{text}");
    // g's address is not taken: it stays a variable
    assert!(text.contains("var ~g: int;"), "{text}");
    // p is two integers
    assert!(
        text.contains("p~2.base, p~2.offset := #addr~x~1, 0;"),
        "{text}"
    );
    // the store through p is checked; the allocation and the free
    assert!(
        text.contains("assert {:check \"valid-deref\"} (#valid[p~2.base] && ((0 <= p~2.offset) && ((p~2.offset + 4) <= #length[p~2.base])));"),
        "{text}"
    );
    assert!(text.contains("assume (#t~"), "{text}");
    assert!(text.contains("#length[#t~"), "{text}");
    assert!(text.contains("#valid[h~3.base] := false;"), "{text}");
    // the stack object of x dies when main returns
    assert!(text.contains("#valid[#addr~x~1] := false;"), "{text}");
    assert_reads_back(&text);
    // under unreach-call the memory checks are assumptions
    let reach = translate_with("mem.c", src, true).expect("translates");
    assert!(!reach.contains("assert"), "{reach}");
    assert!(reach.contains("assume (#valid[p~2.base]"), "{reach}");
}

/// A variable-length array is a stack object of `n * sizeof(T)` bytes with `n` evaluated where
/// the declaration is reached and kept for `sizeof`; it dies when its block is left; every
/// access is checked; as a parameter it is a pointer. What is not translated names its line.
#[test]
fn variable_length_array_translation() {
    let src = "int sum(int n, int b[n]) { return b[0]; }\n\
        int main(void) { int n = 3;\n\
        { int a[n]; n = 0; a[2] = 1; unsigned long s = sizeof a; sum(3, a); }\n\
        return 0; }\n";
    let text = translate_with("vla.c", src, false).expect("translates");
    // the size is read once, before `n = 0`
    let count = text
        .lines()
        .find_map(|l| {
            l.trim()
                .strip_prefix("#vla~")
                .map(|r| r.split(' ').next().unwrap_or(""))
        })
        .unwrap_or_else(|| panic!("no size variable: {text}"));
    let vla = format!("#vla~{count}");
    assert!(text.contains(&format!("{vla} := n~")), "{text}");
    assert!(text.contains(&format!("] := ({vla} * 4);")), "{text}");
    // `sizeof a` is that size, in `size_t`
    assert!(
        text.contains(&format!(" := (({vla} * 4) % 4294967296);")),
        "{text}"
    );
    // the access at a constant index is checked against the length, and the object dies at `}`
    assert!(
        text.contains("assert {:check \"valid-deref\"} (#valid[#addr~a~"),
        "{text}"
    );
    assert!(text.contains("#valid[#addr~a~"), "{text}");
    assert_reads_back(&text);
    let cases = [
        (
            "int main(void) { int n = 2;\nswitch (n) { case 2: { int a[n]; a[0] = 1; } } return 0; }\n",
            "variable-length array `a` declared in a switch",
            2,
        ),
        (
            "int main(void) { int n = 2;\ntypedef int row[n]; row r; return 0; }\n",
            "array of unknown or variable size",
            2,
        ),
        (
            "int main(void) { int n = 2;\nint a[n]; int (*p)[n] = &a; return (*p)[0]; }\n",
            "dereference of a pointer to array of unknown or variable size",
            2,
        ),
    ];
    expect_unsupported("vla_bad.c", &cases);
}

/// A conversion between pointers to unrelated object types is translated while no pointer of
/// the type converted to is dereferenced or converted again: it is only passed and compared.
/// `offsetof` is a constant of the layout.
#[test]
fn pointer_conversion_without_access_and_offsetof() {
    let src = "#include <stddef.h>\n\
        struct A { int x; }; struct B { long y; };\n\
        struct C { char c; struct A a[3]; };\n\
        int same(struct B *b, struct B *c) { return b == c; }\n\
        int main(void) { struct A a; a.x = 1; struct B *b = (struct B *)&a;\n\
        unsigned long o = offsetof(struct C, a[2].x);\n\
        return same(b, 0) + a.x + o; }\n";
    let text = translate_with("conv.c", src, false).expect("translates");
    assert!(
        text.contains("b~2.base, b~2.offset := #addr~a~1, 0;"),
        "{text}"
    );
    assert!(text.contains("o~3 := 12;"), "{text}");
    assert_reads_back(&text);
    let head = "struct A { int x; }; struct B { long y; };\n";
    let cases = [
        // dereferenced
        "int main(void) { struct A a; struct B *b = (struct B *)&a;\nreturn b->y; }\n",
        // converted back, then dereferenced as what it points to
        "int main(void) { struct A a; struct B *b = (struct B *)&a;\nreturn ((struct A *)b)->x; }\n",
        // converted again, to `void *`
        "int main(void) { struct A a; struct B *b = (struct B *)&a; void *v = b;\nreturn 0; }\n",
    ];
    for body in cases {
        let src = format!("{head}{body}");
        expect_unsupported_in(
            translate_with("conv_bad.c", &src, false),
            &src,
            "conversion between pointers to different types",
            2,
        );
    }
}

/// `memset`/`memcpy` of a size that is not a constant: whole objects are zeroed or copied by
/// rows; any other execution is not followed (an over-approximation).
#[test]
fn memset_memcpy_of_whole_objects() {
    let src = "#include <stdlib.h>\n#include <string.h>\n\
        int main(void) { int n = 3; int *a = malloc(n * sizeof(int)); int *b = malloc(n * sizeof(int));\n\
        memset(a, 0, n * sizeof(int)); memcpy(b, a, n * sizeof(int)); return 0; }\n";
    let text = translate_with("memwhole.c", src, false).expect("translates");
    for line in [
        "#memory_int[a~2.base] := ~const~int(0);",
        "#memory_int[b~4.base] := #memory_int[a~2.base];",
        "~memPart(",
        "assert {:check \"valid-deref\"} (#valid[a~2.base] && ((0 <= a~2.offset)",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
    assert_reads_back(&text);
}

/// Bit-fields: a variable's bit-field is a variable holding a value of its width (writes wrap,
/// an indeterminate one is in that range); in memory it is a cell of its own below every byte
/// offset, keyed by its lowest bit; structs are laid out as gcc lays them out on i386 and
/// x86-64. A bit-field in a union is not translated.
#[test]
fn bit_field_translation() {
    let layouts = "struct A { int a:32; long long b:40; };\n\
        struct B { char c; long long d:40; };\n\
        struct C { unsigned a:3; unsigned :0; unsigned long long d:40; _Bool e:1; };\n\
        struct D { char c; int x:4; short s:9; };\n\
        struct E { long long x:3; char c; };\n\
        int main(void) { unsigned long long sizes = sizeof(struct A) + 100 * sizeof(struct B)\n\
        + 10000 * sizeof(struct C) + 1000000 * sizeof(struct D)\n\
        + 100000000ULL * sizeof(struct E); return 0; }\n";
    // the sizes gcc -m32 and -m64 give
    for (arch, sizes) in [(Arch::Ilp32, "404120812"), (Arch::Lp64, "804160816")] {
        let text = translate_opts("layout.c", layouts, &options(arch)).expect("translates");
        assert!(
            text.contains(&format!("sizes~1 := {sizes};")),
            "{arch:?}\n{text}"
        );
    }
    let src = "struct F { unsigned lo : 4, hi : 4; signed s : 3; };\n\
        int main(void) { struct F v; v.lo = 17; v.s = v.hi + 1;\n\
        struct F w; struct F *p = &w; p->hi = v.lo; v.lo = p->s; return 0; }\n";
    let text = translate_with("bits.c", src, false).expect("translates");
    // an indeterminate bit-field is in its range; a write wraps (a constant folded)
    assert!(
        text.contains("assume ((0 <= v~1.lo) && (v~1.lo <= 15));"),
        "{text}"
    );
    assert!(
        text.contains("assume ((-(4) <= v~1.s) && (v~1.s <= 3));"),
        "{text}"
    );
    assert!(text.contains("v~1.lo := 1;"), "{text}");
    assert!(
        text.contains("v~1.s := ((((v~1.hi + 1) + 4) % 8) - 4);"),
        "{text}"
    );
    // in memory: `hi` is bit 4 of byte 0, `s` bit 0 of byte 1; each access checks its bytes
    assert!(
        text.contains("#memory_int[p~3.base][(0 - ((8 * p~3.offset) + 5))] := v~1.lo;"),
        "{text}"
    );
    assert!(
        text.contains(
            "assume ((-(4) <= #memory_int[p~3.base][(0 - ((8 * (p~3.offset + 1)) + 1))])"
        ),
        "{text}"
    );
    assert!(
        text.contains("((p~3.offset + 1) + 1) <= #length[p~3.base]"),
        "{text}"
    );
    assert_reads_back(&text);
    let cases = [
        (
            "struct F { unsigned lo : 4; };\nunion U { struct F f; int i; };\n\
             int main(void) { union U u; u.i = 1; return 0; }\n",
            "struct with bit-fields in a union",
            3,
        ),
        // its bit-fields' cells lie below the bytes copied
        (
            "#include <string.h>\nstruct F { unsigned lo : 4; };\n\
             int main(void) { struct F a, b;\nmemcpy(&b, &a, sizeof a); return 0; }\n",
            "`memcpy` of a struct with bit-fields",
            4,
        ),
    ];
    expect_unsupported("bits_bad.c", &cases);
}

/// An indeterminate value is a value of its type: a local struct's integer members are assumed
/// in range where declared, an array element where read (also of a copy: a struct returned).
#[test]
fn indeterminate_aggregates_in_range() {
    let src = "struct s { unsigned char c; int n; };\n\
        struct t { unsigned char b[2]; };\n\
        struct t mk(void) { struct t r; return r; }\n\
        int main(void) { struct s v; unsigned char a[3]; struct t w = mk();\n\
        return v.c + a[1] + w.b[0]; }\n";
    let text = translate_with("indet.c", src, false).expect("translates");
    for line in [
        "assume ((0 <= v~1.c) && (v~1.c <= 255));",
        "assume ((-(2147483648) <= v~1.n) && (v~1.n <= 2147483647));",
        "assume ((0 <= a~2[1]) && (a~2[1] <= 255));",
        "assume ((0 <= w~3.b[0]) && (w~3.b[0] <= 255));",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
    assert_reads_back(&text);
}

/// A write to a union member gives every integer of another member that overlaps it the bytes
/// written (little-endian) and keeps its other bytes; an integer reaching beyond the member
/// written gets an unspecified value.
#[test]
fn union_bytes_translation() {
    let src = "union U { unsigned int i; unsigned char b[4]; short h; };\n\
        int main(void) { union U u; u.i = 0x11223344u; u.b[1] = 0; u.h = -1; return 0; }\n";
    let text = translate_with("union.c", src, false).expect("translates");
    for line in [
        "u~1.b[1] := ((u~1.i / 256) % 256);",
        "u~1.h := ((((u~1.i % 65536) + 32768) % 65536) - 32768);",
        "u~1.i := (((u~1.i - (((u~1.i / 256) % 256) * 256)) + ((u~1.b[1] % 256) * 256)) % 4294967296);",
        "u~1.b[0] := (u~1.h % 256);",
        "u~1.i := #t~",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
    assert!(text.contains("~unspecified("), "{text}");
    assert_reads_back(&text);
}

/// Function pointers: each function whose address is taken has its own base (`-1`, `-2`, … in
/// the order of the names, never valid, stack objects below them); a call through a pointer
/// dispatches over them, and fails its check when the pointer holds none of them.
#[test]
fn function_pointer_translation() {
    let src = "int f(int a) { return a; }\n\
        int g(int a) { return a + 1; }\n\
        int main(void) { int x; int *q = &x; int (*p)(int) = f;\n\
        p = &g; return (*p)(2); }\n";
    let text = translate_with("fptr.c", src, false).expect("translates");
    assert!(text.contains("p~3.base, p~3.offset := -(1), 0;"), "{text}");
    assert!(text.contains("p~3.base, p~3.offset := -(2), 0;"), "{text}");
    assert!(text.contains("#valid[-(1)] := false;"), "{text}");
    assert!(text.contains("#valid[-(2)] := false;"), "{text}");
    // `x` is allocated once (in `main`'s outermost block): the base after the functions'
    assert!(text.contains("#addr~x~1 := -(3);"), "{text}");
    assert!(
        text.contains("if (((p~3.base == -(1)) && (p~3.offset == 0))) {"),
        "{text}"
    );
    assert!(text.contains("call #t~4 := f(2);"), "{text}");
    assert!(text.contains("call #t~4 := g(2);"), "{text}");
    assert!(
        text.contains("assert {:check \"valid-deref\"} false;"),
        "{text}"
    );
    assert_reads_back(&text);
    // under unreach-call the call of a pointer to no function is an assumption
    let reach = translate_with("fptr.c", src, true).expect("translates");
    assert!(!reach.contains("assert false;"), "{reach}");
    // a function whose type does not take the arguments: its branch is an over-approximation;
    // a function pointer converted to an integer too
    let src = "int one(char c) { return c; }\n\
        int main(void) { int (*p)() = one; long n = (long)p; return p(5); }\n";
    let text = translate_with("fptr.c", src, false).expect("translates");
    assert!(
        text.contains(
            "assert (~callThroughIncompatibleFunctionPointer(p~1.base, p~1.offset) != 0);"
        ),
        "{text}"
    );
    // (an explicit cast: the address of an object or function, `~ptrToInt`)
    assert!(text.contains("~ptrToInt(p~1.base, p~1.offset)"), "{text}");
    assert!(!text.contains(":= one("), "{text}");
    // a start routine held in a pointer: a fork per function of the shape of a start routine
    let src = "#include <pthread.h>\n\
        void *w(void *a) { return a; }\n\
        int v(int a) { return a; }\n\
        int main(void) { pthread_t t; void *(*r)(void *) = w; int (*u)(int) = v;\n\
        pthread_create(&t, 0, r, 0); return 0; }\n";
    let text = translate_with("fptr.c", src, false).expect("translates");
    assert!(text.contains("fork #t~"), "{text}");
    assert!(text.contains(" w(0, 0);"), "{text}");
    assert!(
        text.contains(
            "assert (~callThroughIncompatibleFunctionPointer(r~2.base, r~2.offset) != 0);"
        ),
        "{text}"
    );
}

/// Unions: members are leaves kept in step by a write (same type: the same value; an integer
/// within the bytes written: those bytes); structs are passed and returned by value, leaf by
/// leaf.
#[test]
fn union_and_struct_value_translation() {
    let src = "union u { int a; int b; char c; };\n\
        struct pt { int x; int y; };\n\
        struct pt swap(struct pt p) { struct pt r = { p.y, p.x }; return r; }\n\
        int main(void) { union u v; v.a = 1; struct pt q = { 1, 2 }; q = swap(q); return v.b; }\n";
    let text = translate_with("union.c", src, false).expect("translates");
    // the members are leaves; a member of the same type is the same value, a `char` the low
    // byte (nothing is unspecified)
    assert!(text.contains("v~1.b := v~1.a;"), "{text}");
    assert!(
        text.contains("v~1.c := ((((v~1.a % 256) + 128) % 256) - 128);"),
        "{text}"
    );
    assert!(!text.contains("~unspecified"), "{text}");
    // a struct parameter and result are one variable per leaf
    assert!(
        text.contains(
            "procedure swap(#in~p.x: int, #in~p.y: int) returns (#res.x: int, #res.y: int)"
        ),
        "{text}"
    );
    assert!(text.contains(" := swap(#t~"), "{text}");
}

/// Integer–pointer conversions: small integers are pointers to no object, exact both ways; larger
/// ones and object addresses are over-approximations; shared pointers are converted atomically.
#[test]
fn integer_pointer_conversions_translation() {
    // an integer below the first page is a pointer to no object; converting it back is exact
    let src = "int main(void) { int n = 3; void *p = (void *)n;\nint m = (int)p;\nint *q = (int *)4; return m; }\n";
    let text = translate_with("conv.c", src, false).expect("translates");
    assert!(
        text.contains(
            "p~2.base, p~2.offset := 0, (if (n~1 < 0) then (n~1 + 4294967296) else n~1);"
        ),
        "{text}"
    );
    assert!(text.contains("q~8.base, q~8.offset := 0, 4;"), "{text}");
    // a larger integer: the execution is not followed (an over-approximation, then `assert false`)
    assert!(
        text.contains("if (((if (n~1 < 0) then (n~1 + 4294967296) else n~1) >= 4096)) {"),
        "{text}"
    );
    assert!(text.contains(":= ~intToPtr("), "{text}");
    assert!(text.contains("assert false;"), "{text}");
    // a pointer with base 0 converts to its offset; an object pointer to `~ptrToInt`
    assert!(text.contains("if ((p~2.base == 0)) {"), "{text}");
    assert!(
        text.contains(":= ~ptrToInt(p~2.base, p~2.offset);"),
        "{text}"
    );
    assert!(text.contains("assume ((4096 <= #t~"), "{text}");
    assert!(
        text.contains(
            "function {:overapproximation \"ptrToInt\"} ~ptrToInt(x: int, y: int) returns (int);"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "function {:overapproximation \"intToPtr\"} ~intToPtr(x: int) returns (int);"
        ),
        "{text}"
    );
    // in a program with threads, a shared pointer is read in one atomic step (another thread may
    // write it between the branches' statements)
    let src = "#include <pthread.h>\nvoid *g;\nvoid *f(void *a) { g = a; return 0; }\n\
        int main(void) { pthread_t t; pthread_create(&t, 0, f, 0); int m = (int)g; return m; }\n";
    let text = translate_with("conv3.c", src, false).expect("translates");
    assert!(
        text.contains("atomic {\n    if ((~g.base == 0)) {"),
        "{text}"
    );
    // a struct pointer becomes a pointer to its first member; `void *` with character pointers only
    let src = "struct s { int a; long b; };\nchar *name(void *v) { return v; }\n\
        int main(void) { struct s x; int *p = (int *)&x; *p = 1; char *c = name((void *)\"ab\"); return *c; }\n";
    translate_with("conv2.c", src, false).expect("translates");
}

/// What the memory model cannot translate faithfully is unsupported, with its line.
#[test]
fn memory_constructs_not_translated_are_unsupported() {
    let cases = [
        (
            "void *id(void *p) { return p; }\nint main(void) { int x = -1;\nlong *q = (long *) id((void *) &x); return *q > 0; }\n",
            "pointers to object types whose cells differ (int and long)",
            3,
        ),
        (
            "int a[3]; int i;\nint main(void) {\n__atomic_store_n(&a[i], i++, 5); return 0; }\n",
            "with side effects after an `&` argument",
            3,
        ),
        (
            "#include <stdlib.h>\nint main(void) { int *p = calloc(1, 4);\nint *q = realloc(p, 8); return 0; }\n",
            "`realloc` in a program that calls `calloc`",
            3,
        ),
        (
            "#include <stdio.h>\nint main(void) { char s[4];\nscanf(\"%3s\", s); return 0; }\n",
            "`scanf` with a conversion other than one integer per argument",
            3,
        ),
        (
            "int main(void) {\nint x; short *s = (short *)&x; return *s; }\n",
            "conversion between pointers to different types",
            2,
        ),
        (
            "int main(void) {\nint x; void *v = &x;\nchar *c = v; return 0; }\n",
            "conversion between `void *` and a character pointer in a program that converts",
            3,
        ),
        (
            "int main(void) {\nchar x; void *v = &x;\nunsigned char *c = v; return 0; }\n",
            "`void *` and character pointers of different types",
            3,
        ),
        (
            "struct s { char c; int i; };\nint main(void) {\nstruct s v; char *p = (char *)&v; return *p; }\n",
            "conversion between pointers to different types",
            3,
        ),
        (
            "struct s { int i; long l; };\nint main(void) {\nstruct s v; long *p = (long *)&v; return (int)*p; }\n",
            "conversion between pointers to different types",
            3,
        ),
        (
            "#include <pthread.h>\nvoid *f(void *a) { return a; }\nint main(void) { pthread_t t; short s;\npthread_create(&t, 0, f, 0);\npthread_join(t, (void **)&s); return 0; }\n",
            "`pthread_join` into an object of type short",
            5,
        ),
        (
            "int main(void) {\nint *p = &(const int){1}; return 0; }\n",
            "const-qualified compound literal",
            2,
        ),
        (
            "int main(void) {\ngoto l; { int x; int *p = &x; l: return 0; } }\n",
            "`goto` in function `main`",
            1,
        ),
        (
            "union u { int a; int *p; };\nint main(void) {\nunion u v; int *q = &v.a; return 0; }\n",
            "address of a union member",
            3,
        ),
        (
            "union u { int a[2]; int *p; };\nint main(void) {\nunion u v;\nint *q = v.a; return 0; }\n",
            "array in a union used as a value",
            4,
        ),
        (
            "union u { int a; char c; };\nint main(void) {\nunion u v; union u *p = &v;\np->a = 1; return 0; }\n",
            "union in memory with members of different types at one offset",
            4,
        ),
        (
            "union u { int a; int *p; };\nint main(void) {\nunion u v = { .a = 1, .p = 0 }; return 0; }\n",
            "initialisation of two members of a union",
            3,
        ),
        (
            "int f(int);\nint main(void) {\nint (*p)(int) = f; return 0; }\n",
            "address of function `f` without a definition",
            3,
        ),
        (
            "int main(void) {\nint x; int (*p)(void) = (int (*)(void))(int *)&x; return 0; }\n",
            "conversion between a function pointer and an object pointer",
            2,
        ),
        (
            "int f(int a) { return a; }\nint main(void) {\nint (*p)(int) = f; return sizeof(*p); }\n",
            "sizeof of function",
            3,
        ),
        (
            "int main(void) {\nint (*p)(int, ...) = 0;\nreturn p(1, 2); }\n",
            "call through a pointer to a variadic function",
            3,
        ),
    ];
    expect_unsupported("bad.c", &cases);
}

/// The checks of each property: every check carries its kind (`{:check "…"}`); `valid-memsafety`
/// counts live heap objects and checks the count where the program ends (`valid-memtrack` after
/// `main` returns, undecided at `exit`), `no-overflow` checks signed arithmetic only; under each
/// property the other checks are assumptions and `reach_error` ends the path.
#[test]
fn property_checks_translation() {
    let src = "#include <stdlib.h>\n\
        extern int __VERIFIER_nondet_int(void);\n\
        extern void reach_error(void);\n\
        int main(void) { int x = __VERIFIER_nondet_int(); int y = x + 1; unsigned u = 0u; u = u - 1u;\n\
        int *h = malloc(sizeof(int)); *h = y / x; if (x == 5) exit(1);\n\
        if (y == 3) reach_error(); free(h); return 0; }\n";
    let mut opts = options(Arch::Ilp32);
    let default = translate_opts("props.c", src, &opts).expect("translates");
    assert!(
        default.contains("assert {:check \"valid-deref\"}"),
        "{default}"
    );
    assert!(
        default.contains("assert {:check \"valid-free\"}"),
        "{default}"
    );
    assert!(
        default.contains("assert {:check \"division-by-zero\"}"),
        "{default}"
    );
    assert!(
        !default.contains("no-overflow") && !default.contains("#heap_live"),
        "{default}"
    );
    // valid-memsafety
    opts.memsafety = true;
    let mem = translate_opts("props.c", src, &opts).expect("translates");
    for want in [
        "var #heap_live: int;",
        "#heap_live := 0;",
        "#heap_live := (#heap_live + 1);",
        "assert {:check \"valid-deref\"}",
        "assert {:check \"valid-free\"}",
        "assert {:check \"valid-memtrack\"} (#heap_live == 0);",
        "assert {:check \"valid-memtrack-unsure\"} (#heap_live == 0);",
        "assume (x~1 != 0);",
    ] {
        assert!(mem.contains(want), "{want}\n{mem}");
    }
    assert!(
        !mem.contains("division-by-zero") && !mem.contains("no-overflow"),
        "{mem}"
    );
    // the path of `reach_error` ends (after the memtrack check)
    assert!(!mem.contains("assert false;"), "{mem}");
    // a global pointer may still point to the memory when main returns: undecided there
    let global = "#include <stdlib.h>\nint *g;\nint main(void) { g = malloc(4); return 0; }\n";
    let g = translate_opts("global.c", global, &opts).expect("translates");
    assert!(!g.contains("{:check \"valid-memtrack\"}"), "{g}");
    assert!(g.contains("{:check \"valid-memtrack-unsure\"}"), "{g}");
    // valid-memcleanup: the count checked where the program ends, normally (`exit`, main's return)
    // or not (`reach_error` ends the path)
    opts.memsafety = false;
    opts.memcleanup = true;
    let clean = translate_opts("props.c", src, &opts).expect("translates");
    assert_eq!(
        clean
            .matches("assert {:check \"valid-memcleanup\"} (#heap_live == 0);")
            .count(),
        2,
        "{clean}"
    );
    assert!(
        clean.contains("assert {:check \"valid-memcleanup-unsure\"} (#heap_live == 0);"),
        "{clean}"
    );
    assert!(
        !clean.contains("valid-deref") && !clean.contains("valid-memtrack"),
        "{clean}"
    );
    opts.memcleanup = false;
    // no-overflow: the signed addition and the division, not the unsigned subtraction
    opts.memsafety = false;
    opts.overflow = true;
    let ovf = translate_opts("props.c", src, &opts).expect("translates");
    assert!(
        ovf.contains("assert {:check \"no-overflow\"} ((-(2147483648) <= (x~1 + 1)) && ((x~1 + 1) <= 2147483647));"),
        "{ovf}"
    );
    assert!(
        ovf.contains(
            "assert {:check \"no-overflow\"} !(((y~3 == -(2147483648)) && (x~1 == -(1))));"
        ),
        "{ovf}"
    );
    assert_eq!(ovf.matches("no-overflow").count(), 2, "{ovf}");
    assert!(
        !ovf.contains("valid-") && !ovf.contains("#heap_live"),
        "{ovf}"
    );
    for text in [&default, &mem, &ovf, &g, &clean] {
        let (back, diags) = syntax::parse(text);
        let back = back.unwrap_or_else(|| panic!("{diags:?}"));
        let (program, diags) = lapidary::ir::check(&back);
        assert!(
            program.is_some() && !lapidary::diag::has_errors(&diags),
            "{diags:?}"
        );
    }
}

/// The string functions are loops over the characters in memory, every access checked; `memset`
/// sets integers by their bytes. Operands of other types are not translated.
#[test]
fn string_functions_and_memset_bytes() {
    let src = "#include <string.h>\n\
        int main(void) { char b[8]; int a[2]; strcpy(b, \"ab\"); strcat(b, \"c\");\n\
        unsigned long n = strlen(b) + strnlen(b, 2); int c = strcmp(b, \"abd\") + strncmp(b, \"x\", 1);\n\
        char *p = strchr(b, 'b'); char *q = strrchr(b, 'c'); strncpy(b, \"z\", 3); strncat(b, \"yy\", 1);\n\
        memset(a, 1, sizeof a); memset(b, c, 8); char *d = strdup(b); char *e = strndup(b, 2);\n\
        return 0; }\n";
    let text = translate_with("strings.c", src, false).expect("translates");
    assert!(text.matches("while (true)").count() >= 13, "{text}");
    for line in [
        // `memset(a, 1, …)`: each int is 0x01010101
        ":= 16843009;",
        // `strcmp`: 0 when equal, else any `int` of the sign of the difference
        "  } else {\n    havoc ",
        "<==>",
        "assert {:check \"valid-deref\"}",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
    assert_reads_back(&text);
    // a copy that ends inside a `short`: its first byte from the source, the other kept
    let src = "#include <string.h>\nint main(void) { short a[2] = { 1, 0 }; memcpy(a + 1, a, 1); return a[1]; }\n";
    let text = translate_with("partial.c", src, false).expect("translates");
    for line in [
        "#t~2 := #memory_int[#addr~a~1][0];",
        "(#t~2 % 256)",
        "#memory_int[#addr~a~1][2] := #t~3;",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
    // `memmove`: every byte read before one is written
    let src = "#include <string.h>\nint main(void) { int a[3] = { 1, 2, 3 }; memmove(a + 1, a, 8); return a[2]; }\n";
    let text = translate_with("move.c", src, false).expect("translates");
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let read = lines
        .iter()
        .position(|l| l.starts_with("#t~") && l.ends_with(":= #memory_int[#addr~a~1][4];"))
        .expect("read into a temporary");
    let write = lines
        .iter()
        .rposition(|l| l.starts_with("#memory_int[#addr~a~1][4] := "))
        .expect("write");
    assert!(read < write, "{text}");
    assert_reads_back(&text);
    assert_reads_back(&text);
    let cases = [
        (
            "#include <string.h>\nint main(void) { int a[2]; int v = 3;\nmemset(a, v, sizeof a); return 0; }\n",
            "with a value known only at run time",
        ),
        (
            "#include <string.h>\nint main(void) { int a[2] = {1, 0};\nreturn strlen((const char *) a); }\n",
            "conversion between pointers to different types",
        ),
    ];
    for (src, what) in cases {
        expect_unsupported_in(translate_with("strings_bad.c", src, false), src, what, 3);
    }
}

/// A condition wait releases the mutex and takes it again (a spurious wake-up); signals change
/// nothing. A `goto` in a function whose stack objects all belong to its outermost block and
/// precede every label and `goto` is translated; one that could skip an allocation is not.
#[test]
fn condition_variables_and_goto_with_memory() {
    let src = "#include <pthread.h>\npthread_mutex_t m; pthread_cond_t c; int r;\n\
        void *w(void *a) { pthread_mutex_lock(&m); r = 1; pthread_cond_signal(&c); pthread_mutex_unlock(&m); return 0; }\n\
        int main(void) { pthread_t t; pthread_cond_init(&c, 0); pthread_create(&t, 0, w, 0);\n\
        pthread_mutex_lock(&m); while (!r) pthread_cond_wait(&c, &m); pthread_mutex_unlock(&m);\n\
        pthread_cond_broadcast(&c); pthread_cond_destroy(&c); return 0; }\n";
    let text = translate_text("cond.c", src).expect("translates");
    let wait = "~m := 0;\n    atomic {\n      assume (~m == 0);\n      ~m := 1;";
    assert!(text.contains(wait), "{text}");
    assert_reads_back(&text);
    let src = "int main(void) {\nint x = 0; int *p = &x;\nl: if (*p < 3) { *p += 1; goto l; }\nreturn x; }\n";
    let text = translate_text("goto.c", src).expect("translates");
    assert!(text.contains("goto L~l;"), "{text}");
    assert_reads_back(&text);
    // declared after the label: allocated once, when the function starts (its lifetime is the
    // block); a compound literal met again is the same object (C11 6.5.2.5p15)
    let src = "struct s { int i; };\nint main(void) {\nstruct s *p = 0, *q; int j = 0;\n\
        again: q = p, p = &((struct s) { j++ }); int x; int *r = &x;\nif (j < 2) goto again;\n\
        return p == q; }\n";
    let text = translate_text("goto_literal.c", src).expect("translates");
    let line = |p: &dyn Fn(&str) -> bool| text.lines().position(|l| p(l.trim_start()));
    let label = line(&|l| l.starts_with("L~again:")).expect("label");
    for base in ["#addr~literal", "#addr~x"] {
        // `main` runs once: the objects of its outermost block have fixed bases
        let alloc = line(&|l| l.starts_with(base) && l.contains(":= -(")).expect("allocation");
        assert!(alloc < label, "{base}\n{text}");
    }
    assert_reads_back(&text);
    for src in [
        // a variable-length array after the label: jumping back allocates it again
        "int main(void) {\nint i = 1;\nl: i++; int v[i]; int *p = v; if (i < 3) goto l; return 0; }\n",
        // the object of a nested block, which the jump leaves without invalidating it
        "int main(void) {\nint i = 0;\n{ int x; int *p = &x; if (i < 3) goto l; }\nl: return 0; }\n",
    ] {
        expect_unsupported_in(
            translate_text("goto_bad.c", src),
            src,
            "`goto` in function `main`, which has variables in memory",
            1,
        );
    }
}

/// GNU `typeof` (of an expression, not evaluated, or of a type) and case ranges; designator
/// lists naming sub-objects, each followed by an item with its own designation.
#[test]
fn typeof_case_ranges_and_nested_designators() {
    let src = "struct P { int x; int y[2]; };\n\
        int main(void) { int k = 2; __typeof__(k++) z = k; typeof(struct P) q = { .y[1] = 7, .x = 1 };\n\
        switch (z) { case 1 ... 3: z = 0; break; case 4: z = 1; } return z + q.y[1]; }\n";
    let text = translate_with("gnu.c", src, false).expect("translates");
    for line in [
        // `typeof` does not evaluate `k++`
        "z~3 := k~1;",
        "((1 <= #t~",
        "q~4.y[1] := 7;",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
    assert_reads_back(&text);
    let src = "struct P { int x; int y[2]; };\nint main(void) {\nstruct P p = { .y[0] = 1, 2 }; return p.x; }\n";
    expect_unsupported_in(
        translate_with("designators_bad.c", src, false),
        src,
        "initialiser after a nested designation without designation",
        3,
    );
}

/// Objects allocated at most once per execution have fixed bases below the functions' (`main`'s
/// outermost block when nothing calls `main`, globals and string literals in memory); every other
/// stack object lies below all of them, so no two live objects share a base.
#[test]
fn fixed_bases_for_objects_allocated_once() {
    let src = "char g[4] = \"abc\";\n\
        int f(void) { int y = 1; int *p = &y; return *p; }\n\
        int main(void) { int a = 5; int *q = &a; const char *t = \"lit\"; char *pg = g;\n\
        for (int i = 0; i < 2; i++) { int z = i; int *pz = &z; a += *pz; }\n\
        return *q + f() + pg[0] + t[0]; }\n";
    let text = translate_with("fixed.c", src, false).expect("translates");
    let fixed: Vec<&str> = text
        .lines()
        .map(str::trim_start)
        .filter(|l| l.contains(" := -(") && !l.contains(".base"))
        .collect();
    // `a`, `g` and the string literal, once each, at -1, -2, -3 in some order
    assert_eq!(fixed.len(), 3, "{text}");
    for name in ["#addr~a~", "#addr~g", "#str~"] {
        assert!(fixed.iter().any(|l| l.starts_with(name)), "{name}\n{text}");
    }
    for k in 1..=3 {
        assert!(
            fixed.iter().any(|l| l.ends_with(&format!(":= -({k});"))),
            "{k}\n{text}"
        );
    }
    // the objects of a callee and of a loop body are allocated anew each time, below them
    for name in ["#addr~y~", "#addr~z~"] {
        let bound = text
            .lines()
            .map(str::trim_start)
            .find(|l| l.starts_with(&format!("assume ({name}")))
            .unwrap_or_else(|| panic!("{name}\n{text}"));
        assert!(bound.ends_with("< -(3));"), "{bound}\n{text}");
    }
    assert_reads_back(&text);
    // `main` named by an expression may run more than once: its objects are not fixed
    let src =
        "int n;\nint main(void) { int a = n; int *q = &a; n++; if (n < 2) main(); return *q; }\n";
    let text = translate_with("again.c", src, false).expect("translates");
    assert!(!text.contains(" := -("), "{text}");
    assert!(text.contains("havoc #addr~a~"), "{text}");
}
