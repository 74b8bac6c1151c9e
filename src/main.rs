fn main() {
    std::process::exit(overhear::cli::main());
}
