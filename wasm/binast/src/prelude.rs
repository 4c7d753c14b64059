//! What std's prelude gives every module, taken from `alloc` so the decode-only build can be `no_std` (lib.rs).
//! Modules that need it `use crate::prelude::*`.

pub use alloc::boxed::Box;
pub use alloc::string::{String, ToString};
pub use alloc::vec::Vec;
pub use alloc::{format, vec};

/// The `f64` method std adds to core's that the decode-only build uses (std's needs a maths library core does not
/// have).
#[cfg(all(target_arch = "wasm32", not(feature = "encoder")))]
pub trait F64Ext {
    /// The part after the point: `self - trunc(self)`.
    fn fract(self) -> f64;
}

#[cfg(all(target_arch = "wasm32", not(feature = "encoder")))]
impl F64Ext for f64 {
    fn fract(self) -> f64 {
        // Below 2^52 the cast truncates exactly; from there on every double is an integer (0.0), and infinities and
        // NaN give NaN, as std's `fract` does.
        if self.abs() < 4_503_599_627_370_496.0 {
            self - self as i64 as f64
        } else if self.is_finite() {
            0.0
        } else {
            f64::NAN
        }
    }
}
