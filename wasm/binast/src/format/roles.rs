//! Where each value goes in the optimised layout. Every value is written to a stream chosen by what it is and the
//! field it fills (`kind:callee`, `flag:computed`, `length:arguments`, `string:property`, ...), so each stream
//! holds values with one distribution and a general-purpose compressor models each well. Strings also get one
//! table per role (variable names, property names, literals, operators/enums, scope annotations), so common
//! entries of each get small indices.

use crate::prelude::*;

/// String roles, in table order.
pub const STRING_ROLES: [&str; 5] = ["enum", "identifier", "property", "literal", "scope"];

/// The string role of a value in `field`, for a node that sits in its parent's field `role`.
pub fn string_role(field: &str, role: &str) -> usize {
    match field {
        "operator" | "kind" | "source_type" => 0,
        "name" if matches!(role, "property" | "key" | "meta" | "imported" | "exported") => 2,
        "name" => 1,
        "scope" => 4,
        _ => 3,
    }
}

/// The stream name for a category, interface and key, as written in the `[STREAMS]` directory
/// (`kind:CallExpression.callee`, `string:identifier`).
pub fn stream_name(category: &str, node: &str, key: &str) -> String {
    if node.is_empty() {
        format!("{category}:{key}")
    } else {
        format!("{category}:{node}.{key}")
    }
}

/// Splits a directory name back into (category, interface, key).
pub fn split_stream_name(name: &str) -> Option<(&str, &str, &str)> {
    let (category, rest) = name.split_once(':')?;
    Some(match rest.split_once('.') {
        Some((node, key)) => (category, node, key),
        None => (category, "", rest),
    })
}
