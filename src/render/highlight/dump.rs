//! Reading two-face's syntax and theme dumps in a fraction of the instructions bincode takes,
//! and only the parts of the syntax dump a use reads.
//!
//! The dumps are bincode 1 (fixed-width little-endian integers, `u64` lengths), read by
//! syntect through `bincode::deserialize_from` over an `io::Read`, which costs ~19
//! instructions per byte of each grammar's packed contexts (a `Vec<u8>` read element by
//! element, each through `read_exact`): 18 M instructions, ~4 ms, in every process that
//! highlights anything. This module reads the same bytes from a slice (11 instructions a
//! byte), with `SyntaxSet`'s own `Deserialize`, so it builds exactly what syntect would; the
//! themes keep each theme's packed bytes borrowed from the dump (two-face's `LazyThemeSet`
//! copies all of them) and decode one when it is first used, as two-face does.
//! `dump_tests.rs` writes the sets back with syntect's own writer and compares them byte for
//! byte with the dumps, and the dumps with what two-face itself loads.
//!
//! A `Vec<u8>` is still read a byte at a time by serde, so the bytes not handed to it are the
//! ones that cost nothing: a syntax set can be read holding only some parts of each grammar
//! ([`Holding`]; the sets each use reads are in `sets.rs`). A part not held is stepped over in
//! the dump and serde is handed its empty value (an empty string, list or map, `None`, no
//! packed contexts).
//!
//! Only what the two dumps hold is read: integers, `bool`, strings, options, sequences,
//! tuples, maps and structs. Anything else (`char`, floats, enums, self-describing
//! `deserialize_any`) is an error, as is a dump that ends early.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Visitor};
use syntect::highlighting::Theme;
use syntect::parsing::SyntaxSet;

/// two-face's syntax set for Oniguruma and lines with their endings, as
/// `two_face::syntax::extra_newlines` reads it (`dump_tests.rs` checks the copy is current).
const SYNTAXES: &[u8] = include_bytes!("dumps/syntaxes-onig-newlines.bin");

/// two-face's themes, as `two_face::theme::extra` reads them.
const THEMES: &[u8] = include_bytes!("dumps/themes.bin");

/// two-face's syntax set (`two_face::syntax::extra_newlines()`) read from its dump here,
/// holding of each grammar what `holding` says.
pub(super) fn syntax_set(holding: Holding) -> SyntaxSet {
    read(SYNTAXES, holding).expect("two-face's syntax dump reads (dump_tests.rs)")
}

/// What a syntax set read from the dump holds of each grammar. Every set holds all the
/// grammars, in the dump's order, so a grammar has the same index, and each of its contexts
/// the same `ContextId`, in every set.
#[derive(Clone, Copy, Debug)]
pub(super) enum Holding {
    /// Everything, as two-face's own set (what the theme dump and the tests read).
    Everything,
    /// Each grammar's name, file extensions, scope, first-line match and `hidden`: what
    /// finding a grammar reads. No packed contexts, no variables.
    Metadata,
    /// The metadata and the packed contexts of the grammars at these indexes (ascending);
    /// the others are placeholders (empty name and scope, no extensions, no contexts).
    /// No variables: syntect reads them only when it links grammars, which a set read
    /// from a dump never does.
    Reach(&'static [u16]),
}

/// two-face's themes as its `LazyThemeSet` holds them (the same dump, the same
/// fields): each theme's packed bytes by name, here borrowed from the dump instead of
/// copied, and decoded on the first use of that theme with syntect's
/// `dumps::from_binary`, as two-face decodes it.
#[derive(Deserialize)]
pub(super) struct Themes {
    #[serde(borrow)]
    themes: BTreeMap<&'static str, PackedTheme>,
}

/// One theme of [`Themes`]: syntect's compressed dump of it.
#[derive(Deserialize)]
struct PackedTheme {
    serialized: &'static [u8],
    #[serde(skip)]
    decoded: OnceLock<Theme>,
}

impl Themes {
    /// The theme `name` (two-face's name for it), decoded on its first use.
    pub(super) fn get(&self, name: &str) -> Option<&Theme> {
        let packed = self.themes.get(name)?;
        Some(
            packed
                .decoded
                .get_or_init(|| syntect::dumps::from_binary(packed.serialized)),
        )
    }
}

/// two-face's themes: what `two_face::theme::extra()` reads, from its dump here, each
/// theme decoded on its first use.
pub(super) fn theme_set() -> Themes {
    from_slice(THEMES).expect("two-face's theme dump reads (dump_tests.rs)")
}

/// A dump that could not be read: cut short, a bad `bool` or `Option` tag, text that is not
/// UTF-8, or a type the dumps do not hold.
#[derive(Debug, thiserror::Error)]
#[error("syntax dump: {0}")]
pub(super) struct DumpError(String);

impl de::Error for DumpError {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        DumpError(msg.to_string())
    }
}

