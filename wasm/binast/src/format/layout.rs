//! The container's magic and layouts: the lowest layer's vocabulary, shared by the reader, writer and container.

/// Magic bytes every file starts with.
pub const MAGIC: &[u8] = b"BINJS";

/// Which arrangement of the tree the file uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Format 1: one interleaved tree section, as in the BinaryAST proposal's multipart format.
    Multipart = 1,
    /// Format 2: the tree split into per-kind streams.
    Optimised = 2,
    /// Format 7: one range-coded sequence, every value predicted from its context by adaptive models. (Formats 3
    /// to 6 were its earlier versions: 3 with a slower text model, 4 without the text's match model, 5 coding base64
    /// text as text, 6 with one mixer weight set per context where 7 has one per decision; no decoder reads them any
    /// more.)
    Context = 7,
}

impl Layout {
    /// The layout for a format number, as written after the magic.
    pub fn from_format(format: u32) -> Option<Layout> {
        match format {
            1 => Some(Layout::Multipart),
            2 => Some(Layout::Optimised),
            7 => Some(Layout::Context),
            _ => None,
        }
    }
}
