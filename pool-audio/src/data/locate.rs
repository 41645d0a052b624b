//! Where a value is in a bank's text, by its path (`sounds.laser.max_voices`),
//! and which value holds a position: a small reader of RON's shape (structs,
//! tuples, maps, lists, strings, comments), enough to point an error at the
//! line and column of the value it is about. The values themselves are read
//! by `ron`; this reader only finds them.

use std::fmt;

/// One step of a path: a field or map key, or a list or tuple position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Seg {
    /// A struct field, or a map key (a string key without its quotes).
    Key(String),
    /// A list or tuple position, from 0.
    Index(usize),
}

/// A value's path from the top of the file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Path(pub(crate) Vec<Seg>);

impl Path {
    /// This path with `key` after it.
    pub(crate) fn key(&self, key: &str) -> Self {
        let mut path = self.clone();
        path.0.push(Seg::Key(key.to_string()));
        path
    }

    /// This path with position `index` after it.
    pub(crate) fn index(&self, index: usize) -> Self {
        let mut path = self.clone();
        path.0.push(Seg::Index(index));
        path
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, seg) in self.0.iter().enumerate() {
            match seg {
                Seg::Key(key) if i == 0 => f.write_str(key)?,
                Seg::Key(key) if key.chars().all(|c| c.is_alphanumeric() || c == '_') => {
                    write!(f, ".{key}")?;
                }
                Seg::Key(key) => write!(f, "[{key:?}]")?,
                Seg::Index(index) => write!(f, "[{index}]")?,
            }
        }
        Ok(())
    }
}

/// Every value of a text with its path and its byte span (end excluded).
pub(crate) struct Values {
    list: Vec<(Path, usize, usize)>,
}

impl Values {
    /// The values of `text`, as far as its shape can be read.
    pub(crate) fn of(text: &str) -> Self {
        let mut reader = Reader {
            text: text.as_bytes(),
            at: 0,
            list: Vec::new(),
        };
        reader.value(&Path::default(), 0);
        Self { list: reader.list }
    }

    /// The byte span of the value at `path`.
    pub(crate) fn span(&self, path: &Path) -> Option<(usize, usize)> {
        self.list
            .iter()
            .find(|(p, _, _)| p == path)
            .map(|&(_, start, end)| (start, end))
    }

    /// The path of the innermost value that holds byte `at`.
    pub(crate) fn path_at(&self, at: usize) -> Path {
        self.list
            .iter()
            .filter(|(_, start, end)| *start <= at && (at < *end || at == *start))
            .max_by_key(|(path, _, _)| path.0.len())
            .map(|(path, _, _)| path.clone())
            .unwrap_or_default()
    }
}

/// The deepest a reader goes: deeper text is not pointed into.
const MAX_DEPTH: usize = 64;

struct Reader<'t> {
    text: &'t [u8],
    at: usize,
    list: Vec<(Path, usize, usize)>,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    /// Skips white space, comments and `#![...]` attributes.
    fn skip(&mut self) {
        loop {
            match (self.peek(), self.text.get(self.at + 1)) {
                (Some(c), _) if c.is_ascii_whitespace() => self.at += 1,
                (Some(b'/'), Some(b'/')) => {
                    while self.peek().is_some_and(|c| c != b'\n') {
                        self.at += 1;
                    }
                }
                (Some(b'/'), Some(b'*')) => self.block_comment(),
                (Some(b'#'), Some(b'!')) => {
                    while self.peek().is_some_and(|c| c != b']') {
                        self.at += 1;
                    }
                    self.at += 1;
                }
                _ => return,
            }
        }
    }

    /// Skips a (nested) block comment.
    fn block_comment(&mut self) {
        let mut depth = 0;
        while self.at < self.text.len() {
            if self.text[self.at..].starts_with(b"/*") {
                depth += 1;
                self.at += 2;
            } else if self.text[self.at..].starts_with(b"*/") {
                depth -= 1;
                self.at += 2;
                if depth == 0 {
                    return;
                }
            } else {
                self.at += 1;
            }
        }
    }

    /// Reads a value at `path`, recording it; returns its text if it is a
    /// string or a bare word (a map key's name).
    fn value(&mut self, path: &Path, depth: usize) -> Option<String> {
        self.skip();
        let start = self.at;
        let word = match self.peek()? {
            b'"' => Some(self.string()),
            b'r' if matches!(self.text.get(self.at + 1), Some(b'"' | b'#')) => {
                Some(self.raw_string())
            }
            b'(' | b'[' | b'{' => {
                self.group(path, depth);
                None
            }
            _ => {
                let word = self.word();
                let end = self.at;
                self.skip();
                if self.peek() != Some(b'(') {
                    self.list.push((path.clone(), start, end));
                    return Some(word);
                }
                // A named struct, a variant or `Some(..)`: its contents are
                // inside its path (`Some(x)`'s `x` at `[0]`).
                self.group(path, depth);
                Some(word)
            }
        };
        self.list.push((path.clone(), start, self.at));
        word
    }

    /// A string's contents, unescaped enough to compare with a key.
    fn string(&mut self) -> String {
        self.at += 1;
        let mut out = Vec::new();
        while let Some(c) = self.peek() {
            self.at += 1;
            match c {
                b'"' => break,
                b'\\' => {
                    if let Some(next) = self.peek() {
                        out.push(next);
                        self.at += 1;
                    }
                }
                c => out.push(c),
            }
        }
        String::from_utf8_lossy(&out).into_owned()
    }

    /// A raw string `r#"..."#`'s contents.
    fn raw_string(&mut self) -> String {
        self.at += 1;
        let hashes = self.text[self.at..]
            .iter()
            .take_while(|c| **c == b'#')
            .count();
        self.at += hashes + 1;
        let close: Vec<u8> = std::iter::once(b'"')
            .chain(std::iter::repeat_n(b'#', hashes))
            .collect();
        let start = self.at;
        while self.at < self.text.len() && !self.text[self.at..].starts_with(&close) {
            self.at += 1;
        }
        let out = String::from_utf8_lossy(&self.text[start..self.at]).into_owned();
        self.at = (self.at + close.len()).min(self.text.len());
        out
    }

    /// A bare word: a name, a number, `true`, `None`.
    fn word(&mut self) -> String {
        let start = self.at;
        while let Some(c) = self.peek() {
            if c.is_ascii_whitespace() || b"()[]{},:\"/".contains(&c) {
                break;
            }
            self.at += 1;
        }
        if self.at == start {
            // A character no value starts with: step over it.
            self.at += 1;
        }
        String::from_utf8_lossy(&self.text[start..self.at]).into_owned()
    }

    /// The inside of `(..)`, `[..]` or `{..}` at `path`: fields and map
    /// entries by key (`key: value`), other items by position.
    fn group(&mut self, path: &Path, depth: usize) {
        let close = match self.text[self.at] {
            b'(' => b')',
            b'[' => b']',
            _ => b'}',
        };
        self.at += 1;
        let mut index = 0;
        loop {
            self.skip();
            match self.peek() {
                None => return,
                Some(c) if c == close => {
                    self.at += 1;
                    return;
                }
                Some(b')' | b']' | b'}') => return,
                Some(b',') => {
                    self.at += 1;
                    continue;
                }
                Some(_) => {}
            }
            if depth >= MAX_DEPTH {
                self.at += 1;
                continue;
            }
            let before = self.at;
            let item = path.index(index);
            let word = self.value(&item, depth + 1);
            self.skip();
            if self.peek() == Some(b':') {
                // It was a key: the value after it is at the key's path.
                self.at += 1;
                let key = word.unwrap_or_else(|| {
                    String::from_utf8_lossy(&self.text[before..self.at - 1])
                        .trim()
                        .to_string()
                });
                self.list
                    .retain(|(p, start, _)| !(p.0.starts_with(&item.0) && *start >= before));
                let key_end = self.at - 1;
                let at = path.key(&key);
                self.value(&at, depth + 1);
                // The key too, after its value: an unknown field is found
                // there, and a value first.
                self.list.push((at, before, key_end));
            }
            index += 1;
        }
    }
}

