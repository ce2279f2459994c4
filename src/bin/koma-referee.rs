//! `koma-referee`: plays matches between engine processes. Thin front end
//! over `koma::referee`.

fn main() -> std::process::ExitCode {
    eprintln!("koma-referee: the referee is not built yet (see the referee issue)");
    std::process::ExitCode::from(2)
}
