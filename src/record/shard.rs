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

/// Text that is not a shard: not `I/N` with `1 <= I <= N` (the text as
/// given).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotShard(pub String);

impl std::fmt::Display for NotShard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "--shard {}: expected I/N with 1 <= I <= N, or auto[/N]",
            self.0
        )
    }
}

impl std::error::Error for NotShard {}

impl std::str::FromStr for Shard {
    type Err = NotShard;

    /// `I/N` with `1 <= I <= N`.
    fn from_str(s: &str) -> Result<Shard, NotShard> {
        let bad = || NotShard(s.into());
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count): (u32, u32) =
            (i.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shard_reads_back_and_anything_else_is_named() {
        assert_eq!("3/8".parse::<Shard>(), Ok(Shard { index: 3, count: 8 }));
        for bad in ["0/8", "9/8", "3", "a/8", "3/"] {
            assert_eq!(bad.parse::<Shard>(), Err(NotShard(bad.into())), "{bad}");
        }
        assert_eq!(
            NotShard("9/8".into()).to_string(),
            "--shard 9/8: expected I/N with 1 <= I <= N, or auto[/N]"
        );
    }
}