/// `T` read from `bytes`, a bincode 1 dump as `syntect::dumps::dump_to_uncompressed_file`
/// writes it (trailing bytes are allowed, as syntect allows them).
pub(super) fn from_slice<'de, T: Deserialize<'de>>(bytes: &'de [u8]) -> Result<T, DumpError> {
    read(bytes, Holding::Everything)
}

/// `T` read from `bytes` as [`from_slice`] reads it, each grammar of a syntax set held as
/// `holding` says.
fn read<'de, T: Deserialize<'de>>(bytes: &'de [u8], holding: Holding) -> Result<T, DumpError> {
    T::deserialize(&mut Reader {
        rest: bytes,
        holding,
        grammar: 0,
    })
}

/// The bytes not yet read, and how much of the grammars met to hold.
#[derive(Clone, Copy)]
struct Reader<'de> {
    rest: &'de [u8],
    holding: Holding,
    /// The index of the next grammar in the dump.
    grammar: usize,
}

impl<'de> Reader<'de> {
    /// The next `N` bytes.
    #[inline]
    fn take<const N: usize>(&mut self) -> Result<[u8; N], DumpError> {
        let Some((head, rest)) = self.rest.split_first_chunk::<N>() else {
            return Err(DumpError("cut short".to_owned()));
        };
        self.rest = rest;
        Ok(*head)
    }

    /// A `u64` length, as a `usize` no longer than the bytes left could hold (each element
    /// of a dump takes at least one byte), so a corrupt length cannot ask for a huge
    /// allocation.
    fn len(&mut self) -> Result<usize, DumpError> {
        let len = u64::from_le_bytes(self.take()?);
        match usize::try_from(len) {
            Ok(len) if len <= self.rest.len() => Ok(len),
            _ => Err(DumpError(format!(
                "a length of {len} with {} bytes left",
                self.rest.len()
            ))),
        }
    }

    /// The next `len` bytes.
    fn bytes(&mut self, len: usize) -> Result<&'de [u8], DumpError> {
        let Some((head, rest)) = self.rest.split_at_checked(len) else {
            return Err(DumpError("cut short".to_owned()));
        };
        self.rest = rest;
        Ok(head)
    }

    /// A length-prefixed UTF-8 string.
    fn str(&mut self) -> Result<&'de str, DumpError> {
        let len = self.len()?;
        std::str::from_utf8(self.bytes(len)?).map_err(|err| DumpError(err.to_string()))
    }
}

/// `count` elements read one after another: a sequence, a tuple, a struct's fields, or a
/// map's keys and values. It reads from its own copy of the position, given back to the
/// [`Reader`] when the elements are done ([`Reader::elements`]): a copy that does not escape
/// stays in registers, which halves the instructions of a packed `Vec<u8>` read byte by byte.
struct Elements<'de> {
    reader: Reader<'de>,
    count: usize,
}

impl<'de> de::SeqAccess<'de> for Elements<'de> {
    type Error = DumpError;

    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, DumpError> {
        if self.count == 0 {
            return Ok(None);
        }
        self.count -= 1;
        seed.deserialize(&mut self.reader).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.count)
    }
}

