//! Which part of a match this referee plays: `--shard I/N`, or
//! `--shard auto[/N]` read from a cluster scheduler's environment (a Slurm
//! job array, an indexed Kubernetes Job). Every task of an array runs the
//! same command, so with `auto` the record and state files get the shard's
//! index in their names: each task writes, locks and resumes its own.

use crate::record::shard::{NotShard, Shard};
use std::path::{Path, PathBuf};

/// The scheduler variables `--shard auto` reads.
pub mod vars {
    pub const SLURM_ID: &str = "SLURM_ARRAY_TASK_ID";
    pub const SLURM_COUNT: &str = "SLURM_ARRAY_TASK_COUNT";
    pub const SLURM_MIN: &str = "SLURM_ARRAY_TASK_MIN";
    pub const SLURM_MAX: &str = "SLURM_ARRAY_TASK_MAX";
    pub const SLURM_STEP: &str = "SLURM_ARRAY_TASK_STEP";
    pub const SLURM_JOB: &str = "SLURM_JOB_ID";
    pub const K8S_INDEX: &str = "JOB_COMPLETION_INDEX";
}

/// The argument of `--shard`: the shard, and whether it came from the
/// environment (then the file names are derived from it). `env` looks a
/// variable up.
pub fn resolve(
    arg: &str,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<(Shard, bool), ShardError> {
    let Some(rest) = arg.strip_prefix("auto") else {
        return Ok((arg.parse().map_err(ShardError::Fixed)?, false));
    };
    let given = match rest {
        "" => None,
        _ => Some(
            rest.strip_prefix('/')
                .and_then(|n| n.parse::<u32>().ok())
                .filter(|&n| n > 0)
                .ok_or_else(|| ShardError::Auto(arg.to_string()))?,
        ),
    };
    let shard = if env(vars::SLURM_ID).is_some() {
        from_slurm(given, env)?
    } else if let Some(i) = env(vars::K8S_INDEX) {
        from_index(&i, given)?
    } else if env(vars::SLURM_JOB).is_some() {
        let arg = arg.to_string();
        return Err(ShardError::NotArray { arg, given });
    } else {
        return Err(ShardError::NoScheduler(arg.to_string()));
    };
    Ok((shard, true))
}

/// A variable that must hold a whole number.
fn number(
    env: &dyn Fn(&str) -> Option<String>,
    name: &'static str,
) -> Result<Option<u64>, ShardError> {
    match env(name) {
        None => Ok(None),
        Some(v) => v
            .trim()
            .parse()
            .map(Some)
            .map_err(|_| ShardError::NotNumber { name, value: v }),
    }
}

/// Task IDs of a Slurm array form a range `MIN-MAX[:STEP]`; the shard is
/// the task's place in it.
fn from_slurm(
    given: Option<u32>,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Shard, ShardError> {
    let id = number(env, vars::SLURM_ID)?.unwrap_or(0);
    let count = number(env, vars::SLURM_COUNT)?.ok_or(ShardError::NoCount)?;
    let min = number(env, vars::SLURM_MIN)?.unwrap_or(0);
    let step = number(env, vars::SLURM_STEP)?.unwrap_or(1).max(1);
    let not_a_range = || ShardError::NotRange {
        count,
        id,
        min,
        step,
    };
    if id < min || (id - min) % step != 0 {
        return Err(not_a_range());
    }
    if let Some(max) = number(env, vars::SLURM_MAX)?
        && (max < min || (max - min) / step + 1 != count)
    {
        return Err(not_a_range());
    }
    let index = (id - min) / step;
    if count == 0 || index >= count || count > u64::from(u32::MAX) {
        return Err(not_a_range());
    }
    let count = count as u32;
    if let Some(n) = given
        && n != count
    {
        return Err(ShardError::OtherCount { given: n, count });
    }
    Ok(Shard {
        index: index as u32 + 1,
        count,
    })
}

/// An indexed Kubernetes Job numbers its pods from 0; the count is not in
/// their environment, so it must be given.
fn from_index(value: &str, given: Option<u32>) -> Result<Shard, ShardError> {
    let Some(count) = given else {
        return Err(ShardError::IndexAlone(value.to_string()));
    };
    let index: u32 = value.trim().parse().map_err(|_| ShardError::NotNumber {
        name: vars::K8S_INDEX,
        value: value.to_string(),
    })?;
    if index >= count {
        return Err(ShardError::IndexPast { count, index });
    }
    Ok(Shard {
        index: index + 1,
        count,
    })
}

/// The file of one shard: `games.pgn` → `games.shard-03-of-16.pgn` (the
/// index padded to the width of the count, so the names sort).
pub fn derived_path(path: &Path, shard: Shard) -> PathBuf {
    let width = shard.count.to_string().len();
    let mark = format!(
        "shard-{:0width$}-of-{}",
        shard.index,
        shard.count,
        width = width
    );
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = match path.extension() {
        Some(ext) => format!("{stem}.{mark}.{}", ext.to_string_lossy()),
        None => format!("{stem}.{mark}"),
    };
    path.with_file_name(name)
}

/// What is wrong with `--shard`, or with the scheduler's environment it
/// reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShardError {
    /// `--shard I/N` that is not one.
    Fixed(NotShard),
    /// `--shard auto...` that is not `auto` or `auto/N`.
    Auto(String),
    /// A Slurm job that is not an array (`given`: auto/N's N).
    NotArray {
        arg: String,
        given: Option<u32>,
    },
    /// No scheduler's variables.
    NoScheduler(String),
    NotNumber {
        name: &'static str,
        value: String,
    },
    /// The array's task ID without its count.
    NoCount,
    /// Task IDs that are not a range of `count`.
    NotRange {
        count: u64,
        id: u64,
        min: u64,
        step: u64,
    },
    /// auto/N where the array has another count.
    OtherCount {
        given: u32,
        count: u32,
    },
    /// A Kubernetes index without auto/N.
    IndexAlone(String),
    IndexPast {
        count: u32,
        index: u32,
    },
}

impl std::fmt::Display for ShardError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use vars::*;
        match self {
            ShardError::Fixed(e) => e.fmt(f),
            ShardError::Auto(arg) => {
                write!(f, "--shard {arg}: expected auto or auto/N with N >= 1")
            }
            ShardError::NotArray { arg, given } => write!(
                f,
                "--shard {arg}: this Slurm job is not a job array ({SLURM_ID} is not set): submit it with \
                 sbatch --array=0-{}",
                given.map_or("N-1".to_string(), |n| (n - 1).to_string())
            ),
            ShardError::NoScheduler(arg) => write!(
                f,
                "--shard {arg}: neither {SLURM_ID} (a Slurm job array) nor {K8S_INDEX} (an indexed Kubernetes Job) \
                 is set; outside a scheduler give --shard I/N"
            ),
            ShardError::NotNumber { name, value } => {
                write!(f, "--shard auto: {name}={value:?} is not a whole number")
            }
            ShardError::NoCount => {
                write!(
                    f,
                    "--shard auto: {SLURM_ID} is set but {SLURM_COUNT} is not"
                )
            }
            ShardError::NotRange {
                count,
                id,
                min,
                step,
            } => write!(
                f,
                "--shard auto: the array's task IDs are not a range of {count} (task {id}, \
                 {SLURM_MIN}={min}, {SLURM_STEP}={step}): submit with sbatch --array=0-{}",
                count.saturating_sub(1)
            ),
            ShardError::OtherCount { given, count } => write!(
                f,
                "--shard auto/{given}: the Slurm array has {count} tasks ({SLURM_COUNT}={count})"
            ),
            ShardError::IndexAlone(value) => write!(
                f,
                "--shard auto: {K8S_INDEX}={value} gives the index but not the number of shards: \
                 give --shard auto/N (N = the Job's completions)"
            ),
            ShardError::IndexPast { count, index } => {
                write!(
                    f,
                    "--shard auto/{count}: {K8S_INDEX}={index} is not below {count}"
                )
            }
        }
    }
}

