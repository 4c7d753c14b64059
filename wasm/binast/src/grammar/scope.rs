//! The scope annotation's data and its encoding: what the encoder's analysis (`scope_analysis.rs`) fills in and
//! what the decoder reads back, one `AssertedScope` per function.

use crate::format::reader::Reader;
use crate::format::writer::Writer;
use crate::grammar::field::Field;
use crate::prelude::*;
use crate::DecodeError;

/// What kind of binding a declared name is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum DeclKind {
    /// `var`
    Var = 0,
    /// `let`
    Let = 1,
    /// `const`
    Const = 2,
    /// function declaration
    Function = 3,
    /// class declaration
    Class = 4,
    /// parameter
    Param = 5,
    /// catch clause parameter
    Catch = 6,
    /// import binding
    Import = 7,
}

impl DeclKind {
    fn from_byte(byte: u8) -> Option<DeclKind> {
        use DeclKind::*;
        [Var, Let, Const, Function, Class, Param, Catch, Import]
            .get(usize::from(byte))
            .copied()
    }
}

/// One declared name.
#[derive(Debug, Clone, PartialEq)]
pub struct Declared {
    /// The name.
    pub name: String,
    /// How it was declared.
    pub kind: DeclKind,
    /// An inner function (or a direct eval) may refer to it.
    pub captured: bool,
}

/// The scope annotation of a function or program (BinaryAST's asserted scopes, one per function).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AssertedScope {
    /// Declared names in first-declaration order.
    pub declared: Vec<Declared>,
    /// Parameter names in order (names inside destructuring patterns included).
    pub params: Vec<String>,
    /// The function calls `eval(...)` directly.
    pub has_direct_eval: bool,
    /// An inner arrow function uses `this`.
    pub this_captured: bool,
    /// A named function expression refers to its own name.
    pub name_captured: bool,
}

#[cfg(feature = "encoder")]
impl<'de> serde::Deserialize<'de> for AssertedScope {
    /// Scopes are computed, never taken from the parser: whatever is there is ignored.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        serde::de::IgnoredAny::deserialize(deserializer)?;
        Ok(AssertedScope::default())
    }
}

impl Field for AssertedScope {
    /// Parameter names are not written: the decoder reads them from the parameter patterns that follow
    /// ([`restore_params`]). Parameters lead the declared list (they are declared first), so only their captured
    /// flags are written, then the other declared names in full.
    fn write(&self, w: &mut Writer) {
        if !w.carries_scopes() {
            return;
        }
        let param_count = self
            .declared
            .iter()
            .take_while(|d| d.kind == DeclKind::Param)
            .count();
        w.length(param_count);
        for d in &self.declared[..param_count] {
            d.captured.write(w);
        }
        w.length(self.declared.len() - param_count);
        for d in &self.declared[param_count..] {
            d.name.write(w);
            w.flag(d.kind as u8);
            d.captured.write(w);
        }
        self.has_direct_eval.write(w);
        self.this_captured.write(w);
        self.name_captured.write(w);
    }
    fn read(r: &mut Reader) -> Result<Self, DecodeError> {
        if !r.carries_scopes() {
            return Ok(AssertedScope::default());
        }
        let param_count = r.length()?;
        let mut declared = Vec::with_capacity(param_count.min(r.remaining_hint()));
        for _ in 0..param_count {
            // Named by `restore_params` once the parameters are read.
            declared.push(Declared {
                name: String::new(),
                kind: DeclKind::Param,
                captured: bool::read(r)?,
            });
        }
        let count = r.length()?;
        for _ in 0..count.min(r.remaining_hint()) {
            let name = String::read(r)?;
            let byte = r.flag()?;
            let kind = DeclKind::from_byte(byte)
                .ok_or_else(|| DecodeError::BadReference(message!("kind ", byte)))?;
            if kind == DeclKind::Param {
                return Err(DecodeError::BadReference(
                    "parameter outside the parameter list".into(),
                ));
            }
            declared.push(Declared {
                name,
                kind,
                captured: bool::read(r)?,
            });
        }
        if declared.len() != param_count + count {
            return Err(DecodeError::BadLength(message!(count, " declared names")));
        }
        Ok(AssertedScope {
            declared,
            params: Vec::new(),
            has_direct_eval: bool::read(r)?,
            this_captured: bool::read(r)?,
            name_captured: bool::read(r)?,
        })
    }
    fn missing() -> Option<Self> {
        Some(AssertedScope::default())
    }
}
