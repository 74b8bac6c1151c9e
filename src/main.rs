//! The `overhear` command: hands the command line to [`overhear::cli`], the
//! library's edge, and exits with the code it returns.

fn main() {
    std::process::exit(overhear::cli::main());
}
