//! `koma-referee`: plays matches between engine processes. Thin front end
//! over `koma::referee::run`.

fn main() -> std::process::ExitCode {
    koma::referee::run(std::env::args_os())
}
