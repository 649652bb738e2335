use clap::Parser;

fn main() {
    let cli = retrylint::cli::Cli::parse();
    std::process::exit(retrylint::cli::run(cli));
}
