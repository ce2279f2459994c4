//! `koma-referee`: plays matches between engine processes. Thin front end
//! over `koma::referee::run`: this edge words the errors a user reads.

use koma::referee::{RunError, Variants, run};
use std::process::ExitCode;

fn main() -> ExitCode {
    koma::init_logging();
    let e = match run(std::env::args_os(), &Variants::koma()) {
        Ok(code) => return code,
        Err(RunError::Clap(e)) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
        Err(RunError::Usage(u)) => {
            eprintln!("koma-referee: error: {u}\n\nFor more information, try '--help'.");
            return ExitCode::from(2);
        }
        // A file named on the command line: a bad argument too, printed
        // with its cause ("cannot open the state file PATH: Permission denied").
        Err(RunError::File(e)) => anyhow::Error::new(e),
        Err(RunError::Report(why)) => anyhow::Error::msg(why),
    };
    eprintln!("koma-referee: {e:#}");
    ExitCode::from(2)
}
