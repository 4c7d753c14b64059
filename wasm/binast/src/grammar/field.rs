//! How each field type that holds no nodes is written, read and defaulted; the grammar macro calls these per field.
//! Fields holding nodes (and function bodies) are in `tree_io.rs`, above the node kinds, so this file does not refer
//! to `Node` and the grammar layer has no import loop: field → (literal, scope) → node → tree_io.

use crate::prelude::*;
#[cfg(feature = "encoder")]
use serde::Deserialize;

use crate::format::reader::Reader;
use crate::format::writer::Writer;
use crate::DecodeError;

/// A value that can appear as a node field.
pub trait Field: Sized {
    /// Appends the value to the tree.
    fn write(&self, w: &mut Writer);
    /// Reads the value back; corrupt input is an error, never a panic.
    fn read(r: &mut Reader) -> Result<Self, DecodeError>;
    /// The value when the parser left the property out; `None` makes it a required property.
    #[cfg_attr(not(feature = "encoder"), allow(dead_code))]
    fn missing() -> Option<Self> {
        None
    }
}

impl<T: Field> Field for Vec<T> {
    fn write(&self, w: &mut Writer) {
        w.length(self.len());
        for item in self {
            item.write(w);
        }
    }
    fn read(r: &mut Reader) -> Result<Self, DecodeError> {
        let count = r.length()?;
        // Each item takes at least one byte, so a corrupt count cannot make us reserve absurd memory.
        let mut items = Vec::with_capacity(count.min(r.remaining_hint()));
        for _ in 0..count {
            items.push(T::read(r)?);
        }
        Ok(items)
    }
    fn missing() -> Option<Self> {
        Some(Vec::new())
    }
}

impl Field for String {
    fn write(&self, w: &mut Writer) {
        w.string(Some(self.as_bytes()));
    }
    fn read(r: &mut Reader) -> Result<Self, DecodeError> {
        let bytes = r
            .string()?
            .ok_or_else(|| DecodeError::BadReference("null where a string is required".into()))?;
        utf8(bytes)
    }
}

impl Field for Option<String> {
    fn write(&self, w: &mut Writer) {
        w.string(self.as_deref().map(str::as_bytes));
    }
    fn read(r: &mut Reader) -> Result<Self, DecodeError> {
        r.string()?.map(utf8).transpose()
    }
    fn missing() -> Option<Self> {
        Some(None)
    }
}

pub(crate) fn utf8(bytes: Vec<u8>) -> Result<String, DecodeError> {
    String::from_utf8(bytes)
        .map_err(|_| DecodeError::BadReference("a name is not valid UTF-8".into()))
}

impl Field for bool {
    fn write(&self, w: &mut Writer) {
        w.flag(u8::from(*self));
    }
    fn read(r: &mut Reader) -> Result<Self, DecodeError> {
        match r.flag()? {
            0 => Ok(false),
            1 => Ok(true),
            other => Err(DecodeError::BadReference(message!("boolean byte ", other))),
        }
    }
    fn missing() -> Option<Self> {
        Some(false)
    }
}

/// A template chunk's source text; `cooked` is not stored because the parser derives it from `raw`.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "encoder", derive(Deserialize))]
pub struct TemplateRaw {
    /// The chunk exactly as written between the backticks / `${` `}`.
    pub raw: String,
}

impl Field for TemplateRaw {
    fn write(&self, w: &mut Writer) {
        self.raw.write(w);
    }
    fn read(r: &mut Reader) -> Result<Self, DecodeError> {
        Ok(TemplateRaw {
            raw: String::read(r)?,
        })
    }
}

/// A property name or node type while deserialising, held inline: there are about as many keys as values in an
/// ESTree, and allocating a `String` for each was a measurable share of encoding time. Names longer than the
/// buffer are never ones we look for, so they compare unequal to everything.
#[cfg(feature = "encoder")]
pub struct KeyName {
    bytes: [u8; 32],
    len: usize,
}

#[cfg(feature = "encoder")]
impl KeyName {
    /// The name, or `""` for names longer than the buffer.
    pub fn as_str(&self) -> &str {
        core::str::from_utf8(&self.bytes[..self.len]).unwrap_or("")
    }
}

#[cfg(feature = "encoder")]
struct KeyVisitor;

#[cfg(feature = "encoder")]
impl serde::de::Visitor<'_> for KeyVisitor {
    type Value = KeyName;
    fn expecting(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
        f.write_str("a property name")
    }
    fn visit_str<E: serde::de::Error>(self, value: &str) -> Result<KeyName, E> {
        let mut key = KeyName {
            bytes: [0; 32],
            len: 0,
        };
        if value.len() <= key.bytes.len() {
            key.bytes[..value.len()].copy_from_slice(value.as_bytes());
            key.len = value.len();
        }
        Ok(key)
    }
}

#[cfg(feature = "encoder")]
impl<'de> Deserialize<'de> for KeyName {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_str(KeyVisitor)
    }
}
