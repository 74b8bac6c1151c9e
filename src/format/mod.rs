//! Input formats: turning bytes into canonical events (JP's vocabulary).
