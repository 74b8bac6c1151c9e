//! Counts written for people: `12,345`, and a noun in the number it takes.

/// `12345` as `12,345` (any unsigned integer type).
pub fn thousands(n: impl std::fmt::Display) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `n` `thing`s, grouped in thousands: `1 line`, `12,345 lines`.
pub fn counted(n: usize, thing: &str) -> String {
    let plural = if n == 1 { "" } else { "s" };
    format!("{} {thing}{plural}", thousands(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_are_separated() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1234), "1,234");
        assert_eq!(thousands(1234567), "1,234,567");
    }

    #[test]
    fn one_thing_is_singular() {
        assert_eq!(counted(1, "line"), "1 line");
        assert_eq!(counted(0, "line"), "0 lines");
        assert_eq!(counted(21_845, "line"), "21,845 lines");
    }
}