impl<'de> de::MapAccess<'de> for Elements<'de> {
    type Error = DumpError;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, DumpError> {
        if self.count == 0 {
            return Ok(None);
        }
        self.count -= 1;
        seed.deserialize(&mut self.reader).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, DumpError> {
        seed.deserialize(&mut self.reader)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.count)
    }
}

impl<'de> Reader<'de> {
    /// What `read` makes of the next `count` elements; the position moves past them.
    #[inline]
    fn elements<T>(
        &mut self,
        count: usize,
        read: impl FnOnce(&mut Elements<'de>) -> Result<T, DumpError>,
    ) -> Result<T, DumpError> {
        let mut elements = Elements {
            reader: *self,
            count,
        };
        let value = read(&mut elements)?;
        *self = elements.reader;
        Ok(value)
    }
}

/// A fixed-width little-endian integer read by `deserialize_<type>`.
macro_rules! integer {
    ($($method:ident: $type:ty => $visit:ident),* $(,)?) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DumpError> {
            visitor.$visit(<$type>::from_le_bytes(self.take()?))
        }
    )*};
}

/// Types no dump holds.
macro_rules! not_in_a_dump {
    ($($method:ident),* $(,)?) => {$(
        fn $method<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, DumpError> {
            Err(DumpError(concat!("no dump holds what ", stringify!($method), " reads").to_owned()))
        }
    )*};
}

