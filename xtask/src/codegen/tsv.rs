//! Reading the tables: tab-separated, a header row, `#` comment lines (project tables only).

use std::collections::BTreeMap;
use std::path::Path;

/// One row: column name -> cell.
pub type Row = BTreeMap<String, String>;

/// The rows of the TSV file at `path`, checked to have every column in `columns`.
pub fn read(path: &Path, columns: &[&str]) -> Result<Vec<Row>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    parse(&text, columns).map_err(|e| format!("{}: {e}", path.display()))
}

fn parse(text: &str, columns: &[&str]) -> Result<Vec<Row>, String> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'));
    let (_, header) = lines.next().ok_or("no header row")?;
    let header: Vec<&str> = header.split('\t').collect();
    for c in columns {
        if !header.contains(c) {
            return Err(format!("no column `{c}`"));
        }
    }
    lines
        .map(|(i, l)| {
            let cells: Vec<&str> = l.split('\t').collect();
            if cells.len() != header.len() {
                return Err(format!(
                    "line {}: {} cells, the header has {}",
                    i + 1,
                    cells.len(),
                    header.len()
                ));
            }
            Ok(header
                .iter()
                .zip(cells)
                .map(|(h, c)| (h.to_string(), c.to_string()))
                .collect())
        })
        .collect()
}

/// A cell as a number (decimal, or hex with `0x`).
pub fn num(row: &Row, column: &str) -> Result<u64, String> {
    let cell = cell(row, column)?;
    match cell.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16),
        None => cell.parse(),
    }
    .map_err(|_| format!("column {column}: `{cell}` is not a number"))
}

/// A cell as a number, `-` meaning none.
pub fn opt_num(row: &Row, column: &str) -> Result<Option<u64>, String> {
    if cell(row, column)? == "-" {
        Ok(None)
    } else {
        num(row, column).map(Some)
    }
}

/// A cell.
pub fn cell<'r>(row: &'r Row, column: &str) -> Result<&'r str, String> {
    row.get(column)
        .map(String::as_str)
        .ok_or_else(|| format!("no column `{column}`"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_blank_lines_are_skipped_and_widths_checked() {
        let rows = parse("# note\na\tb\n\n1\t0x10\n", &["a", "b"]).unwrap();
        assert_eq!(num(&rows[0], "b").unwrap(), 16);
        assert!(parse("a\tb\n1\n", &["a"]).is_err());
        assert!(parse("a\n1\n", &["b"]).is_err());
    }
}
