// A wait for a server this file started: `start` spawns the database with
// its socket in a directory of this host and keeps a client configuration
// whose host is that directory (`Config::host_path`, a Unix-domain
// socket); the loop, a method of the server's type, connects through the
// field until the child process listens, under a time cap. No remote
// service is retried (neondatabase/neon `wal_craft`'s `PostgresServer`).
use std::path::Path;
use std::process::Child;
use std::time::{Duration, Instant};

pub struct LocalServer {
    process: Child,
    client_config: postgres::Config,
}

impl LocalServer {
    pub fn start(socket_dir: &Path) -> anyhow::Result<LocalServer> {
        let process = std::process::Command::new("postgres")
            .arg("-k")
            .arg(socket_dir)
            .spawn()?;
        Ok(LocalServer {
            process,
            client_config: {
                let mut c = postgres::Config::new();
                c.host_path(socket_dir);
                c.user("postgres");
                c.connect_timeout(Duration::from_secs(10));
                c
            },
        })
    }

    pub fn connect_with_timeout(&self) -> anyhow::Result<postgres::Client> {
        let until = Instant::now() + Duration::from_secs(10);
        while Instant::now() < until {
            if let Ok(client) = self.client_config.connect(postgres::NoTls) {
                return Ok(client);
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        anyhow::bail!("connection timed out")
    }
}
