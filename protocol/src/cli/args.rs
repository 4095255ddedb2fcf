//! A small command-line option parser: `--name value`, `--name=value` and `--flag`.
//! Every option must be known to the subcommand; anything else is a usage error.

use std::collections::VecDeque;
use std::fmt;
use std::str::FromStr;

/// A usage error: bad or missing arguments. The binary prints it and exits with code 2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct UsageError(pub(crate) String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

/// Parsed options of one subcommand.
#[derive(Debug, Default)]
pub(crate) struct Options {
    values: Vec<(String, Option<String>)>,
}

impl Options {
    /// Parses `args` (without the subcommand name). `with_value` lists the options that take
    /// a value, `flags` those that do not.
    pub(crate) fn parse(
        args: &[String],
        with_value: &[&str],
        flags: &[&str],
    ) -> Result<Options, UsageError> {
        let mut queue: VecDeque<&String> = args.iter().collect();
        let mut values = Vec::new();
        while let Some(arg) = queue.pop_front() {
            let Some(body) = arg.strip_prefix("--") else {
                return Err(UsageError(format!("unexpected argument '{arg}'")));
            };
            let (name, inline) = match body.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (body, None),
            };
            if values.iter().any(|(n, _)| n == name) {
                return Err(UsageError(format!("option --{name} given twice")));
            }
            if with_value.contains(&name) {
                let value = match inline {
                    Some(v) => v,
                    None => queue
                        .pop_front()
                        .cloned()
                        .ok_or_else(|| UsageError(format!("option --{name} needs a value")))?,
                };
                values.push((name.to_string(), Some(value)));
            } else if flags.contains(&name) {
                if inline.is_some() {
                    return Err(UsageError(format!("option --{name} takes no value")));
                }
                values.push((name.to_string(), None));
            } else {
                return Err(UsageError(format!("unknown option --{name}")));
            }
        }
        Ok(Options { values })
    }

    /// Whether the flag `name` was given.
    pub(crate) fn flag(&self, name: &str) -> bool {
        self.values.iter().any(|(n, _)| n == name)
    }

    /// The raw value of option `name`, if given.
    pub(crate) fn raw(&self, name: &str) -> Option<&str> {
        self.values.iter().find(|(n, _)| n == name).and_then(|(_, v)| v.as_deref())
    }

    /// The value of option `name` parsed as `T`, if given.
    pub(crate) fn get<T: FromStr>(&self, name: &str) -> Result<Option<T>, UsageError>
    where
        T::Err: fmt::Display,
    {
        self.raw(name)
            .map(|v| {
                v.parse::<T>().map_err(|e| UsageError(format!("bad value '{v}' for --{name}: {e}")))
            })
            .transpose()
    }

    /// The value of the required option `name` parsed as `T`.
    pub(crate) fn require<T: FromStr>(&self, name: &str) -> Result<T, UsageError>
    where
        T::Err: fmt::Display,
    {
        self.get(name)?.ok_or_else(|| UsageError(format!("option --{name} is required")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(args: &[&str]) -> Vec<String> {
        args.iter().map(|s| (*s).to_string()).collect()
    }

    #[test]
    fn values_and_flags_in_both_spellings() {
        let opts = Options::parse(
            &strings(&["--size", "5", "--depth=3", "--divide"]),
            &["size", "depth"],
            &["divide"],
        )
        .unwrap();
        assert_eq!(opts.require::<u32>("size"), Ok(5));
        assert_eq!(opts.get::<u32>("depth"), Ok(Some(3)));
        assert!(opts.flag("divide"));
        assert_eq!(opts.raw("rule"), None);
    }

    #[test]
    fn usage_errors_name_the_problem() {
        let err =
            |args: &[&str]| Options::parse(&strings(args), &["size"], &["divide"]).unwrap_err().0;
        assert_eq!(err(&["--bogus"]), "unknown option --bogus");
        assert_eq!(err(&["--size"]), "option --size needs a value");
        assert_eq!(err(&["5"]), "unexpected argument '5'");
        assert_eq!(err(&["--divide=yes"]), "option --divide takes no value");
        assert_eq!(err(&["--size", "3", "--size", "5"]), "option --size given twice");
        let opts = Options::parse(&strings(&["--size", "x"]), &["size"], &[]).unwrap();
        assert!(opts.require::<u32>("size").unwrap_err().0.starts_with("bad value 'x' for --size"));
        assert_eq!(opts.require::<u32>("depth").unwrap_err().0, "option --depth is required");
    }
}
