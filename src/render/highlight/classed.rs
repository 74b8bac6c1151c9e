//! Code as HTML whose tokens carry syntect's scope classes (`hl-…`), and
//! the stylesheet of a syntax theme for those classes: the HTML export's
//! code blocks, coloured by the page's CSS in the dark and the light scheme
//! without laying the code out twice.
//!
//! The same grammars and the same bound as the terminal's highlighting: a
//! line longer than [`MAX_HIGHLIGHT_LINE_BYTES`], or code longer than
//! [`MAX_CLASSED_BYTES`], is not highlighted (the caller shows it plain), so
//! hostile code costs at most a bounded multiple of its length.

use syntect::html::{ClassStyle, ClassedHTMLGenerator, css_for_theme_with_class_style};
use syntect::util::LinesWithEndings;
use two_face::theme::EmbeddedThemeName;

use super::{MAX_HIGHLIGHT_LINE_BYTES, SYNTAXES, find_syntax, syntax_theme};

/// The classes' prefix: `hl-keyword`, `hl-string`; none of the page's own
/// classes starts with it.
const CLASS_STYLE: ClassStyle = ClassStyle::SpacedPrefixed { prefix: "hl-" };

/// The class of the element that holds highlighted code: the theme's
/// foreground and background.
pub const CODE_CLASS: &str = "hl-code";

/// Code longer than this is shown plain.
pub const MAX_CLASSED_BYTES: usize = 256 * 1024;

/// `code` in the language `lang` (a fence token or a file extension) as
/// HTML spans with scope classes, every character of the code escaped;
/// `None` when the language is unknown or the code is past the bounds.
pub fn classed_html(code: &str, lang: &str) -> Option<String> {
    let syntax = find_syntax(lang)?;
    if code.len() > MAX_CLASSED_BYTES
        || code.lines().any(|line| line.len() > MAX_HIGHLIGHT_LINE_BYTES)
    {
        return None;
    }
    let mut generator = ClassedHTMLGenerator::new_with_class_style(syntax, &SYNTAXES, CLASS_STYLE);
    for line in LinesWithEndings::from(code) {
        generator
            .parse_html_for_line_which_includes_newline(line)
            .ok()?;
    }
    Some(generator.finalize())
}

/// The CSS rules that colour [`classed_html`]'s classes as the syntax theme
/// `name` does (empty if the theme cannot be written as CSS).
pub fn classed_css(name: EmbeddedThemeName) -> String {
    css_for_theme_with_class_style(syntax_theme(name), CLASS_STYLE).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::{classed_css, classed_html};
    use two_face::theme::EmbeddedThemeName;

    #[test]
    fn code_gets_scope_classes_and_stays_escaped() {
        let html = classed_html("fn main() { let a = \"<b>\"; }\n", "rust").unwrap();
        assert!(html.contains("class=\"hl-"), "{html}");
        assert!(html.contains("&lt;b&gt;"), "{html}");
        assert!(!html.contains("<b>"), "{html}");
    }

    #[test]
    fn unknown_languages_and_oversized_lines_are_left_plain() {
        assert_eq!(classed_html("x", "no-such-language"), None);
        let long = format!("let a = \"{}\";\n", "x".repeat(5000));
        assert_eq!(classed_html(&long, "rust"), None);
    }

    #[test]
    fn a_theme_becomes_rules_for_the_classes() {
        let css = classed_css(EmbeddedThemeName::Base16OceanDark);
        assert!(css.contains(".hl-code"), "{css}");
        assert!(css.contains(".hl-keyword") || css.contains(".hl-storage"), "{css}");
    }
}
