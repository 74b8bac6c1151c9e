use super::*;
use crate::render::output::lines_to_string;

fn render(text: &str, width: usize) -> String {
    lines_to_string(&markdown_to_lines(text, width, &Theme::dark()))
}

#[test]
fn smoke() {
    assert_eq!(render("hello *world*", 80), "hello world\n");
}
