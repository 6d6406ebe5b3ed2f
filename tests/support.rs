//! Shared helpers of the workspace-level tests: locating and reading the data files.
