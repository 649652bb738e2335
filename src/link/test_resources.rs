//! Calls named by a unit's test configuration
//! (`src/test/resources/application.yml`) are its tests' calls, not the
//! service's: dropped after extraction, the file's settings still read
//! (piomin/sample-spring-microservices-new's gateway test routes were the
//! gateway's edges).

use super::*;

pub fn test_resources(files: &mut [ScannedFile]) {
    for f in files.iter_mut() {
        if (f.facts.edges.is_empty() && f.facts.unresolved.is_empty())
            || f.syntax.is_some_and(crate::model::Syntax::is_source)
            || !crate::extract::test_code::is_test_resource(&f.source.display_path())
        {
            continue;
        }
        f.facts.edges.clear();
        f.facts.unresolved.clear();
    }
}