/// The 1-based line and column of byte `at` of `text` (columns count
/// characters).
pub(crate) fn line_column(text: &str, at: usize) -> (usize, usize) {
    let at = at.min(text.len());
    let before = &text.as_bytes()[..at];
    let line = before.iter().filter(|c| **c == b'\n').count() + 1;
    let line_start = before
        .iter()
        .rposition(|c| *c == b'\n')
        .map_or(0, |i| i + 1);
    let column = String::from_utf8_lossy(&before[line_start..])
        .chars()
        .count()
        + 1;
    (line, column)
}

/// The byte offset of 1-based `line` and `column` in `text`.
pub(crate) fn offset(text: &str, line: usize, column: usize) -> usize {
    let line_start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    let rest = &text[line_start.min(text.len())..];
    line_start
        + rest
            .char_indices()
            .nth(column.saturating_sub(1))
            .map_or(rest.len(), |(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = r#"// a bank
(
    sounds: {
        "laser": (recordings: ["a.wav", ("b.wav", 2.0)], max_voices: 70),
        /* a comment */ "boom": (group: Some("world")),
    },
)"#;

    fn path(text: &str) -> Path {
        Path(
            text.split('.')
                .map(|s| match s.parse() {
                    Ok(i) => Seg::Index(i),
                    Err(_) => Seg::Key(s.to_string()),
                })
                .collect(),
        )
    }

    fn at(text: &str, path_text: &str) -> Option<String> {
        let values = Values::of(text);
        let (start, end) = values.span(&path(path_text))?;
        Some(text[start..end].to_string())
    }

    #[test]
    fn finds_fields_keys_and_positions() {
        assert_eq!(at(TEXT, "sounds.laser.max_voices").as_deref(), Some("70"));
        assert_eq!(
            at(TEXT, "sounds.laser.recordings.1.1").as_deref(),
            Some("2.0")
        );
        assert_eq!(
            at(TEXT, "sounds.laser.recordings.0").as_deref(),
            Some("\"a.wav\"")
        );
        assert_eq!(
            at(TEXT, "sounds.boom.group").as_deref(),
            Some("Some(\"world\")")
        );
        assert_eq!(at(TEXT, "sounds.nothing"), None);
    }

    #[test]
    fn names_the_value_at_a_position() {
        let values = Values::of(TEXT);
        let at = TEXT.find("70").unwrap();
        assert_eq!(values.path_at(at).to_string(), "sounds.laser.max_voices");
        let at = TEXT.find("2.0").unwrap();
        assert_eq!(
            values.path_at(at).to_string(),
            "sounds.laser.recordings[1][1]"
        );
        let (line, column) = line_column(TEXT, at);
        assert_eq!((line, column), (4, 51));
        assert_eq!(offset(TEXT, line, column), at);
    }

    #[test]
    fn survives_broken_and_deep_text() {
        for text in ["(", "{\"a\": [1, 2", ")))", "r#\"", "/* open", "\"open"] {
            let _ = Values::of(text).path_at(text.len());
        }
        let deep = "[".repeat(10_000);
        assert_eq!(Values::of(&deep).path_at(5_000).0.len(), MAX_DEPTH);
    }
}
