// The bound is a method of the same impl reached through `?`
// (nats-io/nats.rs `Connector::connect`, seventeenth pass): each pass asks
// `self.get_servers()?` for the servers whose reconnect count is still
// under `max_reconnects`, and that method fails once none is left, which
// the `?` carries out of the loop. The loop is bounded by the method, not
// unbounded.
use std::collections::HashMap;
use std::io::{self, Error, ErrorKind};
use std::net::TcpStream;
use std::time::Duration;

pub struct Connector {
    attempts: HashMap<String, usize>,
    max_reconnects: usize,
}

impl Connector {
    fn get_servers(&self) -> io::Result<Vec<String>> {
        let servers: Vec<String> = self
            .attempts
            .iter()
            .filter(|(_, n)| **n < self.max_reconnects)
            .map(|(s, _)| s.clone())
            .collect();
        if servers.is_empty() {
            Err(Error::new(ErrorKind::NotFound, "no servers remaining to connect to"))
        } else {
            Ok(servers)
        }
    }

    pub fn connect(&mut self) -> io::Result<TcpStream> {
        loop {
            let servers = self.get_servers()?;
            for server in &servers {
                *self.attempts.get_mut(server).unwrap() += 1;
                std::thread::sleep(Duration::from_millis(100));
                match TcpStream::connect(server.as_str()) {
                    Ok(s) => return Ok(s),
                    Err(e) => eprintln!("connect to {server} failed: {e}"),
                }
            }
        }
    }
}
