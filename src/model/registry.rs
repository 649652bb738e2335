//! The registry of systems, made by `build.rs` from the folders of
//! `src/systems/`: each folder `src/systems/<folder>/` declared in
//! `src/systems/mod.rs` (`pub mod <folder>;`) is a system or a family, and
//! each `// system: <Variant>` line in its `mod.rs`, above a
//! `pub static <NAME>: SystemSpec`, is one [`System`](super::System)
//! variant with that spec (text after ` - ` is the variant's doc).
//!
//! The list is handed to a callback macro, which makes of it:
//! - the `System` enum (`crate::model`),
//! - the exhaustive `System::spec` match (`crate::systems`),
//! - the YAML/JSON document readers, from each folder's `DOC_READERS`
//!   (`crate::systems::read`).
//!
//! Adding a system is one folder (`scripts/new-system.sh`) and its one
//! line `pub mod <folder>;` in `src/systems/mod.rs`, as a rule is its doc
//! and its `pub mod` line. A library named by its name
//! (`System::RustCrate`, `System::PythonLib`) is not a variant of the list:
//! it carries its name, and its folder's `crate_spec` / `lib_spec` gives
//! its words (the folder is still listed).

include!(concat!(env!("OUT_DIR"), "/systems.rs"));

pub(crate) use for_each_system;
