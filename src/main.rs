fn main() {
    std::process::exit(lapidary::cli::main());
}
