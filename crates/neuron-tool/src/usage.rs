//! Clap's usage errors as one line, with the user's values quoted short.
//!
//! Clap echoes a bad value whole (an argument may be 128 KiB) and spreads its message over
//! several lines (usage, a hint). The tool's rule is one sentence with input quoted by
//! [`crate::quote`]: [`parse`] keeps clap's wording and replaces each value it echoes.

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{CommandFactory, FromArgMatches};

use crate::cli::Cli;
use crate::quote::quote_str;

/// What the command line asks for, or the one line to print and the exit status (clap's:
/// 0 for `--help` and `--version`, 2 for a usage error).
pub enum Parsed {
    /// A valid command line.
    Run(Cli),
    /// Help or version text (printed by clap, to stdout).
    Shown(clap::Error),
    /// A usage error: `error: ...` on one line, and the exit status.
    Refused(String, u8),
}

/// Parses `args` (the program name first) as [`Cli`].
pub fn parse<I, T>(args: I) -> Parsed
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    // Plain styles: the rendered message then holds exactly the bytes the user gave, so
    // each can be found and replaced (clap's colours would sit between them).
    let cmd = Cli::command().styles(clap::builder::Styles::plain());
    let e = match cmd
        .try_get_matches_from(args)
        .and_then(|m| Cli::from_arg_matches(&m))
    {
        Ok(cli) => return Parsed::Run(cli),
        Err(e) => e,
    };
    match e.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => Parsed::Shown(e),
        _ => Parsed::Refused(one_line(&e), u8::try_from(e.exit_code()).unwrap_or(2)),
    }
}

/// Clap's message for `e`: its first paragraph on one line, each value the user gave
/// replaced by its [`quote_str`] form.
pub fn one_line(e: &clap::Error) -> String {
    let mut text = e.render().ansi().to_string();
    for kind in [
        ContextKind::InvalidValue,
        ContextKind::InvalidArg,
        ContextKind::InvalidSubcommand,
    ] {
        let values: Vec<&str> = match e.get(kind) {
            Some(ContextValue::String(v)) => vec![v.as_str()],
            Some(ContextValue::Strings(vs)) => vs.iter().map(String::as_str).collect(),
            _ => Vec::new(),
        };
        for v in values {
            text = text.replace(&format!("'{v}'"), &quote_str(v).to_string());
        }
    }
    let first = text.split("\n\n").next().unwrap_or_default();
    let line: Vec<&str> = first
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    // Anything clap echoes unquoted is still escaped.
    let mut out = String::new();
    for c in line.join(" ").chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(args: &[&str]) -> String {
        match parse(std::iter::once("neuron-tool").chain(args.iter().copied())) {
            Parsed::Refused(line, 2) => line,
            Parsed::Refused(_, status) => panic!("{args:?}: status {status}"),
            _ => panic!("{args:?}: accepted"),
        }
    }

    #[test]
    fn a_long_or_raw_value_is_quoted_short_in_one_line() {
        let long = "7".repeat(100_000);
        let e = refused(&["copy", "--size", &long]);
        let q = format!(
            "'{}'... (100000 bytes)",
            "7".repeat(crate::quote::QUOTE_MAX)
        );
        assert_eq!(
            e,
            format!("error: invalid value {q} for '--size <SIZE>': {q} is too large")
        );
        let e = refused(&["copy", "--size", "a\u{1}b\u{1b}[31m"]);
        assert_eq!(
            e,
            r"error: invalid value 'a\x01b\x1b[31m' for '--size <SIZE>': 'a\x01b\x1b[31m' does not start with a number"
        );
    }

    #[test]
    fn clap_wording_is_kept_on_one_line() {
        assert_eq!(
            refused(&["copy", "--arch", "trainium"]),
            "error: invalid value 'trainium' for '--arch <ARCH>' [possible values: sunda, cayman, mariana]"
        );
        assert_eq!(
            refused(&["ring", "decode"]),
            "error: the following required arguments were not provided: --arch <ARCH> <FILE>"
        );
        assert_eq!(
            refused(&["nope\n"]),
            r"error: unrecognized subcommand 'nope\n'"
        );
    }
}
