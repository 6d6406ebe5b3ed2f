//! `serde` for [`DType`] (feature `serde`): a dtype is its canonical name, and any
//! spelling [`DType`]'s `FromStr` accepts reads back.

use crate::dtype::DType;
use serde::de::{Error, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

impl Serialize for DType {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for DType {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Name;
        impl Visitor<'_> for Name {
            type Value = DType;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a dtype name such as \"f32\" or \"bfloat16\"")
            }
            fn visit_str<E: Error>(self, name: &str) -> Result<DType, E> {
                name.parse().map_err(E::custom)
            }
        }
        deserializer.deserialize_str(Name)
    }
}
