//! The weights file: one game's evaluation weights, built into the engine
//! (`src/games/<game>/weights.bin`) or loaded by the `EvalFile` option.
//!
//! Layout, little-endian: a 48-byte header, then the weights.
//!
//! | offset | size | field |
//! | --- | --- | --- |
//! | 0 | 8 | magic `KOMAEVAL` |
//! | 8 | 4 | version (1) |
//! | 12 | 16 | the game's `UCI_Variant` name, ASCII, padded with zero bytes |
//! | 28 | 4 | `N`: the evaluation's terms |
//! | 32 | 4 | `IN`: the network's inputs (0: no network) |
//! | 36 | 4 | `H`: the network's hidden units per view (0: no network) |
//! | 40 | 4 | CRC-32 (IEEE) of bytes 0..40 and of everything after byte 48 |
//! | 44 | 4 | zero |
//! | 48 | 4 `N` | the terms' weights, `i32` centipawns, in the game's term order |
//!
//! With a network, then (see `net`): `IN * H` input weights (`i16`, input
//! by input), `H` hidden biases (`i16`), `2 * H` output weights (`i16`, the
//! side to move's view first) and the output bias (`i32`). With a network
//! the evaluation is the network's output plus the terms'.

use super::MAX_WEIGHT;
use super::net::Network;
use crate::core::binary_file::{FileError, SizeMismatch, read_announced};
use crate::core::crc32::crc32;
use std::fmt;
use std::path::Path;

pub const MAGIC: &[u8; 8] = b"KOMAEVAL";
pub const VERSION: u32 = 1;
pub const HEADER: usize = 48;

/// One game's weights: `N` terms and maybe a network of `IN` inputs and
/// `H` hidden units.
#[derive(Clone, Debug, PartialEq)]
pub struct Params<const N: usize, const IN: usize, const H: usize> {
    pub terms: [i32; N],
    pub net: Option<Network<IN, H>>,
}

/// The file size for `n` terms and a network of `inputs` x `hidden`
/// (`inputs == 0`: none).
pub const fn file_size(n: usize, inputs: usize, hidden: usize) -> usize {
    let net = if inputs == 0 {
        0
    } else {
        2 * (inputs * hidden + 3 * hidden) + 4
    };
    HEADER + 4 * n + net
}

const fn u32_at(b: &[u8], o: usize) -> u32 {
    u32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]])
}

const fn i16_at(b: &[u8], o: usize) -> i16 {
    i16::from_le_bytes([b[o], b[o + 1]])
}

/// The game name field for `name`.
const fn name_field(name: &str) -> [u8; 16] {
    let mut f = [0u8; 16];
    let b = name.as_bytes();
    let mut i = 0;
    while i < b.len() && i < 16 {
        f[i] = b[i];
        i += 1;
    }
    f
}

const fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// A network in the file's order, of a shape known only at run time (the
/// trainer's): `input` row by row (`inputs` rows of `hidden`), `output`
/// the side to move's view first.
#[derive(Clone, Debug, PartialEq)]
pub struct RawNet {
    pub inputs: usize,
    pub hidden: usize,
    pub input: Vec<i16>,
    pub bias: Vec<i16>,
    pub output: Vec<i16>,
    pub output_bias: i32,
}

/// The bytes of a weights file of `game` with these terms and network.
pub fn write(game: &str, terms: &[i32], net: Option<&RawNet>) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&name_field(game));
    let (inputs, hidden) = net.map_or((0, 0), |n| (n.inputs, n.hidden));
    for n in [terms.len(), inputs, hidden] {
        out.extend_from_slice(&(n as u32).to_le_bytes());
    }
    out.extend_from_slice(&[0; 8]);
    for t in terms {
        out.extend_from_slice(&t.to_le_bytes());
    }
    if let Some(net) = net {
        for w in net.input.iter().chain(&net.bias).chain(&net.output) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&net.output_bias.to_le_bytes());
    }
    let crc = crc32(crc32(0, &out[..40]), &out[HEADER..]);
    out[40..44].copy_from_slice(&crc.to_le_bytes());
    out
}

