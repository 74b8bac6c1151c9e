//! SGR parameters as the output checks read them, shared by the tests that
//! bound what overhear writes to a terminal.

/// Whether SGR parameters turn on conceal: a standalone `8`, not the payload
/// of a 38/48/58 colour.
pub fn conceals(params: &str) -> bool {
    let items: Vec<&str> = params.split(';').collect();
    let mut i = 0;
    while i < items.len() {
        match items[i] {
            "38" | "48" | "58" => {
                i += match items.get(i + 1) {
                    Some(&"5") => 3,
                    Some(&"2") => 5,
                    _ => 1,
                };
            }
            "8" => return true,
            _ => i += 1,
        }
    }
    false
}
