//! The call-path graph: services as nodes, calls as edges, the retry layers
//! of each call on its edge. Path rules ([`crate::rules::Check::Graph`])
//! run over it.

use crate::ScannedFile;
use crate::config::Settings;

/// What a graph rule sees.
pub struct GraphCtx<'a> {
    pub files: &'a [ScannedFile],
    pub settings: &'a Settings,
}