impl<const N: usize, const IN: usize, const H: usize> Params<N, IN, H> {
    /// Weights of the terms only.
    pub const fn terms_only(terms: [i32; N]) -> Self {
        Params { terms, net: None }
    }

    /// The weights of a file's bytes for game `game`, checked only as far
    /// as a build-time constant can be (the built-in file; its checksum is
    /// checked by a test): a bad file fails the build.
    pub const fn from_bytes_const(game: &str, bytes: &[u8]) -> Self {
        match Self::parse(game, bytes) {
            Ok(p) => p,
            Err(e) => panic!("{}", e),
        }
    }

    const fn parse(game: &str, b: &[u8]) -> Result<Self, &'static str> {
        if b.len() < HEADER {
            return Err("truncated: shorter than the 48-byte header");
        }
        let (head, _) = b.split_at(8);
        if !same_bytes(head, MAGIC) {
            return Err("not a Koma weights file (it does not start with KOMAEVAL)");
        }
        if u32_at(b, 8) != VERSION {
            return Err("a weights file of another version");
        }
        let (_, rest) = b.split_at(12);
        let (name, _) = rest.split_at(16);
        if !same_bytes(name, &name_field(game)) {
            return Err("the weights of another game");
        }
        if u32_at(b, 28) as usize != N {
            return Err("another number of terms");
        }
        if u32_at(b, 44) != 0 {
            return Err("bytes 44 to 47 of the header are not zero, as the layout requires");
        }
        let (inputs, hidden) = (u32_at(b, 32) as usize, u32_at(b, 36) as usize);
        let with_net = inputs != 0 || hidden != 0;
        if with_net && (inputs != IN || hidden != H) {
            return Err("a network of another shape");
        }
        let want = file_size(N, if with_net { IN } else { 0 }, H);
        if b.len() != want {
            return Err("not the size its header announces");
        }
        let mut terms = [0i32; N];
        let mut o = HEADER;
        let mut i = 0;
        while i < N {
            terms[i] = u32_at(b, o) as i32;
            if terms[i] > MAX_WEIGHT || terms[i] < -MAX_WEIGHT {
                return Err("a term's weight is outside ±100000 centipawns");
            }
            o += 4;
            i += 1;
        }
        if !with_net {
            return Ok(Params { terms, net: None });
        }
        let mut input = [[0i16; H]; IN];
        let mut i = 0;
        while i < IN {
            let mut j = 0;
            while j < H {
                input[i][j] = i16_at(b, o);
                o += 2;
                j += 1;
            }
            i += 1;
        }
        let mut bias = [0i16; H];
        let mut j = 0;
        while j < H {
            bias[j] = i16_at(b, o);
            o += 2;
            j += 1;
        }
        let mut output = [[0i16; H]; 2];
        let mut v = 0;
        while v < 2 {
            let mut j = 0;
            while j < H {
                output[v][j] = i16_at(b, o);
                o += 2;
                j += 1;
            }
            v += 1;
        }
        let output_bias = u32_at(b, o) as i32;
        if output_bias > MAX_WEIGHT || output_bias < -MAX_WEIGHT {
            return Err("the network's output bias is outside ±100000 centipawns");
        }
        Ok(Params {
            terms,
            net: Some(Network {
                input,
                bias,
                output,
                output_bias,
            }),
        })
    }

    /// The file's bytes.
    pub fn to_bytes(&self, game: &str) -> Vec<u8> {
        let net = self.net.as_ref().map(|n| RawNet {
            inputs: IN,
            hidden: H,
            input: n.input.iter().flatten().copied().collect(),
            bias: n.bias.to_vec(),
            output: n.output.iter().flatten().copied().collect(),
            output_bias: n.output_bias,
        });
        write(game, &self.terms, net.as_ref())
    }

    /// Checks a header; returns the file size it announces. The errors
    /// name what differs.
    fn check_header(game: &str, b: &[u8]) -> Result<usize, WeightsError> {
        if b.len() < HEADER {
            return Err(WeightsError::NoHeader { len: b.len() });
        }
        if &b[..8] != MAGIC {
            return Err(WeightsError::NotWeights);
        }
        let version = u32_at(b, 8);
        if version != VERSION {
            return Err(WeightsError::Version(version));
        }
        if b[12..28] != name_field(game) {
            let name: String = b[12..28]
                .iter()
                .take_while(|&&c| c != 0)
                .map(|&c| if c.is_ascii_graphic() { c as char } else { '?' })
                .collect();
            let game = game.to_string();
            return Err(WeightsError::OtherGame { name, game });
        }
        let n = u32_at(b, 28) as usize;
        if n != N {
            let (game, want) = (game.to_string(), N);
            return Err(WeightsError::Terms { n, game, want });
        }
        // Outside the checksum, so checked here: a file that breaks its
        // own layout was not written by `write`.
        if b[44..HEADER] != [0; 4] {
            return Err(WeightsError::Reserved);
        }
        let (inputs, hidden) = (u32_at(b, 32) as usize, u32_at(b, 36) as usize);
        if (inputs, hidden) == (0, 0) {
            return Ok(file_size(N, 0, 0));
        }
        if (inputs, hidden) != (IN, H) {
            let game = game.to_string();
            let want = (IN, H);
            return Err(WeightsError::Network {
                inputs,
                hidden,
                game,
                want,
            });
        }
        Ok(file_size(N, IN, H))
    }

    /// The weights of a file's bytes, checked whole.
    pub fn from_bytes(game: &str, b: &[u8]) -> Result<Self, WeightsError> {
        let want = Self::check_header(game, b)?;
        if b.len() != want {
            let (len, want) = (b.len() as u64, want as u64);
            return Err(WeightsError::Size(SizeMismatch { len, want }));
        }
        let stored = u32_at(b, 40);
        let crc = crc32(crc32(0, &b[..40]), &b[HEADER..]);
        if crc != stored {
            let computed = crc;
            return Err(WeightsError::Checksum { stored, computed });
        }
        Self::parse(game, b).map_err(WeightsError::Layout)
    }

    /// Loads a weights file of `game`. Only a regular file of exactly the
    /// size its header announces is read (at most one header from anything
    /// else): the path comes from outside. The error describes the file
    /// without naming it.
    pub fn load(game: &str, path: &Path) -> Result<Self, WeightsError> {
        let bytes = read_announced(path, HEADER, |h| {
            Self::check_header(game, h).map(|n| n as u64)
        })
        .map_err(|e| match e {
            FileError::Header(h) => h,
            e => WeightsError::File(Box::new(e)),
        })?;
        Self::from_bytes(game, &bytes)
    }
}

