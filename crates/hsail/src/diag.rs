//! Diagnostics for HSAIL text: a message with the file, line, column and
//! byte range it is about, rendered rustc style with `annotate-snippets`:
//!
//! ```text
//! kernel.hsail:3:5: error: unknown instruction
//!   |
//! 3 |     foo_u32 $s1, $s2;
//!   |     ^^^^^^^
//! ```

use std::fmt;

use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};

use crate::lexer::LineIndex;

/// One error about HSAIL source text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// What is wrong, e.g. `unknown instruction`.
    pub message: String,
    /// Byte range in the source the message is about.
    pub span: std::ops::Range<usize>,
    /// File name as given to the assembler.
    pub file: String,
    /// 1-based line of `span.start`.
    pub line: u32,
    /// 1-based column (in bytes) of `span.start`.
    pub col: u32,
    /// The source line that holds `span.start` (for rendering).
    pub source_line: String,
}

impl Diagnostic {
    /// Build a diagnostic for `span` of `source`.
    pub fn new(
        message: impl Into<String>,
        span: std::ops::Range<usize>,
        file: &str,
        source: &str,
        index: &LineIndex,
    ) -> Self {
        let start = span.start.min(source.len()) as u32;
        let (line, col) = index.line_col(start);
        let (ls, le) = index.line_range(line, source.len() as u32);
        let source_line = source
            .get(ls as usize..le as usize)
            .unwrap_or("")
            .trim_end_matches('\r')
            .to_string();
        Diagnostic {
            message: message.into(),
            span,
            file: file.to_string(),
            line,
            col,
            source_line,
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{}:{}:{}: error: {}",
            self.file, self.line, self.col, self.message
        )?;
        let line_len = self.source_line.len();
        let start = (self.col as usize - 1).min(line_len);
        let len = self.span.end.saturating_sub(self.span.start).max(1);
        let end = (start + len).min(line_len).max(start);
        let snippet = Snippet::source(self.source_line.as_str())
            .line_start(self.line as usize)
            .annotation(AnnotationKind::Primary.span(start..end));
        let group = Group::with_level(Level::ERROR).element(snippet);
        let rendered = Renderer::plain().render(&[group]);
        write!(f, "{}", rendered.trim_end_matches('\n'))
    }
}

impl std::error::Error for Diagnostic {}

/// All diagnostics of one run, in source order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    /// Are there no diagnostics?
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    /// Number of diagnostics.
    pub fn len(&self) -> usize {
        self.0.len()
    }
    /// Iterate over the diagnostics.
    pub fn iter(&self) -> std::slice::Iter<'_, Diagnostic> {
        self.0.iter()
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

impl<'a> IntoIterator for &'a Diagnostics {
    type Item = &'a Diagnostic;
    type IntoIter = std::slice::Iter<'a, Diagnostic>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}
