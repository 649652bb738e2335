//! The words of an identifier or configuration key, for readers that judge
//! a name by what it says (`HostSettings__SwaggerRedirectUri` is `host
//! settings swagger redirect uri`, `issueURL` is `issue url`).

/// The lower-case words of `name`, split at every character that is not a
/// letter or digit (`_`, `-`, `.`, `:`) and where a capital follows a
/// lower-case letter or digit. A run of capitals stays one word (`URL`,
/// `helpURL` is `help url`).
pub fn name_words(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if !c.is_ascii_alphanumeric() {
            if !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            prev_lower = false;
            continue;
        }
        if c.is_ascii_uppercase() && prev_lower && !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
        prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        word.push(c.to_ascii_lowercase());
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::name_words;

    #[test]
    fn splits_at_separators_and_capitals() {
        assert_eq!(
            name_words("HostSettings__SwaggerRedirectUri"),
            ["host", "settings", "swagger", "redirect", "uri"]
        );
        assert_eq!(
            name_words("GF_SERVER_ROOT_URL"),
            ["gf", "server", "root", "url"]
        );
        assert_eq!(name_words("helpURL"), ["help", "url"]);
        assert_eq!(
            name_words("app.cors.allowed-origins"),
            ["app", "cors", "allowed", "origins"]
        );
        assert_eq!(name_words("v2Url"), ["v2", "url"]);
        assert!(name_words("__").is_empty());
    }
}