/// What is wrong with a weights file (the words describe the file without
/// naming it).
#[derive(Debug)]
pub enum WeightsError {
    NoHeader {
        len: usize,
    },
    /// It does not start with `KOMAEVAL`.
    NotWeights,
    Version(u32),
    /// The weights of `name`, asked for `game`'s.
    OtherGame {
        name: String,
        game: String,
    },
    Terms {
        n: usize,
        game: String,
        want: usize,
    },
    /// Bytes 44 to 47 are not zero.
    Reserved,
    /// A network of another shape: `want` is the game's (inputs, hidden).
    Network {
        inputs: usize,
        hidden: usize,
        game: String,
        want: (usize, usize),
    },
    Size(SizeMismatch),
    Checksum {
        stored: u32,
        computed: u32,
    },
    /// A check of the layout past the header (a weight out of range...).
    Layout(&'static str),
    /// Not read at all (no such file, not a regular file...).
    File(Box<FileError<WeightsError>>),
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsError::NoHeader { len } => {
                write!(
                    f,
                    "truncated: {len} bytes, less than the {HEADER}-byte header"
                )
            }
            WeightsError::NotWeights => {
                f.write_str("not a Koma weights file (it does not start with KOMAEVAL)")
            }
            WeightsError::Version(v) => {
                write!(
                    f,
                    "weights file version {v}, this Koma reads version {VERSION}"
                )
            }
            WeightsError::OtherGame { name, game } => {
                write!(f, "the weights of {name}, not of {game}")
            }
            WeightsError::Terms { n, game, want } => write!(f, "{n} terms, {game} has {want}"),
            WeightsError::Reserved => {
                f.write_str("bytes 44 to 47 of the header are not zero, as the layout requires")
            }
            WeightsError::Network {
                inputs,
                hidden,
                game,
                want: (i, h),
            } => write!(
                f,
                "a network of {inputs} inputs and {hidden} hidden units, {game}'s has {i} and {h}"
            ),
            WeightsError::Size(s) => s.fmt(f),
            WeightsError::Checksum { stored, computed } => write!(
                f,
                "checksum mismatch (stored {stored:08x}, computed {computed:08x}): the file is corrupt"
            ),
            WeightsError::Layout(why) => f.write_str(why),
            WeightsError::File(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for WeightsError {}

#[cfg(test)]
mod tests {
    use super::*;

    type P = Params<3, 4, 2>;

    fn with_net() -> P {
        Params {
            terms: [1, -2, 300],
            net: Some(Network {
                input: [[1, 2], [3, 4], [-5, 6], [7, -8]],
                bias: [9, 10],
                output: [[11, -12], [13, 14]],
                output_bias: -15,
            }),
        }
    }

    #[test]
    fn a_weights_file_reads_back_what_was_written_with_and_without_a_network() {
        for p in [with_net(), P::terms_only([5, 6, 7])] {
            let bytes = p.to_bytes("hasami");
            let want = file_size(3, if p.net.is_some() { 4 } else { 0 }, 2);
            assert_eq!(bytes.len(), want);
            assert_eq!(P::from_bytes("hasami", &bytes).unwrap(), p);
            assert_eq!(P::from_bytes_const("hasami", &bytes), p);
        }
    }

    #[test]
    fn a_damaged_or_foreign_weights_file_is_refused_with_the_reason() {
        let good = with_net().to_bytes("nana");
        let err = |b: &[u8]| P::from_bytes("nana", b).unwrap_err().to_string();
        assert!(err(&good[..47]).contains("truncated"));
        assert!(err(&good[..good.len() - 1]).contains("truncated"));
        let mut longer = good.clone();
        longer.push(0);
        assert!(err(&longer).contains("longer"));
        let mut flipped = good.clone();
        *flipped.last_mut().unwrap() ^= 1;
        assert!(err(&flipped).contains("checksum"));
        let mut magic = good.clone();
        magic[0] = b'X';
        assert!(err(&magic).contains("not a Koma weights file"));
        let mut version = good.clone();
        version[8] = 2;
        assert!(err(&version).contains("version 2"));
        for k in 44..48 {
            let mut reserved = good.clone();
            reserved[k] = 1;
            assert_eq!(
                err(&reserved),
                "bytes 44 to 47 of the header are not zero, as the layout requires",
                "byte {k}"
            );
        }
        assert_eq!(
            P::from_bytes("hasami", &good).unwrap_err().to_string(),
            "the weights of nana, not of hasami"
        );
        let other = Params::<4, 4, 2>::terms_only([0; 4]).to_bytes("nana");
        assert!(err(&other).contains("4 terms, nana has 3"));
        let shape = Params::<3, 4, 3> {
            terms: [0; 3],
            net: Some(Network {
                input: [[0; 3]; 4],
                bias: [0; 3],
                output: [[0; 3]; 2],
                output_bias: 0,
            }),
        }
        .to_bytes("nana");
        assert!(
            err(&shape).contains("4 inputs and 3 hidden units"),
            "{}",
            err(&shape)
        );
    }

    #[test]
    fn only_a_regular_file_of_the_announced_size_is_loaded() {
        let dir = std::env::temp_dir().join(format!("koma-evalfile-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert!(
            P::load("nana", &dir)
                .unwrap_err()
                .to_string()
                .contains("not a regular file")
        );
        assert!(
            P::load("nana", &dir.join("missing"))
                .unwrap_err()
                .to_string()
                .contains("cannot read it")
        );
        let f = dir.join("w.bin");
        std::fs::write(&f, with_net().to_bytes("nana")).unwrap();
        assert_eq!(P::load("nana", &f).unwrap(), with_net());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
