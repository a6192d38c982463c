//! The check that `.amdgpu_metadata` keeps every key: the YAML as a plain
//! tree, compared with the typed metadata re-encoded.

use std::fmt;

/// A YAML document as maps, sequences and scalars (for the key check).
#[derive(Debug)]
pub(super) enum YamlTree {
    Map(Vec<(String, YamlTree)>),
    Seq(Vec<YamlTree>),
    Scalar,
}

impl<'de> serde::Deserialize<'de> for YamlTree {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<YamlTree, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = YamlTree;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("any YAML value")
            }
            fn visit_bool<E>(self, _: bool) -> Result<YamlTree, E> {
                Ok(YamlTree::Scalar)
            }
            fn visit_i64<E>(self, _: i64) -> Result<YamlTree, E> {
                Ok(YamlTree::Scalar)
            }
            fn visit_u64<E>(self, _: u64) -> Result<YamlTree, E> {
                Ok(YamlTree::Scalar)
            }
            fn visit_f64<E>(self, _: f64) -> Result<YamlTree, E> {
                Ok(YamlTree::Scalar)
            }
            fn visit_str<E>(self, _: &str) -> Result<YamlTree, E> {
                Ok(YamlTree::Scalar)
            }
            fn visit_unit<E>(self) -> Result<YamlTree, E> {
                Ok(YamlTree::Scalar)
            }
            fn visit_none<E>(self) -> Result<YamlTree, E> {
                Ok(YamlTree::Scalar)
            }
            fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<YamlTree, D::Error> {
                <YamlTree as serde::Deserialize>::deserialize(d)
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut a: A,
            ) -> Result<YamlTree, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = a.next_element()? {
                    items.push(item);
                }
                Ok(YamlTree::Seq(items))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut a: A,
            ) -> Result<YamlTree, A::Error> {
                let mut items = Vec::new();
                while let Some((k, v)) = a.next_entry::<String, YamlTree>()? {
                    items.push((k, v));
                }
                Ok(YamlTree::Map(items))
            }
        }
        d.deserialize_any(V)
    }
}

/// The first map key of `yaml` that `kept` (the re-encoded metadata) lacks.
pub(super) fn dropped_key(yaml: &YamlTree, kept: &rmpv::Value) -> Option<String> {
    match (yaml, kept) {
        (YamlTree::Map(entries), rmpv::Value::Map(kept)) => entries.iter().find_map(|(k, v)| {
            match kept.iter().find(|(kk, _)| kk.as_str() == Some(k)) {
                Some((_, kv)) => dropped_key(v, kv),
                None => Some(k.clone()),
            }
        }),
        (YamlTree::Seq(items), rmpv::Value::Array(kept)) => items
            .iter()
            .zip(kept)
            .find_map(|(v, kv)| dropped_key(v, kv)),
        _ => None,
    }
}
