use super::*;
use crate::tui::testdoc::TestDoc;

pub(crate) fn app(doc: TestDoc) -> App<TestDoc> {
    let mut app = App::new(
        doc,
        ViewerOptions {
            clock: Clock::Utc,
            opened_at: std::time::UNIX_EPOCH,
            ..ViewerOptions::default()
        },
    );
    app.resize(60, 20);
    app
}

#[test]
fn opens_at_the_end_following() {
    let app = app(TestDoc::turns(30));
    assert!(app.follow);
    assert!(app.top.block >= app.doc.len() - 5);
    assert_eq!(app.cursor, 18);
}
