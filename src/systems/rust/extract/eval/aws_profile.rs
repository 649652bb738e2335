//! The profile an aws-config loader chain names (`.profile_name("dev")`).

use crate::source::Span;

/// Bytes of a loader's chain read for `.profile_name(..)`.
const MAX_CHAIN: usize = 4096;

/// The profile a loader's chain names, `aws_config::defaults(v)
/// .profile_name("dev").load()` (the statement after the load call that
/// ends at `from`): its name, written as a string literal, and span.
/// `ConfigLoader::profile_name` overrides `AWS_PROFILE`, which overrides
/// `default` (smithy-rs `aws/rust-runtime/aws-config/src/lib.rs`,
/// `ConfigLoader::profile_name`: "Profile name is selected from an
/// ordered list of sources: 1. This override. 2. The value of the
/// `AWS_PROFILE` environment variable. 3. `default`").
pub(super) fn profile_name(src: &str, from: usize) -> Option<(String, Span)> {
    let rest = src.get(from..)?;
    let end = rest
        .char_indices()
        .take_while(|(i, _)| *i < MAX_CHAIN)
        .find(|(_, c)| *c == ';')
        .map_or(rest.len().min(MAX_CHAIN), |(i, _)| i);
    let chain = rest.get(..end)?;
    let at = chain.find(".profile_name(")? + ".profile_name(".len();
    let arg = chain.get(at..)?;
    let lead = arg.len() - arg.trim_start().len();
    let body = arg.trim_start().strip_prefix('"')?;
    let close = body.find(['"', '\\'])?;
    if !body[close..].starts_with('"') || close == 0 {
        return None;
    }
    let start = from + at + lead;
    Some((
        body[..close].to_string(),
        Span::new(start, start + close + 2),
    ))
}

#[cfg(test)]
mod profile_tests {
    use super::profile_name;

    #[test]
    fn the_loader_chain_names_a_profile() {
        let src = "let c = aws_config::defaults(V)\n    .profile_name(\"dev\")\n    .load().await; x.profile_name(\"other\");";
        let from = src.find("(V)").unwrap() + 3;
        let (name, at) = profile_name(src, from).unwrap();
        assert_eq!(name, "dev");
        assert_eq!(&src[at.start..at.end], "\"dev\"");
        // Not past the statement, not a name from a variable.
        let src = "let c = aws_config::from_env().load().await; b.profile_name(\"x\");";
        assert_eq!(profile_name(src, src.find("()").unwrap() + 2), None);
        let src = "aws_config::from_env().profile_name(name).load().await;";
        assert_eq!(profile_name(src, src.find("()").unwrap() + 2), None);
    }
}