impl std::error::Error for ShardError {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn with(vars: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |k| map.get(k).cloned()
    }

    fn shard(index: u32, count: u32) -> Shard {
        Shard { index, count }
    }

    #[test]
    fn a_fixed_shard_is_i_of_n_and_keeps_its_file_names() {
        let none = with(&[]);
        assert_eq!(resolve("2/4", &none), Ok((shard(2, 4), false)));
        for bad in ["0/4", "5/4", "1", "a/b", "1/0", "-1/4"] {
            let e = resolve(bad, &none).unwrap_err().to_string();
            assert!(e.contains(&format!("--shard {bad}")), "{bad}: {e}");
        }
    }

    #[test]
    fn a_slurm_array_task_is_its_place_in_the_array() {
        let env = with(&[
            ("SLURM_ARRAY_TASK_ID", "0"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_MAX", "3"),
        ]);
        assert_eq!(resolve("auto", &env), Ok((shard(1, 4), true)));
        assert_eq!(resolve("auto/4", &env), Ok((shard(1, 4), true)));
        // --array=1-4, and --array=10-16:2 (10, 12, 14, 16).
        let env = with(&[
            ("SLURM_ARRAY_TASK_ID", "4"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_MAX", "4"),
        ]);
        assert_eq!(resolve("auto", &env), Ok((shard(4, 4), true)));
        let env = with(&[
            ("SLURM_ARRAY_TASK_ID", "14"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
            ("SLURM_ARRAY_TASK_MIN", "10"),
            ("SLURM_ARRAY_TASK_MAX", "16"),
            ("SLURM_ARRAY_TASK_STEP", "2"),
        ]);
        assert_eq!(resolve("auto", &env), Ok((shard(3, 4), true)));
    }

    #[test]
    fn slurm_variables_that_disagree_are_refused() {
        type Vars<'a> = &'a [(&'a str, &'a str)];
        let cases: [(Vars, &str, &str); 6] = [
            (
                &[("SLURM_ARRAY_TASK_ID", "1")],
                "auto",
                "SLURM_ARRAY_TASK_COUNT is not",
            ),
            (
                &[
                    ("SLURM_ARRAY_TASK_ID", "x"),
                    ("SLURM_ARRAY_TASK_COUNT", "4"),
                ],
                "auto",
                "not a whole number",
            ),
            (
                &[
                    ("SLURM_ARRAY_TASK_ID", "4"),
                    ("SLURM_ARRAY_TASK_COUNT", "4"),
                ],
                "auto",
                "not a range of 4",
            ),
            (
                // --array=0,3,5: three tasks that are no range.
                &[
                    ("SLURM_ARRAY_TASK_ID", "3"),
                    ("SLURM_ARRAY_TASK_COUNT", "3"),
                    ("SLURM_ARRAY_TASK_MIN", "0"),
                    ("SLURM_ARRAY_TASK_MAX", "5"),
                ],
                "auto",
                "sbatch --array=0-2",
            ),
            (
                &[
                    ("SLURM_ARRAY_TASK_ID", "1"),
                    ("SLURM_ARRAY_TASK_COUNT", "4"),
                ],
                "auto/8",
                "has 4 tasks",
            ),
            (
                &[
                    ("SLURM_ARRAY_TASK_ID", "0"),
                    ("SLURM_ARRAY_TASK_COUNT", "0"),
                ],
                "auto",
                "not a range",
            ),
        ];
        for (vars, arg, words) in cases {
            let e = resolve(arg, &with(vars)).unwrap_err().to_string();
            assert!(e.contains(words), "{vars:?} {arg}: {e}");
        }
    }

    #[test]
    fn a_kubernetes_index_needs_the_count() {
        let env = with(&[("JOB_COMPLETION_INDEX", "2")]);
        assert_eq!(resolve("auto/3", &env), Ok((shard(3, 3), true)));
        let e = resolve("auto", &env).unwrap_err().to_string();
        assert!(e.contains("--shard auto/N"), "{e}");
        let e = resolve("auto/2", &env).unwrap_err().to_string();
        assert!(e.contains("is not below 2"), "{e}");
        let e = resolve("auto/x", &env).unwrap_err().to_string();
        assert!(e.contains("auto/N"), "{e}");
    }

    #[test]
    fn no_scheduler_variables_is_an_error_that_names_them() {
        let e = resolve("auto", &with(&[])).unwrap_err().to_string();
        assert!(e.contains("SLURM_ARRAY_TASK_ID"), "{e}");
        assert!(e.contains("JOB_COMPLETION_INDEX"), "{e}");
        let e = resolve("auto/4", &with(&[("SLURM_JOB_ID", "77")]))
            .unwrap_err()
            .to_string();
        assert!(e.contains("not a job array"), "{e}");
        assert!(e.contains("sbatch --array=0-3"), "{e}");
    }

    #[test]
    fn a_shards_files_carry_its_index() {
        let p = derived_path(Path::new("out/games.pgn"), shard(3, 16));
        assert_eq!(p, PathBuf::from("out/games.shard-03-of-16.pgn"));
        let p = derived_path(Path::new("state"), shard(1, 2));
        assert_eq!(p, PathBuf::from("state.shard-1-of-2"));
    }
}
