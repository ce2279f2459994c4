//! `koma-board`: the web board. Starts a local server and prints the
//! address to open; thin front end over `koma::board`.

use anyhow::Context;
use clap::Parser;
use koma::board::{self, Config, ENGINE_FLAG};
use koma::client::process::Launch;
use koma::referee::cli::{TimeoutArgs, Usage};
use std::net::{IpAddr, SocketAddr};
use std::process::ExitCode;
use std::time::Duration;

#[derive(Parser)]
#[command(
    name = "koma-board",
    version,
    about = "A board in the browser for every game Koma plays: play against \
Koma or any engine that speaks Koma's protocol, play a friend, watch two engines, step through \
game records, analyse a position with an engine (several lines) or a whole game (evaluation graph, \
marked mistakes), set up any position.",
    after_help = "Open the address it prints in a browser. The page starts engines, so the server \
answers only to its own page: the Host (and Origin) of every request must name the server (an IP \
address it listens on, localhost on loopback, or a name given with --allow-host), and every API \
request must carry the secret the server makes at start and writes into the page it serves \
(header X-Koma-Secret). By default it listens only on 127.0.0.1. At most 4 engines analyse at \
once (live analyses and game reviews together); an analysis whose page is closed, or stops \
polling for 10 s, is stopped and its engine quit."
)]
struct Cli {
    /// Address to listen on. Anything but a loopback address lets other machines start programs
    /// on this one through the page: only on a network you trust.
    #[arg(long, default_value = "127.0.0.1")]
    host: IpAddr,

    /// A host name the server answers to besides its IP addresses (e.g. the machine's name on a
    /// trusted network). Repeat for several.
    #[arg(long = "allow-host", value_name = "NAME", action = clap::ArgAction::Append)]
    allow_host: Vec<String>,

    /// Port to listen on (0: any free port).
    #[arg(long, default_value_t = 8080)]
    port: u16,

    /// The engine the page offers by default, with its arguments (default: `koma` next to this
    /// program, or this program itself in engine mode).
    #[arg(long, value_name = "COMMAND")]
    engine: Option<String>,

    #[command(flatten)]
    timeouts: TimeoutArgs,

    /// Milliseconds a player may exceed the clock before losing on time (a busy machine
    /// delays an engine's answer by more than it would lose a referee's match by).
    #[arg(long, value_name = "MS", default_value_t = 1_000)]
    timemargin: u64,

    /// The endgame tables' folder (as `koma solve` writes it): the page shows their verdict on
    /// the position and each move (default: `$XDG_DATA_HOME/koma/tables`, else
    /// `~/.local/share/koma/tables`).
    #[arg(long, value_name = "DIR")]
    tables: Option<std::path::PathBuf>,

    /// Speak Koma's engine protocol on stdin/stdout instead (the page's fallback engine).
    #[arg(long = "engine-protocol", hide = true)]
    engine_protocol: bool,
}

fn main() -> ExitCode {
    koma::init_logging();
    let cli = Cli::parse();
    if cli.engine_protocol {
        debug_assert_eq!(ENGINE_FLAG, "--engine-protocol");
        koma::engine::run(
            koma::engine::Registry::koma(),
            std::io::stdin(),
            koma::engine::Output::new(std::io::stdout()),
        );
        return ExitCode::SUCCESS;
    }
    match serve(&cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.is::<Usage>() => {
            eprintln!("koma-board: error: {e}");
            ExitCode::from(2)
        }
        Err(e) => {
            eprintln!("koma-board: {e:#}");
            ExitCode::from(1)
        }
    }
}

/// Starts the server and serves until it stops. A `Usage` error is a bad
/// argument (exit 2); any other, such as an address already in use, 1.
fn serve(cli: &Cli) -> anyhow::Result<()> {
    let timeouts = cli.timeouts.timeouts()?;
    let engine = match cli.engine.as_deref().map(str::trim) {
        None | Some("") => board::bundled_engine(),
        Some(text) => {
            let mut words = text.split_whitespace().map(str::to_string);
            let cmd = words.next().unwrap_or_default();
            Launch {
                cmd: std::path::absolute(&cmd).unwrap_or_else(|_| cmd.clone().into()),
                args: words.collect(),
                dir: None,
            }
        }
    };
    let mut config = Config::new(cli.port, engine);
    config.addr = SocketAddr::new(cli.host, cli.port);
    config.timeouts = timeouts;
    config.margin = Duration::from_millis(cli.timemargin);
    config.match_size = Some(koma::referee::replay::match_games);
    let plain = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '.';
    if let Some(name) = (cli.allow_host.iter()).find(|n| n.is_empty() || !n.chars().all(plain)) {
        let why = format!("--allow-host {name:?}: expected a host name (letters, digits, - and .)");
        return Err(Usage(why).into());
    }
    config.allow_hosts = cli.allow_host.clone();
    config.tables = match &cli.tables {
        Some(dir) if !dir.is_dir() => {
            let why = format!("--tables {}: not a folder", dir.display());
            return Err(Usage(why).into());
        }
        Some(dir) => Some(dir.clone()),
        None => koma::solve::tables::probe::default_root(),
    };
    let server = board::start(config.clone())
        .with_context(|| format!("cannot listen on {}", config.addr))?;
    if !cli.host.is_loopback() {
        eprintln!(
            "koma-board: warning: listening on {}: anyone who can reach it can start programs here",
            cli.host
        );
    }
    println!("koma-board: open {} in a browser", server.url());
    println!(
        "koma-board: default engine: {}",
        board::launch_text(&config.engine)
    );
    server.wait();
    Ok(())
}
