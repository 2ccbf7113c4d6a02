//! xrpld's ini-like file format, read as xrpld reads it (`parseIniFile` in `Config.cpp`,
//! `Section::append` in `BasicConfig.cpp`), with each line's number kept for messages.
//!
//! - Line ends `\r\n`, `\r` and `\n` all end a line; every line is trimmed.
//! - A line that is empty or starts with `#` is skipped.
//! - A line that starts with `[` and ends with `]` opens the section named by what lies
//!   between (case-sensitive, not trimmed); a section named twice gets the later lines too.
//!   Lines before the first section belong to the unnamed section, which nothing reads.
//! - Any other line belongs to the open section. Single-value sections (`[network_id]`,
//!   `[database_path]`, ...) read these lines as they are ([`Section::raw`]).
//! - Multi-line sections ([`Section::lines`]) first lose a trailing comment: text from the
//!   first `#` not preceded by `\` (a `\#` stays, as `#`), trimmed; then a line of the form
//!   `key = value` (a key of a letter then letters, digits or `_`; a value with at least one
//!   non-blank character) sets `key` (the last one wins), and any other line is a value
//!   ([`Section::values`]).

/// One line of the file: its 1-based number and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The line's number in the file (1 is the first).
    pub number: usize,
    /// The text (trimmed; for [`Section::lines`] and values, without its trailing comment).
    pub text: String,
}

/// One section's lines.
#[derive(Clone, Debug, Default)]
pub struct Section {
    /// The name between the brackets.
    pub name: String,
    /// The number of the line that first opened it (0: the unnamed section).
    pub opened_at: usize,
    /// Its lines as read (trimmed, whole-line comments dropped).
    pub raw: Vec<Line>,
    /// Its lines without trailing comments (empty ones dropped).
    pub lines: Vec<Line>,
    /// The lines that are not `key = value`.
    pub values: Vec<Line>,
    /// `key = value` lines, in file order.
    pub pairs: Vec<(String, Line)>,
}

impl Section {
    /// The last value given to `key`, with its line.
    pub fn get(&self, key: &str) -> Option<&Line> {
        self.pairs
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, line)| line)
    }

    /// Whether `key` was given.
    pub fn has(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    fn push(&mut self, number: usize, text: &str) {
        self.raw.push(Line {
            number,
            text: text.to_owned(),
        });
        let text = without_comment(text);
        if text.is_empty() {
            return;
        }
        let line = Line {
            number,
            text: text.clone(),
        };
        match key_value(&text) {
            Some((key, value)) => self.pairs.push((
                key.to_owned(),
                Line {
                    number,
                    text: value.to_owned(),
                },
            )),
            None => self.values.push(line.clone()),
        }
        self.lines.push(line);
    }
}

/// A parsed file: its sections in the order they first appear.
#[derive(Clone, Debug, Default)]
pub struct Ini {
    /// Every section, the unnamed one first.
    pub sections: Vec<Section>,
}

impl Ini {
    /// Parse `text` as xrpld does.
    pub fn parse(text: &str) -> Ini {
        let mut ini = Ini {
            sections: vec![Section::default()],
        };
        let mut open = 0;
        let text = text.replace("\r\n", "\n").replace('\r', "\n");
        for (i, line) in text.split('\n').enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if line.len() >= 2 && line.starts_with('[') && line.ends_with(']') {
                let name = &line[1..line.len() - 1];
                open = ini.open(name, i + 1);
            } else {
                ini.sections[open].push(i + 1, line);
            }
        }
        ini
    }

    /// The index of the section `name`, opened at line `number` if new.
    fn open(&mut self, name: &str, number: usize) -> usize {
        if let Some(i) = self.sections.iter().position(|s| s.name == name) {
            return i;
        }
        self.sections.push(Section {
            name: name.to_owned(),
            opened_at: number,
            ..Section::default()
        });
        self.sections.len() - 1
    }

    /// The section `name`, if the file has it.
    pub fn section(&self, name: &str) -> Option<&Section> {
        self.sections.iter().skip(1).find(|s| s.name == name)
    }
}

/// `text` without its trailing comment (`Section::append`'s `remove_comment`): cut at the
/// first `#` not escaped as `\#` (each `\#` before it becomes `#`), then trimmed.
fn without_comment(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'#') => {
                out.push('#');
                chars.next();
            }
            '#' if out.is_empty() => return String::new(),
            '#' => return out.trim().to_owned(),
            c => out.push(c),
        }
    }
    out
}

/// `key = value` as xrpld's pattern reads it: a key of a letter then letters, digits or
/// `_`; blanks around `=`; a value that ends in a non-blank character.
fn key_value(text: &str) -> Option<(&str, &str)> {
    let (key, value) = text.split_once('=')?;
    let key = key.trim();
    let mut chars = key.chars();
    let first_ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic());
    if !first_ok || !chars.all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    let value = value.trim();
    (!value.is_empty()).then_some((key, value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_values_and_pairs() {
        let ini = Ini::parse(
            "top = ignored\r\n[server]\nport_a\n  port_b  \n# note\n\n[port_a]\nport = 5005\r\nip=0.0.0.0 # any\nadmin = 127.0.0.1\nadmin = ::1\n[Server]\nx\n[server]\nport_c\n",
        );
        assert_eq!(ini.sections[0].pairs[0].0, "top");
        let server = ini.section("server").unwrap();
        let names: Vec<_> = server.values.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(names, ["port_a", "port_b", "port_c"]);
        assert_eq!(server.values[1].number, 4);
        assert_eq!(server.opened_at, 2);
        // Names are case-sensitive.
        assert_eq!(ini.section("Server").unwrap().values[0].text, "x");
        let port = ini.section("port_a").unwrap();
        assert_eq!(port.get("port").unwrap().text, "5005");
        assert_eq!(port.get("ip").unwrap().text, "0.0.0.0");
        assert_eq!(port.get("ip").unwrap().number, 9);
        // The last of a key wins.
        assert_eq!(port.get("admin").unwrap().text, "::1");
        assert!(ini.section("port_b").is_none());
    }

    #[test]
    fn comments_escapes_and_raw_lines() {
        let ini = Ini::parse(
            "[voting]\nreference_fee = 200   # drops\npassword = a\\#b\n[network_id]\n0 # main\n",
        );
        let voting = ini.section("voting").unwrap();
        assert_eq!(voting.get("reference_fee").unwrap().text, "200");
        assert_eq!(voting.get("password").unwrap().text, "a#b");
        // Single-value sections keep the trailing comment, as xrpld reads them.
        assert_eq!(ini.section("network_id").unwrap().raw[0].text, "0 # main");
        assert_eq!(ini.section("network_id").unwrap().values[0].text, "0");
    }

    #[test]
    fn lines_that_are_not_pairs_are_values() {
        let ini = Ini::parse("[s]\nkey =\n1key = v\n{ \"command\": \"ping\" }\na=b=c\n[unclosed\n");
        let s = ini.section("s").unwrap();
        let values: Vec<_> = s.values.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(
            values,
            [
                "key =",
                "1key = v",
                "{ \"command\": \"ping\" }",
                "[unclosed"
            ]
        );
        assert_eq!(s.get("a").unwrap().text, "b=c");
    }
}
