#![forbid(unsafe_code)]

use clap::Parser;

/// mimalloc instead of the system allocator: the readers allocate many
/// small, short-lived values (Cargo.toml says why `no_thp`).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    retrylint::timings::start();
    let cli = retrylint::cli::Cli::parse_from(retrylint::cli::normalise_args(std::env::args_os()));
    // A panic while reading one file is caught per file (`scan`); one
    // anywhere else (linking, rules, rendering) still must not look like
    // findings (exit 1) or a crash of unknown meaning (101).
    let code = std::panic::catch_unwind(move || retrylint::cli::run(cli)).unwrap_or_else(|_| {
        eprintln!(
            "retrylint: internal error (the message above); this is a bug: please report it with the command line and the files it read"
        );
        2
    });
    retrylint::timings::mark("end");
    std::process::exit(code);
}
