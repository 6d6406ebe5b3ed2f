//! `promo cast` and `promo convert` (being written).

use std::process::ExitCode;

/// Arguments of `promo cast`.
#[derive(clap::Args)]
pub struct CastArgs {}

/// Arguments of `promo convert`.
#[derive(clap::Args)]
pub struct ConvertArgs {}

/// Runs `promo cast`.
pub fn run_cast(_: &CastArgs) -> ExitCode {
    eprintln!("promo: cast is not available yet");
    ExitCode::from(2)
}

/// Runs `promo convert`.
pub fn run_convert(_: &ConvertArgs) -> ExitCode {
    eprintln!("promo: convert is not available yet");
    ExitCode::from(2)
}
