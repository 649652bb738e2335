//! The integration tests that use the libtest harness, as one test binary:
//! one link of the library instead of one per file, a fraction of the
//! disk and of the link time (the tests with their own harness,
//! `rules`, `corpus`, `guarantees` and `screenshot`, stay apart).
//! Run one file's tests with `cargo test --test suite <file>::`.

#[path = "../common/mod.rs"]
mod common;

mod adversarial;
mod audit;
mod audit_cli;
mod audit_summary;
mod cache;
mod cli;
mod csharp_config;
mod csharp_graph;
mod csharp_yarp;
mod deployed_graph;
mod edges;
mod env_protocols;
mod fixes;
mod fixes_prop;
mod format_suites;
mod generated;
mod graph;
mod graph_mesh;
mod guards;
mod incidents;
mod kustomize_memo;
mod layering;
mod link_tree;
mod monorepo;
mod monorepo_smoke;
mod nested_config;
mod one_file;
mod org;
mod outputs;
mod precommit;
mod pretty;
mod registry;
mod robustness;
mod scaffold;
mod server;
mod simulate;
mod spring_graph;
mod stall;
mod stat_index;
mod templates;
mod values;
mod versions;
mod workflow;
