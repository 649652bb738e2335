//! The files every nginx installation ships next to `nginx.conf`, which a
//! repository that copies only its own configuration into an image does
//! not hold: an `include` of one that is not in the scanned tree is not a
//! missing file.

/// nginx's own `conf/` folder, installed into the configuration prefix by
/// `auto/install` (nginx/nginx `conf/`: `fastcgi.conf`, `fastcgi_params`,
/// `koi-utf`, `koi-win`, `mime.types`, `scgi_params`, `uwsgi_params`,
/// `win-utf`; `nginx.conf` itself is the main file, not an include), and
/// what Debian's and Ubuntu's `nginx-common` package adds under
/// `/etc/nginx` (`proxy_params`, `snippets/fastcgi-php.conf`,
/// `snippets/snakeoil.conf`; `dpkg -c nginx-common_1.22.1-9`).
pub const SHIPPED: &[&str] = &[
    "fastcgi.conf",
    "fastcgi_params",
    "koi-utf",
    "koi-win",
    "mime.types",
    "scgi_params",
    "uwsgi_params",
    "win-utf",
    "proxy_params",
    "snippets/fastcgi-php.conf",
    "snippets/snakeoil.conf",
];

/// Whether an `include` path names a file an nginx installation ships:
/// the path itself, or its last components (`conf/mime.types`,
/// `/etc/nginx/snippets/fastcgi-php.conf`).
pub fn ships_with_nginx(pattern: &str) -> bool {
    let p = pattern.trim().trim_matches(['"', '\'']);
    SHIPPED
        .iter()
        .any(|s| p == *s || p.strip_suffix(s).is_some_and(|head| head.ends_with('/')))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_files_by_name_or_tail() {
        assert!(ships_with_nginx("mime.types"));
        assert!(ships_with_nginx("conf/mime.types"));
        assert!(ships_with_nginx("snippets/fastcgi-php.conf"));
        assert!(ships_with_nginx("\"fastcgi_params\""));
        assert!(!ships_with_nginx("my-mime.types"));
        assert!(!ships_with_nginx("fastcgi-php.conf"));
        assert!(!ships_with_nginx("conf.d/mime.types.local"));
        assert!(!ships_with_nginx("snippets/my-fastcgi-php.conf"));
    }
}
