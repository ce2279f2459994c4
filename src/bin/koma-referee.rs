//! `koma-referee`: plays matches between engine processes. Thin front end
//! over `koma::referee::run`.

fn main() -> std::process::ExitCode {
    koma::init_logging();
    koma::referee::run(std::env::args_os())
}
