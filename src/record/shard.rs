//! The `Shard` tag's value, `I/N`: which part of a match a record's game
//! belongs to, as typed after the referee's `--shard` and written in the
//! tag, so that the referee and the replay check read it alike.

/// Shard `index` (from 1) of `count`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl std::fmt::Display for Shard {
    /// `I/N`, as typed after `--shard` and written in the `Shard` tag.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl std::str::FromStr for Shard {
    type Err = String;

    /// `I/N` with `1 <= I <= N`.
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("--shard {s}: expected I/N with 1 <= I <= N, or auto[/N]");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count): (u32, u32) =
            (i.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}
