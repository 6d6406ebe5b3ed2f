//! Shared helpers of the workspace-level tests: locating and reading the data files
//! that the oracle scripts under `tools/oracles/` dump from the real frameworks.

use serde::Deserialize;
use std::path::PathBuf;

/// The workspace root.
pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `tests/data/<rel>`.
pub fn data_path(rel: &str) -> PathBuf {
    workspace_root().join("tests").join("data").join(rel)
}

/// What one framework really did, as dumped by `tools/oracles/promotion/*`.
#[derive(Debug, Deserialize)]
pub struct PromotionData {
    /// The framework.
    pub framework: String,
    /// The exact package version that produced the data.
    pub version: String,
    /// Every dtype the framework accepts, promo names.
    pub dtypes: Vec<String>,
    /// Cases grouped by options and operation.
    pub groups: Vec<PromotionGroup>,
}

/// Cases that share options and an operation.
#[derive(Debug, Deserialize)]
pub struct PromotionGroup {
    /// Option values, the framework's own keys.
    pub options: serde_json::Map<String, serde_json::Value>,
    /// The operation's API name.
    pub op: String,
    /// `[lhs, rhs, result-or-null, optional error text]`.
    pub cases: Vec<Vec<serde_json::Value>>,
}

impl PromotionGroup {
    /// The options as `KEY=VALUE` settings.
    pub fn settings(&self) -> Vec<String> {
        self.options
            .iter()
            .map(|(k, v)| match v {
                serde_json::Value::String(s) => format!("{k}={s}"),
                other => format!("{k}={other}"),
            })
            .collect()
    }
}

/// Reads `tests/data/promotion/<name>.json`.
pub fn promotion_data(name: &str) -> PromotionData {
    let path = data_path(&format!("promotion/{name}.json"));
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("bad data in {}: {e}", path.display()))
}