impl<'de> de::Deserializer<'de> for &mut Reader<'de> {
    type Error = DumpError;

    integer! {
        deserialize_u8: u8 => visit_u8,
        deserialize_u16: u16 => visit_u16,
        deserialize_u32: u32 => visit_u32,
        deserialize_u64: u64 => visit_u64,
        deserialize_i8: i8 => visit_i8,
        deserialize_i16: i16 => visit_i16,
        deserialize_i32: i32 => visit_i32,
        deserialize_i64: i64 => visit_i64,
    }

    not_in_a_dump! {
        deserialize_any, deserialize_f32, deserialize_f64, deserialize_char, deserialize_unit,
        deserialize_identifier, deserialize_ignored_any,
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DumpError> {
        match self.take::<1>()? {
            [0] => visitor.visit_bool(false),
            [1] => visitor.visit_bool(true),
            [tag] => Err(DumpError(format!("{tag} is not a bool"))),
        }
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DumpError> {
        visitor.visit_borrowed_str(self.str()?)
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DumpError> {
        visitor.visit_string(self.str()?.to_owned())
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DumpError> {
        let len = self.len()?;
        visitor.visit_borrowed_bytes(self.bytes(len)?)
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DumpError> {
        let len = self.len()?;
        visitor.visit_byte_buf(self.bytes(len)?.to_vec())
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DumpError> {
        match self.take::<1>()? {
            [0] => visitor.visit_none(),
            [1] => visitor.visit_some(self),
            [tag] => Err(DumpError(format!("{tag} is not an Option tag"))),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, DumpError> {
        visitor.visit_unit()
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, DumpError> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DumpError> {
        let count = self.len()?;
        self.elements(count, |elements| visitor.visit_seq(elements))
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        count: usize,
        visitor: V,
    ) -> Result<V::Value, DumpError> {
        self.elements(count, |elements| visitor.visit_seq(elements))
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        count: usize,
        visitor: V,
    ) -> Result<V::Value, DumpError> {
        self.deserialize_tuple(count, visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DumpError> {
        let count = self.len()?;
        self.elements(count, |elements| visitor.visit_map(elements))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DumpError> {
        if name == "SyntaxReference" && !matches!(self.holding, Holding::Everything) {
            return self.grammar(fields, visitor);
        }
        self.deserialize_tuple(fields.len(), visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        _variants: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, DumpError> {
        Err(DumpError(format!("no dump holds an enum ({name})")))
    }

    fn is_human_readable(&self) -> bool {
        false
    }
}

/// The fields of a syntect grammar (`SyntaxReference`) in the dump's order: how each is
/// written, and when a set holds it.
const GRAMMAR_FIELDS: [(&str, Shape, Held); 7] = [
    ("name", Shape::Str, Held::Metadata),
    ("file_extensions", Shape::Strs, Held::Metadata),
    ("scope", Shape::Str, Held::Metadata),
    ("first_line_match", Shape::OptionStr, Held::Metadata),
    ("hidden", Shape::Bool, Held::Always),
    ("variables", Shape::StrMap, Held::Never),
    ("serialized_lazy_contexts", Shape::Bytes, Held::Contexts),
];

/// How a grammar's field is written in the dump.
#[derive(Clone, Copy)]
enum Shape {
    Str,
    Strs,
    OptionStr,
    Bool,
    StrMap,
    Bytes,
}

/// When a set not holding everything holds a grammar's field.
#[derive(Clone, Copy)]
enum Held {
    Always,
    /// For every grammar with [`Holding::Metadata`], for those in the reach with
    /// [`Holding::Reach`].
    Metadata,
    /// For the grammars in the reach.
    Contexts,
    Never,
}

/// What every field shape reads as when it is not held: eight zero bytes are a zero length
/// (an empty string, list, map or byte vector) and a `None` tag.
const EMPTY: &[u8] = &[0; 8];

impl<'de> Reader<'de> {
    /// The next grammar, holding of it what [`Reader::holding`] says.
    fn grammar<V: Visitor<'de>>(
        &mut self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DumpError> {
        if !fields
            .iter()
            .eq(GRAMMAR_FIELDS.iter().map(|(name, ..)| name))
        {
            return Err(DumpError(format!(
                "syntect's grammar has the fields {fields:?}, not the ones this reader knows"
            )));
        }
        let index = self.grammar;
        self.grammar += 1;
        let in_reach = match self.holding {
            Holding::Everything | Holding::Metadata => false,
            Holding::Reach(reach) => {
                u16::try_from(index).is_ok_and(|i| reach.binary_search(&i).is_ok())
            }
        };
        let metadata = in_reach || matches!(self.holding, Holding::Metadata);
        self.elements(fields.len(), |elements| {
            visitor.visit_seq(GrammarFields {
                elements,
                metadata,
                contexts: in_reach,
            })
        })
    }

    /// Steps over a value written as `shape`.
    fn skip(&mut self, shape: Shape) -> Result<(), DumpError> {
        match shape {
            Shape::Str | Shape::Bytes => {
                let len = self.len()?;
                self.bytes(len)?;
            }
            Shape::Strs => {
                for _ in 0..self.len()? {
                    self.skip(Shape::Str)?;
                }
            }
            Shape::OptionStr => {
                if self.take::<1>()? != [0] {
                    self.skip(Shape::Str)?;
                }
            }
            Shape::Bool => {
                self.take::<1>()?;
            }
            Shape::StrMap => {
                for _ in 0..self.len()? {
                    self.skip(Shape::Str)?;
                    self.skip(Shape::Str)?;
                }
            }
        }
        Ok(())
    }
}

/// The fields of one grammar, each read or, when not held, stepped over and handed to serde
/// empty.
struct GrammarFields<'a, 'de> {
    elements: &'a mut Elements<'de>,
    /// Whether the metadata fields are held.
    metadata: bool,
    /// Whether the packed contexts are held.
    contexts: bool,
}

impl<'de> de::SeqAccess<'de> for GrammarFields<'_, 'de> {
    type Error = DumpError;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, DumpError> {
        let Some(&(_, shape, held)) =
            GRAMMAR_FIELDS.get(GRAMMAR_FIELDS.len() - self.elements.count)
        else {
            return Ok(None);
        };
        let holds = match held {
            Held::Always => true,
            Held::Metadata => self.metadata,
            Held::Contexts => self.contexts,
            Held::Never => false,
        };
        if holds {
            return self.elements.next_element_seed(seed);
        }
        self.elements.count -= 1;
        self.elements.reader.skip(shape)?;
        let mut empty = Reader {
            rest: EMPTY,
            holding: Holding::Everything,
            grammar: 0,
        };
        seed.deserialize(&mut empty).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.elements.count)
    }
}

#[cfg(test)]
#[path = "dump_tests.rs"]
mod tests;
