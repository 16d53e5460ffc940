//! The `alfred` binary: everything lives in the library; see [`alfred::cli`].

fn main() -> std::process::ExitCode {
    alfred::cli::main()
}
