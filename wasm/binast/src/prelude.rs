//! What std's prelude gives every module, taken from `alloc` so the decode-only build can be `no_std` (lib.rs).
//! Modules that need it `use crate::prelude::*`.

pub use alloc::boxed::Box;
pub use alloc::string::{String, ToString};
pub use alloc::vec::Vec;
pub use alloc::{format, vec};

/// `f64` methods std adds to core's (they need a maths library core does not have), as the Wasm instructions.
#[cfg(all(target_arch = "wasm32", not(feature = "encoder")))]
pub trait F64Ext {
    /// The part after the point: `self - trunc(self)`.
    fn fract(self) -> f64;
    /// The nearest integer, halves away from zero (as std's `round`).
    fn round(self) -> f64;
}

#[cfg(all(target_arch = "wasm32", not(feature = "encoder")))]
impl F64Ext for f64 {
    fn fract(self) -> f64 {
        self - trunc(self)
    }
    fn round(self) -> f64 {
        let whole = trunc(self);
        if (self - whole).abs() >= 0.5 {
            whole + self.signum()
        } else {
            whole
        }
    }
}

/// `self` without its fraction: from 2^52 on every double is an integer, below it the cast truncates exactly.
#[cfg(all(target_arch = "wasm32", not(feature = "encoder")))]
fn trunc(value: f64) -> f64 {
    if value.abs() < 4_503_599_627_370_496.0 {
        value as i64 as f64
    } else {
        value
    }
}
