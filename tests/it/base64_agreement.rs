//! JP's base64 rule (jp-format §2: STANDARD, then URL_SAFE, else the raw
//! string) as overhear applies it (SIMD, in place) agrees with the same rule
//! written with the `base64` crate's strict engines, on every short string of
//! an alphabet of edge characters and on mutated encodings of random bytes.

use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD, URL_SAFE};
use overhear::format::jp::decode_base64;

/// The rule, spelled with the `base64` crate.
fn reference(text: &str) -> String {
    for engine in [&STANDARD, &URL_SAFE] {
        if let Ok(bytes) = engine.decode(text)
            && let Ok(decoded) = String::from_utf8(bytes)
        {
            return decoded;
        }
    }
    text.to_string()
}

fn agree(text: &str) {
    assert_eq!(decode_base64(text.to_string()), reference(text), "{text:?}");
}

#[test]
fn every_short_string_of_edge_characters() {
    let alphabet: Vec<char> = "AQgw+/-_=aZz09 \né".chars().collect();
    for len in 1..=4u32 {
        for mut n in 0..alphabet.len().pow(len) {
            let mut text = String::new();
            for _ in 0..len {
                text.push(alphabet[n % alphabet.len()]);
                n /= alphabet.len();
            }
            agree(&text);
        }
    }
}

#[test]
fn mutated_encodings_of_random_bytes() {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let edits = b"AQgw+/-_=aZz09 \n";
    for round in 0..50_000 {
        let len = (next() % 200) as usize;
        // Text half the time (it decodes), random bytes otherwise.
        let bytes: Vec<u8> = if round % 2 == 0 {
            (0..len).map(|_| b'a' + (next() % 26) as u8).collect()
        } else {
            (0..len).map(|_| next() as u8).collect()
        };
        let engine = if next() % 2 == 0 {
            &STANDARD
        } else {
            &URL_SAFE
        };
        let mut text = engine.encode(&bytes).into_bytes();
        for _ in 0..next() % 3 {
            if !text.is_empty() {
                let at = next() as usize % text.len();
                text[at] = edits[next() as usize % edits.len()];
            }
        }
        agree(std::str::from_utf8(&text).unwrap());
    }
}
