//! Generates the LALRPOP parser from grammar/boogie.lalrpop into OUT_DIR.
fn main() {
    println!("cargo:rerun-if-changed=grammar");
    lalrpop::Configuration::new()
        .use_cargo_dir_conventions()
        .set_in_dir("grammar")
        .process()
        .expect("LALRPOP grammar failed to compile");
}
